"""Where tables live between restarts: a small storage interface and its SQLite (WAL) door.

A table is stored event-sourced: its seed, its configuration, its seats (names, kinds and the
*hash* of each seat token — never the token itself) and the ordered submissions. Replaying the
submissions on a new game of the same seed and rules rebuilds it exactly, so after a restart
every unfinished game resumes where it was. Nothing else of a game is stored.

Another backend (PostgreSQL, see docs/web.md) implements :class:`Storage` with the same three
tables; the server never touches SQL itself.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fuyuki.core.errors import FuyukiError


@dataclass
class SeatRow:
    seat: int
    kind: str                  # "human" | "bot"
    name: str = ""             # "" while a human seat is open
    token_hash: str = ""       # sha256 of the seat token ("" for bots and open seats)
    level: str = ""            # bot level for bot seats
    deadline: float | None = None   # wall-clock end of the seat's running decision timer


@dataclass
class TableRow:
    code: str
    seed: int
    config: dict[str, Any]
    status: str                # "waiting" | "playing" | "over"
    created: float
    seats: list[SeatRow] = field(default_factory=list)
    submissions: list[tuple[int, Any]] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Target:
    """Where a "your turn" or a war's notice goes: an e-mail address or a webhook URL of one
    seat (``seat`` >= 0, at most one per kind), or of a reader of the table (``seat`` -1,
    ``key``: the reader's own unsubscribe key, which opens nothing else)."""
    code: str
    seat: int
    kind: str                  # "email" | "webhook"
    target: str
    lang: str = "ja"
    key: str = ""


class StepTaken(Exception):
    """Another server process stored this step of the table first (a shared store): the
    caller catches up from the store and checks its move again (:mod:`fuyuki.web.cluster`)."""


class Storage:
    """What the server needs from a store. Every method is short and synchronous."""

    shared = False     # several server processes share this store (the cluster machinery runs)

    def create_table(self, row: TableRow) -> None:
        raise NotImplementedError

    def load_table(self, code: str) -> TableRow | None:
        raise NotImplementedError

    def update_seat(self, code: str, seat: SeatRow) -> None:
        raise NotImplementedError

    def fill_seat(self, code: str, seat: SeatRow) -> None:
        """An open seat taken (a person joined; a bot at the host's start): as update_seat,
        but a shared store refuses it (StepTaken) when another process filled it first."""
        self.update_seat(code, seat)

    def append_submission(self, code: str, index: int, seat: int, choice: Any, back: bool = False) -> None:
        """Store step ``index``. ``back``: the mover's process does not run the table's bots
        (a shared store): the same write tells the owner its player is back."""
        raise NotImplementedError

    def set_status(self, code: str, status: str) -> None:
        raise NotImplementedError

    def set_deadline(self, code: str, seat: int, deadline: float | None) -> None:
        """The wall-clock end of ``seat``'s running decision timer (None: no timer runs)."""
        raise NotImplementedError

    def append_chat(self, code: str, index: int, entry: dict[str, Any]) -> None:
        raise NotImplementedError

    def codes(self, status: str | None = None) -> list[str]:
        raise NotImplementedError

    def timed_codes(self) -> list[str]:
        """The tables with a running (stored) decision timer."""
        raise NotImplementedError

    def set_target(self, t: Target) -> None:
        """Store ``t``, replacing the one of the same table, seat, kind and key."""
        raise NotImplementedError

    def targets(self, code: str, seat: int | None = None) -> list[Target]:
        """The targets of ``seat`` (None: of every seat and reader of the table)."""
        raise NotImplementedError

    def remove_target(self, code: str, seat: int, kind: str | None = None, key: str = "") -> int:
        """Remove a seat's target of ``kind`` (None: every kind), or the reader's of ``key``;
        the number removed."""
        raise NotImplementedError

    def claim_notice(self, code: str, seat: int, key: str) -> bool:
        """Note that notice ``key`` of ``seat`` is being sent: True the first time only (every
        process and restart alike: a unique row refuses the second)."""
        raise NotImplementedError

    def ping(self, timeout: float) -> None:
        """Raise unless the store answers within about ``timeout`` seconds (``GET /healthz``;
        a store in memory always answers)."""

    def close(self) -> None:
        pass


SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code    TEXT PRIMARY KEY,
    seed    INTEGER NOT NULL,
    config  TEXT NOT NULL,
    status  TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    code       TEXT NOT NULL,
    seat       INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    name       TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    level      TEXT NOT NULL,
    deadline   REAL,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS submissions (
    code   TEXT NOT NULL,
    idx    INTEGER NOT NULL,
    seat   INTEGER NOT NULL,
    choice TEXT NOT NULL,
    PRIMARY KEY (code, idx)
);
CREATE TABLE IF NOT EXISTS chat (
    code  TEXT NOT NULL,
    idx   INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (code, idx)
);
CREATE TABLE IF NOT EXISTS notify_targets (
    code   TEXT NOT NULL,
    seat   INTEGER NOT NULL,
    kind   TEXT NOT NULL,
    key    TEXT NOT NULL,
    target TEXT NOT NULL,
    lang   TEXT NOT NULL,
    PRIMARY KEY (code, seat, kind, key)
);
CREATE TABLE IF NOT EXISTS notify_sent (
    code TEXT NOT NULL,
    seat INTEGER NOT NULL,
    key  TEXT NOT NULL,
    PRIMARY KEY (code, seat, key)
);
"""


class SQLiteStorage(Storage):
    """An embedded SQLite database in WAL mode (``DIR/fuyuki-web.sqlite3``).

    One connection guarded by a lock: the server calls it from its event loop; tests and the
    CLI may call it from other threads. ``synchronous=NORMAL`` with WAL keeps every commit
    durable against a process crash (an OS crash may lose the last few moves, never corrupt).
    """

    FILENAME = "fuyuki-web.sqlite3"

    def __init__(self, directory: str | Path) -> None:
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        self.path = d / self.FILENAME
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(SCHEMA)
            columns = {r[1] for r in self._db.execute("PRAGMA table_info(seats)")}
            if "deadline" not in columns:   # a database made before decision timers were stored
                self._db.execute("ALTER TABLE seats ADD COLUMN deadline REAL")
        except sqlite3.Error as exc:        # not a database, locked, read-only...
            raise FuyukiError(f"{self.path}: {exc}") from None

    def _write(self, sql: str, params: tuple | list = (), many: bool = False) -> None:
        with self._lock:
            if many:
                self._db.execute("BEGIN")
                try:
                    self._db.executemany(sql, params)
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
            else:
                self._db.execute(sql, params)

    def create_table(self, row: TableRow) -> None:
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.execute(
                    "INSERT INTO tables(code, seed, config, status, created) VALUES (?,?,?,?,?)",
                    (row.code, row.seed, json.dumps(row.config), row.status, row.created or time.time()))
                self._db.executemany(
                    "INSERT INTO seats(code, seat, kind, name, token_hash, level) VALUES (?,?,?,?,?,?)",
                    [(row.code, s.seat, s.kind, s.name, s.token_hash, s.level) for s in row.seats])
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def load_table(self, code: str) -> TableRow | None:
        with self._lock:
            t = self._db.execute("SELECT code, seed, config, status, created FROM tables WHERE code=?",
                                 (code,)).fetchone()
            if t is None:
                return None
            seats = self._db.execute(
                "SELECT seat, kind, name, token_hash, level, deadline FROM seats WHERE code=? "
                "ORDER BY seat",
                (code,)).fetchall()
            subs = self._db.execute(
                "SELECT seat, choice FROM submissions WHERE code=? ORDER BY idx", (code,)).fetchall()
            chat = self._db.execute("SELECT entry FROM chat WHERE code=? ORDER BY idx",
                                    (code,)).fetchall()
        return TableRow(t[0], int(t[1]), json.loads(t[2]), t[3], float(t[4]),
                        [SeatRow(*s) for s in seats],
                        [(int(seat), json.loads(choice)) for seat, choice in subs],
                        [json.loads(c[0]) for c in chat])

    def update_seat(self, code: str, seat: SeatRow) -> None:
        self._write("UPDATE seats SET kind=?, name=?, token_hash=?, level=? WHERE code=? AND seat=?",
                    (seat.kind, seat.name, seat.token_hash, seat.level, code, seat.seat))

    def append_submission(self, code: str, index: int, seat: int, choice: Any, back: bool = False) -> None:
        self._write("INSERT INTO submissions(code, idx, seat, choice) VALUES (?,?,?,?)",
                    (code, index, seat, json.dumps(choice)))

    def set_status(self, code: str, status: str) -> None:
        self._write("UPDATE tables SET status=? WHERE code=?", (status, code))

    def set_deadline(self, code: str, seat: int, deadline: float | None) -> None:
        self._write("UPDATE seats SET deadline=? WHERE code=? AND seat=?", (deadline, code, seat))

    def append_chat(self, code: str, index: int, entry: dict[str, Any]) -> None:
        self._write("INSERT INTO chat(code, idx, entry) VALUES (?,?,?)",
                    (code, index, json.dumps(entry, ensure_ascii=False)))

    def codes(self, status: str | None = None) -> list[str]:
        with self._lock:
            if status is None:
                rows = self._db.execute("SELECT code FROM tables ORDER BY created").fetchall()
            else:
                rows = self._db.execute("SELECT code FROM tables WHERE status=? ORDER BY created",
                                        (status,)).fetchall()
        return [r[0] for r in rows]

    def timed_codes(self) -> list[str]:
        with self._lock:
            rows = self._db.execute("SELECT DISTINCT code FROM seats WHERE deadline IS NOT NULL").fetchall()
        return [r[0] for r in rows]

    def set_target(self, t: Target) -> None:
        self._write("INSERT OR REPLACE INTO notify_targets(code, seat, kind, key, target, lang) "
                    "VALUES (?,?,?,?,?,?)", (t.code, t.seat, t.kind, t.key, t.target, t.lang))

    def targets(self, code: str, seat: int | None = None) -> list[Target]:
        with self._lock:
            rows = self._db.execute(
                "SELECT code, seat, kind, target, lang, key FROM notify_targets WHERE code=? "
                "AND (? IS NULL OR seat=?) ORDER BY seat, kind, key", (code, seat, seat)).fetchall()
        return [Target(*r) for r in rows]

    def remove_target(self, code: str, seat: int, kind: str | None = None, key: str = "") -> int:
        with self._lock:
            return self._db.execute(
                "DELETE FROM notify_targets WHERE code=? AND seat=? AND (? IS NULL OR kind=?) "
                "AND key=?", (code, seat, kind, kind, key)).rowcount

    def claim_notice(self, code: str, seat: int, key: str) -> bool:
        with self._lock:
            return self._db.execute("INSERT OR IGNORE INTO notify_sent(code, seat, key) VALUES (?,?,?)",
                                    (code, seat, key)).rowcount == 1

    def ping(self, timeout: float) -> None:
        if not self._lock.acquire(timeout=timeout):
            raise TimeoutError("the database is busy")
        try:
            self._db.execute("SELECT 1").fetchone()
        finally:
            self._lock.release()

    def close(self) -> None:
        with self._lock:
            self._db.close()


class MemoryStorage(Storage):
    """A storage that forgets on exit (tests, the load benchmark's ``--memory``)."""

    def __init__(self) -> None:
        self._tables: dict[str, TableRow] = {}
        self._targets: dict[tuple[str, int, str, str], Target] = {}
        self._sent: set[tuple[str, int, str]] = set()

    def create_table(self, row: TableRow) -> None:
        self._tables[row.code] = TableRow(row.code, row.seed, dict(row.config), row.status,
                                          row.created, [SeatRow(**vars(s)) for s in row.seats], [])

    def load_table(self, code: str) -> TableRow | None:
        t = self._tables.get(code)
        if t is None:
            return None
        return TableRow(t.code, t.seed, dict(t.config), t.status, t.created,
                        [SeatRow(**vars(s)) for s in t.seats], list(t.submissions),
                        [dict(c) for c in t.chat])

    def update_seat(self, code: str, seat: SeatRow) -> None:
        self._tables[code].seats[seat.seat] = SeatRow(**vars(seat))

    def append_submission(self, code: str, index: int, seat: int, choice: Any, back: bool = False) -> None:
        subs = self._tables[code].submissions
        assert index == len(subs)
        subs.append((seat, choice))

    def set_status(self, code: str, status: str) -> None:
        self._tables[code].status = status

    def set_deadline(self, code: str, seat: int, deadline: float | None) -> None:
        self._tables[code].seats[seat].deadline = deadline

    def append_chat(self, code: str, index: int, entry: dict[str, Any]) -> None:
        chat = self._tables[code].chat
        assert index == len(chat)
        chat.append(dict(entry))

    def codes(self, status: str | None = None) -> list[str]:
        return [c for c, t in self._tables.items() if status is None or t.status == status]

    def timed_codes(self) -> list[str]:
        return [c for c, t in self._tables.items() if any(s.deadline is not None for s in t.seats)]

    def set_target(self, t: Target) -> None:
        self._targets[(t.code, t.seat, t.kind, t.key)] = Target(**vars(t))

    def targets(self, code: str, seat: int | None = None) -> list[Target]:
        return [Target(**vars(t)) for k, t in sorted(self._targets.items())
                if k[0] == code and (seat is None or k[1] == seat)]

    def remove_target(self, code: str, seat: int, kind: str | None = None, key: str = "") -> int:
        gone = [k for k in self._targets
                if k[:2] == (code, seat) and (kind is None or k[2] == kind) and k[3] == key]
        for k in gone:
            del self._targets[k]
        return len(gone)

    def claim_notice(self, code: str, seat: int, key: str) -> bool:
        if (code, seat, key) in self._sent:
            return False
        self._sent.add((code, seat, key))
        return True
