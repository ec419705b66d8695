"""benchmarks/bot_paired.py, the paired bot benchmark: a bad bot or count is a one-line error
(exit 2) before any game, a good run plays."""

from __future__ import annotations

import pytest

from tests.benchmark_module import load_benchmark


@pytest.fixture(scope="module")
def paired():
    return load_benchmark("bot_paired")


@pytest.mark.parametrize("args,says", [
    (["--hero", "hard:draft_belief=yes"], "draft_belief must be True or False"),
    (["--hero", "hard:gem_belief=-1"], "gem_belief must be"),
    (["--hero", "hard:nope=1"], "unexpected keyword argument 'nope'"),
    (["--field", "wizard"], "unknown bot 'wizard'"),
    (["--ladder", "random", "hard:bids=maybe"], "bids must be"),
    (["--games", "0"], "must be a whole number of at least 1"),
    (["--players", "2"], "invalid choice"),
])
def test_a_bad_bot_or_count_is_a_one_line_error_before_any_game(paired, capsys, args, says):
    with pytest.raises(SystemExit) as e:
        paired.main(args)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_a_good_run_plays_and_prints_the_share(paired, capsys):
    paired.main(["--hero", "random", "--field", "random", "--players", "3", "--games", "3"])
    assert "random vs 2 x random: share" in capsys.readouterr().out
