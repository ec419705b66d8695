"""A table in play: one engine (any game, through its adapter), its seats, the connections
watching it, its bots and timers. Nothing here names a game.

The table speaks to its game only through the engine contract (:mod:`fuyuki.core.contract`:
``pending``, ``submit``, ``view``, ``events_for``, ``step``, ``over``, ``result``, ``record``).
Every message a client receives is built here, and only from the game's ``view(seat)``
(spectators: ``view(None)``; the adapter shapes it into page data) and the events the seat may
see (``events_for(seat, since)``). A move goes to ``game.submit``; the engine
refuses an illegal one with a typed :class:`IllegalAction` and nothing changes. Every accepted
submission is stored before anyone is told about it.

Who plays a seat: its player; a bot for a bot seat; the game's takeover bot for a human seat
whose player timed out (the table's decision timer) or stayed disconnected longer than the
grace period — until the player comes back (reconnects, moves, or presses "back").

Everything here runs on the server's event loop: no locks, no threads.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from fuyuki.core import contract
from fuyuki.core.errors import IllegalAction
from fuyuki.web import security
from fuyuki.web.bots import bot_seed, pool, think
from fuyuki.web.chat import MAX_ENTRIES, chat_entry
from fuyuki.web.metrics import Metrics
from fuyuki.web.games import DEFAULT, LIVE_TIMER, Adapter, adapter
from fuyuki.web.settings import Settings, name_key
from fuyuki.web.storage import SeatRow, StepTaken, Storage, TableRow

log = logging.getLogger("fuyuki.web.table")

_now = time.monotonic          # the tables' clock (tests move it)
_wall = time.time              # the clock of stored decision deadlines and of a game's due submissions

# WebSocket close codes of the table server (1008: origin, hello or token refused)
CLOSE_REPLACED = 4001          # a newer page of the same seat took this page's place
CLOSE_NOT_FOUND = 4004         # no such table
CLOSE_SPECTATORS_FULL = 4008   # the table's spectator places (or this address's) are taken
CLOSE_TOO_MANY = 4029          # this address has too many open connections


def event_json(adapter_: Adapter, game: Any, e, cache: dict | None = None) -> dict[str, Any]:
    """An event as sent: kind, data (as JSON), ``private`` if only some seats see it, and its
    text in ja and en (the game adapter's). ``cache`` keeps the rendering per event object;
    an adapter with ``shared_texts`` has each distinct event's text rendered once for all
    tables (the latest ``SHARED_TEXTS`` kept)."""
    key = id(e)
    if cache is not None and key in cache:
        return cache[key][1]
    raw = json.dumps(e.data)
    data = json.loads(raw)                         # tuples become lists, as the client sees them
    data.pop(contract.TEXTS, None)                 # an engine's own text goes once, as ``text``
    out: dict[str, Any] = {"kind": e.kind, "data": data}
    if e.to is not None:
        out["private"] = True
    shared = (adapter_.name, e.kind, e.to and tuple(e.to), raw) if adapter_.shared_texts else None
    text = _texts.get(shared, _UNSENT) if shared else _UNSENT
    if text is _UNSENT:
        try:
            text = adapter_.event_text(game, e)
        except Exception:  # noqa: BLE001 - a bug: logged; the page falls back to its own text
            log.exception("%s: the text of a %s event failed", adapter_.name, e.kind)
            text = None
        if shared:
            if len(_texts) >= SHARED_TEXTS:
                del _texts[next(iter(_texts))]     # the oldest
            _texts[shared] = text
    if text is not None:
        out["text"] = text
    if cache is not None:
        cache[key] = (e, out)                      # holding e keeps its id unique
    return out


SHARED_TEXTS = 20000
_texts: dict[tuple, Any] = {}  # (game, kind, audience, data) -> text, of adapters with shared_texts
_UNSENT = object()             # not rendered yet; a field a patched page does not hold yet


# ---------------------------------------------------------------------- connections
@dataclass(eq=False)
class Conn:
    seat: int | None
    outbox: asyncio.Queue
    limiter: security.RateLimiter
    log_pos: int = 0
    chat_pos: int = 0
    closed: bool = False
    strikes: int = 0
    address: str = ""
    close_code: int = 1000        # sent when the server ends this connection
    table: str = ""               # the table's code (for the log)
    patch: bool = False           # the page applies patches (its hello's "patch": true)
    held: dict[str, Any] = field(default_factory=dict)   # what a patched page holds now

    def push(self, text: str) -> bool:
        if self.closed:
            return False
        try:
            self.outbox.put_nowait(text)
            return True
        except asyncio.QueueFull:  # refusal: logged here
            log.warning("table %s: a page that does not read its messages was dropped (1008)",
                        self.table)
            self.close_code = 1008
            self.drop()               # a client that does not read is dropped
            return False

    def drop(self) -> None:
        """Close this connection from the server's side (its sender ends it)."""
        self.closed = True
        try:
            self.outbox.put_nowait(None)
        except asyncio.QueueFull:  # not an error: the sender closes after the queued messages
            log.debug("table %s: a full outbox closes after its messages", self.table)


SERVER_ERROR = {"type": "error", "code": "server_error", "message": "the server failed"}


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


# ---------------------------------------------------------------------- the table
@dataclass
class Table:
    row: TableRow
    storage: Storage
    settings: Settings
    conns: list[Conn] = field(default_factory=list)
    notifier: Any = None               # the "your turn" sender (fuyuki.web.notify.Notifier)
    metrics: Metrics = field(default_factory=Metrics)   # the app's (fuyuki.web.metrics)
    cluster: Any = None                # several processes share the store (fuyuki.web.cluster)

    def __post_init__(self) -> None:
        cfg = self.row.config
        self.code = self.row.code
        self.adapter = adapter(cfg.get("game", DEFAULT))
        self.game = self._replayed(self.row.submissions)
        self.row.submissions = []          # the game's record holds them from now on
        self.chat: list[dict[str, Any]] = self.row.chat
        self._chat_limits: dict[int, security.RateLimiter] = {}
        self.rematch_code: str | None = None   # the table of the same players' next game
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
        self._timed: set[int] = set()      # seats whose timer started for the open decision
        self._waiting: tuple | None = None  # (step, status, pending) -> waiting_for
        self.slow_failures = 0
        self.active_at = now               # the last connection, departure or move
        self.elsewhere: set[int] = set()   # seats with a page open on another process (owner)
        self.behind = False                # another process stored more (caught up when used)
        self._restore_timers()
        self.invites: dict[int, str] = {}  # seat tokens made at creation, for the creator only
        self._wake: float | None = None    # when the game has due submissions (_now() time)
        self._tokens_read = now            # when the seats' token hashes were last read
        self._track_decisions()

    # ------------------------------------------------------------------ facts
    @property
    def status(self) -> str:
        return self.row.status

    @property
    def seats(self) -> list[SeatRow]:
        return self.row.seats

    @property
    def config(self) -> dict[str, Any]:
        """The table's settings as shown to anyone, its game named (private fields left out)."""
        hidden = self.adapter.private_config
        return {"game": self.adapter.name,
                **{k: v for k, v in self.row.config.items() if k not in hidden}}

    @property
    def submissions(self) -> list[tuple[int, Any]]:
        """The game's ordered (seat, choice) record."""
        return self.adapter.submissions(self.game)

    @property
    def step(self) -> int:
        return len(self.submissions)

    @property
    def seed(self) -> int:
        return self.row.seed

    @staticmethod
    def now() -> float:
        """The tables' clock (monotonic seconds): grace periods, timers, rate limits."""
        return _now()

    @staticmethod
    def wall() -> float:
        """Wall-clock seconds: stored deadlines, a vote's closing time."""
        return _wall()

    def _replayed(self, submissions: list[tuple[int, Any]]) -> Any:
        """A new game of this table's settings and seed with ``submissions`` replayed (a
        submission the game refuses is a DataError naming it)."""
        g = self.adapter.new_game(self.row.config, self.row.seed)
        return contract.submit_all(g, submissions, f"table {self.code}")

    def seat_for_token(self, token: str) -> int | None:
        """The human seat ``token`` opens. A token that opens none is checked once more
        against the seats as stored when ``fuyuki link`` may have given a seat a new link
        meanwhile (:meth:`_reload_tokens`)."""
        seat = self._match(token)
        if seat is None and self._reload_tokens():
            seat = self._match(token)
        return seat

    def _match(self, token: str) -> int | None:
        for s in self.seats:
            if s.kind == "human" and security.token_matches(token, s.token_hash):
                return s.seat
        return None

    def _reload_tokens(self) -> bool:
        """Take the seats' token hashes from storage again (at most once every
        ``settings.token_reload`` seconds per table): a seat's link made by ``fuyuki link`` while
        this table is open. A seat whose hash changed has its open pages closed, as with
        :meth:`reissue` (its old link stops working at once); True if one changed."""
        now = _now()
        if now - self._tokens_read < self.settings.token_reload:
            return False
        self._tokens_read = now
        stored = self.storage.load_table(self.code)
        changed = False
        for row in stored.seats if stored is not None else ():
            mine = self.seats[row.seat]
            if row.kind == mine.kind == "human" and row.token_hash and \
                    row.token_hash != mine.token_hash:
                mine.token_hash = row.token_hash
                self._close_seat(row.seat)
                log.info("table %s: seat %d took up a new link made by fuyuki link",
                         self.code, row.seat)
                changed = True
        return changed

    def _close_seat(self, seat: int) -> None:
        for c in list(self.conns):
            if c.seat == seat:
                c.close_code = CLOSE_REPLACED
                c.drop()

    @property
    def pbp(self) -> bool:
        """A play-by-post table (a decision timer longer than a live game's ``LIVE_TIMER``):
        its timers run with the pages closed, its bots play with nobody connected, and a
        closed page does not hand its seat to the bot — only an expired timer does, for that
        one decision."""
        return self.row.config.get("timer", 0) > LIVE_TIMER

    @property
    def is_owner(self) -> bool:
        """Does this process run the table's bots and timers? (Always, alone; with several
        processes on one store, the one holding the table's lock: :mod:`fuyuki.web.cluster`.)"""
        return self.cluster is None or self.cluster.owns(self.code)

    def may_notify(self) -> bool:
        """Does this process send the table's notices? (Its owner, when several processes
        share the tables; the stored claim of each notice refuses a second sender anyway.)"""
        return self.is_owner

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat and not c.closed for c in self.conns) or seat in self.elsewhere

    def anyone_seated(self, here: bool = False) -> bool:
        """Is a person's page connected to one of the seats (``here``: to this process)?
        (Spectators do not count: bots never play a table on their own.)"""
        return any(c.seat is not None and not c.closed for c in self.conns) or \
            (not here and bool(self.elsewhere))

    def running(self, now: float | None = None) -> bool:
        """Does the table count against the server's bound of running tables? Waiting or
        playing, and someone connected or active within ``idle_seconds``."""
        if self.status == "over":
            return False
        return bool(self.conns) or (now or _now()) - self.active_at < self.settings.idle_seconds

    def auto(self, seat: int, now: float | None = None) -> bool:
        """Is a bot playing ``seat`` right now?"""
        s = self.seats[seat]
        if s.kind == "bot":
            return True
        if self.status != "playing":
            return False
        if s.kind != "human" or self.adapter.takeover is None:
            return False
        if self.away[seat]:
            return True
        since = self.gone_since[seat]
        if since is not None and not self.connected(seat) and not self.pbp:
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
        return {"code": self.code, "status": self.status, "config": self.config,
                "seats": self.public_seats(), "step": self.step,
                "result": self.game.result if self.game.over else None}

    # ------------------------------------------------------------------ lobby
    def join(self, name: str) -> tuple[int, str]:
        for _ in range(self.settings.step_retries):
            if self.status != "waiting":
                raise IllegalAction("table_started", "the game has already started")
            key = name_key(name)
            if any(s.name and name_key(s.name) == key for s in self.seats):
                raise IllegalAction("name_taken", "another player at this table has that name")
            s = next((s for s in self.seats if s.kind == "human" and not s.token_hash), None)
            if s is None:
                raise IllegalAction("table_full", "every seat is taken")
            token = security.new_token()
            try:
                self.storage.fill_seat(self.code, SeatRow(s.seat, s.kind, name,
                                                          security.hash_token(token), s.level))
            except StepTaken:   # not an error: a person joined on another process first; look again
                self.sync(refresh=False)
                continue
            s.name, s.token_hash = name, security.hash_token(token)
            self.gone_since[s.seat] = _now()
            if all(x.kind == "bot" or x.token_hash for x in self.seats):
                self._start()
            self.refresh()
            return s.seat, token
        raise IllegalAction("storage_error", "the seat could not be saved; try again")

    def start(self, seat: int | None) -> None:
        """The host (seat 0) starts now: open seats become bots of the table's level."""
        if self.status != "waiting":
            raise IllegalAction("table_started", "the game has already started")
        if seat != 0:
            raise IllegalAction("not_host", "only the host (seat 0) can start the game")
        taken = False
        for s in self.seats:
            if s.kind == "human" and not s.token_hash:
                level = self.row.config["bot_level"]
                try:
                    self.storage.fill_seat(self.code, SeatRow(s.seat, "bot", "", "", level))
                except StepTaken:   # not an error: a person took the seat on another process
                    taken = True
                    continue
                s.kind, s.level, s.name = "bot", level, ""
        if taken:
            self.sync(refresh=False)
        self._start()
        self.refresh()

    def _start(self) -> None:
        self.row.status = "playing"
        self.storage.set_status(self.code, "playing")
        log.info("table %s started", self.code, extra={"table": self.code, "event": "started"})
        self._own()
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
        for _ in range(self.settings.step_retries):
            if self.game.over:
                raise IllegalAction("game_over", "the game is over")
            if seat not in self.game.pending():
                raise IllegalAction("not_your_turn", "you have no decision to make now")
            if type(turn) is not int or turn != self.asked_at.get(seat):
                raise IllegalAction("stale_decision", "that decision is no longer open")
            try:
                self._apply(seat, choice, back=not self.is_owner)   # the owner hears it with the move
                break
            except StepTaken:      # not an error: another process stored this step first; caught up, check again
                continue
        else:
            raise IllegalAction("storage_error", "the move could not be saved; try again")
        self.away[seat] = False
        self.refresh()

    def back(self, seat: int | None) -> None:
        if seat is not None and not self.is_owner:
            self.cluster.back(self.code, seat)
        if seat is not None and self.away[seat]:
            self.away[seat] = False
            self.refresh()

    def _apply(self, seat: int, choice: Any, back: bool = False) -> None:
        """Submit, store, tell. A step another process stored first (a shared store): the
        game goes back to the stored steps and catches up with the store, and StepTaken is
        raised for the caller to look again. ``back``: a player moved on a process that does
        not run the table's bots; the stored move tells the owner (its bot stops playing the seat)."""
        g = self.game
        start = g.step
        asked = dict(self.asked_at)
        g.submit(seat, choice)                         # IllegalAction: nothing changed
        self.asked_at.pop(seat, None)                  # answered: a next decision is a new turn
        if self.pbp:
            self.away[seat] = False                    # a timed-out seat's bot answered that one
        self._stop_timer(seat)
        self.active_at = _now()
        subs = self.submissions
        try:
            if back:
                self.storage.append_submission(self.code, len(subs) - 1, seat, subs[-1][1], back=True)
            else:
                self.storage.append_submission(self.code, len(subs) - 1, seat, subs[-1][1])
            if g.over:
                self.row.status = "over"
                self.storage.set_status(self.code, "over")
                log.info("table %s finished after %d steps", self.code, len(subs),
                         extra={"table": self.code, "event": "finished", "step": len(subs)})
            if self.notifier is not None:
                for key, text in self.adapter.notices(g, start):
                    self.notifier.notice(self, key, text)
        except StepTaken:
            log.info("table %s: step %d was stored by another process; catching up", self.code,
                     len(subs) - 1, extra={"table": self.code, "event": "step_taken",
                                           "step": len(subs) - 1})
            self.game = self._replayed(subs[:-1])
            self.asked_at = asked
            self._texts.clear()
            self.sync(refresh=False)
            self.broadcast()
            raise
        except Exception:
            # the store refused: go back to what it holds, so memory never runs ahead of it
            log.exception("table %s: step %d could not be stored; rebuilt from storage",
                          self.code, len(subs) - 1)
            self._rebuild()
            self._track_decisions()
            self.broadcast()
            raise IllegalAction("storage_error", "the move could not be saved; try again") from None
        self.metrics.moved(self.adapter.name)

    def _rebuild(self) -> None:
        row = self.storage.load_table(self.code)
        if row is None:
            return
        self.row.status = row.status
        self.game = self._replayed(row.submissions)
        self.asked_at.clear()
        self._texts.clear()
        for c in self.conns:
            c.log_pos = 0

    # ------------------------------------------------------------------ several processes
    def sync(self, refresh: bool = True) -> None:
        """Take up what other processes stored (:mod:`fuyuki.web.cluster`): the seats, the
        status, the chat lines and the moves after this process's step, submitted in their
        stored order; then (``refresh``) bots, timers and pages as after any change."""
        self.behind = False
        row = self.storage.load_since(self.code, self.step, len(self.chat))
        if row is None:
            return
        for stored in row.seats:
            mine = self.seats[stored.seat]
            if mine.kind == "human" and mine.token_hash and stored.token_hash != mine.token_hash:
                self._close_seat(stored.seat)      # a new link made elsewhere: the old one ends
            mine.kind, mine.name, mine.token_hash, mine.level, mine.deadline = \
                stored.kind, stored.name, stored.token_hash, stored.level, stored.deadline
        self.chat.extend(row.chat)
        if self.row.status != "over":
            self.row.status = row.status
        for seat, choice in row.submissions:
            try:
                self.game.submit(seat, choice)
            except IllegalAction:                  # cannot happen to stored steps: replay all
                log.exception("table %s: a stored step does not apply here; rebuilt", self.code)
                self._rebuild()
                break
            self.asked_at.pop(seat, None)
            self._stop_timer(seat)
            self._track_decisions()
        if row.submissions:
            self.active_at = _now()
        if self.game.over and self.row.status != "over":
            self.row.status = "over"
            if row.status != "over":               # its writer stopped before saying so
                self.storage.set_status(self.code, "over")
        if refresh:
            self.refresh()

    def owner_changed(self, owner: bool) -> None:
        """This process took the table's bots and timers (its stored timers go on) or let
        them go (the stored deadlines stay for the next owner)."""
        if owner:
            self._restore_timers()
        else:
            self.close()
            self.deadline.clear()
            self._timed.clear()
            self.elsewhere.clear()
        self.refresh()

    def seen_elsewhere(self, seats: set[int]) -> None:
        """The owner hears which seats have a page open on other processes: a seat counts
        as connected (no takeover, its timer runs) as with a page here."""
        if seats == self.elsewhere:
            return
        here = {c.seat for c in self.conns if not c.closed}
        for seat in seats - self.elsewhere - here:
            self.gone_since[seat] = None
            self.away[seat] = False
        self.elsewhere = set(seats)
        for seat in range(len(self.seats)):
            if seat not in here and seat not in seats and self.gone_since[seat] is None:
                self.gone_since[seat] = _now()
        self.refresh()

    def back_elsewhere(self, seat: int) -> None:
        """A player of ``seat`` acted on another process: the owner's bot stops playing it."""
        if self.is_owner and 0 <= seat < len(self.away) and self.away[seat]:
            self.away[seat] = False
            self.refresh()

    def _own(self) -> None:
        """With several processes: run this playing table's bots and timers here if nobody
        does (a person's page opened here, the game started here) — at once, not at the
        cluster's next tick."""
        if self.cluster is not None and self.status == "playing" and not self.is_owner \
                and self.cluster.try_own(self.code):
            self.sync(refresh=False)
            self._restore_timers()

    def share_presence(self, seat: int) -> None:
        """Tell the other processes how many pages of ``seat`` are open here."""
        if self.cluster is not None:
            self.cluster.presence(self.code, seat, sum(c.seat == seat and not c.closed
                                                       for c in self.conns))

    # ------------------------------------------------------------------ bots and timers
    def _track_decisions(self) -> None:
        """Note when each seat's open decision appeared (its ``turn``; a person whose page is
        closed is told, :meth:`_opened`) and start its timer — a live table's once the seat's
        page is connected, a play-by-post table's at once (the deadline is stored: it outlives
        a restart)."""
        pending = self.game.pending() if self.status == "playing" else {}
        now = _now()
        timer = self.row.config.get("timer", 0)
        for seat in list(self.asked_at):
            if seat not in pending:
                del self.asked_at[seat]
                self._stop_timer(seat)
        for seat in pending:
            if seat not in self.asked_at:
                self.asked_at[seat] = self.step
                self._opened(seat)
            if timer and seat not in self._timed and self.seats[seat].kind == "human" \
                    and (self.pbp or self.connected(seat)) and self.is_owner:
                self._timed.add(seat)
                self.deadline[seat] = now + timer
                self._store_deadline(seat, _wall() + timer)
        for seat, t in list(self.deadline.items()):
            if now >= t and not self.away[seat]:
                self.away[seat] = True
                del self.deadline[seat]

    def _opened(self, seat: int) -> None:
        """A decision opened for ``seat``: a person whose page is closed hears of it (once per
        decision: its key counts the seat's submissions so far, the same after a restart)."""
        if self.notifier is None or self.seats[seat].kind != "human" or self.connected(seat) \
                or self.auto(seat):
            return
        n = sum(1 for s, _ in self.submissions if s == seat)
        self.notifier.turn(self, seat, f"turn:{n}")

    def _stop_timer(self, seat: int) -> None:
        self.deadline.pop(seat, None)
        if seat in self._timed:
            self._timed.discard(seat)
            self._store_deadline(seat, None)

    def _store_deadline(self, seat: int, deadline: float | None) -> None:
        self.seats[seat].deadline = deadline
        try:
            self.storage.set_deadline(self.code, seat, deadline)
        except Exception:  # noqa: BLE001 - a lost deadline: a full timer after a restart
            log.warning("table %s: seat %d's decision timer could not be stored", self.code, seat,
                        exc_info=True)

    def _restore_timers(self) -> None:
        """After a restart: the timers that ran go on (with at least
        ``restart_timer_floor`` seconds left, for the page to reconnect)."""
        if self.status != "playing" or not self.row.config.get("timer", 0) or not self.is_owner:
            return
        pending = self.game.pending()
        for s in self.seats:
            if s.deadline is not None and s.seat in pending:
                left = max(s.deadline - _wall(), self.settings.restart_timer_floor)
                self._timed.add(s.seat)
                self.deadline[s.seat] = _now() + left

    def _bot(self, seat: int):
        bot = self.bots.get(seat)
        name = self._bot_name(seat)
        if bot is None or getattr(bot, "name", name) != name:
            bot = self.bots[seat] = self.adapter.make_bot(
                name, bot_seed(self.row.seed, seat), seat, self.row.config)
        return bot

    def _bot_move(self, seat: int) -> None:
        d = self.game.pending()[seat]
        bot = self._bot(seat)
        try:
            start = time.perf_counter()
            choice = bot.choose(self.game.view(seat) if getattr(bot, "needs_view", True) else None, d)
            self.metrics.thought(self, seat, start)
            self._apply(seat, choice)
        except IllegalAction as exc:
            if exc.code == "storage_error":
                raise
            self._first_option(seat, d, exc)

    def _first_option(self, seat: int, d: Any, exc: IllegalAction) -> None:
        """A bot chose what the game refused (a bug of the bot): its first option is played."""
        log.warning("table %s: the %s bot of seat %d chose what the game refused (%s); its "
                    "first option is played", self.code, self._bot_name(seat), seat, exc.code)
        self._apply(seat, d.options[0])

    def _bot_name(self, seat: int) -> str:
        s = self.seats[seat]
        takeover = self.adapter.takeover or ""    # (a game without takeover: only bot seats)
        return self.adapter.levels().get(s.level, takeover) if s.kind == "bot" else takeover

    def _auto_pending(self) -> list[int]:
        """Seats a bot must answer now (a slow bot already thinking is left out; it is
        started here)."""
        if self.status != "playing" or self.game.over or not (self.anyone_seated() or self.pbp) \
                or not self.is_owner:
            return []
        now = _now()
        seats = []
        for seat in sorted(self.game.pending()):
            if seat in self._thinking or not self.auto(seat, now):
                continue
            if self._bot_name(seat) in self.adapter.slow_bots:
                self._think_elsewhere(seat)
            else:
                seats.append(seat)
        return seats

    def _think_elsewhere(self, seat: int) -> None:
        self._thinking.add(seat)
        self._loop().create_task(self._safely(self._slow_move, seat, self.asked_at.get(seat)))

    async def _safely(self, work, *args) -> None:
        """Await ``work(*args)`` (a task's) and log what fails: nobody else would."""
        try:
            await work(*args)
        except Exception:  # noqa: BLE001 - logged with its traceback
            log.exception("table %s: %s failed", self.code, work.__name__)

    def _guarded(self, work) -> None:
        """Run ``work()`` (a timer's) and log what fails: nobody else would."""
        try:
            work()
        except Exception:  # noqa: BLE001 - logged with its traceback
            log.exception("table %s: %s failed", self.code, work.__name__)

    def _later(self, delay: float, work) -> asyncio.TimerHandle:
        """``work()`` after ``delay`` seconds, its failure logged."""
        return self._loop().call_later(delay, self._guarded, work)

    async def _slow_move(self, seat: int, turn: int | None) -> None:
        d = self.game.pending()[seat]
        try:
            try:
                start = time.perf_counter()
                choice = await self._loop().run_in_executor(
                    pool(), think, self.adapter.name, self._bot_name(seat),
                    bot_seed(self.row.seed, seat), seat, self.row.config,
                    self.settings.hard_seconds, self.game.view(seat), d.to_json())
                self.metrics.thought(self, seat, start)
            except Exception:  # noqa: BLE001 - the worker failed: the heuristic answers
                log.warning("table %s: the %s bot's worker failed for seat %d; the %s bot "
                            "answers", self.code, self._bot_name(seat), seat,
                            self.adapter.takeover or self._bot_name(seat), exc_info=True)
                choice = None
                self.slow_failures += 1
            if self.game.pending().get(seat) is not d or self.asked_at.get(seat) != turn \
                    or not self.is_owner:
                return                       # answered meanwhile, the game moved on, or another
                                             # process runs the table's bots now
            if choice is None:
                fallback = self.adapter.takeover or self._bot_name(seat)
                choice = self.adapter.make_bot(fallback, seat, seat,
                                               self.row.config).choose(self.game.view(seat), d)
            try:
                self._apply(seat, choice)
            except IllegalAction as exc:
                if exc.code == "storage_error":   # logged by _apply
                    return
                self._first_option(seat, d, exc)
        except StepTaken:                     # not an error: another process moved first (caught up)
            pass
        finally:
            self._thinking.discard(seat)
        self.refresh()

    def record(self, seat: int, choice: Any) -> None:
        """A submission outside the decision protocol (a game master's command, a reader's
        answer: see the adapter's ``message``): checked by the game, stored, told to all."""
        for _ in range(self.settings.step_retries):
            if self.status != "playing" or self.game.over:
                raise IllegalAction("not_playing", "the game is not being played")
            try:
                self._apply(seat, choice)
                break
            except StepTaken:      # not an error: another process stored this step first; caught up, check again
                continue
        else:
            raise IllegalAction("storage_error", "the move could not be saved; try again")
        self.refresh()

    def _due(self) -> None:
        """Apply the game's submissions the clock made due; note when to look again."""
        self._wake = None
        if self.status != "playing" or self.game.over or not self.is_owner:
            return
        for _ in range(1000):                 # one at a time: each may change what is due
            subs, later = self.adapter.due(self, _wall())
            for seat, choice in subs[:1]:
                try:
                    self._apply(seat, choice)
                except StepTaken:              # not an error: caught up, the next refresh looks again
                    return
                except IllegalAction as exc:   # the next refresh tries again
                    log.warning("table %s: a due submission of seat %d was refused (%s)",
                                self.code, seat, exc.code)
                    return
            if not subs or self.game.over:
                break
        self._wake = None if later is None else _now() + later

    def refresh(self) -> None:
        """After any change: let bots play, tell everyone, set the next timer."""
        self._due()
        self._track_decisions()
        if self.settings.bot_delay <= 0:
            guard = 0
            while (seats := self._auto_pending()) and guard < 100000:
                for seat in seats:
                    if seat in self.game.pending():
                        try:
                            self._bot_move(seat)
                        except StepTaken:      # not an error: another process moved first (caught up)
                            break
                        guard += 1
                self._track_decisions()
        elif self._auto_pending() and self._bot_timer is None:
            self._bot_timer = self._later(self.settings.bot_delay * self.adapter.pace,
                                          self._bot_tick)
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
                except StepTaken:              # not an error: another process moved first (caught up)
                    break
                except IllegalAction as exc:   # the store refused (logged by _apply)
                    log.warning("table %s: seat %d's bot move was refused (%s)", self.code,
                                seat, exc.code)
                    break
        self.refresh()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.status != "playing" or self.game.over or not self.is_owner:
            return
        times = [t for s, t in self.deadline.items() if not self.away[s]]
        if self._wake is not None:
            times.append(self._wake)
        grace = self.settings.disconnect_grace
        now = _now()
        for seat in self.game.pending():
            since = self.gone_since[seat]
            # a closed page's grace ends (a play-by-post seat has its timer instead; a grace
            # already over waits for the next change: a page, a move)
            if self.seats[seat].kind == "human" and since is not None and not self.connected(seat) \
                    and not self.pbp and since + grace > now:
                times.append(since + grace)
        if times:
            delay = max(0.0, min(times) - _now()) + 0.01
            self._timer = self._later(delay, self.refresh)

    @staticmethod
    def _loop() -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    def close(self) -> None:
        for h in (self._timer, self._bot_timer):
            if h is not None:
                h.cancel()
        self._timer = self._bot_timer = None

    # ------------------------------------------------------------------ connections
    def admit(self, conn: Conn) -> int | None:
        """Make room for ``conn`` or say why not (a close code). A seat always gets in: its
        oldest page beyond ``tabs_per_seat`` is closed. Spectators have places of their own,
        and a few per client address."""
        live = [c for c in self.conns if not c.closed]
        if conn.seat is not None:
            mine = [c for c in live if c.seat == conn.seat]
            for old in mine[:max(0, len(mine) - self.settings.tabs_per_seat + 1)]:
                old.close_code = CLOSE_REPLACED
                old.drop()
            return None
        watching = [c for c in live if c.seat is None]
        if len(watching) >= self.settings.max_spectators or \
                sum(c.address == conn.address for c in watching) >= self.settings.spectators_per_address:
            return CLOSE_SPECTATORS_FULL
        return None

    def attach(self, conn: Conn) -> None:
        if self.behind:
            self.sync(refresh=False)
        self.active_at = _now()
        self.conns.append(conn)
        if conn.seat is not None:
            self.gone_since[conn.seat] = None
            self.away[conn.seat] = False
            self.share_presence(conn.seat)
            self._own()
        self.refresh()

    def detach(self, conn: Conn) -> None:
        self.active_at = _now()
        conn.closed = True
        if conn in self.conns:
            self.conns.remove(conn)
        if conn.seat is not None:
            self.share_presence(conn.seat)
            if not self.connected(conn.seat):
                self.gone_since[conn.seat] = _now()
        if self.conns or self.status == "playing":
            self.refresh()

    def state_message(self, conn: Conn, shared: dict[Any, Any] | None = None) -> dict[str, Any]:
        """The state message of ``conn``'s page: the table, the seat's page data
        (``adapter.page_view``: view(seat)), the events its role may see since its last message
        and the new chat. ``shared`` holds what the pages of one broadcast have in common (the
        seats, each seat's view), made once.

        A page whose hello asked for patches (client.js) gets its first message whole, then
        only what changed: the table's fields (``code``, ``config``, ``seats``, ``rematch``,
        ``waiting_for``) when they differ from what it holds, ``view_patch`` (the view's
        top-level fields that changed or appeared) and ``view_gone`` (those that went), new
        events and chat; ``status``, ``you``, ``step`` and a seat's ``turn``, ``deadline`` and
        ``auto`` always, first (a reader of the message's head finds them)."""
        if shared is None:
            shared = {}
        if "table" not in shared:
            shared["status"], shared["step"], shared["pending"] = self.status, self.step, self.game.pending()
            shared["table"] = {"code": self.code, "config": self.config, "seats": self.public_seats(),
                               "rematch": self.rematch_code}
            if shared["status"] != "waiting":
                shared["table"]["waiting_for"] = self._waiting_for()
        seat, g, patch, status = conn.seat, self.game, conn.patch, shared["status"]
        playing = status != "waiting"
        msg: dict[str, Any] = {"type": "state", "status": status, "you": seat}
        if playing and seat is not None:
            mine = seat in shared["pending"]
            msg["turn"] = self.asked_at.get(seat) if mine else None
            t = self.deadline.get(seat)
            msg["deadline"] = max(0.0, round(t - _now(), 1)) if mine and t else None
            msg["auto"] = self.auto(seat)
        msg["step"] = shared["step"]
        whole = not patch or not conn.held or conn.log_pos == 0
        held: dict[str, Any] = {} if whole else conn.held
        for key, value in shared["table"].items():
            if whole or held.get(key, _UNSENT) != value:
                msg[key] = held[key] = value
        if whole or len(self.chat) > conn.chat_pos:
            msg["chat_from"], msg["chat"] = conn.chat_pos, self.chat[conn.chat_pos:]
        conn.chat_pos = len(self.chat)
        if patch:
            conn.held = held
        if not playing:
            return msg
        view = shared.get(("view", seat))
        if view is None:
            view = shared[("view", seat)] = self.adapter.page_view(g, seat)
        old = held.get("view")
        if old is None:
            msg["view"] = view
        else:
            if old.keys() == view.keys():
                changed = {k: v for k, v in view.items() if old[k] != v}
            else:
                changed = {k: v for k, v in view.items() if k not in old or old[k] != v}
            if changed:
                msg["view_patch"] = changed
            if old.keys() - view.keys():
                msg["view_gone"] = sorted(old.keys() - view.keys())
        held["view"] = view
        events = [event_json(self.adapter, g, e, self._texts)
                  for e in g.events_for(self.adapter.role(g, seat), conn.log_pos)]
        if whole or events:
            msg["events"] = events
            msg["from_start"] = conn.log_pos == 0
        conn.log_pos = g.step
        return msg

    def _waiting_for(self) -> list[int] | None:
        """Whom the table waits for (the adapter's public answer), once per step and status."""
        key = (self.step, self.status, tuple(self.game.pending()))
        if self._waiting is None or self._waiting[0] != key:
            self._waiting = (key, None if self.game.over else self.adapter.waiting_for(self.game))
        return self._waiting[1]

    def broadcast(self) -> None:
        shared: dict[Any, Any] = {}
        for conn in list(self.conns):
            if not conn.closed:
                try:
                    text = dumps(self.state_message(conn, shared))
                except Exception:  # noqa: BLE001 - a bug: logged; the page gets a plain error
                    log.exception("table %s: the state message of %s failed", self.code,
                                  "a spectator" if conn.seat is None else f"seat {conn.seat}")
                    text = dumps(SERVER_ERROR)
                conn.push(text)

    # ------------------------------------------------------------------ replays
    def replay_frame(self, step: int, hands: bool = False,
                     token: str | None = None) -> dict[str, Any]:
        """The public view after ``step`` submissions, the public events of that step and the
        chat until then; with ``hands``, every seat's own view too (its hand). Only for a
        finished game; a game whose seats' pages stay private after the end (the adapter's
        ``open_hands``: a war's GM console) gives ``hands`` only to the host's ``token``."""
        if self.status != "over":
            raise IllegalAction("not_over", "replays open when the game is over")
        if hands and not self.adapter.open_hands and (
                not isinstance(token, str) or len(token) > 128
                or self.seat_for_token(token) != self.adapter.host_seat(self.row.config)):
            raise IllegalAction("host_only", "every seat's page of this game is the host's: "
                                "send the host's seat token (X-Seat-Token)")
        subs = self.submissions
        if not 0 <= step <= len(subs):
            raise IllegalAction("bad_step", f"step is 0 to {len(subs)}")
        g = self._replayed(subs[:max(step - 1, 0)])
        start = 0                            # step 0: the events of the setup
        if step:
            start = g.step
            contract.submit_all(g, subs[step - 1:step], f"table {self.code}", step - 1)
        frame = {"step": step, "steps": len(subs), "view": self.adapter.page_view(g, None),
                 "events": [event_json(self.adapter, g, e) for e in g.events_for(None, start)],
                 "chat": [c for c in self.chat if c["step"] <= step]}
        if hands:
            frame["hands"] = [self.adapter.page_view(g, s.seat) for s in self.seats]
        return frame

    def post_chat(self, seat: int | None, data: dict[str, Any]) -> None:
        """A seated player's chat line or stamp: stored, then shown to everyone."""
        entry = chat_entry(seat, data, self.step)
        if len(self.chat) >= MAX_ENTRIES:
            raise IllegalAction("chat_full", "this table's chat is full")
        limit = self._chat_limits.setdefault(
            entry["seat"], security.RateLimiter(self.settings.chat_rate, self.settings.chat_burst))
        if not limit.allow():
            raise IllegalAction("rate_limited", "too many chat lines; wait a little")
        for _ in range(self.settings.step_retries):
            try:
                self.storage.append_chat(self.code, len(self.chat), entry)
                break
            except StepTaken:      # not an error: another process's line took this place; retry
                self.sync(refresh=False)
        else:
            raise IllegalAction("storage_error", "the line could not be saved; try again")
        self.chat.append(entry)
        self.broadcast()

    def reissue(self, seat: int) -> str:
        """A new token for a human ``seat`` (its link was lost or leaked): the old one stops
        working, the seat's open pages are closed and its notice targets are removed (the new
        link's holder never sees the old one's address). Stored as a hash; returned once."""
        row = self.seats[seat]
        if row.kind != "human":
            raise IllegalAction("bad_seat", "only a person's seat has a link")
        token = security.new_token()
        row.token_hash = security.hash_token(token)
        self.storage.update_seat(self.code, row)
        self.storage.remove_target(self.code, seat)
        self._close_seat(seat)
        log.info("table %s: seat %d has a new link", self.code, seat,
                 extra={"table": self.code, "seat": seat, "event": "new_link"})
        return token

    def message(self, seat: int | None, data: dict[str, Any], conn: Conn | None = None) -> None:
        """A game-specific client message (the adapter's; refused by default)."""
        self.adapter.message(self, seat, data, conn)


