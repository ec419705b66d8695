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
    return {"game": game.name, **game.check_config(rest)}


def seat_rows(cfg: dict[str, Any], name: str | None
              ) -> tuple[list[SeatRow], int, str | None, dict[int, str]]:
    """A new table's seats as its game wants them (``seat_kinds``), the host seat (taken by
    ``name``, if any) with its token, and — for an inviting game — a token for every other
    human seat (its seat link), handed to the creator once and stored only as a hash."""
    game = adapter(cfg["game"])
    kinds = game.seat_kinds(cfg)
    host_seat = game.host_seat(cfg)
    if name is not None and kinds[host_seat] != "human":
        raise IllegalAction("bad_config", "bots: no seat is left for the host", field="bots")
    seats = [SeatRow(i, k, level=cfg["bot_level"] if k == "bot" else "") for i, k in enumerate(kinds)]
    token = None
    if name is not None:
        token = security.new_token()
        seats[host_seat].name, seats[host_seat].token_hash = name, security.hash_token(token)
    invites = {}
    if game.invite:
        for s in seats:
            if s.kind == "human" and not s.token_hash:
                invites[s.seat] = security.new_token()
                s.name, s.token_hash = game.seat_name(cfg, s.seat), security.hash_token(invites[s.seat])
    return seats, host_seat, token, invites


class Manager:
    """Every table the server knows, loaded from storage on first use."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage = storage
        self.settings = settings
        self.tables: dict[str, Table] = {}

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
                if len(self.tables) < self.settings.max_tables * 0.9:
                    return

    def create(self, raw: dict[str, Any], host: str | None, seed: int | None = None
               ) -> tuple[Table, int | None, str | None]:
        """A new table; the creator (``host``, a name) takes the game's host seat. With an
        inviting game every other human seat gets its token now: ``table.invites``."""
        cfg = check_config(raw)
        name = check_name(host) if host is not None else None
        seats, host_seat, token, invites = seat_rows(cfg, name)
        code = security.new_code()
        while self.storage.load_table(code) is not None:
            code = security.new_code()
        status = "waiting" if any(s.kind == "human" and not s.token_hash for s in seats) else "playing"
        row = TableRow(code, secrets.randbelow(2**31) if seed is None else seed, cfg, status,
                       time.time(), seats, [])
        self.storage.create_table(row)
        self._make_room()
        t = self.tables[code] = Table(row, self.storage, self.settings)
        t.invites = invites
        if name is not None:
            t.gone_since[host_seat] = _table._now()
        return t, (host_seat if name is not None else None), token

    def close(self) -> None:
        for t in self.tables.values():
            t.close()
        shutdown_pool()
