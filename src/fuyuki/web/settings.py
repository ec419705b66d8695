"""The server's limits and timings, and the check of a player's name (every game alike)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from fuyuki.core.errors import IllegalAction


@dataclass
class Settings:
    bot_delay: float = 0.6            # seconds between bot moves (0: at once, used by tests)
    disconnect_grace: float = 20.0    # a disconnected player's seat is bot-played after this
    max_message: int = 2048           # bytes of one client message
    max_upload: int = 65536           # bytes of a table creation (a game's uploaded file)
    max_log: int = 1048576            # bytes of a war log posted to /api/war/verify
    msg_rate: float = 8.0             # client messages a second (token bucket) ...
    msg_burst: float = 24.0           # ... and burst
    http_rate: float = 0.5            # table creations/joins a second per client address ...
    http_burst: float = 20.0          # ... and burst
    allowed_origins: tuple[str, ...] = ()
    hello_timeout: float = 10.0
    token_reload: float = 1.0         # an unknown seat token re-reads the stored seats at most
                                      # this often per table (a link made by `fuyuki link`)
    outbox: int = 256                 # queued messages per connection before it is dropped
    max_tables: int = 10000           # tables held in memory (finished ones are let go first)
    tabs_per_seat: int = 3            # a seat's open pages; a newer one closes the oldest
    max_spectators: int = 48          # spectators of one table (seats never count here)
    spectators_per_address: int = 4   # spectators of one table from one client address
    sockets_per_address: int = 64     # open WebSockets of one client address, all tables
    max_running_tables: int = 2000    # tables waiting or playing, the whole server
    tables_per_address: int = 6       # running tables created from one client address
    idle_seconds: float = 1800.0      # a table nobody has connected to for this long stops
                                      # counting as running (a waiting one, or one of absent
                                      # players: its bots wait for a person)
    chat_rate: float = 0.5            # chat lines a second per seat (token bucket) ...
    chat_burst: float = 5.0           # ... and burst
    restart_timer_floor: float = 10.0 # a decision timer restored after a restart keeps at
                                      # least this many seconds
    hard_seconds: float = 1.0         # thinking time of a slow (search) bot per decision
    cluster_tick: float = 1.0         # several processes on PostgreSQL: how often a process
                                      # takes or lets go of tables' bots and timers
    step_retries: int = 5             # a move whose step another process took first is checked
                                      # again against the caught-up game this many times
    shutdown_seconds: float = 10.0    # SIGTERM/SIGINT: the pages are closed and the moves in
                                      # flight finish within this; then the process exits
    health_timeout: float = 2.0       # GET /healthz: the store answers within this or 503
    metrics_cache: float = 1.0        # GET /metrics: its text is made at most once this often


# letters of other scripts that look like the Latin ones a seat label or "bot" is made of
_LOOKALIKE = str.maketrans({
    "р": "p", "Р": "p", "ρ": "p", "Ρ": "p", "о": "o", "О": "o", "ο": "o", "Ο": "o", "σ": "o",
    "в": "b", "В": "b", "β": "b", "Β": "b", "т": "t", "Т": "t", "τ": "t", "Τ": "t",
    "ı": "i", "ǀ": "l", "Ι": "i", "І": "i", "і": "i"})
_SEAT_LABEL = re.compile(r"(?:^|[^a-z0-9])p[0-9]")
_RESERVED = re.compile(r"^(?:bot|ボット|ぼっと|ﾎﾞｯﾄ)(?:$|[^a-zぁ-んァ-ン])")


def name_key(name: str) -> str:
    """The name as two names are compared: NFKC, case-folded, look-alike letters mapped to
    the Latin ones, spaces removed ("Ｂｏｂ" and "bob" are one name)."""
    folded = unicodedata.normalize("NFKC", name).casefold().translate(_LOOKALIKE)
    return "".join(folded.split())


def check_name(name: Any) -> str:
    """A display name: NFKC-normalized, spaces collapsed, 1-24 printable characters, and not
    one that imitates a seat label ("P0 ...") or a bot."""
    if not isinstance(name, str) or len(name) > 200:
        raise IllegalAction("bad_name", "a name is text of 1 to 24 characters")
    name = " ".join(unicodedata.normalize("NFKC", name).split())
    if not 1 <= len(name) <= 24 or any(not ch.isprintable() for ch in name):
        raise IllegalAction("bad_name", "a name has 1 to 24 printable characters")
    key = unicodedata.normalize("NFKC", name).casefold().translate(_LOOKALIKE)
    if _SEAT_LABEL.search(key) or _RESERVED.match("".join(key.split())):
        raise IllegalAction("reserved_name", "a name may not look like a seat (P0 ...) or a bot")
    return name
