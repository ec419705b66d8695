"""Sealed bids — a fourth game in one file, the proof that the engine contract is enough.

2 to 4 seats. Each seat is dealt a hidden hand from the cards 1..20. Each round a prize (1..hand
size, shuffled) is turned up; every seat bids one card of its hand at once, sealed; the bids are
revealed together and the highest bid nobody matched takes the prize (a tie at the top: the
prize is lost). The bid cards are spent. When the hands are empty the most prize points wins.
Registered as ``sealed-bid`` when imported (``contract.register``).
"""

from __future__ import annotations

import random
from typing import Any

from fuyuki.core import contract
from fuyuki.core.contract import EventLog, no_role
from fuyuki.core.data import Table
from fuyuki.core.errors import IllegalAction
from fuyuki.core.events import Event
from fuyuki.core.outcome import outcome
from fuyuki.core.protocol import Decision, check_choice
from fuyuki.core.record import Record

GAME = "sealed-bid"


class SealedBid(EventLog):
    def __init__(self, seed: int, config: dict[str, Any], source: str = "config") -> None:
        cfg = Table(config, source, "config")
        cfg.check_keys(["players", "hand"])
        self.n = cfg.int("players", 3, lo=2, hi=4)
        size = cfg.int("hand", 5, lo=1, hi=5)
        self.seed, self.config = seed, dict(config)
        r = random.Random(f"{GAME}/{seed}")
        deck = r.sample(range(1, 21), self.n * size)
        self.hands = [sorted(deck[i * size:(i + 1) * size]) for i in range(self.n)]
        self.prizes = r.sample(range(1, size + 1), size)
        self.score = [0] * self.n
        self.bids: dict[int, int] = {}
        self.round = 0
        self.events: list[Event] = []
        self.submissions: list[tuple[int, Any]] = []
        self.result: dict[str, Any] | None = None
        for seat in range(self.n):
            self.events.append(Event("dealt", {"seat": seat, "hand": list(self.hands[seat])}, (seat,)))
        self._next_round()

    # -- the contract ---------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def record(self) -> Record:
        return Record(GAME, self.seed, dict(self.config), list(self.submissions))

    def roles(self) -> list[int | None]:
        return [*range(self.n), None]

    def seats(self) -> list[int]:
        return list(range(self.n))

    def pending(self) -> dict[int, Decision]:
        if self.over:
            return {}
        return {s: Decision("bid", tuple(self.hands[s]), {"prize": self.prizes[self.round - 1]})
                for s in range(self.n) if s not in self.bids}

    def submit(self, seat: Any, choice: Any) -> None:
        decision = self.pending().get(seat) if type(seat) is int else None
        if decision is None:
            raise IllegalAction("not_your_turn", f"seat {seat!r} has no decision now", seat=seat)
        card = check_choice(decision, choice)
        self.submissions.append((seat, card))
        self.bids[seat] = card
        self.events.append(Event("bid", {"seat": seat, "card": card}, (seat,)))
        if len(self.bids) == self.n:
            self._reveal()

    def view(self, role: Any) -> dict[str, Any]:
        if role is not None and (type(role) is not int or not 0 <= role < self.n):
            raise no_role(role)
        out: dict[str, Any] = {
            "game": GAME, "seat": role, "round": self.round, "rounds": len(self.prizes),
            "prize": self.prizes[self.round - 1] if not self.over else None,
            "score": list(self.score), "hand_sizes": [len(h) for h in self.hands],
            "locked": sorted(self.bids), "over": self.over, "result": self.result}
        if role is not None:
            out["hand"] = list(self.hands[role])
            out["bid"] = self.bids.get(role)
        return out

    # -- the rules --------------------------------------------------------------------------
    def _next_round(self) -> None:
        self.round += 1
        self.bids = {}
        self.events.append(Event("prize", {"round": self.round, "prize": self.prizes[self.round - 1]}))

    def _reveal(self) -> None:
        bids = dict(self.bids)
        for seat, card in bids.items():
            self.hands[seat].remove(card)
        top = max(bids.values())
        takers = [s for s, c in bids.items() if c == top]
        winner = takers[0] if len(takers) == 1 else None
        prize = self.prizes[self.round - 1]
        if winner is not None:
            self.score[winner] += prize
        self.events.append(Event("reveal", {"bids": [bids[s] for s in range(self.n)],
                                            "winner": winner, "prize": prize}))
        if self.round < len(self.prizes):
            self._next_round()
            return
        best = max(self.score)
        places = sorted(set(self.score), reverse=True)
        ranking = [[s for s in range(self.n) if self.score[s] == v] for v in places]
        winners = ranking[0] if best > 0 else []
        if not winners:
            ranking = [list(range(self.n))]
        self.result = outcome(winners, "points" if winners else "no_points", ranking,
                              self.round, score=list(self.score))
        self.events.append(Event("game_over", {"winners": winners, "score": list(self.score)}))
        self.bids = {}


def start(seed: int, config: dict[str, Any], source: str) -> SealedBid:
    return SealedBid(seed, config, source)


contract.register(GAME, start)
