"""Game records: the seed, the configuration and the ordered submissions.

A record replays a game exactly; it is the save file, the replay, the bug report and the
golden test. It holds no hidden information of its own — but replaying it reveals the whole
game, so it is shared only after the game (or kept by the server).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mypy_extensions import mypyc_attr

from fuyuki.core.data import short_repr
from fuyuki.core.errors import DataError


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: picklable, copyable (see _build)
@dataclass
class Record:
    game: str
    seed: int
    config: dict[str, Any] = field(default_factory=dict)
    submissions: list[tuple[int, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seed": self.seed,
            "config": self.config,
            "submissions": [[s, c] for s, c in self.submissions],
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "<record>") -> "Record":
        """A record from its JSON value; a DataError names the key of any wrong field."""
        if not isinstance(data, dict):
            raise DataError(source, "-", "a record is a JSON object", "type",
                            want="a JSON object", want_ja="JSONオブジェクト", got=short_repr(data))
        for key in ("game", "seed", "submissions"):
            if key not in data:
                raise DataError(source, key, "missing", "missing")
        game, seed, config, subs = (data["game"], data["seed"], data.get("config", {}),
                                    data["submissions"])
        if not isinstance(game, str):
            raise _type(source, "game", "a string", "文字列", game)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise _type(source, "seed", "an integer", "整数", seed)
        if not isinstance(config, dict):
            raise _type(source, "config", "a JSON object", "JSONオブジェクト", config)
        if not isinstance(subs, list):
            raise _type(source, "submissions", "a list of [seat, choice] pairs",
                        "[席, 選択] の組のリスト", subs)
        out: list[tuple[int, Any]] = []
        for i, x in enumerate(subs):
            if not isinstance(x, list) or len(x) != 2:
                raise _type(source, f"submissions[{i}]", "a [seat, choice] pair", "[席, 選択] の組", x)
            seat, choice = x
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise _type(source, f"submissions[{i}][0]", "a seat number", "席の番号", seat)
            out.append((seat, choice))
        return cls(game, seed, dict(config), out)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), ensure_ascii=False, indent=1), "utf-8")

    @classmethod
    def load(cls, path: str | Path) -> "Record":
        """A saved record; every failure is a DataError naming the file and the key."""
        from fuyuki.core.load import read_json

        return cls.from_json(read_json(path), str(path))


def _type(source: str, key: str, want: str, want_ja: str, got: Any) -> DataError:
    return DataError(source, key, f"must be {want}, not {short_repr(got)}", "type", want=want,
                     want_ja=want_ja, got=short_repr(got))
