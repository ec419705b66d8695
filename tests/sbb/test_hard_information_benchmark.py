"""benchmarks/hard_information.py measures what the others' hands are worth: its oracle
worlds must really hold the true hands (and nothing else of the real game unless asked)."""

from __future__ import annotations

import random

import pytest

from tests.benchmark_module import load_benchmark

from .conftest import first_bid


@pytest.fixture(scope="module")
def info():
    return load_benchmark("hard_information")


@pytest.mark.parametrize("know", ["nothing", "hands", "hands+deck"])
def test_the_oracle_worlds_hold_the_true_hands_only_when_told(info, know):
    game = first_bid(4, 3)
    info._Oracle.game, info._Oracle.know = game, know
    world = info._Oracle(game.view(0)).sample(random.Random(1))
    true, s = game.s, world.s
    for seat in (1, 2, 3):
        same = sorted(s.hand[seat]) == sorted(true.hand[seat])
        assert same if know != "nothing" else True
        # the others' bid options are those of the hand the world gives them
        names = world.t.names
        assert set(world.pending()[seat].options) == {names[c] for c in s.hand[seat]}
    assert (s.adeck == true.adeck) is (know == "hands+deck")
    assert sorted(s.adeck) == sorted(true.adeck) or know == "nothing"


def test_the_oracle_worlds_hold_the_true_masters_and_servants_when_told_roles(info):
    """``--know roles``: every world gives the others their true masters and servants (the
    masters and servants in all still those of the game), their hands still drawn."""
    game = first_bid(4, 3)
    info._Oracle.game, info._Oracle.know = game, "roles"
    true = game.s
    hands_differ = 0
    for k in range(10):
        s = info._Oracle(game.view(0)).sample(random.Random(k)).s
        assert s.master == true.master and s.servant == true.servant
        assert sorted(s.master + s.mdeck) == sorted(true.master + true.mdeck)
        assert sorted(s.servant + s.sdeck) == sorted(true.servant + true.sdeck)
        hands_differ += any(sorted(s.hand[i]) != sorted(true.hand[i]) for i in (1, 2, 3))
    assert hands_differ >= 8


def test_the_hand_prediction_runs_and_the_true_hand_predicts_best(info, capsys):
    info.main(["predict", "--games", "3", "--particles", "20"])
    lines = capsys.readouterr().out.splitlines()
    got = {line.split()[0]: float(line.split()[-1]) for line in lines[1:4]}
    assert set(got) == {"uniform", "sequential", "true"}
    assert got["true"] > max(got["uniform"], got["sequential"])
    parent = {line.split()[0]: float(line.split()[-1]) for line in lines[5:8]}
    assert set(parent) == {"uniform", "extra", "true"}
    assert parent["true"] > max(parent["uniform"], parent["extra"])


@pytest.mark.parametrize("argv", [["predict", "--games", "-1"], ["predict", "--particles", "x"],
                                  ["oracle", "--players", "9"], ["oracle", "--games", "0"],
                                  ["oracle", "--base", "no-such-file.json"]])
def test_a_bad_argument_is_a_one_line_error_with_exit_2(info, argv, capsys):
    with pytest.raises(SystemExit) as e:
        info.main(argv)
    assert e.value.code == 2
    assert "error:" in capsys.readouterr().err.splitlines()[-1]
