"""Golden games: thousands of seeded games recorded from the engine, replayed by the test.

Each golden game is a record (seed, configuration, and every submission as the index of the
chosen option, seat by seat) and a fingerprint: the SHA-256 of everything the engine showed
— every decision asked (kind, options, info) at each submission, every event (kind, data,
who may see it), the result, and the final view of every seat and of a spectator. The test
replays each record through today's engine and compares fingerprints: a rewrite of the
engine that changes any rule, option order, event, view or random draw fails it, naming the
game.

The games were chosen by bots (random and heuristic) when the file was written; replaying
needs no bot, so a change to the bots never touches this file. Rewrite the file only when a
rule is meant to change (the commit says which):

    PYTHONPATH=src python -m tests.sbb.differential --write

Cases added at the end of the plan are played and added with ``--append`` (the file's games
kept as they are).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from pathlib import Path
from typing import Any, Iterator

from fuyuki.sbb import setup_overrides
from fuyuki.sbb.agents import make_bot
from fuyuki.sbb.rules import Rules

FILE = Path(__file__).parent / "golden" / "games.jsonl.gz"
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
LIMIT = 20000   # submissions: a game longer than this is not golden material

# (edition, mode, options, players, bots, assign, fixed, games)
PLAN: list[tuple[str, str | None, tuple[str, ...], tuple[int, ...], str, str | None, bool, int]] = [
    ("final", None, (), (3, 4, 5), "random", None, False, 1200),
    ("final", None, (), (4,), "heuristic", None, False, 200),
    ("final", None, (), (3, 5), "mixed", None, False, 150),
    ("final", None, (), (4,), "random", "random", True, 150),
    ("final", None, ("tie_dice",), (3, 4), "random", None, False, 100),
    ("final", None, ("land_modifiers", "no_berserker_penalty"), (4, 5), "random", None, False, 100),
    ("v1.0", None, (), (3, 4, 5), "random", None, False, 150),
    ("v1.1", None, (), (3, 4, 5), "random", None, False, 150),
    ("v1.1", None, (), (4,), "heuristic", None, False, 50),
    ("final", "fate", (), (3, 4, 5), "random", None, False, 100),
    ("final", "ubw", (), (3, 4, 5), "random", None, False, 100),
    ("final", "ubw", (), (4,), "heuristic", None, False, 50),
    ("final", "hf", (), (3, 4, 5), "random", None, False, 100),
    ("final", "hf", (), (4,), "heuristic", None, False, 50),
    ("final", "hollow", (), (3, 4, 5), "random", None, False, 100),
    ("v1.0", "hf", (), (4,), "random", None, False, 50),
    ("final", "big_battle", (), (7,), "random", None, False, 20),
]


#: games played with RNG version 2 (fuyuki.core.rng.Stream), after PLAN's (version 1: the
#: games recorded before version 2, which a game without "rng" replays with)
PLAN_V2: list[tuple[str, tuple[int, ...], str, int]] = [
    ("final", (3, 4, 5), "random", 150),
    ("final", (4,), "heuristic", 50),
]


def cases() -> Iterator[dict[str, Any]]:
    """The golden games' configurations, in file order."""
    for k, (edition, mode, options, counts, bots, assign, fixed, games) in enumerate(PLAN):
        for i in range(games):
            n = counts[i % len(counts)]
            yield {"edition": edition, "mode": mode, "options": list(options), "players": n,
                   "bots": bots, "assign": assign, "fix": fixed, "seed": 1000 * k + i}
    for k, (edition, counts, bots, games) in enumerate(PLAN_V2, start=len(PLAN)):
        for i in range(games):
            yield {"edition": edition, "mode": None, "options": [], "players": counts[i % len(counts)],
                   "bots": bots, "assign": None, "fix": False, "seed": 1000 * k + i, "rng": 2}


_RULES: dict[tuple, Rules] = {}


def rules_of(case: dict[str, Any]) -> Rules:
    key = (case["edition"], case["mode"], tuple(case["options"]))
    if key not in _RULES:
        _RULES[key] = Rules.preset(case["edition"], case["mode"], tuple(case["options"]))
    return _RULES[key]


