"""The changing state of a pair during a war (or a single battle): mana, 令呪, items."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fuyuki.rpg.roster import Character, Pair
from fuyuki.rpg.rules import Rules


@dataclass
class PairState:
    pair: Pair
    seat: int
    mana: int
    seals: int
    items: dict[str, int] = field(default_factory=dict)
    alive: bool = True
    out_reason: str | None = None
    allies: set[str] = field(default_factory=set)
    known: set[str] = field(default_factory=set)
    wins: int = 0
    losses: int = 0
    rested: bool = False
    charges: int = 0               # re-rolls left from a used talisman

    @classmethod
    def new(cls, pair: Pair, seat: int, rules: Rules) -> "PairState":
        mana = pair.max_mana(rules) if pair.mana is None else pair.mana
        return cls(pair, seat, mana, pair.seals, {k: n for k, n in pair.items if n})

    @property
    def id(self) -> str:
        return self.pair.id

    @property
    def servant(self) -> Character:
        return self.pair.servant

    @property
    def master(self) -> Character:
        return self.pair.master

    @property
    def label(self) -> str:
        """How the pair is named in text: its servant's name (names stay in Japanese)."""
        return self.pair.servant.name

    def max_mana(self, rules: Rules) -> int:
        return self.pair.max_mana(rules)

    def gain(self, amount: int, rules: Rules) -> int:
        """Add mana, stopping at the maximum (a gain never lowers mana above it). Returns the
        amount actually gained."""
        cap = self.max_mana(rules)
        before = self.mana
        if amount >= 0:
            self.mana = max(self.mana, min(cap, self.mana + amount))
        else:
            self.mana += amount
        return self.mana - before

    def item_count(self, item_id: str) -> int:
        return self.items.get(item_id, 0)

    def use_item(self, item_id: str, n: int = 1) -> None:
        left = self.items.get(item_id, 0) - n
        if left < 0:
            raise ValueError(f"{self.id} has no {item_id}")
        if left:
            self.items[item_id] = left
        else:
            self.items.pop(item_id, None)

    def add_item(self, item_id: str, n: int = 1) -> None:
        self.items[item_id] = self.items.get(item_id, 0) + n

    def sheet(self) -> dict[str, Any]:
        """The full sheet (what 情報収集 reveals, and what the pair itself sees)."""
        def char(c: Character) -> dict[str, Any]:
            return {"name": c.name, "class": c.cls, "lv": c.lv, "stats": dict(c.stats),
                    "abilities": [{"name": a.name, "rank": a.rank, "cost": a.cost, "np": a.np,
                                   "effects": [[e.kind, e.value] for e in a.effects]}
                                  for a in c.abilities]}
        return {"id": self.id, "faction": self.pair.faction, "servant": char(self.servant),
                "master": char(self.master), "mana": self.mana, "seals": self.seals,
                "items": dict(self.items)}
