"""The report's counts, kept as games end — in the worker that plays them.

A :class:`Tally` takes one game at a time — its facts (:class:`fuyuki.sim.play.GameFacts`) or
its summary — and keeps only what the report needs: ``[seats, wins]`` by a seat's properties
(master, servant, offset, player, bot, dark_with, reveal round: one count a seat, spread into
the tables of :data:`TABLES` when the report is made), the game lengths, and the counts of
battles, abilities, losses and end reasons. Workers send their chunk's tally (as
:meth:`Tally.state`, plain data) instead of every summary, and the parent merges them in chunk
order. Every count is an integer and every key keeps the place it was first seen in, so the
report is the same whatever the number of workers (one pass over the games, counted where
they are played).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fuyuki.sim.play import GameFacts

#: the report's tables of win rates by a seat's property
TABLES = ("masters", "servants", "pairs", "offsets", "by_player", "by_bot", "dark_with",
          "reveal")
NEVER = 10 ** 6   # the reveal round of a seat never revealed (a number, to sort)


def seat_keys(seat: tuple[Any, ...]) -> tuple[Any, ...]:
    """The key in each table of :data:`TABLES` (None: not counted there) of a seat's
    properties ``(master, servant, offset, player, bot, dark_with, reveal)``."""
    m, s, offset, player, bot, dark_with, reveal = seat
    return (m or None, s or None, f"{m}+{s}", offset, player, bot, dark_with,
            reveal if reveal is not None else NEVER)


class Tally:
    """The counts of the games added so far (see the module's docstring)."""

    def __init__(self) -> None:
        self.games = 0
        self.draws = 0
        #: ``[seats, wins]`` by a seat's properties (see :func:`seat_keys`), in the order first
        #: seen
        self.seats: dict[tuple[Any, ...], list[int]] = {}
        self.rounds: list[int] = []          # each game's length, in game order
        self.reasons: dict[str, int] = {}
        self.battles: dict[int, int] = {}    # games by their number of battles
        self.battle_total = 0
        self.kinds: dict[str, int] = {}
        self.abilities: dict[str, int] = {}
        self.losses: dict[str, dict[str, int]] = {}   # cause → {"servant"/"master": count}

    def add(self, g: dict[str, Any]) -> None:
        """Count one game's summary (:meth:`fuyuki.sim.play.GameFacts.summary`)."""
        self._game(g["draw"], g["rounds"], g["reason"], g["battles"], g["kinds"],
                   g["abilities"])
        seats = self.seats
        for seat in g["seats"]:
            _count(seats, (seat["master"], seat["servant"], seat["offset"], seat["player"],
                           seat["bot"], seat["dark_with"], seat["reveal"]),
                   1, 1 if seat["win"] else 0)
        for label, what, c in g["losses"]:
            _add(self.losses.setdefault(label, {}), what, c)

    def add_facts(self, f: GameFacts) -> None:
        """Count one game from its facts: what :meth:`add` counts of their summary, without
        the summary made (the simulator's workers)."""
        self._game(f.draw, f.rounds, f.reason, f.battles, f.kinds, f.abilities)
        seats = self.seats
        for seat in range(f.n):
            _count(seats, f.seat(seat), 1, 1 if f.won(seat) else 0)
        for (label, what), c in f.losses:
            _add(self.losses.setdefault(label, {}), what, c)

    def _game(self, draw: bool, rounds: int, reason: str, battles: int, kinds: dict[str, int],
              abilities: dict[str, int]) -> None:
        """Count a game's length, end and events (:meth:`add` and :meth:`add_facts`)."""
        self.games += 1
        if draw:
            self.draws += 1
        self.rounds.append(rounds)
        _add(self.reasons, reason, 1)
        self.battle_total += battles
        _add(self.battles, battles, 1)
        for kind, c in kinds.items():
            _add(self.kinds, kind, c)
        for event, c in abilities.items():
            _add(self.abilities, event, c)

    def merge(self, other: Tally) -> None:
        """Add the counts of ``other`` (games played after this tally's games)."""
        self.games += other.games
        self.draws += other.draws
        for k, (seats, wins) in other.seats.items():
            _count(self.seats, k, seats, wins)
        self.rounds.extend(other.rounds)
        self.battle_total += other.battle_total
        for counts, more in ((self.reasons, other.reasons), (self.kinds, other.kinds),
                             (self.abilities, other.abilities)):
            for key, c in more.items():
                _add(counts, key, c)
        for b, c in other.battles.items():
            _add(self.battles, b, c)
        for label, by_what in other.losses.items():
            mine_l = self.losses.setdefault(label, {})
            for what, c in by_what.items():
                _add(mine_l, what, c)

    def tables(self) -> list[dict[Any, list[int]]]:
        """For each table of :data:`TABLES`, ``[seats, wins]`` by key (keys in the order
        first seen)."""
        tables: list[dict[Any, list[int]]] = [{} for _ in TABLES]
        for seat, (seats, wins) in self.seats.items():
            keys = seat_keys(seat)
            for i in range(len(TABLES)):
                k = keys[i]
                if k is not None:
                    _count(tables[i], k, seats, wins)
        return tables

    def state(self) -> tuple[Any, ...]:
        """The counts as plain data (what a worker sends back: picklable, no class)."""
        return (self.games, self.draws, self.seats, self.rounds, self.reasons, self.battles,
                self.battle_total, self.kinds, self.abilities, self.losses)

    @staticmethod
    def of_state(state: tuple[Any, ...]) -> Tally:
        """The tally whose :meth:`state` is ``state``."""
        t = Tally()
        (t.games, t.draws, t.seats, t.rounds, t.reasons, t.battles, t.battle_total, t.kinds,
         t.abilities, t.losses) = state
        return t

    @staticmethod
    def of(games: list[dict[str, Any]]) -> Tally:
        """The tally of ``games`` (summaries, in order)."""
        t = Tally()
        for g in games:
            t.add(g)
        return t


def _count(table: dict[Any, list[int]], key: Any, seats: int, wins: int) -> None:
    c = table.get(key)
    if c is None:
        table[key] = [seats, wins]
    else:
        c[0] = c[0] + seats   # (not +=: a generic in-place add on a boxed int when compiled)
        c[1] = c[1] + wins


def _add(counts: dict[Any, int], key: Any, c: int) -> None:
    counts[key] = counts.get(key, 0) + c
