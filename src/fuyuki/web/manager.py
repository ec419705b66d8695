"""Every table the server knows: created from the lobby, loaded from storage on first use."""

from __future__ import annotations

import secrets
import time
from typing import Any

from fuyuki.core.errors import FuyukiError, IllegalAction
from fuyuki.web import security
from fuyuki.web import table as _table
from fuyuki.web.bots import shutdown_pool
from fuyuki.web.games import DEFAULT, adapter
from fuyuki.web.settings import Settings, check_name
from fuyuki.web.storage import SeatRow, Storage, TableRow
from fuyuki.web.table import Table


def check_config(raw: Any) -> dict[str, Any]:
    """A table's configuration: ``game`` (default: Servant Big Battle) and that game's
    settings, every field checked by its adapter; the result names the game."""
    if not isinstance(raw, dict):
        raise IllegalAction("bad_config", "-: must be an object", field="-")
    rest = dict(raw)
    game = adapter(rest.pop("game", DEFAULT))
    public = rest.pop("public", False)
    if type(public) is not bool:
        raise IllegalAction("bad_config", "public: true or false", field="public")
    return {"game": game.name, **game.check_config(rest), "public": public}


class Manager:
    """Every table the server knows, loaded from storage on first use."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage = storage
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.creators: dict[str, str] = {}      # code -> the address that created it

    def get(self, code: str) -> Table | None:
        if not security.valid_code(code):
            return None
        t = self.tables.get(code)
        if t is None:
            row = self.storage.load_table(code)
            if row is None:
                return None
            self._make_room()
            try:
                t = Table(row, self.storage, self.settings)
            except FuyukiError as exc:
                # the stored moves do not replay (rules data changed under the table): say so
                raise IllegalAction("table_broken", f"table {code} cannot be replayed: {exc}") from None
            self.tables[code] = t
        return t

    def _make_room(self) -> None:
        if len(self.tables) < self.settings.max_tables:
            return
        for code, t in list(self.tables.items()):
            if not t.conns and (t.status != "playing" or len(self.tables) >= self.settings.max_tables):
                t.close()
                del self.tables[code]
                self.creators.pop(code, None)
                if len(self.tables) < self.settings.max_tables * 0.9:
                    return

    def running(self, address: str | None = None) -> int:
        """Tables waiting or playing (and not idle), all or created from ``address``."""
        now = _table._now()
        return sum(t.running(now) for code, t in self.tables.items()
                   if address is None or self.creators.get(code) == address)

    def create(self, raw: dict[str, Any], host: Any, seed: int | None = None,
               address: str | None = None) -> tuple[Table, int, str]:
        """A new table of settings ``raw`` whose host (seat 0) is named ``host``; creations
        are bounded per client ``address`` and in total."""
        cfg = check_config(raw)
        name = check_name(host)
        n, bots = cfg["players"], cfg["bots"]
        humans = n - bots
        if humans == 0:
            raise IllegalAction("bad_config", "bots: a table needs at least one person",
                                field="bots")
        self._check_room(address)
        seats = [SeatRow(i, "human") if i < humans else SeatRow(i, "bot", level=cfg["bot_level"])
                 for i in range(n)]
        code = self._new_code()
        token = security.new_token()
        seats[0].name, seats[0].token_hash = name, security.hash_token(token)
        status = "waiting" if any(s.kind == "human" and not s.token_hash for s in seats) else "playing"
        row = TableRow(code, secrets.randbelow(2**31) if seed is None else seed, cfg, status,
                       time.time(), seats, [])
        t = self._open(row, address)
        t.gone_since[0] = _table._now()
        return t, 0, token

    def open_tables(self, limit: int = 50) -> list[dict[str, Any]]:
        """The public tables waiting for players, newest first (no token, no seed)."""
        now = _table._now()
        found = [t for t in self.tables.values()
                 if t.row.config.get("public") and t.status == "waiting" and t.running(now)
                 and any(s.kind == "human" and not s.token_hash for s in t.seats)]
        found.sort(key=lambda t: -t.row.created)
        return [{"code": t.code, "game": t.adapter.name, "title": t.adapter.title,
                 "host": t.seats[0].name, "config": t.config,
                 "seats": len(t.seats),
                 "open": sum(s.kind == "human" and not s.token_hash for s in t.seats)}
                for t in found[:limit]]

    def rematch(self, table: Table, seat: int | None, address: str | None) -> str:
        """The same players' next game (one for every seat that asks): same settings and
        seats — each person's seat token opens the new table too, so no token travels — a new
        seed; it starts at once and its bots wait for a person, as at any table."""
        if seat is None:
            raise IllegalAction("spectator", "the players start a rematch")
        if table.status != "over":
            raise IllegalAction("not_over", "a rematch comes after the game")
        if table.rematch_code is None:
            self._check_room(address)
            code = self._new_code()
            seats = [SeatRow(s.seat, s.kind, s.name, s.token_hash, s.level) for s in table.seats]
            row = TableRow(code, secrets.randbelow(2**31), dict(table.row.config, public=False),
                           "playing", time.time(), seats, [])
            self._open(row, address)
            table.rematch_code = code
            table.broadcast()
        return table.rematch_code

    def _open(self, row: TableRow, address: str | None) -> Table:
        """Store a new table and hold it in memory."""
        self.storage.create_table(row)
        self._make_room()
        t = self.tables[row.code] = Table(row, self.storage, self.settings)
        if address is not None:
            self.creators[row.code] = address
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
        for t in self.tables.values():
            t.close()
        shutdown_pool()
