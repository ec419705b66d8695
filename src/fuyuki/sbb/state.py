"""The game state: plain lists and ints, so that a clone is a handful of list copies.

Every card is an int of the card set's :class:`fuyuki.sbb.cards.CardTable` (0, NO_CARD: no
card — an empty seat, no bid); card ids (strings) are only at the doors."""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from fuyuki.core.events import Event, Logged, unlog
from fuyuki.core.protocol import Decision
from fuyuki.core.rng import Rng, copy_stream

#: a rule step on the stack: its name, then its arguments (fuyuki.sbb.game)
Op = tuple[Any, ...]
#: the step at the bottom of every rule stack, never run: the stack's first entry from the
#: state's birth (:func:`fuyuki.sbb.steps.run` stops above it). Kept so that the stack never
#: empties between two steps — CPython frees an emptied list's items and allocates them again
#: at the next push, and reallocates a small one shrinking below half its room
BOTTOM: Final[Op] = ("bottom",)

_LISTS = ("gems_on", "gems", "coins", "master", "servant", "m_up", "s_up", "dark",
          "mdeck", "mdisc", "sdeck", "sdisc", "adeck", "adisc", "bids", "stack", "_log",
          "_events", "lost_master", "lost_servant", "lands")
_SCALARS = ("n", "parent", "round", "pool", "grail", "over", "result", "phase", "luck_cards",
            "extra_land")
_OTHERS = ("hand", "seen", "_rng", "_rng_shared", "asking", "answers", "cont", "orders",
           "unlogged")
#: every attribute of a State (the compiled class has no ``__slots__`` to read)
SLOTS: Final = _LISTS + _SCALARS + _OTHERS


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: picklable, copyable (see _build)
class State:
    """Everything the engine knows. Hidden parts (hands, face-down cards, decks) never leave
    it except through :func:`fuyuki.sbb.view.build_view`."""

    __slots__ = SLOTS

    def __init__(self, n: int, rng: Rng) -> None:
        self.n = n
        self._rng = rng
        #: whether ``_rng`` may be another state's too (a clone's): copied before a draw
        self._rng_shared = False
        #: the seats from each seat to the left (shared by clones: never changed)
        self.orders = _orders(n)
        self.parent = 0
        self.round = 0
        self.pool = 0
        self.lands: list[int] = []
        self.gems_on: list[int] = []
        self.gems = zeros(n)
        self.coins = zeros(n)
        self.master = zeros(n)
        self.servant = zeros(n)
        self.m_up = falses(n)
        self.s_up = falses(n)
        self.dark = falses(n)
        #: each seat's hand: in ascending order as the engine deals it (Game.take_action_card;
        #: a hand put in another way may be in any order)
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.seen: list[list[int]] = [[] for _ in range(n)]
        self.mdeck: list[int] = []
        self.mdisc: list[int] = []
        self.sdeck: list[int] = []
        self.sdisc: list[int] = []
        self.adeck: list[int] = []
        self.adisc: list[int] = []
        self.bids = zeros(n)
        self.lost_master = falses(n)
        self.lost_servant = falses(n)
        self.stack: list[Op] = [BOTTOM]   # the rule stack: BOTTOM, then the steps, next last
        #: the event log as the engine writes it (fuyuki.core.events.Logged tuples); read it
        #: through :attr:`log` or :attr:`events`
        self._log: list[Logged] = []
        #: None, or how to write the log of a game that bots played to its end without it
        #: (fuyuki.sbb.game.Game.play_bots): made by replaying its record when first read
        self.unlogged: tuple[Any, ...] | None = None
        self._events: list[Event] = []   # the log's first entries as Event objects
        self.asking: dict[int, Decision] = {}
        self.answers: dict[int, Any] = {}
        self.cont: Op = ()
        self.grail = False
        self.over = False
        self.result: dict[str, Any] | None = None
        self.phase = "setup"
        self.luck_cards: tuple[int, ...] = ()
        #: the land the parent put this round's extra gem on (NO_CARD until it is placed)
        self.extra_land = 0

    def clone(self) -> "State":
        # attribute by attribute (a getattr/setattr loop over the names is a generic look-up
        # each in the compiled build; tests/sbb/test_state.py checks every slot is copied)
        c = State.__new__(State)
        c.n, c.parent, c.round, c.pool = self.n, self.parent, self.round, self.pool
        c.grail, c.over, c.result, c.phase = self.grail, self.over, self.result, self.phase
        c.luck_cards, c.extra_land = self.luck_cards, self.extra_land
        c.gems_on, c.gems, c.coins = self.gems_on.copy(), self.gems.copy(), self.coins.copy()
        c.master, c.servant = self.master.copy(), self.servant.copy()
        c.m_up, c.s_up, c.dark = self.m_up.copy(), self.s_up.copy(), self.dark.copy()
        c.mdeck, c.mdisc = self.mdeck.copy(), self.mdisc.copy()
        c.sdeck, c.sdisc = self.sdeck.copy(), self.sdisc.copy()
        c.adeck, c.adisc = self.adeck.copy(), self.adisc.copy()
        c.bids, c.stack = self.bids.copy(), self.stack.copy()
        c._log, c._events, c.unlogged = self.log.copy(), self._events.copy(), None
        c.lost_master, c.lost_servant = self.lost_master.copy(), self.lost_servant.copy()
        c.lands = self.lands.copy()
        c.hand = [h.copy() for h in self.hand]
        c.seen = [h.copy() for h in self.seen]
        # the stream is shared until one of the two draws from it (copying a Mersenne
        # Twister's state costs 9/10 of a clone, and most clones never draw)
        c._rng, c._rng_shared = self._rng, True
        self._rng_shared = True
        c.asking = self.asking.copy()
        c.answers = self.answers.copy()
        c.cont = self.cont
        c.orders = self.orders
        return c

    @property
    def rng(self) -> Rng:
        """The state's random stream, its own (a stream shared with a clone is copied at
        the first read, so that a draw in one never moves the other's)."""
        if self._rng_shared:
            self._rng = copy_stream(self._rng)
            self._rng_shared = False
        return self._rng

    @rng.setter
    def rng(self, rng: Rng) -> None:
        self._rng, self._rng_shared = rng, False

    @property
    def log(self) -> list[Logged]:
        """The event log (append through fuyuki.sbb.game.Game.emit/log). A game that bots
        played without it (:attr:`unlogged`) gets it here, at the first read, by replaying its
        record (fuyuki.sbb.game.replayed_log)."""
        if self.unlogged is not None:
            self.fill_log()
        return self._log

    @log.setter
    def log(self, log: list[Logged]) -> None:
        self._log, self.unlogged = log, None

    def fill_log(self) -> None:
        """Write the log of a game played without it (:attr:`unlogged`), if it is not yet."""
        if self.unlogged is not None:
            from fuyuki.sbb.game import replayed_log

            self._log = replayed_log(self.unlogged)
            self.unlogged = None

    @property
    def events(self) -> list[Event]:
        """The event log as :class:`~fuyuki.core.events.Event` objects, made from
        :attr:`log` the first time they are read (a game whose log nobody reads makes none).
        The same objects at every read; append to :attr:`log`, never to this list."""
        made, log = self._events, self.log
        for i in range(len(made), len(log)):
            made.append(unlog(log[i]))
        return made

    @events.setter
    def events(self, events: list[Event]) -> None:
        self._events = list(events)
        self.log = [(e.kind, e.to, None, e.data) for e in events]

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


