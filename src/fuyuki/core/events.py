"""The event log. Every event says who may see it.

An event is plain data: a ``kind`` (the message key of its text), ``data`` (JSON-ready
values) and ``to`` — ``None`` for a public event, or a tuple of the seats that may see it.
Text is rendered from events by :mod:`fuyuki.core.i18n`, never stored in them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    data: dict[str, Any]
    to: tuple[int, ...] | None = None

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
