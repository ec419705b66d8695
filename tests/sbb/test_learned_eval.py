"""The hard bot's learned evaluation (agents/features.py, learned_eval.py, train_eval.py)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numpy")     # the learned evaluation's arithmetic (extras sim, rl)

from fuyuki.sbb import new_game  # noqa: E402
from fuyuki.sbb.agents import make_bot  # noqa: E402
from fuyuki.sbb.agents.features import MASTERS, NAMES, SERVANTS, SIZE, seat_features  # noqa: E402
from fuyuki.sbb.agents.hard import HardBot  # noqa: E402
from fuyuki.sbb.agents.learned_eval import LearnedEval, shipped  # noqa: E402
from fuyuki.sbb.agents.train_eval import main as train_eval  # noqa: E402
from .conftest import game_with  # noqa: E402


def _after_round(players: int, seed: int, rounds: int = 1):
    """A game of heuristic bots stopped at the start of round ``rounds + 1``."""
    game = new_game(players, seed)
    bots = [make_bot("heuristic", seed * 10 + i) for i in range(players)]
    while not game.over and game.s.round <= rounds:
        for seat, d in game.pending().items():
            game.submit(seat, bots[seat].choose(game.view(seat), d))
    assert not game.over
    return game


def test_every_seat_gets_a_row_naming_its_master_and_servant():
    game = _after_round(4, 3)
    rows = seat_features(game)
    assert len(rows) == 4 and all(len(r) == SIZE == len(NAMES) for r in rows)
    for seat, row in enumerate(rows):
        masters = row[NAMES.index("master " + MASTERS[0]):][:len(MASTERS)]
        servants = row[NAMES.index("servant " + SERVANTS[0]):][:len(SERVANTS)]
        assert masters[MASTERS.index(game.t.names[game.s.master[seat]])] == 1 and sum(masters) == 1
        assert servants[SERVANTS.index(game.t.names[game.s.servant[seat]])] == 1 and sum(servants) == 1
        assert row[NAMES.index("hand")] == len(game.s.hand[seat]) / 5
        assert row[NAMES.index("parent")] == (game.s.parent == seat)


def test_the_shipped_evaluation_gives_shares_and_favours_the_richer_seat():
    game = _after_round(4, 5)
    ev = shipped()
    shares = ev(game)
    assert len(shares) == 4 and abs(sum(shares) - 1) < 1e-9
    assert all(0 < x < 1 for x in shares)
    richer = game.clone()
    richer.s.gems[2] += 6
    assert ev(richer)[2] > shares[2] + 0.1


def test_the_training_recipe_runs_end_to_end(tmp_path, capsys):
    data = tmp_path / "pos.npz"
    train_eval(["data", "--games", "6", "--seed", "10", "--out", str(data)])
    weights = tmp_path / "w.json"
    train_eval(["train", str(data), "--epochs", "1", "--hidden", "4", "--out", str(weights)])
    report = json.loads(capsys.readouterr().out)
    assert report["positions"] > 6 and report["learned"] > 0
    ev = LearnedEval(weights)
    assert ev.w1.shape == (SIZE, 4)
    assert abs(sum(ev(_after_round(3, 8))) - 1) < 1e-9


def test_a_hard_bot_with_the_learned_evaluation_plays_and_replays_a_whole_game():
    first = game_with(HardBot(5, iterations=24, evaluation="learned"), 23, 2)
    assert first[1]["winners"] is not None
    assert game_with(HardBot(5, iterations=24, evaluation="learned"), 23, 2) == first
    with pytest.raises(ValueError, match="evaluation"):
        HardBot(1, evaluation="oracle")
