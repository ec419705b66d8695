"""The players' rules of the three games, ja and en, shipped with the package so that
``fuyuki rules`` works from an installed copy. ``docs/rules/`` holds the same files (a test
checks they agree): edit there and copy here."""

from __future__ import annotations

from fuyuki.core.data import package_file

GAMES = ("sbb", "board", "war")


def rules_text(game: str, lang: str) -> str:
    """The Markdown rules of ``game`` in ``lang``."""
    return package_file("fuyuki.rulebook", f"{game}.{lang}.md").read_text("utf-8")


def _section(text: str, titles: tuple[str, ...]) -> list[str]:
    lines, inside = [], False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line[3:].strip() in titles
        elif inside:
            lines.append(line)
    return lines


def summary(game: str, lang: str) -> tuple[str, list[str]]:
    """What a game shows when it starts: the goal (the first sentence of the rules' Goal
    section) and the rules' five-line summary."""
    text = rules_text(game, lang)
    goal = " ".join(x.strip() for x in _section(text, ("目的", "Goal")) if x.strip())
    goal = goal.replace("**", "").replace("`", "")
    end = goal.find("。") + 1 if lang == "ja" else goal.find(". ") + 1
    five = [x.replace("**", "").replace("`", "") for x in _section(text, ("5行で", "In five lines"))
            if x[:1].isdigit()]
    return goal[:end] if end > 0 else goal, five
