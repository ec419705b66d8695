"""Strength of the heuristic bot: one heuristic seat against three random bots, 4 players,
the heuristic seat rotated through every seat. Fair share 25%.

    .venv/bin/python benchmarks/sbb_heuristic_strength.py [--games 2000]

A draw counts as a share (1/k for a k-way draw). Prints the win rate with a Wilson 95%
interval.
"""

from __future__ import annotations

import argparse

from fuyuki.sbb import new_game
from fuyuki.sbb.agents import make_bot, play_out
from fuyuki.sim.stats import wilson


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args()
    n = args.players
    wins = 0.0
    rounds = 0
    for i in range(args.games):
        hero = i % n
        g = new_game(n, seed=i)
        bots = [make_bot("heuristic" if s == hero else "random", i * n + s) for s in range(n)]
        play_out(g, bots)
        w = g.result["winners"]
        if hero in w:
            wins += 1 / len(w)
        rounds += g.result["rounds"]
    lo, hi = wilson(wins, args.games)
    print(f"heuristic vs {n - 1} random, {args.games} games: win rate {wins / args.games:.3f} "
          f"(Wilson 95% {lo:.3f}–{hi:.3f}; fair share {1 / n:.3f}); mean rounds {rounds / args.games:.1f}")


if __name__ == "__main__":
    main()
