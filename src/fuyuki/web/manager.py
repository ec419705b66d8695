"""Every table the server knows: created from the lobby, loaded from storage on first use."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter
from typing import Any

from fuyuki.core.errors import FuyukiError, IllegalAction
from fuyuki.web import security
from fuyuki.web.bots import shutdown_pool
from fuyuki.web.cluster import Cluster
from fuyuki.web.games import DEFAULT, adapter
from fuyuki.web.metrics import Metrics
from fuyuki.web.settings import Settings, check_name
from fuyuki.web.storage import SeatRow, Storage, TableRow
from fuyuki.web.table import Table

log = logging.getLogger("fuyuki.web.manager")


def check_config(raw: Any) -> dict[str, Any]:
    """A table's configuration: ``game`` (default: Servant Big Battle) and that game's
    settings, every field checked by its adapter; the result names the game."""
    if not isinstance(raw, dict):
        raise IllegalAction("bad_config", "-: must be an object", field="-")
    rest = dict(raw)
    game_adapter = adapter(rest.pop("game", DEFAULT))
    public = rest.pop("public", False)
    if type(public) is not bool:
        raise IllegalAction("bad_config", "public: true or false", field="public")
    return {"game": game_adapter.name, **game_adapter.check_config(rest), "public": public}


def seat_rows(cfg: dict[str, Any], name: str | None
              ) -> tuple[list[SeatRow], int, str | None, dict[int, str]]:
    """A new table's seats as its game wants them (``seat_kinds``), the host seat (taken by
    ``name``, if any) with its token, and — for an inviting game — a token for every other
    human seat (its seat link), handed to the creator once and stored only as a hash."""
    game_adapter = adapter(cfg["game"])
    kinds = game_adapter.seat_kinds(cfg)
    host_seat = game_adapter.host_seat(cfg)
    if name is not None and kinds[host_seat] != "human":
        raise IllegalAction("bad_config", "bots: a table needs at least one person (no seat is "
                            "left for the host)", field="bots")
    seats = [SeatRow(i, k, level=cfg["bot_level"] if k == "bot" else "") for i, k in enumerate(kinds)]
    token = None
    if name is not None:
        token = security.new_token()
        seats[host_seat].name, seats[host_seat].token_hash = name, security.hash_token(token)
    invites = {}
    if game_adapter.invite:
        for s in seats:
            if s.kind == "human" and not s.token_hash:
                invites[s.seat] = security.new_token()
                s.name, s.token_hash = game_adapter.seat_name(cfg, s.seat), security.hash_token(invites[s.seat])
    return seats, host_seat, token, invites


def new_link(storage: Storage, code: str, seat: int | None = None) -> tuple[SeatRow, str]:
    """A new token for a person's ``seat`` (default: the host's — the GM's in the war) of the
    stored table ``code``, for the server's operator when a link is lost — the host's own link
    has nobody else to make a new one. Only its hash is stored; a running server takes it up
    at the seat's next connection (:meth:`Table.seat_for_token`) and the old link stops
    working. Returns the seat's row and the token (shown once)."""
    row = storage.load_table(code)
    if row is None:
        raise IllegalAction("no_such_table", f"there is no table {code!r}")
    if seat is None:
        seat = adapter(row.config.get("game", DEFAULT)).host_seat(row.config)
    if not 0 <= seat < len(row.seats) or row.seats[seat].kind != "human":
        people = [s.seat for s in row.seats if s.kind == "human"]
        raise IllegalAction("bad_seat", f"seat {seat} is not a person's seat (theirs: {people})",
                            seat=seat, people=people)
    if not row.seats[seat].token_hash:
        raise IllegalAction("open_seat", f"seat {seat} is open: nobody holds it yet (join it "
                            "from the table's page)", seat=seat)
    token = security.new_token()
    row.seats[seat].token_hash = security.hash_token(token)
    storage.update_seat(code, row.seats[seat])
    storage.remove_target(code, seat)          # the old link's notices end with it
    return row.seats[seat], token


