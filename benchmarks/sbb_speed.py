"""Servant Big Battle speed against the OpenSpiel goofspiel anchor, as CPU time and wall clock.

    .venv/bin/python benchmarks/sbb_speed.py [--seconds 20] [--sim-games 2000] [--skip-cli]

The issue's targets (#20): random bots through the public API >= 1.0x goofspiel (aim 1.5x),
heuristic bots >= 0.3x, ``fuyuki simulate`` with 2 workers >= 1.8x one worker in CPU terms.

1. **Interleaved slices** (a load change on the shared machine hits every workload alike),
   one core, 4 players, each workload's rate by CPU time (``time.process_time``) and by wall
   clock, and its ratio to goofspiel measured the same way:
   - goofspiel: OpenSpiel's goofspiel (13 cards, 4 players, imperfect information), uniform
     random actions from a Python loop (``open-spiel``, extra ``rl``);
   - api random / api heuristic: ``new_game(4, seed)`` + ``agents.play_out`` with
     ``make_bot`` bots — the public API;
   - sim random: the simulator's worker path (``run_jobs``, one worker, chunks of 10 games:
     setup hook, seat rotation, bots, engine, event-log summary).
2. **``fuyuki simulate --workers 1``, marginal rate**: the command run twice (N and 2N games,
   random bots, no hidden-identity games), the extra N games over the extra time (CPU of the
   command and its workers, and wall clock): start-up and report writing cancel out.
3. **2 workers against 1**, in CPU terms: ``simulate`` in this process with N games; the rate
   is games / the busiest process's CPU time (the parent's own CPU, or each worker's share of
   the workers' CPU) — what the run would take with a core per process, whatever else the
   shared machine runs.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from typing import Callable

from fuyuki._build import describe
from fuyuki.sbb import new_game
from fuyuki.sbb.agents import make_bot, play_out
from fuyuki.sim.config import SimConfig
from fuyuki.sim.runner import run_jobs, simulate


class Workload:
    """Games played in slices; counts games, CPU seconds and wall seconds."""

    def __init__(self, name: str, play: Callable[[int], None], per_call: int = 1) -> None:
        self.name = name
        self.play = play
        self.per_call = per_call
        self.games = 0
        self.cpu = 0.0
        self.wall = 0.0

    def slice(self, seconds: float) -> None:
        c0, w0 = time.process_time(), time.perf_counter()
        while time.perf_counter() - w0 < seconds:
            self.play(self.games)
            self.games += self.per_call
        self.cpu += time.process_time() - c0
        self.wall += time.perf_counter() - w0

    @property
    def cpu_rate(self) -> float:
        return self.games / self.cpu if self.cpu else 0.0

    @property
    def wall_rate(self) -> float:
        return self.games / self.wall if self.wall else 0.0


def api_games(kind: str) -> Callable[[int], None]:
    def play(i: int) -> None:
        g = new_game(4, i)
        play_out(g, [make_bot(kind, i * 4 + k) for k in range(4)])
    return play


CHUNK = 10


def sim_games(bots: str) -> Callable[[int], None]:
    cfg = SimConfig(games=0, players=4, bots=(bots,), seed=1)
    return lambda i: run_jobs(cfg, [("game", None, i + k) for k in range(CHUNK)]) and None


def goofspiel() -> Callable[[int], None]:
    import pyspiel

    game = pyspiel.load_game("goofspiel", {"num_cards": 13, "players": 4, "imp_info": True})
    rng = random.Random(0)
    players = range(game.num_players())

    def play_one(i: int) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return play_one


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cli_run(games: int) -> tuple[float, float]:
    """CPU (the command and its workers) and wall seconds of one ``fuyuki simulate`` run."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [sys.executable, "-m", "fuyuki.cli.main", "simulate", "--games", str(games),
               "--workers", "1", "--bots", "random", "--gap-games", "0", "--seed", "1",
               "--out", out]
        c0, w0 = children_cpu(), time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        return children_cpu() - c0, time.perf_counter() - w0


def sim_workers(games: int, workers: int) -> tuple[float, float, float]:
    """games / busiest process CPU, the parent's CPU, the workers' CPU."""
    cfg = SimConfig(games=games, players=4, bots=("random",), seed=1, gap_games=0)
    p0, c0 = time.process_time(), children_cpu()
    simulate(cfg, workers=workers)
    parent, kids = time.process_time() - p0, children_cpu() - c0
    busiest = max(parent, kids / workers) if workers > 1 else parent + kids
    return games / busiest, parent, kids


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="per workload (interleaved)")
    ap.add_argument("--sim-games", type=int, default=2000, help="games of parts 2 and 3")
    ap.add_argument("--skip-cli", action="store_true", help="skip part 2 (the command)")
    args = ap.parse_args()
    print(f"build: {describe()}; python {sys.version.split()[0]}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    loads = [Workload("goofspiel", goofspiel()),
             Workload("api random", api_games("random")),
             Workload("api heuristic", api_games("heuristic")),
             Workload("sim random", sim_games("random"), CHUNK)]
    for w in loads:   # warm-up (imports, caches)
        w.play(10 ** 6)
    slices = max(1, int(args.seconds / 0.5))
    for _ in range(slices):
        for w in loads:
            w.slice(args.seconds / slices)
    goof = loads[0]
    print("1. 4-player games per second, one core, interleaved slices")
    print(f"   {'workload':15s} {'games':>7s} {'CPU games/s':>12s} {'wall games/s':>13s} "
          f"{'CPU ratio':>10s} {'wall ratio':>11s}")
    for w in loads:
        print(f"   {w.name:15s} {w.games:7d} {w.cpu_rate:12.1f} {w.wall_rate:13.1f} "
              f"{w.cpu_rate / goof.cpu_rate:10.3f} {w.wall_rate / goof.wall_rate:11.3f}")
    n = args.sim_games
    if not args.skip_cli:
        (c1, w1), (c2, w2) = cli_run(n), cli_run(2 * n)
        print(f"2. fuyuki simulate --workers 1, random bots, marginal rate ({n} -> {2 * n} games)")
        print(f"   CPU  {n / (c2 - c1):10.1f} games/s  ratio to goofspiel {n / (c2 - c1) / goof.cpu_rate:.3f}")
        print(f"   wall {n / (w2 - w1):10.1f} games/s  ratio to goofspiel {n / (w2 - w1) / goof.wall_rate:.3f}")
    r1, p1, k1 = sim_workers(n, 1)
    r2, p2, k2 = sim_workers(n, 2)
    print(f"3. simulate(), {n} random-bot games: rate = games / busiest process CPU")
    print(f"   1 worker  {r1:10.1f} games/s  (parent {p1:.2f} s CPU, workers {k1:.2f} s)")
    print(f"   2 workers {r2:10.1f} games/s  (parent {p2:.2f} s CPU, workers {k2:.2f} s)  "
          f"ratio {r2 / r1:.2f}")


if __name__ == "__main__":
    main()
