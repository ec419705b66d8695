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


def _register() -> None:
    from fuyuki.cli import sbb_commands

    sbb_commands.register(app)
    from fuyuki.cli import war_commands; war_commands.register(app)
    from fuyuki.cli import board_commands; board_commands.register(app)
    from fuyuki.cli import print_commands; print_commands.register(app)
    from fuyuki.cli import web_commands; web_commands.register(app)
    from fuyuki.cli import sim_commands; sim_commands.register(app)


_register()


def main() -> None:
    app()


if __name__ == "__main__":
    main()
