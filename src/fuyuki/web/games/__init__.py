"""What each game adds to the table server: one :class:`Adapter` per engine.

The server (tables, seats, tokens, storage, reconnect, spectators, replays, decision timers,
bot takeover, rate limits and the filter that builds every message from ``view(seat)``) is
written once, in :mod:`fuyuki.web.table` and :mod:`fuyuki.web.manager`, and speaks to a game
only through the engine contract (:mod:`fuyuki.core.contract`). A game plugs in by subclassing
:class:`Adapter` and registering it (:func:`register`, or :func:`_registry` for the package's
own games); nothing else in the server names a game. An adapter holds no rule, touches no
engine internal and no private of the table: it names the game's settings and bots and shapes
a view into page data. Every member has a default derived from the contract, so a small game
sets only ``name``, ``players`` and its page (docs/web.md, "Adding a game"):

``name``, ``engine``, ``title``, ``page``
    the game's id at the table (stored in each table's configuration as ``"game"``), its
    game in the contract's registry (default: ``name``), its title in ja/en, and the HTML file
    of its table page under ``web/static/``.
``players``, ``check_config(raw) -> dict``
    the seat counts offered; the table's settings, every field checked
    (``IllegalAction("bad_config", field=...)``); the result must hold ``players`` (seat
    count), ``bots``, ``bot_level`` and ``timer`` (default: those four alone).
``engine_config(config)``, ``new_game(config, seed) -> game``
    the engine's config made from the table's (default: the table's without the server's own
    keys); a fresh engine (default: ``contract.start(engine, seed, engine_config(config))``).
``submissions(game)``
    the game's ordered ``(seat, choice)`` list (default: ``game.record.submissions``).
``levels() -> {level: bot name}``, ``takeover``, ``slow_bots``
    the bot levels offered in the lobby (default: ``easy`` = the uniform random bot of
    :mod:`fuyuki.sim.generic`), the bot that plays a dropped or timed-out seat, and the bots
    too slow for the event loop (searched in a worker process).
``pace``
    the pause between two bot moves as a share of the server's ``bot_delay`` (a game of many
    small decisions plays its bots faster, so people can follow without waiting).
``make_bot(name, seed, seat, config, **kw)``
    a bot object with ``choose(view, decision)``; it sees only ``game.view(seat)``.
``role(game, seat)``, ``page_view(game, seat) -> dict``
    the role a seat's page sees the game as (default: the seat; ``None``: a spectator); the
    page data of ``seat`` built from ``game.view(role)`` only (default: the view, with the
    seat's open decision as ``decision`` when the view has none).
``waiting_for(game) -> [seat, ...] | None``
    the seats the table waits for, as anyone may know it (default: every seat with an open
    decision; ``None``: someone decides something that is not public, unnamed).
``event_text(game, event) -> {"ja": ..., "en": ...} | None``
    an event's text in both languages, rendered from public data (never from hidden state)
    (default: the text the engine wrote into the event, ``contract.event_text``; None: the
    page writes its own).
``meta() -> dict``
    what the lobby needs to offer the game's settings (default: players, levels, timer).
``data(query) -> dict``
    static data the page shows (card texts); nothing hidden.
``message(table, seat, data, conn)``
    game-specific client messages beyond move/back/start/ping (e.g. a game master's
    powers, spectators posting answers); the base refuses every one. An accepted one goes
    into the game through :meth:`fuyuki.web.table.Table.record` (stored like a move).
``seat_kinds(config)``, ``host_seat(config)``, ``invite``, ``seat_name(config, seat)``
    who plays each seat ("human", "bot", or "crowd": answered only through ``message``), the
    seat the table's creator takes, and whether every other human seat gets its token at
    creation (handed to the creator as seat links) instead of being joined in the lobby.
``private_config``
    configuration fields nobody is shown (a game's secret, an uploaded file).
``due(table, now) -> (submissions, seconds | None)``
    submissions the clock makes due at ``now`` (wall-clock seconds) and when to look again.
``notices(game, since) -> [(key, {"ja": ..., "en": ...}), ...]``, ``news``
    the public news of the events after event ``since`` that people following the table by
    e-mail or webhook hear of (a war's new turn, a 安価 question), each with a key of its
    own (sent once); ``news``: readers (no seat) may follow the table (default: no news).
``takeover = None``
    no bot ever plays a human seat (a player who is away is simply waited for).
``rematch = False``
    the table offers no rematch (a war's links and dice belong to that war alone).
``open_hands = False``
    every seat's page stays private after the end: a replay shows them (``hands``) only to
    the host's seat token (a war's GM console: every sheet and decision).
``shared_texts = True``
    an event's text depends on the event alone (its kind, data and audience), not on the
    game it happened in: the server renders each such event once for all its tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from fuyuki.core import contract
from fuyuki.core.errors import IllegalAction
from fuyuki.core.events import Event

#: configuration keys of the server itself, never the engine's
TABLE_KEYS = frozenset({"game", "bots", "bot_level", "timer", "public"})
#: a decision timer (seconds) up to this long is a live game's; a longer one is play-by-post
LIVE_TIMER = 600
#: the longest decision timer: 14 days
MAX_TIMER = 14 * 86400
#: what the lobby offers the timer (seconds: off, 1 min, 5 min, 1 h, 12 h, 1 day, 3 days)
TIMER_CHOICES = (0, 60, 300, 3600, 43200, 86400, 259200)
TIMER_META = {"timer": [0, 10, MAX_TIMER], "timer_choices": list(TIMER_CHOICES)}


class Adapter:
    name = ""
    engine = ""                       # the contract's game (record.game); "" = name
    title: ClassVar[dict[str, str]] = {}
    page = "table.html"
    players: Sequence[int] = (2,)
    takeover: str | None = "random"
    slow_bots: frozenset[str] = frozenset()
    pace = 1.0
    private_config: frozenset[str] = frozenset()
    invite = False
    rematch = True
    open_hands = True
    news = False
    shared_texts = False

    def check_config(self, raw: dict[str, Any]) -> dict[str, Any]:
        return self.check_common(raw, set(), self.players, self.players[0],
                                 next(iter(self.levels())))

    def engine_config(self, config: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in config.items() if k not in TABLE_KEYS}

    def new_game(self, config: dict[str, Any], seed: int) -> Any:
        return contract.start(self.engine or self.name, seed, self.engine_config(config),
                              "table config")

    def submissions(self, game: Any) -> list[tuple[int, Any]]:
        return game.record.submissions

    def levels(self) -> dict[str, str]:
        return {"easy": "random"}

    def make_bot(self, name: str, seed: int, seat: int, config: dict[str, Any], **kw: Any) -> Any:
        from fuyuki.sim.generic import RandomBot

        return RandomBot(seed, seat)

    def role(self, game: Any, seat: int | None) -> Any:
        return seat

    def page_view(self, game: Any, seat: int | None) -> dict[str, Any]:
        """The view of the seat's role, with the seat's open decision (``decision``, from
        ``pending()``) when the view does not carry it itself."""
        view = game.view(self.role(game, seat))
        if seat is not None and "decision" not in view:
            d = game.pending().get(seat)
            view["decision"] = None if d is None else d.to_json()
        return view

    def waiting_for(self, game: Any) -> list[int] | None:
        return sorted(game.pending())

    def event_text(self, game: Any, event: Event) -> dict[str, str] | None:
        return contract.event_text(event)

    def meta(self) -> dict[str, Any]:
        return {"players": list(self.players), "levels": list(self.levels()), **TIMER_META}

    def data(self, query: dict[str, str]) -> dict[str, Any]:
        return {}

    def message(self, table: Any, seat: int | None, data: dict[str, Any], conn: Any = None) -> None:
        raise IllegalAction("bad_message", "unknown message type")

    def seat_kinds(self, config: dict[str, Any]) -> list[str]:
        humans = config["players"] - config["bots"]
        return ["human" if i < humans else "bot" for i in range(config["players"])]

    def host_seat(self, config: dict[str, Any]) -> int:
        return 0

    def seat_name(self, config: dict[str, Any], seat: int) -> str:
        return ""

    def notices(self, game: Any, since: int) -> list[tuple[str, dict[str, str]]]:
        return []

    def due(self, table: Any, now: float) -> tuple[list[tuple[int, Any]], float | None]:
        return [], None

    # ------------------------------------------------------------------ shared checks
    @staticmethod
    def bad(key: str, reason: str) -> IllegalAction:
        return IllegalAction("bad_config", f"{key}: {reason}", field=key)

    def check_fields(self, raw: Any, known: set[str]) -> None:
        """``raw`` is an object whose every field is known (the game's or a common one)."""
        if not isinstance(raw, dict):
            raise self.bad("-", "must be an object")
        for k in raw:
            if k not in known | {"players", "bots", "bot_level", "timer"}:
                raise self.bad(k, "unknown field")

    def check_common(self, raw: dict[str, Any], known: set[str], players: Sequence[int],
                     default_players: int, default_level: str) -> dict[str, Any]:
        """The fields every game has: ``players``, ``bots``, ``bot_level``, ``timer``;
        any field outside ``known`` (and those) is refused."""
        bad = self.bad
        self.check_fields(raw, known)
        n = raw.get("players", default_players)
        if type(n) is not int or n not in players:
            raise bad("players", f"must be one of {list(players)}")
        bots = raw.get("bots", 0)
        if type(bots) is not int or not 0 <= bots <= n:
            raise bad("bots", f"must be a whole number from 0 to {n}")
        level = raw.get("bot_level", default_level)
        if level not in self.levels():
            raise bad("bot_level", f"must be one of {list(self.levels())}")
        timer = raw.get("timer", 0)
        if type(timer) is not int or not (timer == 0 or 10 <= timer <= MAX_TIMER):
            raise IllegalAction("bad_config", f"timer: 0 (off) or 10 seconds to 14 days ({MAX_TIMER} "
                                "seconds)", field="timer",
                                ja=f"timer: 決定の制限時間は0（なし）か10秒から14日（{MAX_TIMER}秒）まで")
        return {"players": n, "bots": bots, "bot_level": level, "timer": timer}


def _registry() -> dict[str, Adapter]:
    from fuyuki.web.games.board import BoardAdapter
    from fuyuki.web.games.rpg import RpgAdapter
    from fuyuki.web.games.sbb import SbbAdapter

    return {a.name: a for a in (SbbAdapter(), BoardAdapter(), RpgAdapter())}


ADAPTERS: dict[str, Adapter] = {}
DEFAULT = "sbb"          # tables stored before the server knew other games are this game's


def adapter(name: Any) -> Adapter:
    """The adapter of game ``name``; IllegalAction("bad_config") for an unknown game."""
    if not ADAPTERS:
        ADAPTERS.update(_registry())
    a = ADAPTERS.get(name) if isinstance(name, str) else None
    if a is None:
        raise IllegalAction("bad_config", f"game: unknown game (known: {sorted(ADAPTERS)})",
                            field="game")
    return a


def games() -> list[str]:
    adapter(DEFAULT)
    return list(ADAPTERS)


def register(a: Adapter) -> None:
    """Make game ``a.name`` playable at the server (a game outside the package; the tests'
    fourth game). Registering a name again replaces it."""
    adapter(DEFAULT)
    ADAPTERS[a.name] = a


def unregister(name: str) -> None:
    ADAPTERS.pop(name, None)
