"""The learned bid policy (agents/learned_policy.py, train_policy.py) and the hard bot that
models the others by it (``HardBot(opponents="learned")``)."""

from __future__ import annotations

import json
import math

import pytest

pytest.importorskip("numpy")     # the policy's arithmetic (extras sim, rl)

from fuyuki.core.protocol import Decision  # noqa: E402
from fuyuki.sbb import new_game  # noqa: E402
from fuyuki.sbb.agents import learned_eval, make_bot  # noqa: E402
from fuyuki.sbb.agents.hard import HardBot  # noqa: E402
from fuyuki.sbb.agents.heuristic import HeuristicBot  # noqa: E402
from fuyuki.sbb.agents.learned_policy import (NAMES, SIZE, WEIGHTS, LearnedPolicy,  # noqa: E402
                                              option_features)
from fuyuki.sbb.agents.train_eval import main as train_eval  # noqa: E402
from fuyuki.sbb.agents.train_policy import main as train_policy  # noqa: E402
from fuyuki.sbb.view import build_seen  # noqa: E402
from .conftest import game_with  # noqa: E402


def _bids(players: int, seeds: range, kind: str = "heuristic"):
    """Every sealed bid of more than one option in games of ``kind`` bots: (the bidder's
    Seen, the options, the card it bid)."""
    out = []
    for seed in seeds:
        game = new_game(players, seed)
        bots = [make_bot(kind, seed * 10 + i) for i in range(players)]
        while not game.over:
            answers = []
            for seat, d in game.pending().items():
                choice = bots[seat].choose(game.view(seat), d)
                answers.append((seat, choice))
                if d.kind == "bid" and len(d.options) > 1:
                    out.append((build_seen(game, seat), d.options, choice))
            for seat, choice in answers:
                game.submit(seat, choice)
    return out


def test_each_option_gets_a_row_with_the_heuristic_rating_of_its_card():
    bot = HeuristicBot(0)
    seen, options, _ = _bids(4, range(700, 701))[3]
    rows = option_features(bot, seen, options)
    assert len(rows) == len(options) and all(len(r) == SIZE == len(NAMES) for r in rows)
    scores = bot._scores(bot.bid_table(seen), bot._colour_gems(seen), options)
    best = max(scores.values())
    for card, row in zip(options, rows):
        assert row[NAMES.index("score")] == scores[card]
        assert row[NAMES.index("gap to best")] == scores[card] - best
        assert row[NAMES.index("best")] == (scores[card] == best)


def test_the_shipped_policy_gives_chances_and_predicts_the_heuristic_bids_far_above_chance():
    """On games it never saw (seeds far from its data), the policy's mean log chance of the
    card a heuristic bot bid beats uniform chances by a wide margin."""
    policy = LearnedPolicy(0)
    bids = _bids(4, range(900_000, 900_008))
    logp = uniform = 0.0
    for seen, options, choice in bids:
        p = policy.probabilities(seen, options)
        assert len(p) == len(options) and abs(sum(p) - 1) < 1e-9 and min(p) > 0
        logp += math.log(p[options.index(choice)])
        uniform += math.log(1 / len(options))
    assert len(bids) > 100
    assert logp / len(bids) > uniform / len(bids) + 0.3


def test_the_policy_draws_its_bid_by_its_chances_and_answers_other_decisions_like_the_heuristic():
    policy = LearnedPolicy(3)
    seen, options, _ = _bids(4, range(701, 702))[2]
    d = Decision("bid", tuple(options))
    p = policy.probabilities(seen, options)
    counts = dict.fromkeys(options, 0)
    for _ in range(2000):
        counts[policy.choose(seen, d)] += 1
    for card, q in zip(options, p):
        assert abs(counts[card] / 2000 - q) < 0.05
    draft = Decision("draft_master", ("shinji", "rin", "taiga"))
    assert policy.choose(seen, draft) == "rin"


@pytest.mark.parametrize("shipped,load", [
    (WEIGHTS, lambda path: LearnedPolicy(0, path=path)),
    (learned_eval.WEIGHTS, learned_eval.LearnedEval)], ids=["policy", "evaluation"])
def test_weights_for_other_features_are_refused(tmp_path, shipped, load):
    path = tmp_path / "w.json"
    data = json.loads(shipped.read_text(encoding="utf-8"))
    data["features"] = data["features"][:-1]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="other features"):
        load(path)


def test_the_policy_training_recipe_runs_end_to_end(tmp_path, capsys):
    data = tmp_path / "bids.npz"
    train_policy(["data", "--games", "6", "--seed", "10", "--hard", "0.3",
                  "--hard-iterations", "8", "--out", str(data)])
    weights = tmp_path / "w.json"
    train_policy(["train", str(data), "--epochs", "2", "--hidden", "4", "--out", str(weights)])
    report = json.loads(capsys.readouterr().out)
    assert report["positions"] > 20 and report["learned"] > 0 and report["uniform"] > 0
    policy = LearnedPolicy(0, path=weights)
    assert policy.model.w1.shape == (SIZE, 4)
    seen, options, _ = _bids(3, range(8, 9))[0]
    assert abs(sum(policy.probabilities(seen, options)) - 1) < 1e-9


def test_training_on_a_file_it_cannot_read_is_a_one_line_error(tmp_path, capsys):
    data = tmp_path / "bids.npz"
    train_policy(["data", "--games", "3", "--seed", "10", "--hard", "0", "--out", str(data)])
    out = str(tmp_path / "w.json")
    for cmd, path in ((train_eval, data), (train_policy, tmp_path / "none.npz")):
        with pytest.raises(SystemExit) as e:
            cmd(["train", str(path), "--out", out])
        assert e.value.code == 2
        assert "written by this command's 'data'" in capsys.readouterr().err


def test_a_hard_bot_modelling_the_others_by_the_learned_policy_plays_and_replays_a_game():
    first = game_with(HardBot(4, iterations=24, opponents="learned"), 27, 3)
    assert first[1]["winners"] is not None
    assert game_with(HardBot(4, iterations=24, opponents="learned"), 27, 3) == first


def test_the_learned_opponents_answer_the_bids_in_the_worlds():
    """With ``opponents="learned"`` the bid search's others bid by the policy (its chances,
    no extra noise); by default by the heuristic bot."""
    hard = HardBot(1, iterations=10, opponents="learned")
    assert isinstance(hard.bid_search.policy, LearnedPolicy) and hard.bid_search.noise == 0
    assert isinstance(hard.bid_search.opponent, HeuristicBot)
    plain = HardBot(1, iterations=10)
    assert plain.bid_search.policy is plain.bid_search.opponent and plain.bid_search.noise == 0.1
    with pytest.raises(ValueError, match="opponents"):
        HardBot(1, opponents="oracle")
