"""benchmarks/sbb_speed.py's "simulate loop" row times what ``fuyuki simulate --workers 1``
does for each game: it must count the same games into the same tally as the command."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from fuyuki.sim.config import SimConfig
from fuyuki.sim.runner import count_jobs, plan

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "sbb_speed.py"


def _speed():
    sys.path.insert(0, str(_PATH.parent))
    spec = importlib.util.spec_from_file_location("sbb_speed", _PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_simulate_loop_counts_what_the_simulate_command_counts():
    loop = _speed().SimulateLoop()
    loop(0)
    loop(0)
    cfg = SimConfig(games=100, players=4, bots=("random",), seed=1, gap_games=0)
    assert loop.tally.games == 100
    assert loop.tally.state() == count_jobs(cfg, plan(cfg)[0], workers=1).state()
