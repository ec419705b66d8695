"""Servant Big Battle throughput: full 4-player games per second through the public API.

    .venv/bin/python benchmarks/sbb_throughput.py [--seconds 5]

Prints games/s with random bots and with heuristic bots, each also as a ratio against a
reference run in the same process (a fixed pure-Python workload: shuffling and dealing a
53-card deck), so figures from different machines can be compared.
"""

from __future__ import annotations

import argparse
import random
import time

from fuyuki._build import describe
from fuyuki.sbb import new_game
from fuyuki.sbb.agents import make_bot, play_out


def play(seed: int, kind: str) -> int:
    g = new_game(4, seed)
    return play_out(g, [make_bot(kind, seed * 4 + i) for i in range(4)])


def rate(fn, seconds: float) -> tuple[float, int]:
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        fn(n)
        n += 1
    return n / (time.perf_counter() - start), n


def reference(i: int) -> None:
    rng = random.Random(i)
    deck = list(range(53))
    for _ in range(40):
        rng.shuffle(deck)
        hands = [deck[k::4][:3] for k in range(4)]
        sorted(hands)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    ref, _ = rate(reference, args.seconds)
    print(f"build: {describe()}")
    print(f"reference workload        {ref:10.1f} /s")
    for kind in ("random", "heuristic"):
        decisions = []
        r, n = rate(lambda i: decisions.append(play(i, kind)), args.seconds)
        print(f"{kind:9s} bots, 4 players {r:10.1f} games/s  ({n} games, "
              f"{sum(decisions) / max(n, 1):.0f} decisions/game)  ratio to reference {r / ref:.3f}")


if __name__ == "__main__":
    main()
