"""Entry point of the ``fuyuki`` command. Each job lives in its own module and registers
itself on the app here."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="fuyuki",
    help="The fan-made Holy Grail War games: Servant Big Battle, Grail War RPG, Grail War Board.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from fuyuki import __version__

        typer.echo(f"fuyuki {__version__}")
        raise typer.Exit()


@app.callback()
def _options(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                          help="print the version and exit")) -> None:
    """The fan-made Holy Grail War games: Servant Big Battle, Grail War RPG, Grail War Board."""
    from fuyuki.cli.wrap import install

    install()        # every screen breaks Japanese lines by its rules (禁則処理)


def _register() -> None:
    from fuyuki.cli import (board_commands, print_commands, rules_commands, sbb_commands,
                            sim_commands, war_commands, web_commands)

    for module in (sbb_commands, war_commands, board_commands, print_commands, web_commands,
                   sim_commands, rules_commands):
        module.register(app)


_register()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
