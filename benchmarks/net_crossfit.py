"""The net bot against the hard bot, paired, on games no measured network was trained on.

    python -m fuyuki.sbb.agents.train_net data --players 4 --games 1000 --seed 400000 \\
        --out p4.npz                     # the hard bot's bids and its arm (game_share)
    python benchmarks/net_crossfit.py mixed.npz p4.npz --measure 400000 1000 --folds 2

The data files of ``train_net data`` hold, besides the hard bot's bids, its share of the win
in each game; a four-player run from a seed divisible by 4 plays exactly the games of
``bot_paired.py --hero hard --seed`` that seed (tests/sbb/test_net_bot.py), so those shares
are the hard arm. The ``--measure`` games are cut into ``--folds`` blocks; for each block a
network is fitted (``train_net train``'s fit, the same options) to all the data *except*
that block's games and plays that block's games as the net arm (``bot_paired``'s games:
the same deals and heuristic opponents). Printed: both arms' shares (Wilson 95 %) and the
paired difference net − hard with its normal 95 % interval, over all the blocks; ``--out``
writes them as JSON with the per-game shares.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

from bot_paired import _games, paired, summary, to_json
from fuyuki.sbb.agents.net import save
from fuyuki.sbb.agents.train_net import _load, fit


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path, nargs="+", help="train_net data files")
    ap.add_argument("--measure", type=int, nargs=2, metavar=("SEED", "GAMES"), required=True)
    ap.add_argument("--folds", type=int, default=2)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=0.003)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--temperature", type=float, default=0.01)
    ap.add_argument("--train-seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    first, games = args.measure
    if first % 4 or games % args.folds or (games // args.folds) % 4:
        ap.error("--measure SEED and each fold's games must be divisible by 4 (the seats rotate)")
    data, sources = _load(args.data)
    hard: dict[int, float] = {}
    for path in args.data:
        with np.load(path) as f:
            recipe = json.loads(str(f["recipe"]))
            # the hard bot's own four-player games (an apprentice's games are the network's)
            if recipe.get("players") == 4 and "apprentice" not in recipe:
                hard.update(zip(f["game_seed"].tolist(), f["game_share"].tolist()))
    seeds = list(range(first, first + games))
    missing = [s for s in seeds if s not in hard]
    if missing:
        ap.error(f"no hard arm for {len(missing)} games (first {missing[0]}): run train_net data "
                 f"--players 4 on them")
    net: list[float] = []
    size = games // args.folds
    fit_args = argparse.Namespace(**{**vars(args), "seed": args.train_seed, "progress": 0})
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(args.folds):
            block = seeds[k * size:(k + 1) * size]
            keep = (data["seed"] < block[0]) | (data["seed"] > block[-1])
            weights, report = fit({key: v[keep] for key, v in data.items()}, fit_args, sources)
            path = Path(tmp) / f"fold{k}.json"
            save(path, weights)
            rows = _games(f"net:path={path}", "heuristic", 4, block[0], block, {})
            net += [r[1] for r in rows]
            print(f"fold {k}: games {block[0]}-{block[-1]}, fitted to {report['bids']} bids, "
                  f"net {sum(r[1] for r in rows) / size:.3f}, "
                  f"hard {sum(hard[s] for s in block) / size:.3f}", file=sys.stderr, flush=True)
    arm = [hard[s] for s in seeds]
    out = {"seed": first, "games": games, "folds": args.folds, "net": summary(net),
           "hard": summary(arm), "paired": paired(net, arm),
           "per_game": {"net": net, "hard": arm}}
    for name in ("net", "hard"):
        s = out[name]
        print(f"{name:>5s}: share {s['share']:.3f} (Wilson 95% {s['wilson95'][0]:.3f}-"
              f"{s['wilson95'][1]:.3f})")
    p = out["paired"]
    print(f"net - hard: {p['diff']:+.3f} (95% {p['ci95'][0]:+.3f} to {p['ci95'][1]:+.3f}; "
          f"{p['games_differing']} of {games} games differ)")
    if args.out:
        args.out.write_text(to_json(out), encoding="utf-8")


if __name__ == "__main__":
    main()
