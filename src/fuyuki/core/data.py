"""Loading rules data (TOML) with errors that name the file, the key and the reason.

Validation helpers here are small on purpose: a loader reads a table with :class:`Table`,
which remembers the file and the key path, so every error says exactly where it is.
"""

from __future__ import annotations

import builtins
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from fuyuki.core.errors import DataError

_MISSING = object()


def read_toml(path: str | Path, error: type[DataError] = DataError) -> dict[str, Any]:
    """A TOML file as a dict; every failure (missing, unreadable, not UTF-8, not TOML) is an
    ``error`` naming the file (:mod:`fuyuki.core.load`)."""
    from fuyuki.core.load import parse_toml, read_text

    return parse_toml(read_text(path, error), str(path), error)


def package_file(package: str, *parts: str) -> Path:
    """Path of a data file shipped inside a package."""
    ref = resources.files(package)
    for part in parts:
        ref = ref.joinpath(part)
    return Path(str(ref))


class Table:
    """A TOML table with its file and key path, for validated reads."""

    def __init__(self, data: Any, file: str, key: str = "", error: type[DataError] = DataError):
        self.file, self.key, self.error = file, key, error
        if not isinstance(data, dict):
            raise error(file, key or "-", "must be a table", "type", want="a table",
                        want_ja="テーブル", got=short_repr(data))
        self.data = data

    def where(self, name: str) -> str:
        return f"{self.key}.{name}" if self.key else name

    def fail(self, name: str, reason: str, code: str = "", **params: object) -> DataError:
        return self.error(self.file, self.where(name), reason, code, **params)

    def has(self, name: str) -> bool:
        return name in self.data

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = _MISSING) -> Any:
        if name not in self.data:
            if default is _MISSING:
                raise self.fail(name, "missing", "missing")
            return default
        value = self.data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if (isinstance(value, bool) and bool not in kinds) or not isinstance(value, kinds):
            raise self.fail(name, f"must be {_names(kinds)}, not {value!r}", "type",
                            want=_names(kinds), want_ja=_names(kinds, "ja"), got=short_repr(value))
        return value

    def int(self, name: str, default: Any = _MISSING, lo: int | None = None,
            hi: int | None = None) -> builtins.int:
        value: builtins.int = self.get(name, int, default)
        if value is not default or default is _MISSING:
            if lo is not None and value < lo:
                raise self.fail(name, f"must be at least {lo}, not {value}", "low", lo=lo,
                                got=short_repr(value))
            if hi is not None and value > hi:
                raise self.fail(name, f"must be at most {hi}, not {value}", "high", hi=hi,
                                got=short_repr(value))
        return value

    def str(self, name: str, default: Any = _MISSING,
            choices: Iterable[builtins.str] | None = None) -> builtins.str:
        value: builtins.str = self.get(name, str, default)
        if choices is not None and value is not default:
            allowed = list(choices)
            if value not in allowed:
                raise self.fail(name, f"must be one of {allowed}, not {value!r}", "choice",
                                allowed=", ".join(allowed), got=short_repr(value))
        return value

    def bool(self, name: builtins.str, default: Any = _MISSING) -> builtins.bool:
        value: builtins.bool = self.get(name, bool, default)
        return value

    def list(self, name: builtins.str, default: Any = _MISSING) -> builtins.list[Any]:
        value: builtins.list[Any] = self.get(name, list, default)
        return value

    def list_of(self, name: builtins.str, kind: type, default: Any = _MISSING,
                lo: builtins.int | None = None,
                hi: builtins.int | None = None) -> builtins.list[Any]:
        """A list whose every item is a ``kind`` (ints within ``lo``..``hi``)."""
        items: builtins.list[Any] = self.get(name, list, default)
        if name not in self.data:
            return items
        for i, item in enumerate(items):
            if (isinstance(item, bool) and kind is not bool) or not isinstance(item, kind):
                raise self.fail(f"{name}[{i}]", f"must be {_names((kind,))}, not {item!r}", "type",
                                want=_names((kind,)), want_ja=_names((kind,), "ja"),
                                got=short_repr(item))
            number: Any = item
            if lo is not None and number < lo:
                raise self.fail(f"{name}[{i}]", f"must be at least {lo}, not {item}", "low", lo=lo,
                                got=short_repr(item))
            if hi is not None and number > hi:
                raise self.fail(f"{name}[{i}]", f"must be at most {hi}, not {item}", "high", hi=hi,
                                got=short_repr(item))
        return items

    def table(self, name: builtins.str, default: Any = _MISSING) -> "Table":
        if name not in self.data and default is not _MISSING:
            return Table(default, self.file, self.where(name), self.error)
        return Table(self.get(name, dict), self.file, self.where(name), self.error)

    def tables(self, name: builtins.str) -> builtins.list[Table]:
        items = self.get(name, list)
        return [Table(item, self.file, f"{self.where(name)}[{i}]", self.error)
                for i, item in enumerate(items)]

    def text(self, name: builtins.str,
             default: Any = _MISSING) -> dict[builtins.str, builtins.str]:
        """A user-facing text: a table with ``ja`` and ``en`` strings."""
        if name not in self.data and default is not _MISSING:
            texts: dict[builtins.str, builtins.str] = default
            return texts
        t = self.table(name)
        return {"ja": t.str("ja"), "en": t.str("en")}

    def check_keys(self, allowed: Iterable[builtins.str]) -> None:
        allowed = set(allowed)
        for k in self.data:
            if k not in allowed:
                raise self.fail(k, f"unknown key (allowed: {sorted(allowed)})", "unknown_key",
                                allowed=", ".join(sorted(allowed)))


def short_repr(value: Any) -> str:
    """A value as the error shows it: its repr, cut at 60 characters (a value nested too
    deep for a repr is shown as such)."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"<a {type(value).__name__} nested too deep>"
    return text if len(text) <= 60 else text[:57] + "..."


_TYPE_NAMES = {
    "en": {int: "an integer", str: "a string", bool: "true or false", list: "a list",
           dict: "a table", float: "a number"},
    "ja": {int: "整数", str: "文字列", bool: "true か false", list: "リスト", dict: "テーブル",
           float: "数値"},
}


def _names(kinds: tuple[type, ...], lang: str = "en") -> str:
    names = _TYPE_NAMES[lang]
    return (" or " if lang == "en" else "または").join(names.get(k, k.__name__) for k in kinds)
