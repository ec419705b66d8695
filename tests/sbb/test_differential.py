"""Nothing changes in the rules: every golden game (tests/sbb/differential.py — thousands of
seeded games of every edition, mode and option, by random and heuristic bots, recorded before
the engine's rewrite) replays through today's engine to the same decisions, events, result
and final views."""

from .differential import PLAN, cases, load, replay


def test_golden_file_covers_the_plan():
    entries = load()
    assert len(entries) == sum(p[-1] for p in PLAN) >= 2000
    assert [{k: e[k] for k in c} for e, c in zip(entries, cases())] == list(cases())


def test_golden_games_replay_exactly():
    wrong = []
    for e in load():
        got = replay(e)
        if got != e["print"]:
            wrong.append((e["edition"], e["mode"], e["options"], e["players"], e["seed"]))
    assert not wrong, f"{len(wrong)} golden games differ, e.g. {wrong[:5]}"
