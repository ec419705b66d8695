"""The game state: plain lists and ints, so that a clone is a handful of list copies.

Every card is an int of the card set's :class:`fuyuki.sbb.cards.CardTable` (0, NO_CARD: no
card — an empty seat, no bid); card ids (strings) are only at the doors."""

from __future__ import annotations

import random
from typing import Any

from mypy_extensions import mypyc_attr

from fuyuki.core.events import Event
from fuyuki.core.protocol import Decision
from fuyuki.core.rng import copy_stream

#: a rule step on the stack: its name, then its arguments (fuyuki.sbb.game)
Op = tuple[Any, ...]

_LISTS = ("gems_on", "gems", "coins", "master", "servant", "m_up", "s_up", "dark",
          "mdeck", "mdisc", "sdeck", "sdisc", "adeck", "adisc", "bids", "stack", "events",
          "lost_master", "lost_servant", "lands")
_SCALARS = ("n", "parent", "round", "pool", "grail", "over", "result", "phase", "luck_cards")


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: picklable, copyable (see _build)
class State:
    """Everything the engine knows. Hidden parts (hands, face-down cards, decks) never leave
    it except through :func:`fuyuki.sbb.view.build_view`."""

    __slots__ = _LISTS + _SCALARS + ("hand", "seen", "rng", "asking", "answers", "cont", "orders")

    def __init__(self, n: int, rng: random.Random) -> None:
        self.n = n
        self.rng = rng
        #: the seats from each seat to the left (shared by clones: never changed)
        self.orders = _orders(n)
        self.parent = 0
        self.round = 0
        self.pool = 0
        self.lands: list[int] = []
        self.gems_on: list[int] = []
        self.gems = [0] * n
        self.coins = [0] * n
        self.master = [0] * n
        self.servant = [0] * n
        self.m_up = [False] * n
        self.s_up = [False] * n
        self.dark = [False] * n
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.seen: list[list[int]] = [[] for _ in range(n)]
        self.mdeck: list[int] = []
        self.mdisc: list[int] = []
        self.sdeck: list[int] = []
        self.sdisc: list[int] = []
        self.adeck: list[int] = []
        self.adisc: list[int] = []
        self.bids = [0] * n
        self.lost_master = [False] * n
        self.lost_servant = [False] * n
        self.stack: list[Op] = []
        self.events: list[Event] = []
        self.asking: dict[int, Decision] = {}
        self.answers: dict[int, Any] = {}
        self.cont: Op = ()
        self.grail = False
        self.over = False
        self.result: dict[str, Any] | None = None
        self.phase = "setup"
        self.luck_cards: tuple[int, ...] = ()

    def clone(self) -> "State":
        c = State.__new__(State)
        for name in _SCALARS:
            setattr(c, name, getattr(self, name))
        for name in _LISTS:
            setattr(c, name, getattr(self, name).copy())
        c.hand = [h.copy() for h in self.hand]
        c.seen = [h.copy() for h in self.seen]
        c.rng = copy_stream(self.rng)
        c.asking = self.asking.copy()
        c.answers = self.answers.copy()
        c.cont = self.cont
        c.orders = self.orders
        return c

    def seats_from(self, first: int) -> tuple[int, ...]:
        """Seats from ``first`` to the left."""
        return self.orders[first]

    def order(self) -> tuple[int, ...]:
        """Seats from the parent to the left."""
        return self.orders[self.parent]


_ORDERS: dict[int, list[tuple[int, ...]]] = {}


def _orders(n: int) -> list[tuple[int, ...]]:
    """For each seat, the seats from it to the left (one list per seat count)."""
    orders = _ORDERS.get(n)
    if orders is None:
        orders = _ORDERS[n] = [tuple((first + i) % n for i in range(n)) for first in range(n)]
    return orders
