"""Reading a choice at the terminal, the same way in every game.

A player types an option's number or one of its names; names match whatever their case or
width (``p3``, ``Ｐ３`` and ``P3`` are one name: NFKC, then case-folded). ``?``, ``help`` or
``ヘルプ`` shows the help of the decision. Anything else is answered with one short line in
the game's language naming what is accepted; the input itself is never echoed back. The end
of input and Ctrl-C end every command the same way.
"""

from __future__ import annotations

import unicodedata
from typing import Callable, Sequence

import typer
from rich.console import Console

from fuyuki.core import i18n
from fuyuki.core.data import package_file

i18n.register("cli", package_file("fuyuki.cli", ""))

HELP_WORDS = frozenset({"?", "help", "h", "ヘルプ", "へるぷ"})
EXIT_EOF = 1
EXIT_INTERRUPTED = 130


def t(lang: str, key: str, **params) -> str:
    return i18n.tr(lang, f"cli.{key}", **params)


def normalize(text: str) -> str:
    """The form names are compared in: NFKC (full width → half width), case-folded, trimmed."""
    return unicodedata.normalize("NFKC", text).strip().casefold()


def match(raw: str, names: Sequence[Sequence[str]]) -> int | None:
    """The index of the option ``raw`` names: its number (1-based) or one of its names."""
    key = normalize(raw)
    if key.isdigit() and 1 <= int(key) <= len(names):
        return int(key) - 1
    hits = {i for i, aliases in enumerate(names) for a in aliases if a and normalize(a) == key}
    return hits.pop() if len(hits) == 1 else None


def end_of_input(console: Console, lang: str) -> None:
    """End the command because the input ended (exit status 1)."""
    console.print(f"\n{t(lang, 'prompt.eof')}")
    raise typer.Exit(EXIT_EOF)


def interrupted(console: Console, lang: str, seed: int | None = None) -> None:
    """End the command after Ctrl-C (exit status 130), saying how the game goes on where it
    can (:mod:`fuyuki.cli.resume`; ``seed``: the game's, when the command line gave none)."""
    from fuyuki.cli.resume import hint

    console.print(f"\n{t(lang, 'prompt.interrupted')}")
    for line in hint(lang, seed):     # (a command stays on one line, to be copied whole)
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(EXIT_INTERRUPTED)


def ask(console: Console, lang: str, names: Sequence[Sequence[str]],
        show_help: Callable[[], None]) -> int:
    """Ask until the player names one of ``names`` (one list of aliases per option); return
    its index. ``?`` calls ``show_help`` and asks again."""
    while True:
        try:
            raw = console.input(f"{t(lang, 'prompt.ask')} > ")
        except EOFError:
            end_of_input(console, lang)
        if normalize(raw) in HELP_WORDS:
            show_help()
            continue
        found = match(raw, names)
        if found is not None:
            return found
        console.print(f"[red]{t(lang, 'prompt.bad', n=len(names))}[/]")


def read_line(console: Console, lang: str, label: str) -> str:
    """A line of free text (may be empty); the end of input ends the command."""
    try:
        return console.input(f"{label} > ")
    except EOFError:
        end_of_input(console, lang)
        raise  # unreachable: end_of_input always exits
