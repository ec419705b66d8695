"""What the others' hidden hands are worth to the hard bot, and how much its view tells of them.

    python benchmarks/hard_information.py oracle --know hands --seed 92000 --games 200
    python benchmarks/hard_information.py predict --games 60

A measurement, not a bot: ``oracle`` lets the hard bot *cheat* on purpose, to bound what a
better belief could buy.

- ``oracle``: the hard bot (300 iterations) in the tested seat against heuristic bots, the
  games, seats and seeds of ``bot_paired.py`` (game i has seed S + i, the tested seat
  i mod n, seat k's bot seeded ``seed * 10 + k``), so the per-game results pair with a
  stored ``bot_paired.py`` arm of ``hard`` (``--base FILE`` prints the paired difference).
  ``--know hands``: every world it samples gives the others their true hands (the deck is
  still shuffled); ``hands+deck``: the deck order too; ``roles``: their true masters and
  servants only (hands drawn as usual); ``nothing``: the plain bot (it must
  replay the stored arm game for game — the check that the pairing holds).
- ``predict``: four heuristic bots; at each of seat 0's bids, the chance each belief gives
  the card another seat then really bids (the heuristic bot's bid scores as a softmax,
  temperature and floor of :mod:`fuyuki.sbb.agents.belief`, over each believed hand):
  *uniform* hands (what the hard bot samples), a *sequential* particle belief (each
  particle a seat's hand, carried from round to round: the card it was seen to bid put in
  and weighed by its likelihood, the rest kept, new draws and cards seen elsewhere
  replaced, resampled when the weights thin), and the *true* hand (the ceiling). The
  master and servant are the true ones in all three (knowing them is worth +0.01 to the
  hard bot: ``oracle --know roles``).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
from typing import Any

from fuyuki import sbb
from fuyuki.sbb.agents import hard, make_bot
from fuyuki.sbb.agents.belief import place_likelihood, shares
from fuyuki.sbb.agents.heuristic import HeuristicBot
from fuyuki.sbb.sampling import Sampler
from fuyuki.sim.stats import wilson

from bot_paired import count     # a sibling in benchmarks/ (the script's own directory)


# ------------------------------------------------------------------ oracle
class _Oracle(Sampler):
    """A sampler whose worlds give the other seats what the real game gives them."""

    game: Any = None      # the real game, set before each decision
    know = "nothing"

    def _stack_and_ask(self, g) -> None:
        if self.know == "roles":
            t, s, me = self.game.s, g.s, self.me
            for i in range(s.n):
                if i != me:
                    _give(s, t, i, "master", s.mdeck)
                    _give(s, t, i, "servant", s.sdeck)
        elif self.know != "nothing":
            t, s, me = self.game.s, g.s, self.me
            others = [i for i in range(s.n) if i != me]
            pool = [c for i in others for c in s.hand[i]] + s.adeck
            for i in others:
                for c in t.hand[i]:
                    pool.remove(c)
                s.hand[i] = list(t.hand[i])
            if self.know == "hands+deck":
                s.adeck = list(t.adeck)
            else:
                s.rng.shuffle(pool)
                s.adeck = pool
        super()._stack_and_ask(g)


def _give(s, t, i: int, role: str, deck: list) -> None:
    """Seat ``i``'s true master (servant) in the world ``s``: swapped with the seat or the
    deck place that holds it in the world."""
    mine, want = getattr(s, role), getattr(t, role)[i]
    if mine[i] == want:
        return
    for j in range(s.n):
        if mine[j] == want:
            mine[j], mine[i] = mine[i], want
            return
    if want in deck:
        deck[deck.index(want)] = mine[i]
        mine[i] = want


def oracle(args) -> None:
    hard.Sampler = _Oracle          # type: ignore[misc]   (this process only)
    _Oracle.know = args.know
    n, out = args.players, []
    for i in range(args.games):
        seed = args.seed + i
        seat = i % n
        game = sbb.new_game(n, seed, quiet=True)
        bots = [hard.HardBot(seed * 10 + k, iterations=args.iterations) if k == seat
                else make_bot("heuristic", seed * 10 + k) for k in range(n)]
        _Oracle.game = game
        while not game.over:
            for s, d in game.pending().items():
                b = bots[s]
                game.submit(s, b.choose(game.view(s) if b.needs_view else None, d))
        winners = game.result["winners"]
        out.append(1 / len(winners) if seat in winners else 0.0)
        if args.progress and len(out) % args.progress == 0:
            print(f"  {len(out)}/{args.games}: share {statistics.mean(out):.3f}", flush=True)
    lo, hi = wilson(sum(out), len(out))
    print(f"hard knowing {args.know} vs {n - 1} x heuristic: share {statistics.mean(out):.3f} "
          f"(Wilson 95% {lo:.3f}-{hi:.3f}) of {len(out)} games from seed {args.seed}")
    if args.base:
        base = json.load(open(args.base))["arms"][0]["per_game"][:len(out)]
        d = [a - b for a, b in zip(out, base)]
        m = statistics.mean(d)
        h = 1.96 * statistics.stdev(d) / math.sqrt(len(d))
        print(f"paired with {args.base}: {m:+.3f} ({m - h:+.3f} to {m + h:+.3f}), "
              f"{sum(1 for x in d if x)} games differ")
    if args.out:
        json.dump({"players": n, "seed": args.seed, "games": len(out), "know": args.know,
                   "iterations": args.iterations, "arms": [{"bot": f"hard knowing {args.know}",
                   "share": statistics.mean(out), "per_game": out}]},
                  open(args.out, "w"), indent=1)


# ------------------------------------------------------------------ predict
_POLICY = HeuristicBot(0)


def _probs(table: dict, seat: int, hand: list[str], who: tuple) -> dict[str, float]:
    """The chance of each card of ``hand`` as ``seat``'s bid on ``table`` (as belief.py)."""
    hand = sorted(set(hand))
    view = dict(table)
    view["seat"] = seat
    view["me"] = {"hand": hand, "master": who[0], "servant": who[1], "dark": who[2]}
    return shares(_POLICY.bid_scores(view, hand))


