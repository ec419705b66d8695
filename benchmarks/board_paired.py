"""Paired strength of the board game's hard bot against three heuristic bots.

Game ``i`` (of ``--first`` + 0, 1, …) is game ``i`` of ``fuyuki board simulate``'s plan for
the master seed (its camps drawn from all five in a random seat order, its seed). The tested
seat is ``i mod players`` (seats rotated). Two arms play that deal: in one the tested seat is
the hard bot, in the other the heuristic bot with that game's seed and seat — the very game the
simulation plays; the other seats are the same heuristic bots in both. A game scores 1 for
the tested seat's win, else 0 (a draw is no win). Printed: each arm's win share with a Wilson
95 % interval, the paired mean difference with a normal 95 % interval, and the CPU time of
each decision the hard bot searched (mean and max).

    nice -n 19 python benchmarks/board_paired.py --games 200 --iterations 4
    nice -n 19 python benchmarks/board_paired.py --games 100 --first 200 --iterations 4 --save runs.jsonl
    python benchmarks/board_paired.py --report runs.jsonl          # the chunks together

``--seconds S`` gives the hard bot a CPU-time budget a decision instead of ``--iterations``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from fuyuki.board.agents import make_bot
from fuyuki.board.agents.hard import HardBot
from fuyuki.board.content import default_pack
from fuyuki.board.game import new_game
from fuyuki.board.simulate import plan
from fuyuki.sim.generic import play_out
from fuyuki.sim.stats import wilson


def play(camps: tuple[str, ...], gseed: int, hero: Any, seat: int) -> bool:
    """Whether ``seat`` wins the game of ``camps`` and ``gseed`` with ``hero`` in it and
    heuristic bots elsewhere."""
    n = len(camps)
    bots = {s: hero if s == seat else make_bot("heuristic", gseed, s) for s in range(n)}
    g = play_out(new_game(n, gseed, list(camps)), bots)
    return g.result["winners"] == [seat]


def paired_games(games: int, first: int = 0, players: int = 4, seed: int = 1,
                 budget: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Games ``first`` … ``first + games - 1``: each one's tested seat, whether the hard bot
    and the heuristic bot won it there, and the hard bot's CPU seconds a searched decision."""
    jobs = plan(first + games, players, seed, list(default_pack().camps))[first:]
    rows = []
    for i, (camps, gseed) in enumerate(jobs, start=first):
        seat = i % players
        hard = HardBot(gseed, seat, **(budget or {"iterations": 4}))
        rows.append({"game": i, "seat": seat, "hard": play(camps, gseed, hard, seat),
                     "heuristic": play(camps, gseed, make_bot("heuristic", gseed, seat), seat),
                     "times": hard.times})
    return rows


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Win shares with Wilson intervals, the paired difference with a normal interval, and
    the time a searched decision took."""
    n = len(rows)
    hard = sum(r["hard"] for r in rows)
    base = sum(r["heuristic"] for r in rows)
    diffs = [int(r["hard"]) - int(r["heuristic"]) for r in rows]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else 0.0
    times = [t for r in rows for t in r["times"]]
    return {"games": n, "hard": hard / n, "hard95": wilson(hard, n), "heuristic": base / n,
            "heuristic95": wilson(base, n), "diff": mean,
            "diff95": (mean - 1.96 * sd / math.sqrt(n), mean + 1.96 * sd / math.sqrt(n)),
            "decisions": len(times), "mean_s": sum(times) / len(times) if times else 0.0,
            "max_s": max(times, default=0.0)}


def show(s: dict[str, Any]) -> str:
    pct = "{:.1%}".format
    return (f"{s['games']} games: hard {pct(s['hard'])} ({pct(s['hard95'][0])}–{pct(s['hard95'][1])}), "
            f"heuristic in the same seats {pct(s['heuristic'])} "
            f"({pct(s['heuristic95'][0])}–{pct(s['heuristic95'][1])}); paired difference "
            f"{s['diff']:+.1%} ({s['diff95'][0]:+.1%} to {s['diff95'][1]:+.1%}); "
            f"{s['decisions']} searched decisions, CPU {s['mean_s']:.3f} s mean, {s['max_s']:.3f} s max")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="the first game's index (chunks)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=4, help="worlds a searched decision")
    ap.add_argument("--seconds", type=float, help="CPU seconds a searched decision instead")
    ap.add_argument("--save", help="append each game's row to this JSON-lines file")
    ap.add_argument("--report", nargs="*", help="summarize saved JSON-lines files instead")
    args = ap.parse_args(argv)
    if args.report:
        rows = [json.loads(line) for path in args.report for line in open(path, encoding="utf-8")]
        print(show(summary(rows)))
        return
    budget = {"seconds": args.seconds} if args.seconds else {"iterations": args.iterations}
    t0 = time.perf_counter()
    rows = []
    step = 10
    for k in range(args.first, args.first + args.games, step):
        chunk = paired_games(min(step, args.first + args.games - k), k, args.players, args.seed, budget)
        rows += chunk
        if args.save:
            with open(args.save, "a", encoding="utf-8") as f:
                for r in chunk:
                    f.write(json.dumps({**r, "budget": budget}) + "\n")
        print(f"[{len(rows)}/{args.games}, {time.perf_counter() - t0:.0f} s] {show(summary(rows))}",
              file=sys.stderr, flush=True)
    print(f"budget {budget}, players {args.players}, seed {args.seed}, games {args.first}–"
          f"{args.first + args.games - 1}")
    print(show(summary(rows)))


if __name__ == "__main__":
    main()
