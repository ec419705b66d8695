"""The server's limits and timings, and the check of a player's name (every game alike)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fuyuki.core.errors import IllegalAction


@dataclass
class Settings:
    bot_delay: float = 0.6            # seconds between bot moves (0: at once, used by tests)
    disconnect_grace: float = 20.0    # a disconnected player's seat is bot-played after this
    max_message: int = 2048           # bytes of one client message
    max_upload: int = 65536           # bytes of a table creation (a game's uploaded file)
    msg_rate: float = 8.0             # client messages a second (token bucket) ...
    msg_burst: float = 24.0           # ... and burst
    http_rate: float = 0.5            # table creations/joins a second per client address ...
    http_burst: float = 20.0          # ... and burst
    allowed_origins: tuple[str, ...] = ()
    hello_timeout: float = 10.0
    outbox: int = 256                 # queued messages per connection before it is dropped
    max_tables: int = 10000           # tables held in memory (finished ones are let go first)
    max_conns_per_table: int = 64     # seats' tabs and spectators together
    hard_seconds: float = 1.0         # thinking time of a slow (search) bot per decision


def check_name(name: Any) -> str:
    if not isinstance(name, str):
        raise IllegalAction("bad_name", "a name is text")
    name = " ".join(name.split())
    if not 1 <= len(name) <= 24 or any(not ch.isprintable() for ch in name):
        raise IllegalAction("bad_name", "a name has 1 to 24 printable characters")
    return name
