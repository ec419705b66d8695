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

from fuyuki.core.errors import DataError


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
    def from_json(cls, data: dict[str, Any], source: str = "<record>") -> "Record":
        for key in ("game", "seed", "submissions"):
            if key not in data:
                raise DataError(source, key, "missing")
        subs = data["submissions"]
        if not isinstance(subs, list) or not all(isinstance(x, list) and len(x) == 2 for x in subs):
            raise DataError(source, "submissions", "must be a list of [seat, choice] pairs")
        return cls(data["game"], int(data["seed"]), dict(data.get("config", {})),
                   [(int(s), c) for s, c in subs])

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), ensure_ascii=False, indent=1), "utf-8")

    @classmethod
    def load(cls, path: str | Path) -> "Record":
        p = Path(path)
        try:
            data = json.loads(p.read_text("utf-8"))
        except FileNotFoundError:
            raise DataError(str(p), "-", "no such file") from None
        except json.JSONDecodeError as exc:
            raise DataError(str(p), f"line {exc.lineno}", f"not valid JSON: {exc.msg}") from None
        if not isinstance(data, dict):
            raise DataError(str(p), "-", "a record is a JSON object")
        return cls.from_json(data, str(p))
