"""``fuyuki rules [sbb|board|war] [--lang ja|en]``: the players' rules in the terminal."""

from __future__ import annotations

import typer


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

        from fuyuki.rulebook import GAMES, rules_text

        console = Console(highlight=False)
        if game not in GAMES:
            console.print(f"[red]game: {' | '.join(GAMES)}[/]")
            raise typer.Exit(2)
        if lang not in ("ja", "en"):
            console.print("[red]--lang: ja | en[/]")
            raise typer.Exit(2)
        text = rules_text(game, lang)
        if raw:
            typer.echo(text)
        else:
            console.print(Markdown(text))
