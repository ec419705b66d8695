"""Nothing changes in the rules: every golden game (tests/sbb/differential.py — thousands of
seeded games of every edition, mode and option, by random and heuristic bots, recorded before
the engine's rewrite) replays through today's engine to the same decisions, events, result
and final views. The games recorded with RNG version 1 (no "rng" in the entry) replay with it:
records made before version 2 still replay.
"""

from .differential import PLAN, PLAN_V2, cases, load, replay


def test_golden_file_covers_the_plan():
    entries = load()
    assert len(entries) == sum(p[-1] for p in PLAN + PLAN_V2) >= 2000
    assert sum("rng" in e for e in entries) == sum(p[-1] for p in PLAN_V2) >= 200
    assert [{k: e[k] for k in c} for e, c in zip(entries, cases())] == list(cases())


def test_golden_games_replay_exactly():
    wrong = []
    for e in load():
        got = replay(e)
        if got != e["print"]:
            wrong.append((e["edition"], e["mode"], e["options"], e["players"], e["seed"]))
    assert not wrong, f"{len(wrong)} golden games differ, e.g. {wrong[:5]}"
