"""A single battle as an engine (``fuyuki war battle``, rule cases).

Side A's pairs sit at seats 0, 1, ...; side B's follow. The dice are given by a factory so the
game can be cloned by replaying its submissions.
"""

from __future__ import annotations

from typing import Any, Callable

from fuyuki.core.events import Event, visible
from fuyuki.core.protocol import Decision
from fuyuki.rpg.battle import Battle, BattleOutcome, Side, snipe_allowed
from fuyuki.rpg.flow import Flow
from fuyuki.rpg.roster import Pair
from fuyuki.rpg.rules import Rules
from fuyuki.rpg.state import PairState
from fuyuki.core.errors import IllegalAction


def resolve_lineup(text: str | None, pairs: list[PairState]) -> str | None:
    """``"servant|master"`` (the first pair's), ``"master|servant"``, ``"-|servant"``, or ids."""
    if text is None:
        return None
    ids = {"servant": pairs[0].servant.id, "master": pairs[0].master.id, "-": "-"}
    for n, p in enumerate(pairs, 1):
        ids[f"servant{n}"] = p.servant.id
        ids[f"master{n}"] = p.master.id
        ids[p.servant.name] = p.servant.id
        ids[p.master.name] = p.master.id
    parts = text.split("|")
    if len(parts) != 2:
        raise IllegalAction("bad_lineup", f"lineup {text!r}: write 'main|sub'")
    return "|".join(ids.get(x.strip(), x.strip()) for x in parts)


class BattleGame:
    def __init__(self, rules: Rules, side_pairs: tuple[list[Pair], list[Pair]],
                 dice_factory: Callable[[], Any], *, attacker: int | None = None,
                 surprise: bool = False, snipe: bool = False,
                 lineups: tuple[str | None, str | None] = (None, None),
                 setup: Callable[[list[PairState]], None] | None = None, label: str = "b1"):
        self.args = (rules, side_pairs, dice_factory)
        self.kw = dict(attacker=attacker, surprise=surprise, snipe=snipe, lineups=lineups,
                       setup=setup, label=label)
        self.rules = rules
        self.dice = dice_factory()
        self.events: list[Event] = []
        seat = 0
        sides = []
        self.states: list[PairState] = []
        for pairs in side_pairs:
            states = []
            for p in pairs:
                ps = PairState.new(p, seat, rules)
                seat += 1
                states.append(ps)
            self.states += states
            sides.append(Side(states))
        if setup:
            setup(self.states)
        self.sides = (sides[0], sides[1])
        if snipe:
            if attacker is None:
                raise IllegalAction("bad_snipe", "sniping needs an attacker")
            ok = any(snipe_allowed(c, self.sides[1 - attacker])[0]
                     for c, _ in self.sides[attacker].characters() if c.servant)
            if not ok:
                raise IllegalAction("bad_snipe", "sniping needs 千里眼 of a higher rank than "
                                    "every concealment skill on the target side")
        lu = (resolve_lineup(lineups[0], sides[0].pairs), resolve_lineup(lineups[1], sides[1].pairs))
        self.battle = Battle(rules, self.dice, self.events.append, self.sides, label=label,
                             attacker=attacker, surprise=surprise, snipe=snipe, lineups=lu)
        self.flow = Flow(self.battle.run())
        self.submissions: list[tuple[int, Any]] = []

    @property
    def over(self) -> bool:
        return self.flow.over

    @property
    def result(self) -> BattleOutcome | None:
        return self.flow.value

    def pending(self) -> dict[int, Decision]:
        return self.flow.pending()

    def submit(self, seat: int, choice: Any) -> None:
        option = self.flow.submit(seat, choice)
        self.submissions.append((seat, option))

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything in a battle is public (the GM publishes every number)."""
        return {"events": [e.to_json() for e in visible(self.events, seat)],
                "pairs": [ps.sheet() for ps in self.states],
                "pending": {s: d.to_json() for s, d in self.pending().items()
                            if seat is None or s == seat}}

    def clone(self) -> "BattleGame":
        other = BattleGame(*self.args, **self.kw)
        for seat, choice in self.submissions:
            other.submit(seat, choice)
        return other
