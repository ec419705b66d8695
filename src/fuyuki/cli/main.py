"""Entry point of the ``fuyuki`` command. Each job lives in its own module and registers
itself on the app here.

The whole command line speaks one language (:mod:`fuyuki.cli.language`): before the command
runs, :class:`Command` finds it, gives every command its help in it
(:mod:`fuyuki.cli.helptexts`) and answers a mistake on the command line with one line in it
(:mod:`fuyuki.cli.usage`, exit status 2)."""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Optional

import typer
from typer.core import TyperGroup

try:
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:        # a Typer that runs on Click itself
    from click.exceptions import ClickException  # type: ignore[assignment]
    NoArgsIsHelpError = ()  # type: ignore[assignment,misc]

#: the arguments of the command line being run (what :mod:`fuyuki.cli.resume` repeats) and
#: when it started
ARGS: list[str] = []
STARTED: list[float] = [0.0]


class Command(TyperGroup):
    """The ``fuyuki`` command: the language, the help in it, one-line usage errors."""

    def main(self, args: Any = None, prog_name: Optional[str] = None,
             complete_var: Optional[str] = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        from fuyuki.cli import language, usage
        from fuyuki.cli.helptexts import localize

        args = list(sys.argv[1:] if args is None else args)
        ARGS[:] = args
        STARTED[0] = time.time()
        lang = language.detect(args, os.environ)
        localize(self, lang)
        given = language.given(args)
        if given is not None and given not in language.LANGS:
            return _end(usage.bad_lang(given, lang), 2, standalone_mode)
        try:
            rv = super().main(language.without(args), prog_name, complete_var,
                              standalone_mode=False, **extra)
        except NoArgsIsHelpError as exc:        # ``fuyuki`` or ``fuyuki board`` alone
            typer.echo(exc.format_message())
            return _end(None, 0, standalone_mode)
        except ClickException as exc:
            if not standalone_mode:
                raise
            return _end(usage.line(exc, lang), exc.exit_code, standalone_mode)
        except typer.Abort:
            from fuyuki.cli.prompt import t

            return _end(t(lang, "usage.aborted"), 1, standalone_mode)
        return _end(None, rv if isinstance(rv, int) else 0, standalone_mode, rv)


def _end(message: Optional[str], code: int, standalone_mode: bool, rv: Any = None) -> Any:
    if message is not None:
        typer.echo(message, err=True)
    if standalone_mode:
        sys.exit(code)
    return rv if message is None else code


app = typer.Typer(
    name="fuyuki",
    cls=Command,
    help="The fan-made Holy Grail War games: Servant Big Battle, Grail War RPG, Grail War Board.",
    no_args_is_help=True,
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        from fuyuki import __version__

        typer.echo(f"fuyuki {__version__}")
        raise typer.Exit()


@app.callback()
def _options(ctx: typer.Context,
             version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                          help="print the version and exit"),
             lang: Optional[str] = typer.Option(None, "--lang",
                                                help="the language of messages and help "
                                                     "(default: FUYUKI_LANG, else ja)")) -> None:
    """The fan-made Holy Grail War games: Servant Big Battle, Grail War RPG, Grail War Board."""
    from fuyuki.cli.wrap import install

    install()        # every screen breaks Japanese lines by its rules (禁則処理)
    if ctx.invoked_subcommand is None:      # ``fuyuki --lang en``: the help, in English
        typer.echo(ctx.get_help())
        raise typer.Exit()


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
