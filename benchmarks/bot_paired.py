"""Paired strength measurement of Servant Big Battle bots (issue 21, item 1).

Two *arms* play the very same games: game i has seed ``--seed + i``, the tested seat is
``i mod players`` (seats rotated), the other seats are ``--field`` bots seeded by the game
and the seat — identical in both arms. Only the tested seat's bot differs: ``--hero`` in one
arm, ``--base`` (the previous bot) in the other. Because both arms meet the same deals and the
same opponents, the per-game difference of the two results has far less noise than two
independent samples: the paired difference and its 95 % interval are what decide a change.

A game's result for the tested seat is its *win share* (1 for a sole win, 1/k for a k-way
draw, else 0). Printed: each arm's mean share with a Wilson 95 % interval, the paired mean
difference with a normal 95 % interval, and the tested bot's time per decision.

Bots are written ``name[:key=value,...][@REV]``: ``heuristic``, ``random``,
``hard:iterations=300``, ``net`` (the policy network, :mod:`fuyuki.sbb.agents.net`);
``@REV`` loads the bot's module as it was at git revision REV (the previous bot), e.g.
``heuristic@e30aa7c``, ``hard@e30aa7c:iterations=300``. ``--iterations`` (default) gives
every hard bot a fixed iteration budget — reproducible; ``--seconds S`` gives it a CPU-time
budget instead (``clock="cpu"``, so other processes do not eat it).

    python benchmarks/bot_paired.py --hero heuristic --base heuristic@e30aa7c \\
        --field random --games 4000
    python benchmarks/bot_paired.py --hero hard --base hard@e30aa7c --field heuristic \\
        --games 400 --iterations 300
    python benchmarks/bot_paired.py --ladder random heuristic hard@e30aa7c hard \\
        --games 200 --iterations 300          # round robin, Elo-style ratings

The ladder plays every pair of bots in four-player games, two seats each, seats alternating
and rotated; a game scores the first bot its seats' total win share. Ratings are the
Bradley–Terry maximum-likelihood fit on the Elo scale (400 · log10 odds), the first bot
anchored at 0.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import itertools
import json
import math
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from fuyuki import sbb
from fuyuki.core.errors import FuyukiError
from fuyuki.sbb.agents import make_bot
from fuyuki.sim.stats import wilson

ROOT = Path(__file__).resolve().parents[1]
_MODULES = {"heuristic": "heuristic", "hard": "hard", "random": "random_bot"}
_CLASSES = {"heuristic": "HeuristicBot", "hard": "HardBot", "random": "RandomBot"}
_loaded: dict[tuple[str, str], Any] = {}


def _rev_class(name: str, rev: str):
    """The bot class ``name`` as its module was at git revision ``rev`` (loaded under a
    private module name; it imports the rest of fuyuki from the current tree)."""
    key = (name, rev)
    if key not in _loaded:
        path = f"src/fuyuki/sbb/agents/{_MODULES[name]}.py"
        src = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{path}"], check=True,
                             capture_output=True, text=True).stdout
        mod_name = f"_fuyuki_rev_{rev}_{name}"
        spec = importlib.util.spec_from_loader(mod_name, loader=None)
        mod = importlib.util.module_from_spec(spec)
        sys.modules[mod_name] = mod
        code = compile(src, f"{rev}:{path}", "exec")
        exec(code, mod.__dict__)  # noqa: S102 - this repository's own code at REV
        _loaded[key] = getattr(mod, _CLASSES[name])
    return _loaded[key]


def parse_spec(spec: str) -> tuple[str, dict[str, Any], str | None]:
    """``name[:k=v,...][@REV]`` (the revision may also stand before the options)."""
    rev = None
    if "@" in spec:
        head, _, tail = spec.partition("@")
        rev, _, opts = tail.partition(":")
        spec = head + (":" + opts if opts else "")
    name, _, opts = spec.partition(":")
    kwargs: dict[str, Any] = {}
    for part in filter(None, opts.split(",")):
        k, _, v = part.partition("=")
        try:
            kwargs[k] = ast.literal_eval(v)
        except (ValueError, SyntaxError):
            kwargs[k] = v
    return name, kwargs, rev


def build(spec: str, seed: int, budget: dict[str, Any]):
    name, kwargs, rev = parse_spec(spec)
    if name == "hard":
        kwargs = {**budget, **kwargs}
        if rev is not None:
            kwargs.pop("clock", None)       # the earlier bot had wall-clock budgets only
    if rev is None:
        return make_bot(name, seed, **kwargs)
    cls = _rev_class(name, rev)
    return cls(seed, **kwargs)


def check_specs(ap: argparse.ArgumentParser, specs: list[str], budget: dict[str, Any]) -> None:
    """Build every bot once before any game: a bad name, option or revision is a one-line
    error (exit 2), not a traceback from inside the first game."""
    for spec in specs:
        try:
            build(spec, 0, budget)
        except (FuyukiError, ValueError, TypeError, KeyError,
                subprocess.CalledProcessError) as e:
            ap.error(f"bot {spec!r}: {e}")


def play(seed: int, specs: list[str], budget: dict[str, Any], timed: set[int]) -> dict:
    """One game, seat k played by ``specs[k]`` (seeded ``seed * 10 + k``); the win share
    of every seat, and the decision time of the seats in ``timed``."""
    n = len(specs)
    game = sbb.new_game(n, seed, quiet=True)
    bots = [build(spec, seed * 10 + k, budget) for k, spec in enumerate(specs)]
    t_choice = 0.0
    n_choice = 0
    while not game.over:
        for s, d in game.pending().items():
            b = bots[s]
            view = game.view(s) if b.needs_view else None
            t = time.process_time()
            choice = b.choose(view, d)
            if s in timed and len(d.options) > 1:
                t_choice += time.process_time() - t
                n_choice += 1
            game.submit(s, choice)
    winners = game.result["winners"]
    shares = [1 / len(winners) if k in winners else 0.0 for k in range(n)]
    return {"shares": shares, "cpu": t_choice, "choices": n_choice,
            "rounds": game.result["rounds"]}


def _games(tested: str, field: str, n: int, first: int, seeds: list[int],
           budget) -> list[tuple]:
    """(seed, share, cpu, choices) of the tested seat in the games of ``seeds``; the
    tested seat of seed ``first + i`` is ``i mod n``."""
    out = []
    for seed in seeds:
        seat = (seed - first) % n
        specs = [tested if k == seat else field for k in range(n)]
        r = play(seed, specs, budget, {seat})
        out.append((seed, r["shares"][seat], r["cpu"], r["choices"]))
    return out


def arms(bots: list[str], field: str, args, budget) -> list[dict]:
    """Every bot of ``bots`` in the tested seat of the same games (``--jobs`` processes)."""
    n = args.players
    seeds = list(range(args.seed, args.seed + args.games))
    chunk = max(1, min(args.progress or args.games, -(-args.games // max(args.jobs, 1))))
    tasks = [(b, field, n, args.seed, seeds[i:i + chunk], budget)
             for b in bots for i in range(0, len(seeds), chunk)]
    start = time.time()
    results: dict[str, list[tuple]] = {b: [] for b in bots}
    if args.jobs > 1:
        import multiprocessing
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            futures = [pool.apply_async(_games, t) for t in tasks]
            for t, f in zip(tasks, futures):
                results[t[0]].extend(f.get())
                _report(t[0], results[t[0]], args, start)
    else:
        for t in tasks:
            results[t[0]].extend(_games(*t))
            _report(t[0], results[t[0]], args, start)
    out = []
    for b in bots:
        rows = sorted(results[b])
        cpu = sum(r[2] for r in rows)
        choices = sum(r[3] for r in rows)
        out.append({"bot": b, "shares": [r[1] for r in rows],
                    "ms_per_choice": 1000 * cpu / max(choices, 1),
                    "seconds": time.time() - start})
    return out


def _report(bot: str, rows: list[tuple], args, start: float) -> None:
    if args.progress:
        print(f"  [{bot}] {len(rows)}/{args.games}: share "
              f"{sum(r[1] for r in rows) / len(rows):.3f}, {time.time() - start:.0f}s",
              file=sys.stderr, flush=True)


def summary(shares: list[float]) -> dict:
    g = len(shares)
    mean = sum(shares) / g
    lo, hi = wilson(round(sum(shares)), g)
    return {"games": g, "share": mean, "wilson95": [lo, hi]}


def paired(a: list[float], b: list[float]) -> dict:
    d = [x - y for x, y in zip(a, b)]
    g = len(d)
    mean = sum(d) / g
    var = sum((x - mean) ** 2 for x in d) / max(g - 1, 1)
    half = 1.96 * math.sqrt(var / g)
    return {"diff": mean, "ci95": [mean - half, mean + half],
            "games_differing": sum(1 for x in d if x)}


def elo(names: list[str], score: dict[tuple[int, int], tuple[float, int]]) -> list[float]:
    """Bradley–Terry fit (minorisation–maximisation) of pairwise scores, on the Elo scale,
    the first bot at 0. ``score[i, j] = (points of i against j, games)``."""
    k = len(names)
    w = [1.0] * k
    for _ in range(500):
        new = []
        for i in range(k):
            won = sum(score[i, j][0] for j in range(k) if j != i and (i, j) in score)
            den = sum(score[i, j][1] / (w[i] + w[j]) for j in range(k)
                      if j != i and (i, j) in score)
            new.append(max(won, 0.5) / den if den else w[i])   # 0.5: a floor for a 0 score
        w = [x / new[0] for x in new]
    return [400 * math.log10(x) for x in w]


def ladder(args, budget) -> dict:
    bots = args.ladder
    n = 4
    score: dict[tuple[int, int], tuple[float, int]] = {}
    table = []
    for (i, a), (j, b) in itertools.combinations(enumerate(bots), 2):
        pts = 0.0
        for gi in range(args.games):
            # seats alternate a, b, a, b and rotate by one each game
            specs = [a if (k + gi) % 2 == 0 else b for k in range(n)]
            r = play(args.seed + gi, specs, budget, set())
            pts += sum(s for s, spec in zip(r["shares"], specs) if spec == a)
        score[i, j] = (pts, args.games)
        score[j, i] = (args.games - pts, args.games)
        lo, hi = wilson(round(pts), args.games)
        table.append({"a": a, "b": b, "games": args.games, "a_score": pts / args.games,
                      "wilson95": [lo, hi]})
        print(f"{a:>28s} vs {b:<28s}: {pts / args.games:.3f} ({lo:.3f}-{hi:.3f})",
              flush=True)
    ratings = elo(bots, score)
    for name, r in sorted(zip(bots, ratings), key=lambda x: -x[1]):
        print(f"  Elo {r:7.0f}  {name}")
    return {"pairs": table, "elo": dict(zip(bots, ratings))}


def count(text: str) -> int:
    """A command-line count: a whole number of at least 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return n


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hero", default="hard")
    ap.add_argument("--base", default=None, help="the previous bot (paired arm)")
    ap.add_argument("--field", default="heuristic", help="the other seats' bot")
    ap.add_argument("--ladder", nargs="+", default=None, help="round robin of these bots")
    ap.add_argument("--games", type=count, default=2000)
    ap.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    ap.add_argument("--seed", type=int, default=90000)
    ap.add_argument("--iterations", type=count, default=300,
                    help="every hard bot's iteration budget per decision")
    ap.add_argument("--seconds", type=float, default=None,
                    help="a CPU-time budget per decision instead of --iterations")
    ap.add_argument("--progress", type=int, default=0,
                    help="report every N games (stderr); also the size of a job's chunk")
    ap.add_argument("--jobs", type=count, default=1, help="processes playing in parallel")
    ap.add_argument("--out", type=Path, default=None, help="write the results as JSON")
    args = ap.parse_args(argv)
    budget = ({"seconds": args.seconds, "iterations": None, "clock": "cpu"}
              if args.seconds else {"iterations": args.iterations})
    check_specs(ap, args.ladder or [args.hero, args.field] + ([args.base] if args.base else []),
                budget)
    meta = {"players": args.players, "seed": args.seed, "games": args.games,
            "budget": {"seconds_cpu": args.seconds} if args.seconds
            else {"iterations": args.iterations}}
    if args.ladder:
        out = {**meta, **ladder(args, budget)}
    else:
        played = arms([args.hero] + ([args.base] if args.base else []), args.field, args,
                      budget)
        out = {**meta, "field": args.field, "arms": []}
        for a in played:
            s = summary(a["shares"])
            out["arms"].append({"bot": a["bot"], **s, "ms_per_choice": a["ms_per_choice"],
                                "per_game": a["shares"]})
            lo, hi = s["wilson95"]
            print(f"{a['bot']:>32s} vs {args.players - 1} x {args.field}: share "
                  f"{s['share']:.3f} (Wilson 95% {lo:.3f}-{hi:.3f}; fair {1 / args.players:.3f})"
                  f", {a['ms_per_choice']:.1f} ms CPU/decision, {a['seconds']:.0f}s", flush=True)
        if len(played) == 2:
            p = paired(played[0]["shares"], played[1]["shares"])
            out["paired"] = p
            print(f"{'paired difference':>32s}: {p['diff']:+.3f} (95% {p['ci95'][0]:+.3f} to "
                  f"{p['ci95'][1]:+.3f}; {p['games_differing']} of {args.games} games differ)")
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(to_json(out), encoding="utf-8")


def to_json(out: dict[str, Any]) -> str:
    """``out`` as indented JSON with each list of numbers on one line (a 20,000-game run's
    per-game shares would otherwise take a line each)."""
    text = json.dumps(out, indent=2)
    return re.sub(r"\[\s+([^\[\]{}]*?)\s+\]",
                  lambda m: "[" + re.sub(r"\s+", " ", m.group(1)) + "]", text) + "\n"


if __name__ == "__main__":
    main()