def start(case: dict[str, Any]):
    """The game of ``case`` at its first decision (the fixed pairing, if any, is the parent's:
    the first master and servant of the rules)."""
    rules = rules_of(case)
    g = setup_overrides.start(case["players"], case["seed"], rules, rng=case.get("rng", 1))
    fixed = {}
    if case["fix"]:
        fixed = {g.s.parent: (rules.masters[case["seed"] % len(rules.masters)],
                              rules.servants[case["seed"] % len(rules.servants)])}
    return setup_overrides.deal(g, fixed, case["assign"])


#: view keys added after the golden games were recorded (new information shown, no rule
#: changed): left out of the fingerprint, so that the recorded views still compare
VIEW_KEYS_ADDED = ("extra_gem",)


class Fingerprint:
    """The SHA-256 of what a game showed, fed as it plays."""

    def __init__(self) -> None:
        self.h = hashlib.sha256()

    def add(self, obj: Any) -> None:
        self.h.update(json.dumps(obj, sort_keys=True, ensure_ascii=False,
                                 separators=(",", ":")).encode())
        self.h.update(b"\n")

    def finish(self, g) -> str:
        for e in g.events:
            self.add(e.to_json())
        self.add(g.result)
        for seat in [None, *range(g.players)]:
            view = g.view(seat)
            for key in VIEW_KEYS_ADDED:
                del view[key]
            self.add(view)
        return self.h.hexdigest()[:24]


def play(case: dict[str, Any]) -> dict[str, Any]:
    """Play ``case`` with its bots; the golden entry (the case, its choices, its print)."""
    g = start(case)
    n = case["players"]
    kinds = {"random": ["random"] * n, "heuristic": ["heuristic"] * n,
             "mixed": ["random", "heuristic"] * n}[case["bots"]]
    bots = [make_bot(kinds[i], case["seed"] * 8 + i, g.rules) for i in range(n)]
    fp = Fingerprint()
    choices: list[str] = []
    while not g.over:
        for seat, d in g.pending().items():
            b = bots[seat]
            choice = b.choose(g.view(seat) if b.needs_view else None, d)
            idx = d.options.index(choice)
            fp.add([seat, d.to_json()])
            choices.append(str(seat) + DIGITS[idx])
            g.submit(seat, choice)
        if len(choices) > LIMIT:
            raise RuntimeError(f"game {case} did not end")
    return {**case, "choices": "".join(choices), "print": fp.finish(g)}


def replay(entry: dict[str, Any]) -> str:
    """Replay a golden entry through today's engine; its fingerprint."""
    g = start(entry)
    fp = Fingerprint()
    choices = entry["choices"]
    for k in range(0, len(choices), 2):
        seat = int(choices[k])
        d = g.pending()[seat]
        fp.add([seat, d.to_json()])
        g.submit(seat, d.options[DIGITS.index(choices[k + 1])])
    assert g.over, "the game did not end with its record"
    return fp.finish(g)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The entries of a gzipped JSON-lines file."""
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def write_jsonl(path: Path, entries: list[dict[str, Any]]) -> None:
    """Write ``entries`` as gzipped JSON lines (mtime=0: the same entries give the same bytes)."""
    path.parent.mkdir(exist_ok=True)
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        for e in entries:
            f.write((json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n").encode())


def load() -> list[dict[str, Any]]:
    return read_jsonl(FILE)


def write(append: bool = False) -> None:
    """Play every case (``append``: keep the file's games, play only the cases after them —
    for cases added to the plan, as the RNG version 2 games were)."""
    kept = load() if append else []
    entries = kept + [play(c) for c in list(cases())[len(kept):]]
    write_jsonl(FILE, entries)
    print(f"{len(entries)} games, {sum(len(e['choices']) // 2 for e in entries)} submissions "
          f"-> {FILE} ({FILE.stat().st_size} bytes)")


if __name__ == "__main__":
    if sys.argv[1:] in (["--write"], ["--append"]):
        write(append=sys.argv[1] == "--append")
    else:
        sys.exit(__doc__)
