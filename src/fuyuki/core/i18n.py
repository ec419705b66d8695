"""ja/en message catalogs.

Each game ships ``messages.ja.toml`` and ``messages.en.toml`` (flat or nested tables of
``str.format`` templates). :func:`register` adds a catalog under a namespace; :func:`tr`
renders a key in a language. A key missing in one language is a packaging bug: the test
suite checks both catalogs have the same keys.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fuyuki.core.data import read_toml

LANGS = ("ja", "en")
_catalogs: dict[str, dict[str, str]] = {}


def _flatten(prefix: str, table: dict[str, Any], out: dict[str, str]) -> None:
    for k, v in table.items():
        key = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            _flatten(key, v, out)
        else:
            out[key] = str(v)


def register(namespace: str, directory: Path) -> None:
    """Load ``messages.<lang>.toml`` from ``directory`` for every language."""
    for lang in LANGS:
        flat: dict[str, str] = {}
        _flatten(namespace, read_toml(directory / f"messages.{lang}.toml"), flat)
        _catalogs.setdefault(lang, {}).update(flat)


def keys(lang: str) -> set[str]:
    return set(_catalogs.get(lang, {}))


class _Safe(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# English counts: "1 seals" reads "1 seal" (templates say "{n} seals" for every n).
_ONE = re.compile(r"(?<![\d.,−-])\b1 (seal|gem|card|roll|turn|decision|round|commitment|game"
                  r"|mismatch|point|item)(?:es|s)\b")


def tr(lang: str, key: str, **params: Any) -> str:
    """The text of ``key`` in ``lang`` (falls back to English, then to the key itself)."""
    template = _catalogs.get(lang, {}).get(key) or _catalogs.get("en", {}).get(key)
    if template is None:
        return key + (" " + " ".join(f"{k}={v}" for k, v in params.items()) if params else "")
    text = template.format_map(_Safe(params))
    return _ONE.sub(r"1 \1", text) if lang == "en" else text


def pick(text: dict[str, str] | str, lang: str) -> str:
    """A ``{"ja": ..., "en": ...}`` text in ``lang``."""
    if isinstance(text, str):
        return text
    return text.get(lang) or text.get("ja") or next(iter(text.values()))
