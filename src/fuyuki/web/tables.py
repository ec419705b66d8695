"""A table in play: one engine, its seats, the connections watching it, its bots and timers.

Every message a client receives is built here, and only from ``game.view(seat)`` (spectators:
``view(None)``) and ``game.visible_events(seat, start)``. A move goes to ``game.submit``;
the engine refuses an illegal one with a typed :class:`IllegalAction` and nothing changes.
Every accepted submission is stored before anyone is told about it.

Who plays a seat: its player; a bot for a bot seat; the heuristic bot for a human seat whose
player timed out (the table's decision timer) or stayed disconnected longer than the grace
period — until the player comes back (reconnects, moves, or presses "back").

Everything here runs on the server's event loop: no locks, no threads.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from fuyuki.core.data import package_file
from fuyuki.core.errors import FuyukiError, IllegalAction
from fuyuki.sbb import new_game
from fuyuki.sbb.agents import bot_names, make_bot
from fuyuki.sbb.rules import OPTIONS, Rules, editions
from fuyuki.web import security
from fuyuki.web.storage import SeatRow, Storage, TableRow

try:  # the lead's event text (ja/en); the page renders its own text while it is missing
    from fuyuki.sbb import text as _sbb_text
except ImportError:  # pragma: no cover - depends on the tree
    _sbb_text = None

_now = time.monotonic          # the tables' clock (tests move it)

LEVELS = {"easy": "random", "normal": "heuristic", "hard": "hard"}
TAKEOVER_BOT = "heuristic"
SLOW_BOTS = {"hard"}            # searched in a worker process, never on the event loop

_POOL: list = []


def _pool():
    """One worker process for the slow bots (spawned on first use)."""
    if not _POOL:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        _POOL.append(ProcessPoolExecutor(max_workers=1,
                                         mp_context=multiprocessing.get_context("spawn")))
    return _POOL[0]


def shutdown_pool() -> None:
    while _POOL:
        _POOL.pop().shutdown(wait=False, cancel_futures=True)


def think(name: str, seed: int, rules_key: tuple, seconds: float, view: dict,
          decision: dict) -> Any:
    """A slow bot's answer, computed in the worker process from the seat's view only."""
    from fuyuki.core.protocol import Decision

    rules = rules_for(*rules_key)
    bot = make_bot(name, seed, rules=rules, seconds=seconds)
    d = Decision(decision["kind"], tuple(decision["options"]), decision["info"])
    return bot.choose(view, d)


@dataclass
class Settings:
    bot_delay: float = 0.6            # seconds between bot moves (0: at once, used by tests)
    disconnect_grace: float = 20.0    # a disconnected player's seat is bot-played after this
    max_message: int = 2048           # bytes of one client message
    msg_rate: float = 8.0             # client messages a second (token bucket) ...
    msg_burst: float = 24.0           # ... and burst
    http_rate: float = 0.5            # table creations/joins a second per client address ...
    http_burst: float = 20.0          # ... and burst
    allowed_origins: tuple[str, ...] = ()
    hello_timeout: float = 10.0
    outbox: int = 256                 # queued messages per connection before it is dropped
    max_tables: int = 10000           # tables held in memory (finished ones are let go first)
    max_conns_per_table: int = 64     # seats' tabs and spectators together
    hard_seconds: float = 1.0         # thinking time of the hard bot per decision


# ---------------------------------------------------------------------- configuration
def modes() -> list[str]:
    try:
        folder = package_file("fuyuki.sbb", "data", "modes")
        found = sorted(p.stem for p in folder.glob("*.toml"))
    except Exception:  # noqa: BLE001 - no modes folder
        found = []
    return ["standard"] + [m for m in found if m != "standard"]


def levels() -> list[str]:
    have = set(bot_names())
    return [lv for lv, name in LEVELS.items() if name in have]


@lru_cache(maxsize=64)
def rules_for(edition: str, mode: str, options: tuple[str, ...]) -> Rules:
    return Rules.preset(edition, None if mode == "standard" else mode, options)


def check_config(raw: dict[str, Any]) -> dict[str, Any]:
    """A table's configuration, every field checked; IllegalAction("bad_config") names the
    field and the reason."""

    def bad(key: str, reason: str) -> IllegalAction:
        return IllegalAction("bad_config", f"{key}: {reason}", field=key)

    if not isinstance(raw, dict):
        raise bad("-", "must be an object")
    known = {"players", "edition", "mode", "options", "bots", "bot_level", "timer"}
    for k in raw:
        if k not in known:
            raise bad(k, "unknown field")
    edition = raw.get("edition", "final")
    if edition not in editions():
        raise bad("edition", f"unknown edition (known: {editions()})")
    mode = raw.get("mode", "standard") or "standard"
    if mode not in modes():
        raise bad("mode", f"unknown mode (known: {modes()})")
    options = raw.get("options", [])
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise bad("options", "must be a list of names")
    for o in options:
        if o not in OPTIONS:
            raise bad("options", f"unknown option {o!r} (known: {list(OPTIONS)})")
    options = sorted(set(options))
    try:
        rules = rules_for(edition, mode, tuple(options))
    except FuyukiError as exc:
        raise bad("mode", str(exc)) from None
    players = raw.get("players", 4)
    if type(players) is not int or players not in rules.players:
        raise bad("players", f"must be one of {list(rules.players)}")
    bots = raw.get("bots", 0)
    if type(bots) is not int or not 0 <= bots <= players:
        raise bad("bots", f"must be a whole number from 0 to {players}")
    level = raw.get("bot_level", "normal")
    if level not in levels():
        raise bad("bot_level", f"must be one of {levels()}")
    timer = raw.get("timer", 0)
    if type(timer) is not int or not (timer == 0 or 10 <= timer <= 600):
        raise bad("timer", "0 (off) or 10 to 600 seconds")
    return {"players": players, "edition": edition, "mode": mode, "options": options,
            "bots": bots, "bot_level": level, "timer": timer}


def check_name(name: Any) -> str:
    if not isinstance(name, str):
        raise IllegalAction("bad_name", "a name is text")
    name = " ".join(name.split())
    if not 1 <= len(name) <= 24 or any(not ch.isprintable() for ch in name):
        raise IllegalAction("bad_name", "a name has 1 to 24 printable characters")
    return name


def event_json(e, cache: dict | None = None) -> dict[str, Any]:
    """An event as sent: kind, data (as JSON), ``private`` if only some seats see it, and its
    text in ja and en (``fuyuki.sbb.text``). ``cache`` keeps the rendering per event object."""
    key = id(e)
    if cache is not None and key in cache:
        return cache[key][1]
    data = json.loads(json.dumps(e.data))          # tuples become lists, as the client sees them
    out: dict[str, Any] = {"kind": e.kind, "data": data}
    if e.to is not None:
        out["private"] = True
    if _sbb_text is not None:
        try:
            plain = type(e)(e.kind, data, e.to)
            out["text"] = {lang: _sbb_text.render(plain, lang) for lang in ("ja", "en")}
        except Exception:  # noqa: BLE001 - the page falls back to its own text
            pass
    if cache is not None:
        cache[key] = (e, out)                      # holding e keeps its id unique
    return out


# ---------------------------------------------------------------------- connections
@dataclass(eq=False)
class Conn:
    seat: int | None
    outbox: asyncio.Queue
    limiter: security.RateLimiter
    log_pos: int = 0
    closed: bool = False
    strikes: int = 0

    def push(self, text: str) -> bool:
        if self.closed:
            return False
        try:
            self.outbox.put_nowait(text)
            return True
        except asyncio.QueueFull:
            self.closed = True        # a client that does not read is dropped
            try:
                self.outbox.put_nowait(None)
            except asyncio.QueueFull:
                pass
            return False


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------------- the table
@dataclass
class Table:
    row: TableRow
    storage: Storage
    settings: Settings
    conns: list[Conn] = field(default_factory=list)

    def __post_init__(self) -> None:
        cfg = self.row.config
        self.code = self.row.code
        self.rules = rules_for(cfg["edition"], cfg["mode"], tuple(cfg["options"]))
        self.game = new_game(cfg["players"], self.row.seed, self.rules)
        for seat, choice in self.row.submissions:
            self.game.submit(seat, choice)
        self.row.submissions = []          # the game's record holds them from now on
        n = cfg["players"]
        now = _now()
        self.away = [False] * n            # timed out: bot plays until they come back
        self.gone_since: list[float | None] = [now] * n
        self.asked_at: dict[int, int] = {}
        self.deadline: dict[int, float] = {}
        self.bots: dict[int, Any] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._bot_timer: asyncio.TimerHandle | None = None
        self._texts: dict[int, tuple] = {}
        self._thinking: set[int] = set()
        self.slow_failures = 0
        self._track_decisions()

    # ------------------------------------------------------------------ facts
    @property
    def status(self) -> str:
        return self.row.status

    @property
    def seats(self) -> list[SeatRow]:
        return self.row.seats

    @property
    def step(self) -> int:
        return len(self.game.record.submissions)

    def seat_for_token(self, token: str) -> int | None:
        for s in self.seats:
            if s.kind == "human" and security.token_matches(token, s.token_hash):
                return s.seat
        return None

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat and not c.closed for c in self.conns)

    def auto(self, seat: int, now: float | None = None) -> bool:
        """Is a bot playing ``seat`` right now?"""
        s = self.seats[seat]
        if s.kind == "bot":
            return True
        if self.status != "playing":
            return False
        if self.away[seat]:
            return True
        since = self.gone_since[seat]
        if since is not None and not self.connected(seat):
            return (now or _now()) - since >= self.settings.disconnect_grace
        return False

    def public_seats(self) -> list[dict[str, Any]]:
        now = _now()
        return [{"seat": s.seat, "name": s.name, "kind": s.kind,
                 "level": s.level if s.kind == "bot" else None,
                 "open": s.kind == "human" and not s.token_hash,
                 "connected": s.kind == "bot" or self.connected(s.seat),
                 "auto": self.auto(s.seat, now) if self.status == "playing" else s.kind == "bot"}
                for s in self.seats]

    def summary(self) -> dict[str, Any]:
        """The table as anyone with its code may see it (no tokens, no seed)."""
        return {"code": self.code, "status": self.status, "config": self.row.config,
                "seats": self.public_seats(), "step": self.step,
                "result": self.game.result if self.game.over else None}

    # ------------------------------------------------------------------ lobby
    def join(self, name: str) -> tuple[int, str]:
        if self.status != "waiting":
            raise IllegalAction("table_started", "the game has already started")
        for s in self.seats:
            if s.kind == "human" and not s.token_hash:
                token = security.new_token()
                s.name, s.token_hash = name, security.hash_token(token)
                self.storage.update_seat(self.code, s)
                self.gone_since[s.seat] = _now()
                if all(x.kind == "bot" or x.token_hash for x in self.seats):
                    self._start()
                self.refresh()
                return s.seat, token
        raise IllegalAction("table_full", "every seat is taken")

    def start(self, seat: int | None) -> None:
        """The host (seat 0) starts now: open seats become bots of the table's level."""
        if self.status != "waiting":
            raise IllegalAction("table_started", "the game has already started")
        if seat != 0:
            raise IllegalAction("not_host", "only the host (seat 0) can start the game")
        for s in self.seats:
            if s.kind == "human" and not s.token_hash:
                s.kind, s.level, s.name = "bot", self.row.config["bot_level"], ""
                self.storage.update_seat(self.code, s)
        self._start()
        self.refresh()

    def _start(self) -> None:
        self.row.status = "playing"
        self.storage.set_status(self.code, "playing")
        self._track_decisions()

    # ------------------------------------------------------------------ moves
    def move(self, seat: int | None, choice: Any, turn: Any) -> None:
        if seat is None:
            raise IllegalAction("spectator", "spectators cannot move")
        if self.status == "waiting":
            raise IllegalAction("not_started", "the game has not started yet")
        if self.game.over:
            raise IllegalAction("game_over", "the game is over")
        if not (isinstance(choice, str) and len(choice) <= 64) and type(choice) is not int:
            raise IllegalAction("bad_choice", "a choice is a short text or a whole number")
        if seat not in self.game.pending():
            raise IllegalAction("not_your_turn", "you have no decision to make now")
        if type(turn) is not int or turn != self.asked_at.get(seat):
            raise IllegalAction("stale_decision", "that decision is no longer open")
        self._apply(seat, choice)
        self.away[seat] = False
        self.refresh()

    def back(self, seat: int | None) -> None:
        if seat is not None and self.away[seat]:
            self.away[seat] = False
            self.refresh()

    def _apply(self, seat: int, choice: Any) -> None:
        g = self.game
        g.submit(seat, choice)                         # IllegalAction: nothing changed
        self.asked_at.pop(seat, None)                  # answered: a next decision is a new turn
        self.deadline.pop(seat, None)
        index = len(g.record.submissions) - 1
        try:
            self.storage.append_submission(self.code, index, seat, g.record.submissions[-1][1])
            if g.over:
                self.row.status = "over"
                self.storage.set_status(self.code, "over")
        except Exception:
            # the store refused: go back to what it holds, so memory never runs ahead of it
            self._rebuild()
            self._track_decisions()
            self.broadcast()
            raise IllegalAction("storage_error", "the move could not be saved; try again") from None

    def _rebuild(self) -> None:
        row = self.storage.load_table(self.code)
        if row is None:
            return
        self.row.status = row.status
        self.game = new_game(row.config["players"], row.seed, self.rules)
        for s, c in row.submissions:
            self.game.submit(s, c)
        self.asked_at.clear()
        self._texts.clear()
        for c in self.conns:
            c.log_pos = 0

    # ------------------------------------------------------------------ bots and timers
    def _track_decisions(self) -> None:
        """Note when each seat's open decision appeared (its ``turn``) and its deadline."""
        pending = self.game.pending() if self.status == "playing" else {}
        now = _now()
        timer = self.row.config.get("timer", 0)
        for seat in list(self.asked_at):
            if seat not in pending:
                del self.asked_at[seat]
                self.deadline.pop(seat, None)
        for seat in pending:
            if seat not in self.asked_at:
                self.asked_at[seat] = self.step
                if timer and self.seats[seat].kind == "human":
                    self.deadline[seat] = now + timer
        for seat, t in list(self.deadline.items()):
            if now >= t and not self.away[seat]:
                self.away[seat] = True
                del self.deadline[seat]

    def _bot(self, seat: int):
        bot = self.bots.get(seat)
        name = self._bot_name(seat)
        if bot is None or getattr(bot, "name", name) != name:
            bot = self.bots[seat] = make_bot(name, (self.row.seed * 31 + seat) % 2**31,
                                             self.game.rules)
        return bot

    def _bot_move(self, seat: int) -> None:
        d = self.game.pending()[seat]
        bot = self._bot(seat)
        try:
            choice = bot.choose(self.game.view(seat) if getattr(bot, "needs_view", True) else None, d)
            self._apply(seat, choice)
        except IllegalAction as exc:
            if exc.code == "storage_error":
                raise
            self._apply(seat, d.options[0])

    def _bot_name(self, seat: int) -> str:
        s = self.seats[seat]
        return LEVELS.get(s.level, TAKEOVER_BOT) if s.kind == "bot" else TAKEOVER_BOT

    def _auto_pending(self) -> list[int]:
        """Seats a bot must answer now (a slow bot already thinking is left out; it is
        started here)."""
        if self.status != "playing" or self.game.over:
            return []
        now = _now()
        seats = []
        for seat in sorted(self.game.pending()):
            if seat in self._thinking or not self.auto(seat, now):
                continue
            if self._bot_name(seat) in SLOW_BOTS:
                self._think_elsewhere(seat)
            else:
                seats.append(seat)
        return seats

    def _think_elsewhere(self, seat: int) -> None:
        self._thinking.add(seat)
        self._loop().create_task(self._slow_move(seat, self.asked_at.get(seat)))

    async def _slow_move(self, seat: int, turn: int | None) -> None:
        d = self.game.pending()[seat]
        cfg = self.row.config
        try:
            try:
                choice = await self._loop().run_in_executor(
                    _pool(), think, self._bot_name(seat), (self.row.seed * 31 + seat) % 2**31,
                    (cfg["edition"], cfg["mode"], tuple(cfg["options"])),
                    self.settings.hard_seconds, self.game.view(seat), d.to_json())
            except Exception:  # noqa: BLE001 - the worker failed: the heuristic answers
                choice = None
                self.slow_failures += 1
            if self.game.pending().get(seat) is not d or self.asked_at.get(seat) != turn:
                return                       # answered meanwhile, or the game moved on
            if choice is None:
                choice = make_bot(TAKEOVER_BOT, seat, self.game.rules).choose(
                    self.game.view(seat), d)
            try:
                self._apply(seat, choice)
            except IllegalAction as exc:
                if exc.code == "storage_error":
                    return
                self._apply(seat, d.options[0])
        finally:
            self._thinking.discard(seat)
        self.refresh()

    def refresh(self) -> None:
        """After any change: let bots play, tell everyone, set the next timer."""
        self._track_decisions()
        if self.settings.bot_delay <= 0:
            guard = 0
            while (seats := self._auto_pending()) and guard < 100000:
                for seat in seats:
                    if seat in self.game.pending():
                        self._bot_move(seat)
                        guard += 1
                self._track_decisions()
        elif self._auto_pending() and self._bot_timer is None:
            self._bot_timer = self._loop().call_later(self.settings.bot_delay, self._bot_tick)
        self.broadcast()
        self._schedule()

    def _bot_tick(self) -> None:
        self._bot_timer = None
        seats = self._auto_pending()
        if not seats:
            return
        pending = self.game.pending()
        # simultaneous decisions (bids, 強運 offers) are answered together; a sequence
        # (drafts) one move a tick, so the players can follow it
        for seat in seats if len(pending) > 1 else seats[:1]:
            if seat in self.game.pending():
                try:
                    self._bot_move(seat)
                except IllegalAction:
                    break
        self.refresh()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.status != "playing" or self.game.over:
            return
        times = [t for s, t in self.deadline.items() if not self.away[s]]
        grace = self.settings.disconnect_grace
        for seat in self.game.pending():
            since = self.gone_since[seat]
            if self.seats[seat].kind == "human" and since is not None and not self.connected(seat):
                times.append(since + grace)
        if times:
            delay = max(0.0, min(times) - _now()) + 0.01
            self._timer = self._loop().call_later(delay, self.refresh)

    @staticmethod
    def _loop() -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    def close(self) -> None:
        for h in (self._timer, self._bot_timer):
            if h is not None:
                h.cancel()
        self._timer = self._bot_timer = None

    # ------------------------------------------------------------------ connections
    def attach(self, conn: Conn) -> None:
        self.conns.append(conn)
        if conn.seat is not None:
            self.gone_since[conn.seat] = None
            self.away[conn.seat] = False
        self.refresh()

    def detach(self, conn: Conn) -> None:
        conn.closed = True
        if conn in self.conns:
            self.conns.remove(conn)
        if conn.seat is not None and not self.connected(conn.seat):
            self.gone_since[conn.seat] = _now()
        if self.conns or self.status == "playing":
            self.refresh()

    def state_message(self, conn: Conn) -> dict[str, Any]:
        seat = conn.seat
        msg: dict[str, Any] = {"type": "state", "code": self.code, "status": self.status,
                               "config": self.row.config, "you": seat, "step": self.step,
                               "seats": self.public_seats()}
        if self.status == "waiting":
            return msg
        g = self.game
        view = g.view(seat)
        msg["view"] = view
        msg["events"] = [event_json(e, self._texts) for e in g.visible_events(seat, conn.log_pos)]
        msg["from_start"] = conn.log_pos == 0
        conn.log_pos = len(g.events)
        if seat is not None:
            mine = view["me"]["decision"] is not None
            msg["turn"] = self.asked_at.get(seat) if mine else None
            t = self.deadline.get(seat)
            msg["deadline"] = max(0.0, round(t - _now(), 1)) if mine and t else None
            msg["auto"] = self.auto(seat)
        return msg

    def broadcast(self) -> None:
        for conn in list(self.conns):
            if not conn.closed:
                conn.push(dumps(self.state_message(conn)))

    # ------------------------------------------------------------------ replays
    def replay_frame(self, step: int) -> dict[str, Any]:
        """The public view after ``step`` submissions and the public events of that step.
        Only for a finished game."""
        if self.status != "over":
            raise IllegalAction("not_over", "replays open when the game is over")
        subs = self.game.record.submissions
        if not 0 <= step <= len(subs):
            raise IllegalAction("bad_step", f"step is 0 to {len(subs)}")
        cfg = self.row.config
        g = new_game(cfg["players"], self.row.seed, self.rules)
        start = 0
        for i, (seat, choice) in enumerate(subs[:step]):
            if i == step - 1:
                start = len(g.events)
            g.submit(seat, choice)
        return {"step": step, "steps": len(subs), "view": g.view(None),
                "events": [event_json(e) for e in g.visible_events(None, start)]}


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
        cfg = check_config(raw)
        name = check_name(host) if host is not None else None
        n, bots = cfg["players"], cfg["bots"]
        humans = n - bots
        if name is not None and humans == 0:
            raise IllegalAction("bad_config", "bots: no seat is left for the host", field="bots")
        import secrets as _secrets

        seats = [SeatRow(i, "human") if i < humans else SeatRow(i, "bot", level=cfg["bot_level"])
                 for i in range(n)]
        code = security.new_code()
        while self.storage.load_table(code) is not None:
            code = security.new_code()
        token = None
        if name is not None:
            token = security.new_token()
            seats[0].name, seats[0].token_hash = name, security.hash_token(token)
        status = "waiting" if any(s.kind == "human" and not s.token_hash for s in seats) else "playing"
        row = TableRow(code, _secrets.randbelow(2**31) if seed is None else seed, cfg, status,
                       time.time(), seats, [])
        self.storage.create_table(row)
        self._make_room()
        t = self.tables[code] = Table(row, self.storage, self.settings)
        if name is not None:
            t.gone_since[0] = _now()
        return t, (0 if name is not None else None), token

    def close(self) -> None:
        for t in self.tables.values():
            t.close()
        shutdown_pool()
