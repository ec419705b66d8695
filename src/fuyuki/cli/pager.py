"""Long texts at the terminal: through the user's pager when both ends are a terminal, printed
as they are when the output is piped or redirected (a script, ``| less``, a file)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

from rich.console import Console, RenderableType


def interactive() -> bool:
    """Do the input and the output both belong to a terminal?"""
    return all(getattr(f, "isatty", lambda: False)() for f in (sys.stdin, sys.stdout))


def pager_command() -> str | None:
    """``$PAGER`` (or ``$MANPAGER``), else ``less`` (colours kept: ``LESS=-R``), else
    ``more``; None when there is none."""
    chosen = os.environ.get("MANPAGER") or os.environ.get("PAGER")
    if chosen:
        return chosen
    for name in ("less", "more"):
        if shutil.which(name):
            return name
    return None


def page(console: Console, *renderables: RenderableType) -> None:
    """Show ``renderables`` one screen at a time when at a terminal (the pager's own keys:
    space, b, q), else print them."""
    command = pager_command() if interactive() and console.is_terminal else None
    if command is None:
        console.print(*renderables)
        return
    with console.capture() as captured:
        console.print(*renderables)
    env = dict(os.environ)
    env.setdefault("LESS", "-R")          # less shows the colours instead of their codes
    proc = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env)
    try:
        assert proc.stdin is not None
        with proc.stdin as pipe:
            pipe.write(captured.get().encode("utf-8", "replace"))
    except (BrokenPipeError, OSError, KeyboardInterrupt):
        pass                                # the reader quit the pager early
    while True:
        try:
            proc.wait()
            break
        except KeyboardInterrupt:           # Ctrl-C belongs to the pager while it runs
            pass
