"""Which command replays which game record, so that a record given to the wrong command
gets a plain pointer to the right one."""

from __future__ import annotations

from pathlib import Path

from fuyuki.cli.prompt import t
from fuyuki.core.errors import FuyukiError
from fuyuki.core.record import Record

REPLAY_COMMAND = {"sbb": "fuyuki replay", "board": "fuyuki board replay",
                  "rpg-war": "fuyuki war new --resume", "sbb-judge": "fuyuki judge"}


def load_record(path: Path, game: str, lang: str) -> Record:
    """The record in ``path``, which must be one of ``game``; otherwise a FuyukiError naming
    the command that replays it."""
    record = Record.load(path)
    if record.game == game:
        return record
    if record.game in REPLAY_COMMAND:
        raise FuyukiError(t(lang, "record.other_game", path=path,
                            game=t(lang, f"record.{record.game}"),
                            command=REPLAY_COMMAND[record.game]))
    raise FuyukiError(t(lang, "record.unknown_game", path=path, game=repr(record.game)))
