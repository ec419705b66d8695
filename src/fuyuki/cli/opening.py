"""What every game shows when a person starts it: the goal and the five-line summary, both
taken from the game's rules for players (one source, ``fuyuki.rulebook``)."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from fuyuki.cli.prompt import t
from fuyuki.rulebook import summary


def opening(game: str, lang: str) -> Group:
    goal, five = summary(game, lang)
    lines = [Text(t(lang, "start.goal", goal=goal), style="bold")]
    lines += [Text(line) for line in five]
    lines.append(Text(t(lang, "start.hint", game=game), style="dim"))
    return Group(*lines)
