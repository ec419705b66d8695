"""Tables in PostgreSQL (``fuyuki serve --db postgresql://...``; the ``pg`` extra: psycopg 3).

The same tables as the SQLite door (:mod:`fuyuki.web.storage`), shared by every server process
of a cluster (docs/web.md, "Several server processes"): the primary key ``(code, idx)`` of
``submissions`` orders each table's moves — a second writer of the same step is refused
(:class:`StepTaken`) and catches up instead of running ahead — and every stored move, chat
line, seat or status change is announced on the channel ``fuyuki`` (``NOTIFY fuyuki,
'<code> <kind> <idx>'``, sent when its transaction commits) for the other processes
(:mod:`fuyuki.web.cluster`). ``presence`` holds which seats have a page open on which process.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

from fuyuki.core.errors import FuyukiError
from fuyuki.web.storage import SeatRow, StepTaken, Storage, TableRow, Target

log = logging.getLogger("fuyuki.web.pgstorage")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    code    TEXT PRIMARY KEY,
    seed    BIGINT NOT NULL,
    config  TEXT NOT NULL,
    status  TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    code       TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    seat       INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    name       TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    level      TEXT NOT NULL,
    deadline   DOUBLE PRECISION,
    PRIMARY KEY (code, seat)
);
CREATE TABLE IF NOT EXISTS submissions (
    code   TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    idx    INTEGER NOT NULL,
    seat   INTEGER NOT NULL,
    choice TEXT NOT NULL,
    PRIMARY KEY (code, idx)
);
CREATE TABLE IF NOT EXISTS chat (
    code  TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    idx   INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (code, idx)
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status, created);
CREATE TABLE IF NOT EXISTS notify_targets (
    code   TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    seat   INTEGER NOT NULL,
    kind   TEXT NOT NULL,
    key    TEXT NOT NULL,
    target TEXT NOT NULL,
    lang   TEXT NOT NULL,
    PRIMARY KEY (code, seat, kind, key)
);
CREATE TABLE IF NOT EXISTS notify_sent (
    code TEXT NOT NULL REFERENCES tables(code) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    key  TEXT NOT NULL,
    PRIMARY KEY (code, seat, key)
);
CREATE TABLE IF NOT EXISTS presence (
    code  TEXT NOT NULL,
    seat  INTEGER NOT NULL,
    node  INTEGER NOT NULL,
    pages INTEGER NOT NULL,
    PRIMARY KEY (code, seat, node)
);
"""

CHANNEL = "fuyuki"
NOTIFY = "SELECT pg_notify('fuyuki', %s)"


