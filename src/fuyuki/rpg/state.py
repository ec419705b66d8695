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
    supply: bool = True            # the master's supply (seed: 「マスター側から供給を切らない限り」)

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
                "items": dict(self.items), "supply": self.supply}


# -- a war that starts later than its beginning ------------------------------------------------

#: the phases of a turn, in order (seed: events, actions, コミュ, the mana check)
PHASES = ("events", "action", "comm", "mana")
OUT_REASONS = ("defeated", "vanished")


@dataclass
class Start:
    """Where a war starts when it does not start at its beginning: at ``phase`` of turn
    ``turn``, with ``battles`` fought so far (None: the least count the pairs' wins and losses
    allow), and each pair's state beyond its roster entry (the roster's pair gives mana, 令呪
    and items). Pair entries: ``out`` ("defeated"/"vanished"), ``wins``, ``losses``,
    ``known``, ``allies`` (pair ids), ``supply``, ``charges``, ``rested``.

    :meth:`apply` refuses every setup the rules cannot reach with a ScenarioError naming
    ``source`` and the key (``where`` maps a pair id and "turn"/"phase"/"battles" to the key
    that holds it in the file)."""

    turn: int = 1
    phase: str = "events"
    battles: int | None = None
    pairs: dict[str, dict[str, Any]] = field(default_factory=dict)
    source: str = "<start>"
    where: dict[str, str] = field(default_factory=dict)

    def key(self, name: str, pid: str | None = None) -> str:
        if pid is None:
            return self.where.get(name, name)
        return f"{self.where.get(pid, 'pair.' + pid)}.{name}"

    def fail(self, key: str, code: str, **params: Any) -> Exception:
        from fuyuki.rpg.text import scenario_error

        return scenario_error(self.source, key, code, **params)

    def apply(self, pairs: list[PairState], rules: Rules, max_turns: int) -> int:
        """Set ``pairs`` to this state; return the battles fought so far."""
        if not 1 <= self.turn <= max_turns:
            raise self.fail(self.key("turn"), "turn_limit", limit=max_turns, turn=self.turn)
        if self.phase not in PHASES:
            raise self.fail(self.key("phase"), "phase", allowed=PHASES, got=repr(self.phase))
        by_id = {p.id: p for p in pairs}
        for pid in self.pairs:
            if pid not in by_id:
                raise self.fail(self.key("id", pid), "no_pair", pid=pid, pairs=sorted(by_id))
        fresh = self.turn == 1 and self.phase == "events"
        for ps in pairs:
            d = self.pairs.get(ps.id, {})
            if fresh:
                for name in ("out", "wins", "losses", "known", "allies", "charges", "supply"):
                    if d.get(name) if name != "supply" else d.get(name, True) is False:
                        raise self.fail(self.key(name, ps.id), "fresh")
            out = d.get("out")
            if out is not None:
                if out not in OUT_REASONS:
                    raise self.fail(self.key("out", ps.id), "out", allowed=OUT_REASONS, got=repr(out))
                ps.alive, ps.out_reason = False, out
            ps.wins, ps.losses = d.get("wins", 0), d.get("losses", 0)
            for name in ("known", "allies"):
                ids = set(d.get(name, ()))
                for other in sorted(ids):
                    if other == ps.id or other not in by_id:
                        raise self.fail(self.key(name, ps.id), "not_other_pair", other=other)
                setattr(ps, name, ids)
            ps.supply = d.get("supply", True)
            ps.charges = d.get("charges", 0)
            most = max(i.value for i in rules.craft[ps.pair.craft_set] if i.kind == "reroll")
            if not 0 <= ps.charges < most:
                raise self.fail(self.key("charges", ps.id), "charges", top=most - 1, most=most)
            ps.rested = d.get("rested", False)
            if ps.rested and self.phase not in ("comm", "mana"):
                raise self.fail(self.key("rested", ps.id), "rested")
            self.check_pair(ps, rules)
        for ps in pairs:
            for other in sorted(ps.allies):
                if ps.id not in by_id[other].allies:
                    raise self.fail(self.key("allies", ps.id), "mutual", other=other, pid=ps.id)
        return self.check_battles(pairs)

    def check_pair(self, ps: PairState, rules: Rules) -> None:
        top = ps.max_mana(rules)
        vanish = rules.mana["vanish_at"]
        if ps.mana > top:
            raise self.fail(self.key("mana", ps.id), "mana_max", mana=ps.mana, top=top)
        if ps.alive and self.phase == "events" and ps.mana <= vanish:
            raise self.fail(self.key("mana", ps.id), "mana_vanishes", vanish=vanish)
        if ps.out_reason == "vanished" and ps.mana > vanish:
            raise self.fail(self.key("mana", ps.id), "vanished_mana", vanish=vanish, mana=ps.mana)
        if ps.out_reason == "defeated" and ps.losses == 0:
            raise self.fail(self.key("losses", ps.id), "defeated")
        own = {i.id for i in rules.craft[ps.pair.craft_set]}
        for item in ps.items:
            if item not in own:
                raise self.fail(self.key(f"items.{item}", ps.id), "item_set",
                                set=ps.pair.craft_set, items=sorted(own))

    def check_battles(self, pairs: list[PairState]) -> int:
        """Every battle gives each pair in it one win or one loss, with at least one winning
        and one losing pair."""
        most = max(pairs, key=lambda p: p.wins + p.losses)
        wins = sum(p.wins for p in pairs)
        losses = sum(p.losses for p in pairs)
        low, high = most.wins + most.losses, min(wins, losses)
        if low > high:
            raise self.fail(self.key("wins", most.id), "battles_room", pid=most.id, low=low,
                            wins=wins, losses=losses, high=high)
        if self.battles is None:
            return low
        if not low <= self.battles <= high:
            raise self.fail(self.key("battles"), "battles", low=low, high=high,
                            battles=self.battles)
        return self.battles
