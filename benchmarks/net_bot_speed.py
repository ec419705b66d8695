"""The net bot's CPU time per decision, by decision kind, and who answers each kind.

    python benchmarks/net_bot_speed.py --games 200 --players 4 --seed 500000

Game ``seed + i`` seats the net bot at ``i mod players`` against heuristic bots (as
``bot_paired.py --hero net``). For every decision of the net bot with more than one option:
its CPU time (``time.process_time``), grouped by kind — mean, max and count — and whether
the network answered it (sealed bids) or the heuristic bot's rules (every other kind).
Printed as a table and, with ``--out``, as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from fuyuki import sbb
from fuyuki.sbb.agents import make_bot


def measure(games: int, players: int, seed: int) -> dict[str, dict]:
    kinds: dict[str, list[float]] = {}
    for i in range(games):
        gseed = seed + i
        hero = i % players
        game = sbb.new_game(players, gseed, quiet=True)
        bots = [make_bot("net" if k == hero else "heuristic", gseed * 10 + k)
                for k in range(players)]
        while not game.over:
            answers = []
            for s, d in game.pending().items():
                view = game.view(s)
                t = time.process_time()
                choice = bots[s].choose(view, d)
                if s == hero and len(d.options) > 1:
                    kinds.setdefault(d.kind, []).append(time.process_time() - t)
                answers.append((s, choice))
            for s, c in answers:
                game.submit(s, c)
    return {k: {"decisions": len(v), "per_game": len(v) / games,
                "mean_ms": 1000 * sum(v) / len(v), "max_ms": 1000 * max(v),
                "answered_by": "network" if k == "bid" else "heuristic rules"}
            for k, v in sorted(kinds.items())}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    ap.add_argument("--seed", type=int, default=500000)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    result = measure(args.games, args.players, args.seed)
    for kind, r in result.items():
        print(f"{kind:>14s}: {r['decisions']:6d} decisions ({r['per_game']:.2f} a game), "
              f"mean {r['mean_ms']:.2f} ms, max {r['max_ms']:.2f} ms CPU — {r['answered_by']}",
              file=sys.stdout)
    if args.out:
        args.out.write_text(json.dumps({"games": args.games, "players": args.players,
                                        "seed": args.seed, "kinds": result}, indent=1) + "\n",
                            encoding="utf-8")


if __name__ == "__main__":
    main()
