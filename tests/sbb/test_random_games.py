"""Thousands of random full games at 3, 4 and 5 players run clean."""

import pytest

from fuyuki.sbb import new_game
from fuyuki.sbb.agents import make_bot, play_out
from fuyuki.sbb.game import NOBODY


def _run(players, seed, kind):
    g = new_game(players, seed)
    play_out(g, [make_bot(kind, seed * 7 + i) for i in range(players)], limit=50000)
    r = g.result
    assert r["winners"] and all(0 <= w < players for w in r["winners"])
    assert r["draw"] == (len(r["winners"]) > 1)
    assert not NOBODY   # the shared "asks nobody" dict is never changed
    return r


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_full_games(players):
    reasons = {}
    for seed in range(800):
        r = _run(players, seed, "random")
        reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    assert sum(reasons.values()) == 800


@pytest.mark.parametrize("players", [3, 4, 5])
def test_heuristic_full_games(players):
    for seed in range(100):
        _run(players, 10_000 + seed, "heuristic")


def test_play_out_after_a_seat_answered():
    """play_out takes over a decision some seat has already answered (the bots-only fast path
    answers only the others, and nothing of the decision after it)."""
    for seed in range(20):
        g = new_game(4, seed)
        bots = [make_bot("random", seed * 4 + k) for k in range(4)]
        while len(g.pending()) < 2:   # to the first decision asked of several seats at once
            (seat, d), = g.pending().items()
            g.submit(seat, bots[seat].choose(None, d))
        last = list(g.pending())[-1]
        g.submit(last, bots[last].choose(None, g.pending()[last]))
        play_out(g, bots, limit=50000)
        assert g.over
