"""Several server processes on one PostgreSQL database: who runs a table's bots and timers,
and how a process hears what the others stored (docs/web.md, "Several server processes").

- **Order**: the database orders each table's moves (the primary key ``(code, idx)`` of
  ``submissions``); a process that loses a step catches up (:meth:`Table.sync`) and checks
  its player's move again.
- **Fan-out**: every stored change is announced with ``NOTIFY fuyuki, '<code> <kind> <idx>'``;
  one thread per process listens on a connection of its own and hands each notification to
  the event loop, which catches up the tables it holds and tells their pages. When the
  listening connection was lost, every table held is caught up after it is back (nothing
  said meanwhile is lost: the database holds it).
- **Ownership**: one process at a time runs a table's bots and timers — the one holding the
  session-level advisory lock of its code on its "owner" connection. A dead process's locks
  vanish with its connection. Every ``cluster_tick`` seconds a process takes the tables it
  holds with a person's page open that nobody owns, and lets go of those where it has none
  (so the table's bots and timers follow its players). The same connection's backend id
  marks the process's rows of ``presence`` (the seats with a page open on it), which the
  owner reads each tick: a player connected to another process is connected.

The two connections are named ``fuyuki owner PID`` and ``fuyuki listen PID`` (PostgreSQL's
``application_name``): ``pg_locks`` joined with ``pg_stat_activity`` tells which process runs
which table.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from typing import TYPE_CHECKING, Any

from fuyuki.core.errors import IllegalAction
from fuyuki.web.games import LIVE_TIMER
from fuyuki.web.pgstorage import CHANNEL

if TYPE_CHECKING:
    from fuyuki.web.manager import Manager

log = logging.getLogger("fuyuki.web.cluster")



def key(expr: str) -> str:
    """SQL: the advisory lock key (a bigint) of the table code ``expr``."""
    return f"hashtextextended({expr}, 51)"


class Cluster:
    """The cluster machinery of one server process (PostgreSQL storage only)."""

    def __init__(self, manager: Manager) -> None:
        import psycopg          # the PostgreSQL storage's (the ``pg`` extra)

        self._psycopg = psycopg
        self.manager = manager
        self.storage: Any = manager.storage
        self.settings = manager.settings
        self.owned: set[str] = set()
        self._owner: Any = None              # the connection holding the locks
        self.node = 0                        # its backend id: this process in ``presence``
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tick_handle: asyncio.TimerHandle | None = None
        self._dirty: dict[str, list[tuple[str, int]]] = {}
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        self.listening = threading.Event()   # set while the listening connection is up
        self.listen_pid = 0                  # its backend id

    # ------------------------------------------------------------------ life
    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._connect_owner()
        self._listener = threading.Thread(target=self._listen, name="fuyuki-listen", daemon=True)
        self._listener.start()
        self._tick_handle = loop.call_later(self.settings.cluster_tick, self._tick)

    def close(self) -> None:
        self._stop.set()
        if self._tick_handle is not None:
            self._tick_handle.cancel()
        if self._listener is not None:
            self._listener.join(3)
        if self._owner is not None:
            try:
                self._owner.close()              # its locks and presence end with it
            except Exception:  # noqa: BLE001 - closing a dead connection
                log.debug("the owner connection could not be closed", exc_info=True)
        self.owned.clear()

    def _connect_owner(self) -> None:
        psycopg = self._psycopg
        self._owner = psycopg.connect(self.storage.url, autocommit=True,
                                      application_name=f"fuyuki owner {os.getpid()}")
        self.node = self._owner.info.backend_pid
        self.owned.clear()

    def _sql(self, sql: str, params: tuple = ()) -> list[tuple]:
        """A statement on the owner connection; a lost connection is reopened (the locks it
        held are gone: this process owns nothing until its next tick takes them again)."""
        psycopg = self._psycopg
        try:
            cur = self._owner.execute(sql, params)
        except psycopg.OperationalError:
            if not self._owner.closed:
                raise
            log.warning("the owner connection to PostgreSQL was lost; reconnecting")
            lost = list(self.owned)
            self._connect_owner()
            for code in lost:
                t = self.manager.tables.get(code)
                if t is not None:
                    t.owner_changed(False)
            cur = self._owner.execute(sql, params)
            for t in list(self.manager.tables.values()):   # this process's pages, again
                for seat in {c.seat for c in t.conns if c.seat is not None and not c.closed}:
                    t.share_presence(seat)
        return cur.fetchall() if cur.description else []

    # ------------------------------------------------------------------ ownership
    def owns(self, code: str) -> bool:
        return code in self.owned

    def release(self, code: str) -> None:
        """Let go of a table (finished, or let go from memory): another process may take it."""
        if code in self.owned:
            self.owned.discard(code)
            try:
                self._sql(f"SELECT pg_advisory_unlock({key('%s')})", (code,))
            except Exception:  # noqa: BLE001 - the lock ends with the connection anyway
                log.warning("table %s: its lock could not be released", code, exc_info=True)

    def _tick(self) -> None:
        self._tick_handle = None
        try:
            self.claim()
        except Exception:  # noqa: BLE001 - logged; the next tick tries again
            log.exception("the cluster tick failed")
        if not self._stop.is_set() and self._loop is not None:
            self._tick_handle = self._loop.call_later(self.settings.cluster_tick, self._tick)

    def claim(self) -> None:
        """Take the tables held here with a person's page open that nobody owns, let go of
        those with none, and tell the owned ones which seats have a page elsewhere."""
        tables = self.manager.tables
        self._sql("DELETE FROM presence WHERE node NOT IN (SELECT pid FROM pg_stat_activity)")
        for code in [c for c in self.owned if c not in tables or not self._wanted(tables[c])]:
            self.release(code)
            if code in tables:
                tables[code].owner_changed(False)
        wanted = [c for c, t in tables.items() if c not in self.owned and self._wanted(t)]
        if wanted:
            taken = self._sql("SELECT c FROM unnest(%s::text[]) c WHERE "
                              f"pg_try_advisory_lock({key('c')})", (wanted,))
            for (code,) in taken:
                self._took(code)
        # play-by-post tables run with every page closed: any process takes those nobody runs
        for (code,) in self._sql(
                "WITH c AS MATERIALIZED (SELECT code FROM tables WHERE status='playing' AND "
                "(config::jsonb->>'timer')::float > %s AND NOT code = ANY(%s)) "
                f"SELECT code FROM c WHERE pg_try_advisory_lock({key('code')})",
                (LIVE_TIMER, list(self.owned))):
            self._took(code)
        if self.owned:
            rows = self._sql("SELECT code, seat FROM presence WHERE code = ANY(%s) AND node <> %s "
                             "AND pages > 0", (list(self.owned), self.node))
            elsewhere: dict[str, set[int]] = {c: set() for c in self.owned}
            for code, seat in rows:
                elsewhere[code].add(seat)
            for code, seats in elsewhere.items():
                tables[code].seen_elsewhere(seats)

    def try_own(self, code: str) -> bool:
        """Run ``code``'s bots and timers here if nobody does (a person's page just opened
        here, or the game just started: at once rather than at the next tick)."""
        if code not in self.owned and self._owner is not None and \
                self._sql(f"SELECT pg_try_advisory_lock({key('%s')})", (code,))[0][0]:
            self.owned.add(code)
            log.info("table %s: this process runs its bots and timers now", code,
                     extra={"table": code, "event": "owner"})
        return code in self.owned

    def _took(self, code: str) -> None:
        """This process holds ``code``'s lock now: it loads the table (if it was not held
        here), catches up and runs its bots and timers."""
        self.owned.add(code)
        try:
            t = self.manager.get(code)
        except IllegalAction:  # refusal: a broken table (logged by the manager)
            t = None
        if t is None:
            self.release(code)
            return
        log.info("table %s: this process runs its bots and timers now", code,
                 extra={"table": code, "event": "owner"})
        t.sync(refresh=False)
        t.owner_changed(True)

    @staticmethod
    def _wanted(t: Any) -> bool:
        return t.status == "playing" and (t.pbp or t.anyone_seated(here=True))

    def presence(self, code: str, seat: int, pages: int) -> None:
        """``pages`` pages of ``seat`` are open on this process."""
        try:
            self._sql("INSERT INTO presence(code, seat, node, pages) VALUES (%s,%s,%s,%s) "
                      "ON CONFLICT (code, seat, node) DO UPDATE SET pages=EXCLUDED.pages",
                      (code, seat, self.node, pages))
        except Exception:  # noqa: BLE001 - the owner reads it again next tick
            log.warning("table %s: seat %d's presence could not be stored", code, seat,
                        exc_info=True)

    # ------------------------------------------------------------------ fan-out
    def _listen(self) -> None:
        """The listening thread: every notification to the loop; after a reconnection every
        table held is caught up."""
        psycopg = self._psycopg
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.storage.url, autocommit=True,
                                     application_name=f"fuyuki listen {os.getpid()}") as db:
                    db.execute(f"LISTEN {CHANNEL}")
                    self.listen_pid = db.info.backend_pid
                    self.listening.set()
                    if not first:
                        self._to_loop(self._catch_up_all)
                    first = False
                    while not self._stop.is_set():
                        for n in db.notifies(timeout=0.5):
                            self._to_loop(self._notified, n.payload, n.pid)
            except Exception:  # noqa: BLE001 - logged; the connection is made again
                self.listening.clear()
                if not self._stop.is_set():
                    log.warning("the PostgreSQL listening connection was lost; reconnecting",
                                exc_info=True)
                    self._stop.wait(1.0)
        self.listening.clear()

    def _to_loop(self, work, *args) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(work, *args)
            except RuntimeError:       # not an error: the loop closed meanwhile (shutdown)
                log.debug("a notification arrived after the loop closed")

    def _notified(self, payload: str, pid: int) -> None:
        """A notification: gathered per table, handled once per turn of the loop (this
        process's own writes are left out: its tables hold them already)."""
        try:
            code, kind, idx = payload.split(" ")
            if code not in self.manager.tables or pid == self.storage.backend_pid():
                return
            if not self._dirty:
                self._loop.call_soon(self._flush)
            self._dirty.setdefault(code, []).append((kind, int(idx)))
        except Exception:  # noqa: BLE001 - a bad payload: logged, nothing else to do
            log.exception("a bad notification %r", payload)

    def _flush(self) -> None:
        dirty, self._dirty = self._dirty, {}
        for code, notes in dirty.items():
            t = self.manager.tables.get(code)
            if t is None:
                continue
            if not t.conns and code not in self.owned:
                t.behind = True                # nobody here looks: caught up when next used
                continue
            try:
                for kind, idx in notes:
                    if kind == "back":
                        t.back_elsewhere(idx)
                if any(kind != "back" for kind, _ in notes):
                    t.sync()
            except Exception:  # noqa: BLE001 - logged; the next notification tries again
                log.exception("table %s: catching up failed", code)

    def _catch_up_all(self) -> None:
        log.info("catching up %d tables after the listening connection came back",
                 len(self.manager.tables))
        for code in list(self.manager.tables):
            self._dirty.setdefault(code, []).append(("all", 0))
        self._flush()

    def back(self, code: str, seat: int) -> None:
        """A player of ``seat`` acted on this process, which does not run the table's bots:
        the owner stops playing the seat for them."""
        self.storage.notify(code, "back", seat)
