"""Tokens, codes, limits and the origin check.

- Table codes and seat tokens come from :mod:`secrets` (72 and 192 bits). The server keeps only
  the SHA-256 of a seat token; the token itself lives in the player's browser.
- :class:`RateLimiter` is a token bucket (per connection for WebSocket messages, per client
  address for the HTTP calls that create things).
- :func:`parse_json` reads a client's JSON (an HTTP body or a WebSocket frame) of bounded size
  and nesting: anything else is ``None`` (the caller answers 4xx or a close code), never a
  RecursionError.
- :class:`QuietFrames` keeps a client's bad frames out of the server log: uvicorn writes a
  whole traceback for each WebSocket text frame that is not UTF-8 (it then closes the
  connection with 1007); the filter makes that one line, at most one a minute.
- :func:`origin_allowed` refuses a WebSocket whose ``Origin`` is another site (a page elsewhere
  cannot drive a visitor's seat). A client that sends no Origin (not a browser) is let in:
  it could forge the header anyway, and the seat token is what guards a seat.
- :class:`Refusals` counts every refused request per kind (an HTTP 4xx answer, a WebSocket
  refused or closed, a client message refused) and tells the operator: one log line per kind
  at most every ``every`` seconds with the counts, so a client cannot fill the log. A line
  names the kind and never carries a token, a secret or what the client sent.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import secrets
import time
from collections import Counter
from typing import Any
from urllib.parse import urlsplit

refusal_log = logging.getLogger("fuyuki.web.refused")

CODE_RE = re.compile(r"^[A-Za-z0-9_-]{8,32}$")


def new_code() -> str:
    return secrets.token_urlsafe(9)


def new_token() -> str:
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, token_hash: str) -> bool:
    return bool(token_hash) and hmac.compare_digest(hash_token(token), token_hash)


def valid_code(code: str) -> bool:
    return bool(CODE_RE.match(code))


class RateLimiter:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` saved up."""

    def __init__(self, rate: float, burst: float, clock=time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.clock = clock
        self.last = clock()

    def allow(self, cost: float = 1.0) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= cost:
            self.tokens -= cost
            return True
        return False


class KeyedLimiter:
    """One :class:`RateLimiter` per key (a client address), forgetting idle keys."""

    def __init__(self, rate: float, burst: float, max_keys: int = 10000) -> None:
        self.rate, self.burst, self.max_keys = rate, burst, max_keys
        self._buckets: dict[str, RateLimiter] = {}

    def allow(self, key: str) -> bool:
        b = self._buckets.get(key)
        if b is None:
            if len(self._buckets) >= self.max_keys:
                self._buckets.clear()
            b = self._buckets[key] = RateLimiter(self.rate, self.burst)
        return b.allow()


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...] = ()) -> bool:
    """Same origin (the Origin's host:port is the Host header) or explicitly allowed."""
    if origin is None:
        return True
    if origin in allowed or "*" in allowed:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:  # refusal: the caller logs the refused origin
        return False
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    return host is not None and parts.netloc.lower() == host.lower()


MAX_DEPTH = 16          # nesting of a client's JSON (the protocol needs 3)


def nesting(text: str) -> int:
    """The deepest ``[``/``{`` nesting of JSON ``text`` (strings skipped), without recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_json(raw: str | bytes, limit: int, max_depth: int = MAX_DEPTH) -> Any:
    """A client's JSON object, or ``None`` when it is too large, too deep, not JSON or not an
    object (the caller refuses it with a 4xx or a close code)."""
    if isinstance(raw, bytes):
        if len(raw) > limit:
            return None
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:  # refusal: the caller logs the refused message
            return None
    if len(raw.encode("utf-8")) > limit or nesting(raw) > max_depth:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):  # refusal: the caller logs the refused message
        return None
    return data if isinstance(data, dict) else None


class QuietFrames(logging.Filter):
    """On uvicorn's logger: its traceback for a WebSocket text frame that is not UTF-8 (a
    client's error, answered with close code 1007) becomes one warning line, at most one every
    ``every`` seconds, counting the frames it stood for."""

    MESSAGE = "Invalid UTF-8 sequence received from client."

    def __init__(self, every: float = 60.0, clock=time.monotonic) -> None:
        super().__init__()
        self.every, self.clock = every, clock
        self.last: float | None = None
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg != self.MESSAGE:
            return True
        record.exc_info = record.exc_text = record.stack_info = None
        self.count += 1
        now = self.clock()
        if self.last is not None and now - self.last < self.every:
            return False
        self.last = now
        record.msg, record.args = ("WebSocket text frames that were not UTF-8, closed with "
                                   "1007: %d", (self.count,))
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        self.count = 0
        return True


def quiet_frames(logger: str = "uvicorn.error") -> None:
    """Put one :class:`QuietFrames` on ``logger`` (again: nothing)."""
    log = logging.getLogger(logger)
    if not any(isinstance(f, QuietFrames) for f in log.filters):
        log.addFilter(QuietFrames())


class Refusals:
    """Every refused request, counted per kind (``"http 404 not_found"``, ``"ws 4004
    not_found"``, ``"message not_your_turn"``...). The first refusal of a kind is logged at
    once; later ones at most one line every ``every`` seconds, with how many it stands for."""

    def __init__(self, every: float = 60.0, clock=time.monotonic) -> None:
        self.every, self.clock = every, clock
        self.counts: Counter[str] = Counter()
        self._unsaid: Counter[str] = Counter()
        self._said: dict[str, float] = {}

    def note(self, kind: str, level: int = logging.WARNING) -> None:
        self.counts[kind] += 1
        self._unsaid[kind] += 1
        now = self.clock()
        last = self._said.get(kind)
        if last is not None and now - last < self.every:
            return
        self._said[kind] = now
        refusal_log.log(level, "refused %s: %d since the last line, %d in all",
                        kind, self._unsaid.pop(kind), self.counts[kind])
