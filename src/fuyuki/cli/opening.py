"""What every game shows when a person starts it: the goal and the five-line summary, both
taken from the game's rules for players (one source, ``fuyuki.rulebook``). At a terminal it is
a screen of its own, left with Enter: the first decision's screen needs all 24 lines (piped,
it is printed and the game goes on)."""

from __future__ import annotations

from rich.console import Console, Group
from rich.text import Text

from fuyuki.cli.pager import interactive
from fuyuki.cli.prompt import end_of_input, t
from fuyuki.rulebook import summary


def opening(game: str, lang: str) -> Group:
    goal, five = summary(game, lang)
    lines = [Text(t(lang, "start.goal", goal=goal), style="bold")]
    lines += [Text(line) for line in five]
    lines.append(Text(t(lang, "start.hint", game=game), style="dim"))
    return Group(*lines)


def show_opening(console: Console, game: str, lang: str) -> None:
    """Print the opening; at a terminal, wait for Enter before the first decision."""
    console.print(opening(game, lang))
    if interactive() and console.is_terminal:
        try:
            console.input(t(lang, "start.enter"))
        except EOFError:
            end_of_input(console, lang)
