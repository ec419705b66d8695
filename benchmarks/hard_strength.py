"""Strength of the Servant Big Battle bots, measured (issue 9).

Two matches of four-player games, seats rotated (game i puts the tested bot in seat i mod 4):

- ``hard``: one hard bot (ISMCTS) against three heuristic bots — fair share 25 %;
- ``heuristic``: one heuristic bot against three random bots — fair share 25 %.

For each: wins (the tested seat is the only winner), draws it shares, the win share (a
draw among k counts 1/k), Wilson 95 % intervals, and the mean time per decision of the
tested bot (over the decisions with a real choice, and over all calls).

    .venv/bin/python benchmarks/hard_strength.py --games 400 --iterations 300 \\
        --out benchmarks/results/hard_strength.json

``--iterations`` is the hard bot's budget per decision (reproducible); ``--seconds`` a time
budget instead (the bot's default is 1 s). Progress goes to stderr every 20 games.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

from fuyuki import sbb
from fuyuki.sbb.agents import make_bot


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def tested_bot(kind: str, seed: int, args):
    if kind == "hard":
        kw = {"iterations": args.iterations} if args.iterations else {"seconds": args.seconds}
        return make_bot("hard", seed, **kw)
    return make_bot(kind, seed)


def match(kind: str, others: str, args) -> dict:
    n = args.players
    wins = draws = 0
    share = 0.0
    t_choice = t_all = 0.0
    n_choice = n_all = 0
    rounds = 0
    iters = n_search = 0
    start = time.time()
    for i in range(args.games):
        seat = i % n
        seed = args.seed + i
        game = sbb.new_game(n, seed, quiet=True)
        bots = [tested_bot(kind, seed, args) if k == seat else make_bot(others, seed * 10 + k)
                for k in range(n)]
        while not game.over:
            for s, d in game.pending().items():
                b = bots[s]
                view = game.view(s) if b.needs_view else None
                t = time.perf_counter()
                choice = b.choose(view, d)
                dt = time.perf_counter() - t
                if s == seat:
                    t_all += dt
                    n_all += 1
                    if len(d.options) > 1:
                        t_choice += dt
                        n_choice += 1
                        last = getattr(b, "last_search", None)
                        if last:
                            iters += last["iterations"]
                            n_search += 1
                            b.last_search = {}
                game.submit(s, choice)
        winners = game.result["winners"]
        rounds += game.result["rounds"]
        if seat in winners:
            if len(winners) == 1:
                wins += 1
            else:
                draws += 1
            share += 1 / len(winners)
        if (i + 1) % 20 == 0:
            print(f"[{kind}] {i + 1}/{args.games} games, wins {wins}, draws {draws}, "
                  f"{time.time() - start:.0f}s", file=sys.stderr, flush=True)
    g = args.games
    lo, hi = wilson(wins, g)
    slo, shi = wilson(round(share), g)
    return {
        "tested": kind, "against": f"3 x {others}" if n == 4 else f"{n - 1} x {others}",
        "games": g, "wins": wins, "draws_shared": draws,
        "win_rate": wins / g, "wilson95": [lo, hi],
        "win_share": share / g, "win_share_wilson95": [slo, shi],
        "fair_share": 1 / n, "above_fair_share": lo > 1 / n,
        "mean_ms_per_decision_with_choice": 1000 * t_choice / max(n_choice, 1),
        "mean_ms_per_call": 1000 * t_all / max(n_all, 1),
        "decisions_with_choice_per_game": n_choice / g,
        "mean_rounds": rounds / g, "seconds": time.time() - start,
        "searches": n_search, "mean_iterations_per_search": iters / max(n_search, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--iterations", type=int, default=300,
                    help="hard bot iterations per decision (0: use --seconds)")
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=90000)
    ap.add_argument("--only", choices=("hard", "heuristic"), default=None)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--append", action="store_true",
                    help="add these matches to the results already in --out")
    args = ap.parse_args()
    results = {"budget": {"iterations": args.iterations} if args.iterations
               else {"seconds": args.seconds}, "players": args.players, "seed": args.seed,
               "matches": []}
    for kind, others in (("hard", "heuristic"), ("heuristic", "random")):
        if args.only and args.only != kind:
            continue
        r = match(kind, others, args)
        results["matches"].append(r)
        lo, hi = r["wilson95"]
        print(f"{kind:9s} vs {r['against']:13s}: {r['wins']}/{r['games']} wins "
              f"= {100 * r['win_rate']:.1f}% (Wilson 95% {100 * lo:.1f}-{100 * hi:.1f}%), "
              f"draws shared {r['draws_shared']}, win share {100 * r['win_share']:.1f}%, "
              f"{r['mean_ms_per_decision_with_choice']:.2f} ms/decision "
              f"({r['mean_ms_per_call']:.2f} ms/call), above 25%: {r['above_fair_share']}",
              flush=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        runs = [results]
        if args.append and args.out.exists():
            old = json.loads(args.out.read_text(encoding="utf-8"))
            runs = (old if isinstance(old, list) else [old]) + runs
        out = runs if len(runs) > 1 else results
        args.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
