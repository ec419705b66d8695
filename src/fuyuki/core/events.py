"""The event log. Every event says who may see it.

An event is plain data: a ``kind`` (the message key of its text), ``data`` (JSON-ready
values) and ``to`` — ``None`` for a public event, or a tuple of the seats that may see it.
Text is rendered from events by :mod:`fuyuki.core.i18n`, never stored in them.
"""

from __future__ import annotations

from typing import Any, Iterable

from mypy_extensions import mypyc_attr


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: picklable, copyable (see _build)
class Event:
    """One event: ``kind``, ``data``, ``to``. A plain slotted class (not a dataclass): games
    emit hundreds per play, so construction must be cheap. Treat it as immutable."""

    __slots__ = ("kind", "data", "to")

    def __init__(self, kind: str, data: dict[str, Any], to: tuple[int, ...] | None = None) -> None:
        self.kind = kind
        self.data = data
        self.to = to

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Event) and self.kind == other.kind and self.data == other.data
                and self.to == other.to)

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.data!r}, {self.to!r})"

    __hash__ = None  # type: ignore[assignment]  # data is a dict

    def visible_to(self, seat: int | None) -> bool:
        """Public events are visible to all (spectators too); private ones to their seats."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "data": self.data}
        if self.to is not None:
            out["to"] = list(self.to)
        return out


def visible(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (``None``: a spectator, public events only)."""
    return [e for e in events if e.to is None or (seat is not None and seat in e.to)]