def _seen(hand: list[str], who: tuple) -> dict[str, Any]:
    return {"hand": hand, "master": who[0], "servant": who[1], "dark": who[2]}


def _mix(parts: list[tuple[list[str], float]], table, seat, who) -> dict[str, float]:
    total = sum(w for _, w in parts) or 1.0
    out: dict[str, float] = {}
    for hand, w in parts:
        for c, p in _probs(table, seat, hand, who).items():
            out[c] = out.get(c, 0.0) + p * w / total
    return out


def _carry(parts, bid, table, seat, who, pool, size, rng) -> list[tuple[list[str], float]]:
    """One round on: weigh each particle by its seat's observed ``bid``, then bring its hand
    to what is still unseen and to the seat's hand size now; resample when thin."""
    out = []
    for hand, w in parts:
        hand = list(hand)
        if bid is not None:
            if bid not in hand:
                hand[rng.randrange(len(hand))] = bid
            w *= _probs(table, seat, hand, who)[bid]
            hand.remove(bid)
        left, keep = list(pool), []
        for c in hand:
            if c in left:
                left.remove(c)
                keep.append(c)
        keep = rng.sample(keep, size) if len(keep) > size else keep + rng.sample(
            left, size - len(keep))
        out.append((keep, w))
    ws = [w for _, w in out]
    total = sum(ws) or 1.0
    if 1.0 / sum((w / total) ** 2 for w in ws) < len(out) / 2:
        out = [(list(out[i][0]), 1.0) for i in rng.choices(range(len(out)), weights=ws,
                                                            k=len(out))]
    return out


