"""``fuyuki rules [sbb|board|war] [--lang ja|en]``: the players' rules in the terminal, a
screen at a time (:mod:`fuyuki.cli.pager`), Japanese lines broken by their rules with the
inline code and short parenthesised groups kept whole (:mod:`fuyuki.cli.wrap`)."""

from __future__ import annotations

import re

import typer

CODE = re.compile(r"`([^`\n]+)`")


def register(app: typer.Typer) -> None:
    @app.command()
    def rules(
        game: str = typer.Argument("sbb", help="sbb | board | war"),
        lang: str = typer.Option("ja", help="ja (default) or en"),
        raw: bool = typer.Option(False, "--raw", help="print the Markdown source"),
    ) -> None:
        """Show the rules of a game for players (goal, a round, each card)."""
        from rich.console import Console
        from rich.markdown import Markdown

        from fuyuki.cli.files import fail
        from fuyuki.cli.pager import page
        from fuyuki.cli.wrap import kept_whole
        from fuyuki.core.errors import DataError
        from fuyuki.rulebook import GAMES, rules_text

        console = Console(highlight=False)
        if game not in GAMES:
            fail(DataError("GAME", "game", f"must be one of {', '.join(GAMES)}, not {game!r}",
                           "choice", allowed=" | ".join(GAMES), got=repr(game)), lang)
        text = rules_text(game, lang)
        if raw:
            typer.echo(text)
            return
        markdown = tables_as_lists(text, lang)
        with kept_whole(CODE.findall(markdown)):
            page(console, Markdown(markdown))


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def tables_as_lists(text: str, lang: str) -> str:
    """Markdown tables turned into lists: a terminal table cuts long cells with "…", a list
    wraps them. A row reads "- **first** (header value, …): last" (in Japanese
    "- **first**（header値、…）：last", the header and its value one word)."""
    out: list[str] = []
    header: list[str] = []
    open_, close, comma, colon, gap = (("（", "）", "、", "：", "") if lang == "ja"
                                       else (" (", ")", ", ", ": ", " "))
    for line in text.splitlines():
        if not line.startswith("|"):
            header = []
            out.append(line)
        elif not header:
            header = _cells(line)
        elif not set(line) <= set("|-: "):
            cells = _cells(line)
            middle = comma.join(f"{h}{gap}{c}" for h, c in zip(header[1:-1], cells[1:-1]) if c)
            item = f"- **{cells[0]}**" + (f"{open_}{middle}{close}" if middle else "")
            out.append(item + (f"{colon}{cells[-1]}" if len(cells) > 1 else ""))
    return "\n".join(out)
