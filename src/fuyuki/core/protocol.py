"""The decision protocol shared by every engine.

An engine exposes::

    game.over                 -> bool
    game.pending()            -> {seat: Decision}   every open decision, all at once
    game.submit(seat, choice) -> None               IllegalAction(code) if not allowed
    game.view(seat | None)    -> dict               the only way information leaves
    game.clone()              -> game               cheap, independent copy
    game.events               -> list[Event]
    game.result               -> dict | None

A :class:`Decision` lists every legal choice in ``options``; each option is a value that
``submit`` accepts as it is (a string, an int or a bool), so a uniform random bot is
``random.choice(decision.options)``.
"""

from __future__ import annotations

from typing import Any, Final, Protocol

from mypy_extensions import mypyc_attr

from fuyuki.core.errors import IllegalAction


#: the ``info`` of every decision made without one: one shared empty dict (never changed)
NO_INFO: Final[dict[str, Any]] = {}


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: picklable, copyable (see _build)
class Decision:
    """An open decision: its ``kind``, every legal choice in ``options`` and context in
    ``info``. A plain slotted class, cheap to build; treat it as immutable (its ``info`` too:
    decisions without one share :data:`NO_INFO`)."""

    __slots__ = ("kind", "options", "info")

    def __init__(self, kind: str, options: tuple[Any, ...],
                 info: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.options = options
        self.info = NO_INFO if info is None else info

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Decision) and self.kind == other.kind
                and self.options == other.options and self.info == other.info)

    def __repr__(self) -> str:
        return f"Decision(kind={self.kind!r}, options={self.options!r}, info={self.info!r})"

    __hash__ = None  # type: ignore[assignment]

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "options": list(self.options), "info": self.info}


@mypyc_attr(allow_interpreted_subclasses=True)  # its bots are picklable, copyable (see _build)
class NativeBot:
    """The base of the bots compiled with the engine (the random and heuristic bots): a play
    loop calls their :meth:`choose` as a native method (a call through the bot's Python
    method costs more than the random bot's whole choice). Any other bot is any object with
    ``choose`` and ``needs_view``."""

    def choose(self, view: Any, decision: Decision) -> Any:
        raise NotImplementedError


class Game(Protocol):
    @property
    def over(self) -> bool: ...

    def pending(self) -> dict[int, Decision]: ...

    def submit(self, seat: int, choice: Any) -> None: ...

    def view(self, seat: int | None) -> dict[str, Any]: ...

    def clone(self) -> "Game": ...


class Agent(Protocol):
    """A player: sees only its own view and its own decision."""

    def choose(self, view: dict[str, Any], decision: Decision) -> Any: ...


def check_choice(decision: Decision, choice: Any) -> Any:
    """Return ``choice`` if it is one of ``decision.options`` (ints given as strings and
    ``"true"/"false"`` are accepted for the text front ends); raise IllegalAction otherwise."""
    if type(choice) is str and choice in decision.options:
        return choice  # the common case: a string is equal only to the same string
    for option in decision.options:
        if choice == option and type(choice) is type(option):
            return option
    for option in decision.options:
        if str(option).lower() == str(choice).lower():
            return option
    raise IllegalAction(
        "not_an_option",
        f"{choice!r} is not a legal choice for {decision.kind}; legal: {list(decision.options)}",
        choice=choice,
        kind=decision.kind,
    )