def predict(args) -> None:
    rng = random.Random(args.seed)
    got: dict[str, list[float]] = {"uniform": [], "sequential": [], "true hand": []}
    parent: dict[str, list[float]] = {"uniform": [], "extra gem": [], "true hand": []}
    for seed in range(args.seed, args.seed + args.games):
        g = sbb.new_game(4, seed, quiet=True)
        bots = [make_bot("heuristic", seed * 10 + k) for k in range(4)]
        parts: dict[int, list] = {}
        last: tuple | None = None      # (table, who) at seat 0's last bid, then its bids
        while not g.over:
            pend = g.pending()
            ours = 0 in pend and pend[0].kind == "bid"
            if ours:
                s, names = g.s, g.t.names
                table = {k: v for k, v in g.view(0).items() if k != "me"}
                pool = [names[c] for i in range(1, 4) for c in s.hand[i]] + \
                    [names[c] for c in s.adeck]
                sizes = [len(h) for h in s.hand]
                who = {i: (names[s.master[i]], names[s.servant[i]], bool(s.dark[i]))
                       for i in range(4)}
                preds = {}
                extra = table["extra_gem"]     # this round's, placed by the parent
                for j in range(1, 4):
                    if last is None or j not in parts:
                        parts[j] = [(rng.sample(pool, sizes[j]), 1.0)
                                    for _ in range(args.particles)]
                    else:
                        parts[j] = _carry(parts[j], last[2].get(j), last[0], j, last[1][j],
                                          pool, sizes[j], rng)
                    if sizes[j]:
                        uniform = [(rng.sample(pool, sizes[j]), 1.0)
                                   for _ in range(args.particles)]
                        true = [[names[c] for c in s.hand[j]]]
                        preds[j] = {"uniform": _mix(uniform, table, j, who[j]),
                                    "sequential": _mix(parts[j], table, j, who[j]),
                                    "true hand": _mix([(true[0], 1.0)], table, j, who[j])}
                        if extra is not None and j == table["parent"]:
                            weighted = [(h, place_likelihood(_POLICY, table, j,
                                                             _seen(h, who[j]), extra))
                                        for h, _ in uniform]
                            preds[j]["extra gem"] = _mix(weighted, table, j, who[j])
            answers = {seat: bots[seat].choose(g.view(seat), d) for seat, d in pend.items()}
            if ours:
                for j, p in preds.items():
                    for k in got:
                        got[k].append(p[k].get(answers[j], 0.0))
                    if "extra gem" in p:
                        for k in parent:
                            parent[k].append(p[k].get(answers[j], 0.0))
                last = (table, who, {j: answers[j] for j in range(1, 4) if j in answers})
            for seat, c in answers.items():
                g.submit(seat, c)
    print(f"the chance a belief gives the card another seat really bids "
          f"({len(got['uniform'])} bids, {args.games} games from seed {args.seed}, "
          f"{args.particles} particles):")
    for k, v in got.items():
        print(f"  {k:<11} {statistics.mean(v):.4f}")
    print(f"the same for the round's parent, who placed the extra gem ({len(parent['uniform'])} "
          f"bids; uniform hands weighted by the chance of that placement):")
    for k, v in parent.items():
        print(f"  {k:<11} {statistics.mean(v):.4f}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    o = sub.add_parser("oracle", help="the hard bot knowing the others' hands (paired)")
    o.add_argument("--know", choices=("nothing", "roles", "hands", "hands+deck"), default="hands")
    o.add_argument("--players", type=int, choices=(3, 4, 5), default=4)
    o.add_argument("--games", type=count, default=200)
    o.add_argument("--seed", type=int, default=92000)
    o.add_argument("--iterations", type=count, default=300)
    o.add_argument("--base", help="a bot_paired.py result of hard on the same games")
    o.add_argument("--progress", type=int, default=50)
    o.add_argument("--out")
    p = sub.add_parser("predict", help="how well beliefs predict the others' next bids")
    p.add_argument("--games", type=count, default=60)
    p.add_argument("--seed", type=int, default=2000)
    p.add_argument("--particles", type=count, default=200)
    args = ap.parse_args(argv)
    if getattr(args, "base", None) and not os.path.isfile(args.base):
        ap.error(f"--base: no such file {args.base!r}")
    (oracle if args.what == "oracle" else predict)(args)


if __name__ == "__main__":
    sys.exit(main())
