"""Grail War Board throughput: full games and decisions per second, random and heuristic bots.

    .venv/bin/python benchmarks/board_speed.py [games]
"""

from __future__ import annotations

import sys
import time

from fuyuki import board
from fuyuki.board.agents import make_bot


def run(kind: str, games: int, players: int = 4) -> None:
    decisions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        g = board.new_game(players=players, seed=seed)
        bots = [make_bot(kind, seed, s) for s in range(players)]
        while not g.over:
            (seat, d), = g.pending().items()
            g.submit(seat, bots[seat].choose(g.view(seat), d))
            decisions += 1
    dt = time.perf_counter() - t0
    print(f"{kind:9s} {players}p: {games} games in {dt:.2f}s = {games / dt:.1f} games/s, "
          f"{decisions / dt:.0f} decisions/s ({decisions / games:.0f} decisions/game)")
    g = board.new_game(players=players, seed=0)
    bots = [make_bot(kind, 0, s) for s in range(players)]
    for _ in range(150):
        if g.over:
            break
        (seat, d), = g.pending().items()
        g.submit(seat, bots[seat].choose(g.view(seat), d))
    t0 = time.perf_counter()
    for _ in range(20):
        g.clone()
    print(f"          clone() after {len(g.submissions)} submissions (a replay): "
          f"{(time.perf_counter() - t0) / 20 * 1000:.1f} ms")


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    run("random", n)
    run("heuristic", n)
