"""The engine contract: what every game engine is, and the one way to replay a record.

Every door — the terminal, the table server, the simulators, the bots, the research
adapters, ``replay`` — speaks to an engine only through :class:`Engine` (docs/contract.md)::

    game = contract.start("board", seed=7, config={"players": 4})
    while not game.over:
        for seat, decision in game.pending().items():       # every open decision at once
            game.submit(seat, bots[seat].choose(game.view(seat), decision))
    check_result(game.result, len(game.seats()))
    again = contract.replay(game.record)                      # the same game, every role's view

A *role* is who looks: a seat (an int), ``None`` (a spectator: public information only) or a
name a game adds (the RPG's hosted war: ``"gm"``, ``"reader"``). A *step* is a position in the
engine's event log: ``game.step`` is the number of events so far, ``events_for(role, since)``
the events from step ``since`` on that ``role`` may see. An engine that writes its own log
lines puts an event's text in its data (:data:`TEXTS`; :func:`event_text` reads it).

Games are found by ``record.game`` in one registry (:func:`register`): a game registers a
``start(seed, config, source)`` that builds a new game or raises DataError naming the config
key. :func:`start` and :func:`replay` map every failure to one DataError: an unknown game
names ``game``; a bad config ``config.<key>``; an illegal submission, or one the engine fails
on, ``submissions[i]``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, Callable, Iterable, Protocol, Union, runtime_checkable

from fuyuki.core.data import short_repr
from fuyuki.core.errors import DataError, FuyukiError, IllegalAction
from fuyuki.core.events import Event
from fuyuki.core.protocol import Decision
from fuyuki.core.record import Record

#: who looks at a game: a seat, None (a spectator) or a role a game names ("gm", "reader")
Role = Union[int, str, None]
#: a game's constructor: ``start(seed, config, source)`` -> a new engine (DataError: bad config)
Start = Callable[[int, dict[str, Any], str], "Engine"]

#: what an engine may raise on a hostile record besides the project's errors: each one is
#: mapped to a DataError naming where (never a traceback)
ENGINE_FAILURES: tuple[type[BaseException], ...] = (
    TypeError, KeyError, AttributeError, ValueError, IndexError, RecursionError, AssertionError,
    OverflowError, ZeroDivisionError)
#: every error :func:`start` and :func:`replay` turn into a DataError
CAUGHT: tuple[type[BaseException], ...] = (FuyukiError, *ENGINE_FAILURES)


@runtime_checkable
class Engine(Protocol):
    """One game. The only way in is :meth:`submit`; the only ways out are :meth:`view`,
    :meth:`events_for`, :attr:`result` and :attr:`record` (a record reveals the whole game:
    shared after it, or kept by the server)."""

    @property
    def over(self) -> bool: ...

    @property
    def result(self) -> dict[str, Any] | None:
        """None while the game runs; then the shared shape of :mod:`fuyuki.core.outcome`."""

    @property
    def record(self) -> Record:
        """Seed, config and every accepted submission: :func:`replay` rebuilds the game."""

    @property
    def step(self) -> int:
        """Events logged so far (a position for :meth:`events_for`)."""

    def roles(self) -> list[Role]:
        """Every role :meth:`view` answers: the seats, ``None``, and the game's own."""

    def seats(self) -> list[int]:
        """The seats that submit (what the result ranks)."""

    def pending(self) -> dict[int, Decision]:
        """Every open decision by seat, all at once (simultaneous moves are normal)."""

    def submit(self, seat: int, choice: Any) -> None:
        """Answer ``seat``'s decision; IllegalAction (nothing changed) if not allowed."""

    def view(self, role: Role) -> dict[str, Any]:
        """What ``role`` may know, JSON-ready."""

    def events_for(self, role: Role, since: int = 0) -> list[Event]:
        """The events from step ``since`` on that ``role`` may see."""


#: an event's data key under which an engine that writes its own log lines (the hosted war:
#: its lines, dice lines too, rendered as they happen) puts them: ``{"ja": text, "en": text}``
TEXTS = "texts"


def event_text(event: Event) -> dict[str, str] | None:
    """The text the engine wrote for ``event`` in ja and en (its data's :data:`TEXTS`), or
    None: a door renders that event itself."""
    got = event.data.get(TEXTS) if isinstance(event.data, dict) else None
    return got if isinstance(got, dict) else None


def seat_sees(role: Role, event: Event) -> bool:
    """The default visibility: public events for everyone, a private one for its seats."""
    return event.to is None or (type(role) is int and role in event.to)


class EventLog:
    """:meth:`events_for` and :attr:`step` for an engine that keeps its events in
    ``self.events`` (a list only ever appended to) and says who sees one with ``sees``."""

    events: list[Event]

    def sees(self, role: Role, event: Event) -> bool:
        return seat_sees(role, event)

    @property
    def step(self) -> int:
        return len(self.events)

    def events_for(self, role: Role, since: int = 0) -> list[Event]:
        sees = self.sees
        return [e for e in self.events[max(since, 0):] if sees(role, e)]


def no_role(role: Any) -> IllegalAction:
    """The error of a view asked for a role the game does not have."""
    return IllegalAction("no_such_role", f"this game has no role {role!r}", role=short_repr(role))