class PostgresStorage(Storage):
    """One autocommit connection guarded by a lock (each call is one short statement or one
    transaction), reopened once when the server dropped it."""

    shared = True

    def __init__(self, url: str) -> None:
        try:
            import psycopg
        except ImportError:
            raise FuyukiError("--db postgresql://... needs psycopg: pip install 'fuyuki[pg]'") from None
        self._psycopg = psycopg
        self.url = url
        self._lock = threading.Lock()
        self._db = self._connect()
        with self._lock, self._db.transaction():
            self._db.execute("SELECT pg_advisory_xact_lock(719)")   # one schema creator at a time
            self._db.execute(SCHEMA)

    def _connect(self):
        try:
            return self._psycopg.connect(self.url, autocommit=True)
        except self._psycopg.Error as exc:
            raise FuyukiError(f"cannot connect to PostgreSQL: {str(exc).strip()}") from None

    def _run(self, work):
        """``work(connection)`` under the lock; a dropped connection is reopened once."""
        with self._lock:
            try:
                return work(self._db)
            except self._psycopg.OperationalError:
                if not self._db.closed:
                    raise
                log.warning("the PostgreSQL connection was lost; reconnecting", exc_info=True)
                self._db = self._connect()
                return work(self._db)

    def create_table(self, row: TableRow) -> None:
        def work(db):
            with db.transaction():
                db.execute("INSERT INTO tables(code, seed, config, status, created) "
                           "VALUES (%s,%s,%s,%s,%s)",
                           (row.code, row.seed, json.dumps(row.config), row.status,
                            row.created or time.time()))
                with db.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO seats(code, seat, kind, name, token_hash, level, deadline) "
                        "VALUES (%s,%s,%s,%s,%s,%s,%s)",
                        [(row.code, s.seat, s.kind, s.name, s.token_hash, s.level, s.deadline)
                         for s in row.seats])
        self._run(work)

    def load_table(self, code: str) -> TableRow | None:
        return self._load(code, 0, 0, config=True)

    def load_since(self, code: str, step: int, chat_from: int) -> TableRow | None:
        """The table as stored — its status and seats, the submissions from ``step`` and the
        chat lines from ``chat_from`` (what another process added) — in one transaction."""
        return self._load(code, step, chat_from, config=False)

    def _load(self, code: str, step: int, chat_from: int, config: bool) -> TableRow | None:
        def work(db):
            with db.transaction():
                t = db.execute("SELECT code, seed, config, status, created FROM tables "
                               "WHERE code=%s", (code,)).fetchone()
                if t is None:
                    return None
                seats = db.execute("SELECT seat, kind, name, token_hash, level, deadline FROM seats "
                                   "WHERE code=%s ORDER BY seat", (code,)).fetchall()
                subs = db.execute("SELECT seat, choice FROM submissions WHERE code=%s AND idx>=%s "
                                  "ORDER BY idx", (code, step)).fetchall()
                chat = db.execute("SELECT entry FROM chat WHERE code=%s AND idx>=%s ORDER BY idx",
                                  (code, chat_from)).fetchall()
            return TableRow(t[0], int(t[1]), json.loads(t[2]) if config else {}, t[3], float(t[4]),
                            [SeatRow(*s) for s in seats],
                            [(int(seat), json.loads(choice)) for seat, choice in subs],
                            [json.loads(c[0]) for c in chat])
        return self._run(work)

    def _write(self, sql: str, params: tuple, code: str | None = None, kind: str = "",
               idx: int = 0, also: str | None = None) -> None:
        """One statement and, with ``code``, its announcement ``<code> <kind> <idx>`` (and
        ``also``'s) in the same statement — one round trip; the notifications leave when it
        commits, and not at all if it fails; a step or chat line another process stored
        first: StepTaken."""
        def work(db):
            if code is None:
                db.execute(sql, params)
            elif also is None:
                db.execute(f"WITH w AS ({sql}) {NOTIFY}", (*params, f"{code} {kind} {idx}"))
            else:
                db.execute(f"WITH w AS ({sql}) {NOTIFY}, pg_notify('fuyuki', %s)",
                           (*params, f"{code} {kind} {idx}", also))
        try:
            self._run(work)
        except self._psycopg.errors.UniqueViolation:
            raise StepTaken(f"table {code}: {kind} {idx} was stored by another process") from None

    def backend_pid(self) -> int:
        """The server process of this store's connection (its notifications carry it)."""
        return self._db.info.backend_pid

    def notify(self, code: str, kind: str, idx: int = 0) -> None:
        """Announce ``kind`` at table ``code`` to every process (nothing stored)."""
        self._run(lambda db: db.execute(NOTIFY, (f"{code} {kind} {idx}",)))

    def update_seat(self, code: str, seat: SeatRow) -> None:
        self._write("UPDATE seats SET kind=%s, name=%s, token_hash=%s, level=%s "
                    "WHERE code=%s AND seat=%s",
                    (seat.kind, seat.name, seat.token_hash, seat.level, code, seat.seat),
                    code, "seat", seat.seat)

    def fill_seat(self, code: str, seat: SeatRow) -> None:
        filled = self._run(lambda db: db.execute(
            "WITH w AS (UPDATE seats SET kind=%s, name=%s, token_hash=%s, level=%s "
            "WHERE code=%s AND seat=%s AND kind='human' AND token_hash='' RETURNING 1) "
            f"{NOTIFY} FROM w", (seat.kind, seat.name, seat.token_hash, seat.level, code, seat.seat,
                                 f"{code} seat {seat.seat}")).fetchall())
        if not filled:
            raise StepTaken(f"table {code}: seat {seat.seat} was taken on another process")

    def append_submission(self, code: str, index: int, seat: int, choice: Any, back: bool = False) -> None:
        self._write("INSERT INTO submissions(code, idx, seat, choice) VALUES (%s,%s,%s,%s)",
                    (code, index, seat, json.dumps(choice)), code, "move", index,
                    f"{code} back {seat}" if back else None)

    def set_status(self, code: str, status: str) -> None:
        self._write("UPDATE tables SET status=%s WHERE code=%s", (status, code), code, "status")

    def set_deadline(self, code: str, seat: int, deadline: float | None) -> None:
        self._run(lambda db: db.execute("UPDATE seats SET deadline=%s WHERE code=%s AND seat=%s",
                                        (deadline, code, seat)))

    def append_chat(self, code: str, index: int, entry: dict[str, Any]) -> None:
        self._write("INSERT INTO chat(code, idx, entry) VALUES (%s,%s,%s)",
                    (code, index, json.dumps(entry, ensure_ascii=False)), code, "chat", index)

    def codes(self, status: str | None = None) -> list[str]:
        def work(db):
            if status is None:
                return db.execute("SELECT code FROM tables ORDER BY created").fetchall()
            return db.execute("SELECT code FROM tables WHERE status=%s ORDER BY created",
                              (status,)).fetchall()
        return [r[0] for r in self._run(work)]

    # -- notifications (fuyuki.web.notify)
    def timed_codes(self) -> list[str]:
        return [r[0] for r in self._run(lambda db: db.execute(
            "SELECT DISTINCT code FROM seats WHERE deadline IS NOT NULL").fetchall())]

    def set_target(self, t: Target) -> None:
        self._write("INSERT INTO notify_targets(code, seat, kind, key, target, lang) "
                    "VALUES (%s,%s,%s,%s,%s,%s) ON CONFLICT (code, seat, kind, key) "
                    "DO UPDATE SET target=EXCLUDED.target, lang=EXCLUDED.lang",
                    (t.code, t.seat, t.kind, t.key, t.target, t.lang))

    def targets(self, code: str, seat: int | None = None) -> list[Target]:
        rows = self._run(lambda db: db.execute(
            "SELECT code, seat, kind, target, lang, key FROM notify_targets WHERE code=%s "
            "AND (%s::int IS NULL OR seat=%s) ORDER BY seat, kind, key", (code, seat, seat)).fetchall())
        return [Target(*r) for r in rows]

    def remove_target(self, code: str, seat: int, kind: str | None = None, key: str = "") -> int:
        return self._run(lambda db: db.execute(
            "DELETE FROM notify_targets WHERE code=%s AND seat=%s AND (%s::text IS NULL OR kind=%s) "
            "AND key=%s", (code, seat, kind, kind, key)).rowcount)

    def claim_notice(self, code: str, seat: int, key: str) -> bool:
        return self._run(lambda db: db.execute(
            "INSERT INTO notify_sent(code, seat, key) VALUES (%s,%s,%s) ON CONFLICT DO NOTHING",
            (code, seat, key)).rowcount) == 1

    def ping(self, timeout: float) -> None:
        """``SELECT 1`` on the server's connection (reopened once if it was dropped)."""
        if not self._lock.acquire(timeout=timeout):
            raise TimeoutError("the database connection is busy")
        self._lock.release()
        self._run(lambda db: db.execute("SELECT 1").fetchone())

    def close(self) -> None:
        with self._lock:
            self._db.close()
