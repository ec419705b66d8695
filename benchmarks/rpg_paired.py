"""Paired auto wars of the Grail War RPG: a candidate program level against another.

War ``i`` is the sample roster (two factions of seven pairs) with seed ``--seed + i``, played
twice: once with the first faction's pairs driven by ``--candidate`` and the second's by
``--base``, once with the sides swapped. Both plays of a seed meet the same dice, so the
faction a roster favours counts for neither level. A war scores the candidate 1 when its
faction wins (the other faction is out), 0 when it loses; a war that reaches the turn limit
(or ends with nobody) goes to the faction with more surviving pairs, ½ when they are even.
Printed: the candidate's win share with a 95 % interval (normal, over the seeds' paired
means), how the wars ended, and the wars per second.

``--pair ID`` drives only that pair by the candidate (both plays: the candidate's pair and
today's in the same seat, the rest today's), and scores a war 1 when that pair survives it,
0 when it is out (the interval is then on the paired difference of survival).

    python benchmarks/rpg_paired.py --candidate odds --base simple --wars 1000
    python benchmarks/rpg_paired.py --candidate odds --base simple --wars 1000 --pair red-saber
    python benchmarks/rpg_paired.py --candidate odds:fight_at=0.5 --base odds --wars 300
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

from fuyuki.rpg.agents import LEVELS, make_agent
from fuyuki.rpg.roster import load_roster
from fuyuki.rpg.rules import default_rules
from fuyuki.rpg.war import War


def agent(spec: str, seed: int, seat: int) -> Any:
    """A program level, ``name[:attribute=number,...]`` (a variant: ``odds:fight_at=0.5``)."""
    name, _, opts = spec.partition(":")
    a = make_agent(name, seed, seat)
    for kv in filter(None, opts.split(",")):
        key, _, value = kv.partition("=")
        if not hasattr(a, key):
            raise SystemExit(f"{spec!r}: the level {name} has no {key!r}")
        setattr(a, key, float(value))
    return a


def play(roster: Any, rules: Any, seed: int, levels: list[str]) -> War:
    """One auto war: seat ``i`` driven by the program level ``levels[i]``."""
    war = War(roster, rules, seed)
    agents = [agent(level, seed, seat) for seat, level in enumerate(levels)]
    while not war.over:
        for seat, d in war.pending().items():
            war.submit(seat, agents[seat].choose(war.view(seat), d))
    return war


def faction_score(war: War, faction: str) -> float:
    """``faction``'s result: 1 a win, 0 a loss, ½ even (survivors compared at the limit)."""
    alive = [p.pair.faction for p in war.pairs if p.alive]
    ours, theirs = alive.count(faction), len(alive) - alive.count(faction)
    return 1.0 if ours > theirs else 0.0 if ours < theirs else 0.5


def mean_interval(xs: list[float]) -> tuple[float, float]:
    """The mean and the half-width of its normal 95 % interval."""
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, 1.96 * math.sqrt(var / n)


def factions_run(args, roster, rules) -> dict[str, Any]:
    factions = list(roster.factions)
    seats = {f: [i for i, p in enumerate(roster.pairs) if p.faction == f] for f in factions}
    per_seed, ends = [], {}
    for i in range(args.wars):
        seed = args.seed + i
        scores = []
        for f in factions[:2]:
            levels = [args.candidate if i_ in seats[f] else args.base for i_ in range(len(roster.pairs))]
            war = play(roster, rules, seed, levels)
            scores.append(faction_score(war, f))
            ends[war.result["reason"]] = ends.get(war.result["reason"], 0) + 1
        per_seed.append(sum(scores) / len(scores))
    m, h = mean_interval(per_seed)
    return {"share": m, "half": h, "ends": ends, "wars": 2 * args.wars}


def pair_run(args, roster, rules) -> dict[str, Any]:
    seat = next((i for i, p in enumerate(roster.pairs) if p.id == args.pair), None)
    if seat is None:
        raise SystemExit(f"--pair: no pair {args.pair!r} in the roster")
    diffs, cand, base, ends = [], [], [], {}
    for i in range(args.wars):
        seed = args.seed + i
        got = []
        for level in (args.candidate, args.base):
            levels = [level if s == seat else args.base for s in range(len(roster.pairs))]
            war = play(roster, rules, seed, levels)
            got.append(1.0 if war.pairs[seat].alive else 0.0)
            ends[war.result["reason"]] = ends.get(war.result["reason"], 0) + 1
        cand.append(got[0])
        base.append(got[1])
        diffs.append(got[0] - got[1])
    m, h = mean_interval(diffs)
    return {"share": sum(cand) / len(cand), "base_share": sum(base) / len(base), "diff": m, "half": h,
            "ends": ends, "wars": 2 * args.wars}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--candidate", default="odds", help=f"a level ({', '.join(LEVELS)}), "
                    "or a variant: odds:fight_at=0.5")
    ap.add_argument("--base", default="simple", help="the level it is measured against")
    ap.add_argument("--wars", type=int, default=1000, help="seeds (each played twice)")
    ap.add_argument("--seed", type=int, default=0, help="the first seed")
    ap.add_argument("--pair", default=None, help="drive only this pair (its id) by the candidate")
    args = ap.parse_args(argv)
    rules = default_rules()
    roster = load_roster(None, rules)
    t0 = time.perf_counter()
    out = pair_run(args, roster, rules) if args.pair else factions_run(args, roster, rules)
    dt = time.perf_counter() - t0
    if args.pair:
        print(f"{args.pair}: survives {out['share']:.3f} driven by {args.candidate}, "
              f"{out['base_share']:.3f} by {args.base}; paired difference {out['diff']:+.3f} "
              f"± {out['half']:.3f} (95 %)")
    else:
        print(f"{args.candidate} vs {args.base}: win share {out['share']:.3f} ± {out['half']:.3f} (95 %), "
              f"{args.wars} seeds × 2 sides")
    print(f"ends {dict(sorted(out['ends'].items()))}; {out['wars']} wars in {dt:.1f} s "
          f"= {out['wars'] / dt:.1f} wars/s")


if __name__ == "__main__":
    main()