# ---------------------------------------------------------------------------- the registry
#: the games of this package: record.game -> "module:function" of its start (imported lazily)
BUILTIN: dict[str, str] = {
    "sbb": "fuyuki.sbb.record:start",
    "board": "fuyuki.board.game:start",
    "rpg-war": "fuyuki.rpg.war_record:start",
    "rpg-hosted": "fuyuki.rpg.war_record:start_hosted",
}
_REGISTRY: dict[str, Start] = {}


def register(game: str, start: Start) -> None:
    """Make ``game`` (a record's ``game``) known: ``start(seed, config, source)`` builds a new
    game of it (a DataError names a bad config key). A game outside this package registers
    itself when it is imported; registering a name again replaces it."""
    if not isinstance(game, str) or not game:
        raise ValueError("a game's name is a non-empty string")
    _REGISTRY[game] = start


def games() -> list[str]:
    """Every registered game's name."""
    return sorted(set(BUILTIN) | set(_REGISTRY))


def _starter(game: Any, source: str) -> Start:
    if isinstance(game, str):
        if game in _REGISTRY:
            return _REGISTRY[game]
        if game in BUILTIN:
            module, name = BUILTIN[game].split(":")
            start_fn: Start = getattr(import_module(module), name)
            _REGISTRY.setdefault(game, start_fn)
            return _REGISTRY[game]
    raise DataError(source, "game", f"not a game this program knows: {short_repr(game)} "
                    f"(known: {', '.join(games())})", "unknown_game", got=short_repr(game),
                    known=", ".join(games()))


def start(game: str, seed: int = 0, config: dict[str, Any] | None = None,
          source: str = "<record>") -> Engine:
    """A new game of ``game``. Every failure is a DataError: an unknown game names ``game``,
    anything wrong in ``seed`` or ``config`` names ``seed`` / ``config.<key>``."""
    starter = _starter(game, source)
    if type(seed) is not int:
        raise DataError(source, "seed", f"must be an integer, not {short_repr(seed)}", "type",
                        want="an integer", want_ja="整数", got=short_repr(seed))
    if not isinstance(config, dict):
        if config is not None:
            raise DataError(source, "config", f"must be a JSON object, not {short_repr(config)}",
                            "type", want="a JSON object", want_ja="JSONオブジェクト",
                            got=short_repr(config))
        config = {}
    try:
        return starter(seed, dict(config), source)
    except DataError as exc:
        raise config_error(exc, source) from None
    except CAUGHT as exc:
        raise DataError(source, "config", f"this game cannot start from it: {_detail(exc)}",
                        "bad_config", detail=_detail(exc)) from None


def replay(record: Record, source: str = "<record>") -> Engine:
    """The game ``record`` describes, rebuilt by its game's start and every submission made
    again. Every failure is one DataError naming where: ``game``, ``seed``, ``config.<key>``
    or ``submissions[i]`` (an illegal submission, or one the engine fails on)."""
    subs = record.submissions if isinstance(record, Record) else None
    if not isinstance(record, Record):
        raise DataError(source, "-", "not a game record", "type", want="a record",
                        want_ja="記録", got=short_repr(record))
    game = start(record.game, record.seed, record.config, source)
    if not isinstance(subs, list):
        raise DataError(source, "submissions", "must be a list of [seat, choice] pairs", "type",
                        want="a list of [seat, choice] pairs", want_ja="[席, 選択] の組のリスト",
                        got=short_repr(subs))
    submit_all(game, subs, source)
    return game


def submit_all(game: Engine, submissions: Iterable[Any], source: str,
               first: int = 0) -> Engine:
    """``game`` with ``submissions`` made again in order (numbered from ``first``); the first
    one refused — illegal, or failing inside the engine — is a DataError naming it."""
    for i, pair in enumerate(submissions, first):
        try:
            seat, choice = pair
            game.submit(seat, choice)
        except CAUGHT as exc:
            raise DataError(source, f"submissions[{i}]",
                            f"{short_repr(pair)} is not a legal move here: {_detail(exc)}",
                            "illegal_submission", move=short_repr(pair),
                            detail=_detail(exc)) from None
    return game


def config_error(exc: DataError, source: str) -> DataError:
    """A DataError an engine raised on its config, re-said to name ``config.<key>`` of
    ``source``; one from a file the config names (a content pack) keeps that file and key in
    its reason."""
    if exc.file == source and (exc.key == "config" or exc.key.startswith("config.")):
        return exc
    if exc.file in ("config", "setup") or exc.file.startswith(("config.", "setup.")):
        where = exc.file if exc.key in ("-", "") else f"{exc.file}.{exc.key}"
        where = where if where.startswith("config") else f"config.{where}"
        return DataError(source, where, exc.reason, exc.code, **exc.params)
    detail = f"{exc.file}: {exc.key}: {exc.reason}"
    return DataError(source, "config", detail, "bad_config", detail=detail)


def _detail(exc: BaseException) -> str:
    text = str(exc) if isinstance(exc, FuyukiError) else f"{type(exc).__name__}: {exc}"
    return " ".join(text.split())[:200]