# a per-seat list is a copy of one of these (cheaper than [0] * n, a generic sequence repeat in
# the compiled build), by seat count
_ZEROS: Final[list[list[int]]] = [[0] * n for n in range(17)]
_FALSES: Final[list[list[bool]]] = [[False] * n for n in range(17)]


def zeros(n: int) -> list[int]:
    """A new list of ``n`` zeros: ``[0] * n``."""
    return _ZEROS[n].copy() if n < len(_ZEROS) else [0] * n


def falses(n: int) -> list[bool]:
    """A new list of ``n`` Falses: ``[False] * n``."""
    return _FALSES[n].copy() if n < len(_FALSES) else [False] * n


def place(out: list[int], v: int) -> int:
    """Where ``v`` goes in the ascending list ``out``: after every item not above it (a native
    loop from the end when compiled)."""
    i = len(out)
    while i > 0 and out[i - 1] > v:
        i -= 1
    return i


def insert_sorted(out: list[int], v: int) -> None:
    """Put ``v`` in its :func:`place` in the ascending list ``out`` (appended when it is the
    largest)."""
    i = place(out, v)
    if i == len(out):
        out.append(v)
    else:
        out.insert(i, v)


def insert_unique(out: list[int], v: int) -> None:
    """Put ``v`` in its :func:`place` in the ascending list ``out`` unless it is there
    already: ``sorted(set(...))`` built an item at a time (a set and a sort cost more for a
    few ints when compiled)."""
    i = place(out, v)
    if i == 0 or out[i - 1] != v:
        out.insert(i, v)
