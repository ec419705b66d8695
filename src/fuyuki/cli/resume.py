"""What a game stopped with Ctrl-C says about going on (:func:`fuyuki.cli.prompt.interrupted`).

Read from the command being run: a war saved with ``--save`` (or resumed from a file) goes on
with ``fuyuki war new --resume FILE``; Servant Big Battle and the board game cannot be
continued from the middle, so they say where the record is (``--save``: the game so far, for
``replay``) and the command that deals the same game again (the same arguments with the game's
seed). A war's own seed is a secret (it makes the dice) and is not printed."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from fuyuki.cli.prompt import t

#: what each game's ``replay`` command is
REPLAY = {("play",): "fuyuki replay", ("board", "play"): "fuyuki board replay"}
#: the commands that write their ``--save`` when stopped (after saying this); another one
#: counts as saved when its file was written while it ran
SAVES_WHEN_STOPPED = {("play",)}
DROPPED = ("--save", "--seed", "--resume")


def hint(lang: str, seed: int | None = None) -> list[str]:
    """The lines to say after "(interrupted)" for the command being run (none outside one)."""
    try:
        from typer._click.globals import get_current_context
    except ImportError:         # a Typer that runs on Click itself
        from click import get_current_context
    ctx = get_current_context(silent=True)
    if ctx is None:
        return []
    path = _path(ctx)
    params: dict[str, Any] = dict(ctx.params)
    if path == ("war", "new"):
        return _war(lang, params)
    if path not in REPLAY:
        return []
    seed = seed if seed is not None else params.get("seed")
    save = params.get("save")
    lines = []
    if save is not None and (path in SAVES_WHEN_STOPPED or _written(Path(save))):
        replay = shlex.join([*REPLAY[path].split(), str(save)])
        lines.append(t(lang, "stop.saved_record", path=str(save), replay=replay))
    again = shlex.join(["fuyuki", *path, *_kept_args(path), "--seed", str(seed if seed is not None
                                                                            else "N")])
    lines.append(t(lang, "stop.no_resume", again=again))
    if seed is None:
        lines.append(t(lang, "stop.seed_shown", seed="N"))
    if save is None:
        lines.append(t(lang, "stop.next_time"))
    return lines


def _war(lang: str, params: dict[str, Any]) -> list[str]:
    """A war saves itself after each decision of a person: resumed from its file, or begun
    again when nobody had decided yet."""
    save = params.get("save") or params.get("resume")
    if save is None:
        return [t(lang, "stop.war_unsaved", resume="fuyuki war new --resume FILE")]
    if _written(Path(save)) or (params.get("resume") and Path(save).is_file()):
        resume = shlex.join(["fuyuki", "war", "new", "--resume", str(save)])
        return [t(lang, "stop.war_saved", path=str(save), resume=resume)]
    from fuyuki.cli.main import ARGS

    return [t(lang, "stop.war_nothing", again=shlex.join(["fuyuki", *ARGS]))]


def _written(path: Path) -> bool:
    """Was ``path`` written since the command started?"""
    from fuyuki.cli.main import STARTED

    return path.is_file() and path.stat().st_mtime >= STARTED[0]


def _path(ctx: Any) -> tuple[str, ...]:
    """The command's path under ``fuyuki``: ("board", "play")."""
    names = []
    while ctx.parent is not None:
        names.append(ctx.info_name)
        ctx = ctx.parent
    return tuple(reversed(names))


def _kept_args(path: tuple[str, ...]) -> list[str]:
    """The options of the command line being run, less the save, the seed and the command's
    own path (what deals the same game again)."""
    from fuyuki.cli.main import ARGS

    args = list(ARGS)
    for name in path:                       # the path's words, in order
        if name in args:
            args.remove(name)
    out: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in DROPPED:
            skip = True
        elif not arg.startswith(tuple(f"{d}=" for d in DROPPED)):
            out.append(arg)
    return out
