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
    emit hundreds per play, so construction must be cheap. Treat it as immutable.

    A compact event (:func:`unlog` of a logged tuple) is made from its data's ``keys`` and
    ``values`` alone: its ``data`` dict is built the first time it is read (a game whose log nobody reads never
    builds one), with the same keys in the same order — the same event to every reader."""

    __slots__ = ("kind", "_data", "to", "_keys", "_values")

    def __init__(self, kind: str, data: dict[str, Any] | None,
                 to: tuple[int, ...] | None = None, keys: tuple[str, ...] = (),
                 values: tuple[Any, ...] = ()) -> None:
        self.kind = kind
        self._data = data
        self.to = to
        self._keys = keys
        self._values = values

    @property
    def data(self) -> dict[str, Any]:
        d = self._data
        if d is None:
            keys, values = self._keys, self._values
            d = {}
            for i in range(len(keys)):
                d[keys[i]] = values[i]
            self._data = d
        return d

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Event) and self.kind == other.kind and self.data == other.data
                and self.to == other.to)

    def __repr__(self) -> str:
        return f"Event({self.kind!r}, {self.data!r}, {self.to!r})"

    __hash__ = None  # type: ignore[assignment]  # data is a dict

    def get(self, key: str) -> Any:
        """``data[key]`` without building a compact event's dict (KeyError if absent)."""
        return _data_get(self._data, self._keys, self._values, key)

    def visible_to(self, seat: int | None) -> bool:
        """Public events are visible to all (spectators too); private ones to their seats."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "data": self.data}
        if self.to is not None:
            out["to"] = list(self.to)
        return out


#: an event as an engine logs it, one tuple: ``(kind, to, keys, *values)`` — the data's
#: ``keys`` (a constant of the module that logs it) and then their values — or ``(kind, to,
#: None, data)`` for an event logged with its data dict. One tuple costs less to make and to
#: free than an object (or than a tuple of values in a tuple); the engine keeps its log as
#: these and makes the Event objects when the log is read (``State.events``).
Logged = tuple[Any, ...]


def unlog(e: Logged) -> Event:
    """The :class:`Event` of a logged tuple."""
    keys = e[2]
    if keys is None:
        return Event(e[0], e[3], e[1])
    return Event(e[0], None, e[1], keys, e[3:])


def logged_get(e: Logged, key: str) -> Any:
    """``data[key]`` of a logged event, without making the Event (KeyError if absent)."""
    keys: tuple[str, ...] | None = e[2]
    if keys is None:
        return e[3][key]
    return _data_get(None, keys, e, key, 3)


def _data_get(data: dict[str, Any] | None, keys: tuple[str, ...], values: tuple[Any, ...],
              key: str, start: int = 0) -> Any:
    """``data[key]`` of an event given as ``data``, or (``data`` None) as ``keys`` and their
    values from ``values[start]`` on, without building its dict."""
    if data is not None:
        return data[key]
    for i in range(len(keys)):
        if keys[i] == key:
            return values[start + i]
    raise KeyError(key)


def visible(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events ``seat`` may see (``None``: a spectator, public events only)."""
    return [e for e in events if e.to is None or (seat is not None and seat in e.to)]
