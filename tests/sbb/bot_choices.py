"""The heuristic bot's recorded choices: a speed-up of the bot must not change one of them.

The golden games (:mod:`.differential`) pin the engine; their choices were made by the bots
of their day, and the heuristic bot has been retuned since. This file pins today's heuristic
bot instead: for every golden case played by heuristic bots (alone or mixed with random
ones) it records the index of each choice of each seat, a digest of every bid score the bot
gave (``bid_scores`` feeds the hard bot's belief, so its values must stay exact, not only its
argmax), and the same for games where seat 0 is the simulator's full-state variant
(:class:`fuyuki.sim.analysis.FullStateHeuristicBot`, reading ``full_view``). Rewrite it only
when the bot is meant to play differently (the commit says why):

    PYTHONPATH=src python -m tests.sbb.bot_choices --write
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import Any

from fuyuki.sbb.agents import make_bot

from .differential import DIGITS, LIMIT, cases, read_jsonl, start, write_jsonl

FILE = Path(__file__).parent / "golden" / "heuristic_choices.jsonl.gz"
FULL_STATE_GAMES = 60   # of the final edition's heuristic cases, with seat 0 the full-state bot


def bot_cases() -> list[dict[str, Any]]:
    """The golden cases with heuristic bots, then those again with the full-state bot."""
    # (the version-1 games: the bots' choices do not depend on the RNG version)
    plain = [c for c in cases() if c["bots"] in ("heuristic", "mixed") and "rng" not in c]
    full = [dict(c, full_state=True) for c in plain
            if c["bots"] == "heuristic" and c["edition"] == "final" and c["mode"] is None]
    return plain + full[:FULL_STATE_GAMES]


def play(case: dict[str, Any]) -> dict[str, Any]:
    """Play ``case`` with its bots: the index of every choice and a digest of the bid scores."""
    from fuyuki.sim.analysis import FullStateHeuristicBot, full_view

    g = start(case)
    n = case["players"]
    kinds = {"heuristic": ["heuristic"] * n, "mixed": ["random", "heuristic"] * n}[case["bots"]]
    bots = [make_bot(kinds[i], case["seed"] * 8 + i, g.rules) for i in range(n)]
    if case.get("full_state"):
        bots[0] = FullStateHeuristicBot(case["seed"] * 8, cards=g.rules.cards)
    scores = hashlib.sha256()
    choices: list[str] = []
    while not g.over:
        for seat, d in g.pending().items():
            b = bots[seat]
            if not b.needs_view:
                view = None
            elif getattr(b, "needs_full_state", False):
                view = full_view(g, seat)
            else:
                view = g.view(seat)
            if d.kind == "bid" and b.needs_view:
                got = b.bid_scores(view, d.options)
                scores.update(repr(sorted(got.items())).encode())
            choice = b.choose(view, d)
            choices.append(str(seat) + DIGITS[d.options.index(choice)])
            g.submit(seat, choice)
        if len(choices) > LIMIT:
            raise RuntimeError(f"game {case} did not end")
    return {**case, "choices": "".join(choices), "scores": scores.hexdigest()[:24]}


def load() -> list[dict[str, Any]]:
    return read_jsonl(FILE)


def write() -> None:
    entries = [play(c) for c in bot_cases()]
    write_jsonl(FILE, entries)
    print(f"{len(entries)} games -> {FILE} ({FILE.stat().st_size} bytes)")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        sys.exit(__doc__)
