"""The pieces of a game in play: characters and camps (plain data)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(eq=False)
class Char:
    id: str
    name: str
    role: str                  # master | servant
    camp: int | None           # seat of the owning camp; None: a はぐれ (stray) servant
    hp: int
    max_hp: int
    at: int
    df: int
    skills: dict[str, int]
    abilities: tuple[str, ...]
    pos: tuple[int, int]
    short: str = ""
    alive: bool = True
    alone: bool = False        # 単独行動 active
    revives: int = 0
    boost_at: int = 0          # ★強化★ until the end of the turn
    boost_df: int = 0

    def skill(self, key: str) -> int:
        return self.skills.get(key, 0)

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "short": self.short or self.name, "role": self.role,
                "camp": self.camp,
                "hp": self.hp, "max_hp": self.max_hp, "at": self.at, "df": self.df,
                "boost_at": self.boost_at, "boost_df": self.boost_df,
                "skills": dict(self.skills), "abilities": list(self.abilities),
                "pos": list(self.pos), "alive": self.alive, "alone": self.alone,
                "stray": self.role == "servant" and self.camp is None,
                "revives": self.revives}


@dataclass(eq=False)
class Camp:
    seat: int
    id: str
    name: dict[str, str]
    master: str
    ch: int
    hand_limit: int
    spells: int
    hand: list[str] = field(default_factory=list)      # card instance ids (secret)
    plotted: list[str] = field(default_factory=list)   # card instance ids (secret)
    territory: dict[str, Any] | None = None             # {"pos": (r, c), "done": bool}
    barrier: dict[str, Any] | None = None               # 結界: {"pos": (r, c), "ability": id}
    out: bool = False

    def public(self) -> dict[str, Any]:
        terr = None
        if self.territory is not None:
            terr = {"pos": list(self.territory["pos"]), "done": self.territory["done"]}
        barrier = None
        if self.barrier is not None:
            barrier = {"pos": list(self.barrier["pos"]), "ability": self.barrier["ability"]}
        return {"seat": self.seat, "id": self.id, "name": self.name, "master": self.master,
                "ch": self.ch, "hand_limit": self.hand_limit, "spells": self.spells,
                "hand_count": len(self.hand), "plotted_count": len(self.plotted),
                "territory": terr, "barrier": barrier, "out": self.out}
