"""Loading rules data (TOML) with errors that name the file, the key and the reason.

Validation helpers here are small on purpose: a loader reads a table with :class:`Table`,
which remembers the file and the key path, so every error says exactly where it is.
"""

from __future__ import annotations

import builtins
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from fuyuki.core.errors import DataError

_MISSING = object()


def read_toml(path: str | Path, error: type[DataError] = DataError) -> dict[str, Any]:
    p = Path(path)
    try:
        with p.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise error(str(p), "-", "no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise error(str(p), "-", f"not valid TOML: {exc}") from None


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
            raise error(file, key or "-", "must be a table")
        self.data = data

    def where(self, name: str) -> str:
        return f"{self.key}.{name}" if self.key else name

    def fail(self, name: str, reason: str) -> DataError:
        return self.error(self.file, self.where(name), reason)

    def has(self, name: str) -> bool:
        return name in self.data

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = _MISSING) -> Any:
        if name not in self.data:
            if default is _MISSING:
                raise self.fail(name, "missing")
            return default
        value = self.data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise self.fail(name, f"must be {_names(kinds)}, not {value!r}")
        if not isinstance(value, kinds):
            raise self.fail(name, f"must be {_names(kinds)}, not {value!r}")
        return value

    def int(self, name: str, default: Any = _MISSING, lo: int | None = None,
            hi: int | None = None) -> builtins.int:
        value: builtins.int = self.get(name, int, default)
        if value is not default or default is _MISSING:
            if lo is not None and value < lo:
                raise self.fail(name, f"must be at least {lo}, not {value}")
            if hi is not None and value > hi:
                raise self.fail(name, f"must be at most {hi}, not {value}")
        return value

    def str(self, name: str, default: Any = _MISSING,
            choices: Iterable[builtins.str] | None = None) -> builtins.str:
        value: builtins.str = self.get(name, str, default)
        if choices is not None and value is not default:
            allowed = list(choices)
            if value not in allowed:
                raise self.fail(name, f"must be one of {allowed}, not {value!r}")
        return value

    def bool(self, name: builtins.str, default: Any = _MISSING) -> builtins.bool:
        value: builtins.bool = self.get(name, bool, default)
        return value

    def list(self, name: builtins.str, default: Any = _MISSING) -> builtins.list[Any]:
        value: builtins.list[Any] = self.get(name, list, default)
        return value

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
                raise self.fail(k, f"unknown key (allowed: {sorted(allowed)})")


def _names(kinds: tuple[type, ...]) -> str:
    names = {int: "an integer", str: "a string", bool: "true or false", list: "a list",
             dict: "a table", float: "a number"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)
