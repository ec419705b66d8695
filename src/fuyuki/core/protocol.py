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

from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class Decision:
    kind: str
    options: tuple[Any, ...]
    info: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "options": list(self.options), "info": self.info}


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
    from fuyuki.core.errors import IllegalAction

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
