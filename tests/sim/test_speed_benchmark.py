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
