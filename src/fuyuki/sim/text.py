"""ja/en texts of the simulator's reports (catalogs in ``data/messages.*.toml``)."""

from __future__ import annotations

from fuyuki.core import i18n
from fuyuki.core.data import package_file

i18n.register("sim", package_file("fuyuki.sim", "data"))


def t(lang: str, key: str, **params) -> str:
    return i18n.tr(lang, "sim." + key, **params)


def pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def interval(row: dict) -> str:
    return f"{100 * row['lo']:.1f}–{100 * row['hi']:.1f}%"


def flag(lang: str, value: str) -> str:
    return t(lang, f"flag.{value}") if value else ""


def cause(lang: str, label: str, servant_name) -> str:
    """``np:<servant>`` / ``tsubame`` / ``retaliate`` as text (card names stay Japanese)."""
    if label.startswith("np:"):
        return t(lang, "cause.np", servant=servant_name(label[3:]))
    return t(lang, f"cause.{label}")


def event(lang: str, label: str, servant_name) -> str:
    if label.startswith("np:"):
        return t(lang, "event.np", servant=servant_name(label[3:]))
    return t(lang, f"event.{label}")


def reveal_round(lang: str, value) -> str:
    return t(lang, "reveal.never") if value == "never" else str(value)
