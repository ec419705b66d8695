"""The server's metrics, served by ``GET /metrics`` in the Prometheus text format.

One :class:`Metrics` per app, with a registry of its own (never the library's global one), so
several apps in one process (the tests) count apart. What changes on every move is counted
where it happens, by a one-line call into this module that adds to an existing counter or
histogram (the labelled children are made once and kept: a move allocates nothing here). What
is a state — tables by status, open connections, refusals so far — is read from the manager
only when the metrics are scraped, so it costs nothing between scrapes.

No label carries a table code, a name or anything a client sent: the labels are the game, the
bot level, the table status, the connection role, the refusal kind and the logger name, each a
small fixed set.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from time import perf_counter
from typing import TYPE_CHECKING, Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

if TYPE_CHECKING:
    from fuyuki.web.table import Table

CONTENT_TYPE = CONTENT_TYPE_LATEST
STATES = ("waiting", "playing", "over")
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
TAKEOVER = "takeover"          # the level label of a bot playing an absent person's seat


class Metrics:
    """The instruments of one app (see the module's docstring and docs/web.md, "Operations")."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.moves = Counter("fuyuki_moves", "Submissions this process applied and stored "
                             "(players, bots, a game master), by game", ["game"], registry=r)
        self.move_latency = Histogram(
            "fuyuki_move_latency_seconds", "From receiving a player's move to its state message "
            "queued for every connection of the table (bots answering at once included)",
            ["game"], buckets=LATENCY_BUCKETS, registry=r)
        self.bot_think = Histogram(
            "fuyuki_bot_think_seconds", "A bot's time to choose one move (a slow bot's: in its "
            "worker process, waiting for the worker included)", ["game", "level"],
            buckets=THINK_BUCKETS, registry=r)
        self.errors = Counter("fuyuki_errors", "Unexpected failures: log records at error level "
                              "or above, by logger", ["logger"], registry=r)
        self._moves: dict[str, Any] = {}
        self._latency: dict[str, Any] = {}
        self._think: dict[str, dict[str, Any]] = {}
        self.error_log = _ErrorCount(self.errors)

    # ------------------------------------------------------------------ the hot path
    def moved(self, game: str) -> None:
        """One submission of ``game`` applied and stored."""
        child = self._moves.get(game)
        if child is None:
            child = self._moves[game] = self.moves.labels(game)
        child.inc()

    def answered(self, game: str, start: float) -> None:
        """A player's move of ``game``, received at ``start`` (``time.perf_counter()``), is
        broadcast."""
        child = self._latency.get(game)
        if child is None:
            child = self._latency[game] = self.move_latency.labels(game)
        child.observe(perf_counter() - start)

    def thought(self, table: Table, seat: int, start: float) -> None:
        """The bot of ``seat`` at ``table``, asked at ``start`` (``time.perf_counter()``), has
        chosen."""
        s = table.seats[seat]
        level = s.level if s.kind == "bot" else TAKEOVER
        per = self._think.get(table.adapter.name)
        if per is None:
            per = self._think[table.adapter.name] = {}
        child = per.get(level)
        if child is None:
            child = per[level] = self.bot_think.labels(table.adapter.name, level)
        child.observe(perf_counter() - start)

    # ------------------------------------------------------------------ states, read on scrape
    def watch(self, tables: Callable[[], Iterable[Table]], refusals: Mapping[str, int]) -> None:
        """Read the tables held (``tables()``) and the refusal counts on every scrape."""
        self.registry.register(_Snapshot(tables, refusals))

    def render(self) -> bytes:
        """The text of ``GET /metrics`` (called on the event loop: the tables do not change
        while it is read)."""
        return generate_latest(self.registry)


class _Snapshot:
    """The collector of what is read on scrape."""

    def __init__(self, tables: Callable[[], Iterable[Table]], refusals: Mapping[str, int]) -> None:
        self.tables, self.refusals = tables, refusals

    def describe(self) -> list:
        return []                  # read on scrape only: nothing to check at registration

    def collect(self):
        by_state = dict.fromkeys(STATES, 0)
        seats = spectators = 0
        for t in self.tables():
            by_state[t.status] = by_state.get(t.status, 0) + 1
            for c in t.conns:
                if not c.closed:
                    if c.seat is None:
                        spectators += 1
                    else:
                        seats += 1
        tables = GaugeMetricFamily("fuyuki_tables", "Tables held in this process, by status",
                                   labels=["state"])
        for state, n in by_state.items():
            tables.add_metric([state], n)
        conns = GaugeMetricFamily("fuyuki_connections", "Open WebSocket connections of the "
                                  "tables, by role (a seat's page or a spectator's)", labels=["role"])
        conns.add_metric(["seat"], seats)
        conns.add_metric(["spectator"], spectators)
        refused = CounterMetricFamily("fuyuki_refusals", "Refused requests and messages, by kind "
                                      "(the kinds of the refusal log lines)", labels=["kind"])
        for kind, n in sorted(self.refusals.items()):
            refused.add_metric([kind], n)
        return [tables, conns, refused]


class _ErrorCount(logging.Handler):
    """Counts the error records of the ``fuyuki`` loggers (every unexpected failure is logged
    at error level, docs/web.md "What the server logs"). Attached while the app runs; loggers
    are the process's, so two apps running at once in one process (tests) both count an error
    of either."""

    def __init__(self, counter: Counter) -> None:
        super().__init__(logging.ERROR)
        self.counter = counter

    def emit(self, record: logging.LogRecord) -> None:
        self.counter.labels(record.name).inc()
