"""The simulator's game loop timed in context: two ways of playing the same games, side by side.

    .venv/bin/python benchmarks/sim_in_context.py [--chunks 200]

A simulated game's own work (its seeds, its facts, its counts) runs between engine games, with
the caches cold from the game before, and costs more time than its instructions say; so it is
timed here in the loop it runs in, not alone. Each comparison plays the same chunks of 50
random-bot games (4 players) both ways, alternating which way goes first, and sums the CPU
time of each (a drift of the shared machine's speed hits both alike):

- **seeds ahead / per game**: ``runner.count_games`` (a chunk's seeds — the game's, its bots',
  the engine's stream — hashed before the chunk is played) against ``play_facts`` making each
  game's seeds as it starts;
- **simulator / API**: ``count_games`` against the same number of games through the public
  API (``new_game`` + ``agents.play_out``): what a simulated game costs beyond the engine's.
"""

from __future__ import annotations

import argparse
import time
from typing import Callable

from bot_paired import count   # a command-line count (this directory)
from fuyuki._build import describe
from fuyuki.sbb import new_game
from fuyuki.sbb.agents import make_bot, play_out
from fuyuki.sim.config import SimConfig
from fuyuki.sim.play import play_facts
from fuyuki.sim.runner import count_games, cycle_collector_paused
from fuyuki.sim.tally import Tally

CFG = SimConfig(games=0, players=4, bots=("random",), seed=1)
CHUNK = 50


def seeds_ahead(jobs: list[int]) -> None:
    count_games(CFG, [("game", None, i) for i in jobs], Tally())


def seeds_per_game(jobs: list[int]) -> None:
    rules, counts = CFG.rules(), Tally()
    with cycle_collector_paused():
        for i in jobs:
            counts.add_facts(play_facts(CFG, i, rules=rules))


def api(jobs: list[int]) -> None:
    with cycle_collector_paused():
        for i in jobs:
            play_out(new_game(4, i), [make_bot("random", i * 4 + k) for k in range(4)])


def compare(a: tuple[str, Callable[[list[int]], None]], b: tuple[str, Callable[[list[int]], None]],
            chunks: int) -> None:
    spent = {a[0]: 0.0, b[0]: 0.0}
    for c in range(chunks):
        jobs = list(range(c * CHUNK, (c + 1) * CHUNK))
        for name, play in (a, b) if c % 2 == 0 else (b, a):
            t0 = time.process_time()
            play(jobs)
            spent[name] += time.process_time() - t0
    games = chunks * CHUNK
    ta, tb = spent[a[0]], spent[b[0]]
    print(f"   {a[0]:16s} {ta / games * 1e6:7.1f} µs a game   {b[0]:16s} "
          f"{tb / games * 1e6:7.1f} µs a game   {a[0]} / {b[0]}: {ta / tb:.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chunks", type=count, default=200, help="chunks of 50 games, each way")
    args = ap.parse_args()
    print(f"build: {describe()}; {args.chunks} chunks of {CHUNK} games each way, CPU time")
    seeds_ahead(list(range(10**6, 10**6 + CHUNK)))   # warm-up (imports, caches)
    compare(("seeds ahead", seeds_ahead), ("seeds per game", seeds_per_game), args.chunks)
    compare(("simulator", seeds_ahead), ("API", api), args.chunks)


if __name__ == "__main__":
    main()
