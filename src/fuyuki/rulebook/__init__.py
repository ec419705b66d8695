"""The players' rules of the three games, ja and en, shipped with the package so that
``fuyuki rules`` works from an installed copy. ``docs/rules/`` holds the same files (a test
checks they agree): edit there and copy here."""

from __future__ import annotations

from fuyuki.core.data import package_file

GAMES = ("sbb", "board", "war")


def rules_text(game: str, lang: str) -> str:
    """The Markdown rules of ``game`` in ``lang``."""
    return package_file("fuyuki.rulebook", f"{game}.{lang}.md").read_text("utf-8")