class Manager:
    """Every table the server knows, loaded from storage on first use."""

    def __init__(self, storage: Storage, settings: Settings, metrics: Metrics | None = None) -> None:
        self.storage = storage
        self.settings = settings
        self.metrics = metrics or Metrics()
        self.tables: dict[str, Table] = {}
        self.creators: dict[str, str] = {}      # code -> the address that created it
        self.notifier = None                    # the tables' notices (fuyuki.web.notify)
        # several processes on one store: who runs each table's bots and timers, and what the
        # others stored (fuyuki.web.cluster); started with the server's event loop
        self.cluster = Cluster(self) if storage.shared else None

    def start(self) -> None:
        """On the server's event loop, before the first request."""
        if self.cluster is not None:
            self.cluster.start(asyncio.get_running_loop())

    def get(self, code: str) -> Table | None:
        if not security.valid_code(code):
            return None
        t = self.tables.get(code)
        if t is not None and t.behind:
            t.sync(refresh=False)              # another process moved it meanwhile
        if t is None:
            row = self.storage.load_table(code)
            if row is None:
                return None
            self._make_room()
            try:
                t = Table(row, self.storage, self.settings, notifier=self.notifier, metrics=self.metrics,
                          cluster=self.cluster)
            except FuyukiError as exc:
                # the stored moves do not replay (rules data changed under the table): say so
                log.error("table %s cannot be replayed", code, exc_info=True)
                raise IllegalAction("table_broken", f"table {code} cannot be replayed: {exc}") from None
            self.tables[code] = t
            log.info("table %s resumed (%s, %s) at step %d", code, t.adapter.name, t.status,
                     t.step, extra={"table": code, "game": t.adapter.name, "event": "resumed",
                                    "step": t.step})
        return t

    def _make_room(self) -> None:
        if len(self.tables) < self.settings.max_tables:
            return
        for code, t in list(self.tables.items()):
            if not t.conns and (t.status != "playing" or len(self.tables) >= self.settings.max_tables):
                t.close()
                if self.cluster is not None:
                    self.cluster.release(code)
                log.debug("table %s let go from memory (%s)", code, t.status)
                del self.tables[code]
                self.creators.pop(code, None)
                if len(self.tables) < self.settings.max_tables * 0.9:
                    return

    def running(self, address: str | None = None) -> int:
        """Tables waiting or playing (and not idle), all or created from ``address``."""
        now = Table.now()
        return sum(t.running(now) for code, t in self.tables.items()
                   if address is None or self.creators.get(code) == address)

    def create(self, raw: dict[str, Any], host: Any, seed: int | None = None,
               address: str | None = None) -> tuple[Table, int, str | None]:
        """A new table; the creator (``host``, a name) takes the game's host seat. With an
        inviting game every other human seat gets its token now: ``table.invites``. A table
        needs at least one person; creations are bounded per client ``address`` and in
        total."""
        cfg = check_config(raw)
        name = check_name(host)           # the creator is a person: the host
        seats, host_seat, token, invites = seat_rows(cfg, name)
        if not any(s.kind == "human" for s in seats):
            raise IllegalAction("bad_config", "bots: a table needs at least one person",
                                field="bots")
        self._check_room(address)
        code = self._new_code()
        status = "waiting" if any(s.kind == "human" and not s.token_hash for s in seats) else "playing"
        row = TableRow(code, secrets.randbelow(2**31) if seed is None else seed, cfg, status,
                       time.time(), seats, [])
        t = self._open(row, address)
        t.invites = invites
        t.gone_since[host_seat] = Table.now()
        return t, host_seat, token

    def open_tables(self, limit: int = 50) -> list[dict[str, Any]]:
        """The public tables waiting for players, newest first (no token, no seed)."""
        now = Table.now()
        found = [t for t in self.tables.values()
                 if t.row.config.get("public") and t.status == "waiting" and t.running(now)
                 and any(s.kind == "human" and not s.token_hash for s in t.seats)]
        found.sort(key=lambda t: -t.row.created)
        return [{"code": t.code, "game": t.adapter.name, "title": t.adapter.title,
                 "host": t.seats[t.adapter.host_seat(t.row.config)].name, "config": t.config,
                 "seats": len(t.seats),
                 "open": sum(s.kind == "human" and not s.token_hash for s in t.seats)}
                for t in found[:limit]]

    def rematch(self, table: Table, seat: int | None, address: str | None) -> str:
        """The same players' next game (one for every seat that asks): same settings and
        seats — each person's seat token opens the new table too, so no token travels — a new
        seed; it starts at once and its bots wait for a person, as at any table."""
        if seat is None:
            raise IllegalAction("spectator", "the players start a rematch")
        if not table.adapter.rematch:
            raise IllegalAction("no_rematch", "this game has no rematch")
        if table.status != "over":
            raise IllegalAction("not_over", "a rematch comes after the game")
        if table.rematch_code is None:
            self._check_room(address)
            code = self._new_code()
            seats = [SeatRow(s.seat, s.kind, s.name, s.token_hash, s.level) for s in table.seats]
            row = TableRow(code, secrets.randbelow(2**31), dict(table.row.config, public=False),
                           "playing", time.time(), seats, [])
            self._open(row, address, f"rematch of {table.code}")
            table.rematch_code = code
            table.broadcast()
        return table.rematch_code

    def _open(self, row: TableRow, address: str | None, why: str = "from the lobby") -> Table:
        """Store a new table and hold it in memory."""
        self.storage.create_table(row)
        self._make_room()
        t = self.tables[row.code] = Table(row, self.storage, self.settings, notifier=self.notifier,
                                          metrics=self.metrics, cluster=self.cluster)
        if address is not None:
            self.creators[row.code] = address
        kinds = Counter(s.kind for s in row.seats)
        log.info("table %s created %s: %s, %d seats (%s)", row.code, why, t.adapter.name,
                 len(row.seats), ", ".join(f"{n} {k}" for k, n in sorted(kinds.items())),
                 extra={"table": row.code, "game": t.adapter.name, "event": "created"})
        if row.status == "playing":
            log.info("table %s started", row.code, extra={"table": row.code, "event": "started"})
        return t

    def _new_code(self) -> str:
        code = security.new_code()
        while self.storage.load_table(code) is not None:
            code = security.new_code()
        return code

    def _check_room(self, address: str | None) -> None:
        if self.running() >= self.settings.max_running_tables:
            raise IllegalAction("too_many_tables", "the server is full; try again later")
        if address is not None and self.running(address) >= self.settings.tables_per_address:
            raise IllegalAction("too_many_tables",
                                "you have too many tables running; finish or leave one first")

    def close(self) -> None:
        if self.cluster is not None:
            self.cluster.close()
        for t in self.tables.values():
            t.close()
        shutdown_pool()
