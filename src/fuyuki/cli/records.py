"""Which command replays which game record, so that a record given to the wrong command
gets a plain pointer to the right one."""

from __future__ import annotations

from pathlib import Path

from fuyuki.cli.prompt import t
from fuyuki.core.errors import FuyukiError
from fuyuki.core.record import Record

#: every record kind (each game of the contract's registry, and the SBB judge's) -> the command
#: that replays it
REPLAY_COMMAND = {"sbb": "fuyuki replay", "board": "fuyuki board replay",
                  "rpg-war": "fuyuki war new --resume", "rpg-hosted": "fuyuki war verify",
                  "sbb-judge": "fuyuki judge"}
#: the kinds replayed from the log the game publishes, which ends with the record (a hosted
#: war's record stays with the server: its secret is the GM's; the log carries it when the war
#: is over)
FROM_LOG = frozenset({"rpg-hosted"})


def load_record(path: Path, game: str, lang: str) -> Record:
    """The record in ``path``, which must be one of ``game``; otherwise a FuyukiError naming
    the command that replays it."""
    record = Record.load(path)
    if record.game == game:
        return record
    if record.game in REPLAY_COMMAND:
        key = "record.from_log" if record.game in FROM_LOG else "record.other_game"
        raise FuyukiError(t(lang, key, path=path,
                            game=t(lang, f"record.{record.game}"),
                            command=REPLAY_COMMAND[record.game]))
    raise FuyukiError(t(lang, "record.unknown_game", path=path, game=repr(record.game)))
