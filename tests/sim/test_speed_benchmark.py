"""benchmarks/sbb_speed.py's "simulate loop" row times what ``fuyuki simulate --workers 1``
does for each game: it must count the same games into the same tally as the command."""

from __future__ import annotations

from fuyuki.sim.config import SimConfig
from fuyuki.sim.runner import count_jobs, plan
from tests.benchmark_module import load_benchmark


def test_the_simulate_loop_counts_what_the_simulate_command_counts():
    loop = load_benchmark("sbb_speed").SimulateLoop()
    loop(0)
    loop(0)
    cfg = SimConfig(games=100, players=4, bots=("random",), seed=1, gap_games=0)
    assert loop.tally.games == 100
    assert loop.tally.state() == count_jobs(cfg, plan(cfg)[0], workers=1).state()


def test_builds_ab_runs_each_build_in_its_own_process_and_prints_the_medians(capsys):
    """benchmarks/builds_ab.py against this same tree: two builds' runs alternate, each gives
    a ratio to goofspiel from its own process, and the medians are printed."""
    import sys

    from tests.benchmark_module import BENCHMARKS

    ab = load_benchmark("builds_ab")
    ratios = ab.main(["--other", str(BENCHMARKS.parent), "--other-python", sys.executable,
                      "--runs", "2", "--slices", "1", "--seconds", "0.05"])
    assert set(ratios) == {"this", "other"}
    assert all(len(r) == 2 and all(x > 0 for x in r) for r in ratios.values())
    out = capsys.readouterr().out
    assert out.count("run ") == 2 and "median loop / goofspiel, CPU: this " in out


def test_builds_ab_says_in_one_line_what_is_wrong(tmp_path, capsys):
    """A tree without the benchmark, a Python that cannot run, a run that fails: exit 2 and a
    one-line message, no traceback."""
    import pytest

    ab = load_benchmark("builds_ab")
    from tests.benchmark_module import BENCHMARKS

    tree = str(BENCHMARKS.parent)
    cases = [(["--other", str(tmp_path)], "no benchmarks/sbb_speed.py there"),
             (["--other", tree, "--other-python", str(tmp_path / "none")], "cannot run"),
             (["--other", tree, "--other-python", "/bin/false"], "failed"),
             (["--other", tree, "--runs", "0"], "at least 1")]
    for argv, said in cases:
        with pytest.raises(SystemExit) as stop:
            ab.main(["--runs", "1", "--slices", "1", "--seconds", "0.05"] + argv)
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err


def test_sbb_speed_says_of_each_measured_target_whether_it_was_met():
    """The benchmark's last lines: each of issue 20's targets it measured, met or NOT met
    (and the aim, where there is one); a target it did not measure is not mentioned."""
    speed = load_benchmark("sbb_speed")
    api, heuristic, command, workers = (name for name, _, _ in speed.TARGETS)
    lines = speed.verdict({api: 1.42, heuristic: 0.29, command: 1.0})
    assert len(lines) == 3 and not any(workers in line for line in lines)
    assert lines[0].endswith("1.420 >= 1.0: met; aim 1.5: not reached")
    assert lines[1].endswith("0.290 < 0.3: NOT met")
    assert lines[2].endswith("1.000 >= 1.0: met")   # at the line counts as met
    assert speed.verdict({api: 1.5, workers: 1.79}) == [
        f"   {api}: 1.500 >= 1.0: met; aim 1.5: reached",
        f"   {workers}: 1.790 < 1.8: NOT met"]


def test_sbb_speed_refuses_bad_counts_in_one_line(capsys):
    """No seconds to time, or a negative number of games: exit 2 and argparse's one line, before
    anything runs (it was a ZeroDivisionError or the command's traceback)."""
    import pytest

    speed = load_benchmark("sbb_speed")
    for argv in (["--seconds", "0"], ["--cli-games", "-5"], ["--sim-games", "-1"]):
        with pytest.raises(SystemExit) as stop:
            speed.main(argv)
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert "--seconds must be above 0" in err and "Traceback" not in err
