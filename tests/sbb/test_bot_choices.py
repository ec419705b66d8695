"""The heuristic bot plays as recorded (tests/sbb/bot_choices.py): the same choices, seat by
seat, and bit-for-bit the same bid scores, in every recorded game — so a faster bot is the
same bot."""

from .bot_choices import bot_cases, load, play


def test_recorded_games_cover_the_heuristic_cases():
    entries = load()
    assert len(entries) == len(bot_cases()) >= 500
    assert [{k: e[k] for k in c} for e, c in zip(entries, bot_cases())] == bot_cases()


def test_heuristic_bot_chooses_and_scores_as_recorded():
    wrong = []
    for e in load():
        got = play(e)
        if (got["choices"], got["scores"]) != (e["choices"], e["scores"]):
            wrong.append((e["edition"], e["mode"], e["players"], e["seed"],
                          e.get("full_state", False)))
    assert not wrong, f"{len(wrong)} games differ, e.g. {wrong[:5]}"
