"""Training the net bot (:mod:`.net`): the hard bot's bids, then the policy network.

    python -m fuyuki.sbb.agents.train_net all --out src/fuyuki/sbb/agents/net_weights.json
    python -m fuyuki.sbb.agents.train_net all --part 430000:1000:3 \
        --apprentice-part 630000:1000:3 --out src/fuyuki/sbb/agents/net_weights_3.json
    python -m fuyuki.sbb.agents.train_net data --games 200 --seed 1 --out bids.npz
    python -m fuyuki.sbb.agents.train_net data --games 1000 --seed 400000 --players 4 \
        --out p4.npz
    python -m fuyuki.sbb.agents.train_net train bids.npz p4.npz --out weights.json

**Data** (``data``). Game ``seed`` (seeds ``--seed`` to ``--seed + games − 1``) has
``--players`` players, or 4, 3, 4 or 5 by ``seed mod 4``; seat ``seed mod players`` is the
hard bot at ``--iterations`` (seeded ``seed × 10 + seat``), the others heuristic bots (seeded
alike) — the field the net bot is measured against. At every sealed bid of the hard bot with
more than one option its options' rows (:func:`.net.bid_features`, from its own view) are
kept with the search's mean value of each option and the option it bid; and for each game
the seat's share of the win. A game depends on its seed alone, so data made in pieces
(``--seed 1 --games 100``, ``--seed 101 ...``) is the data of one run. ``--apprentice W``:
the net bot of the weights ``W`` plays the seat and the search only labels its bids
(expert iteration's second round: the positions the network reaches).

**Training** (``train``). The policy's target is the softmax of the search's option values
at ``--temperature`` (0: the option the search bid); one tanh layer of ``--hidden`` units
scores each row, a softmax over the options, cross-entropy, Adam
(:func:`.train_eval.train`); games whose seed ends in 0 are held out. Printed: the
held-out cross-entropy, and how often the network's, and the heuristic rating's, best
option is the one the search bid. ``--exclude FIRST END`` leaves out games (those a network
is measured on: ``benchmarks/net_crossfit.py``).

``all`` does both in one process — the shipped weights' commands (the first line above,
and for three players the second): the games of each
``--part SEED:GAMES[:PLAYERS]`` (default :data:`SHIPPED`), a fit; then, for each
``--apprentice-part`` (default :data:`SHIPPED_APPRENTICE`), games played by that first
network and labelled by the search, and the fit to all of it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from fuyuki import sbb
from fuyuki.sbb.agents.hard import HardBot
from fuyuki.sbb.agents.heuristic import HeuristicBot
from fuyuki.sbb.agents.learned_eval import Mlp
from fuyuki.sbb.agents.net import NAMES, SIZE, NetBot, bid_features, save
from fuyuki.sbb.agents.train_eval import _softmax, train

OPTIONS = 12   # a bid's options are padded to this many rows
PLAYERS = (4, 3, 4, 5)   # by seed mod 4
_KEYS = ("x", "mask", "values", "choice", "seed", "players")
#: the shipped weights' games (``all --part``): SEED:GAMES[:PLAYERS]
SHIPPED = ("1:200", "400000:1000:4")
#: the shipped weights' second round (``all --apprentice-part``)
SHIPPED_APPRENTICE: tuple[str, ...] = ("600000:1300:4",)


def players_of(seed: int, players: int | None = None) -> int:
    return players or PLAYERS[seed % len(PLAYERS)]


def generate(games: int, seed: int, iterations: int, progress: int = 0,
             players: int | None = None, apprentice: str | Path | None = None
             ) -> dict[str, np.ndarray]:
    """The hard bot's bids in ``games`` games from ``seed`` (the module's docstring), and
    the seat's share of the win in each game (``game_seed``, ``game_share``). With
    ``apprentice`` (a net bot's weights file) that net bot plays the seat and the hard bot
    only labels its bids: the search's values at the positions the network reaches."""
    reader = HeuristicBot(0)
    xs, masks, values, choices, seeds, counts = [], [], [], [], [], []
    shares = []
    start = time.process_time()
    for i in range(games):
        gseed = seed + i
        n = players_of(gseed, players)
        hero = gseed % n
        game = sbb.new_game(n, gseed, quiet=True)
        search = HardBot(gseed * 10 + hero, iterations=iterations)
        bots: list = [HeuristicBot(gseed * 10 + k) for k in range(n)]
        bots[hero] = search if apprentice is None else NetBot(gseed * 10 + hero,
                                                               path=apprentice)
        while not game.over:
            answers = []
            for s, d in game.pending().items():
                view = game.view(s)
                k = len(d.options)
                record = s == hero and d.kind == "bid" and 1 < k <= OPTIONS
                if record:
                    rows = bid_features(reader, view, d.options)
                    search.last_search = {}
                choice = bots[s].choose(view, d)
                answers.append((s, choice))
                if record and apprentice is not None:
                    choice = search.choose(view, d)     # the label, not the move
                means = search.last_search.get("values") if record else None
                if means is None:    # (not recorded, or not searched: answered by a rule)
                    continue
                x = np.zeros((OPTIONS, SIZE))
                x[:k] = rows
                m = np.zeros(OPTIONS)
                m[:k] = 1
                v = np.zeros(OPTIONS)
                v[:k] = [means[o] for o in d.options]
                xs.append(x)
                masks.append(m)
                values.append(v)
                choices.append(d.options.index(choice))
                seeds.append(gseed)
                counts.append(n)
            for s, c in answers:
                game.submit(s, c)
        winners = game.result["winners"]
        shares.append(1 / len(winners) if hero in winners else 0.0)
        if progress and (i + 1) % progress == 0:
            print(f"{i + 1}/{games} games, {len(xs)} bids, "
                  f"{time.process_time() - start:.0f}s CPU", file=sys.stderr, flush=True)
    recipe = {"games": games, "seed": seed, "iterations": iterations,
              **({"players": players} if players else {}),
              **({"apprentice": Path(apprentice).name} if apprentice is not None else {})}
    return {"x": np.array(xs).reshape(-1, OPTIONS, SIZE), "mask": np.array(masks),
            "values": np.array(values), "choice": np.array(choices, dtype=int),
            "seed": np.array(seeds, dtype=int), "players": np.array(counts, dtype=int),
            "game_seed": np.arange(seed, seed + games), "game_share": np.array(shares),
            "recipe": np.array(json.dumps(recipe))}


def targets(data: dict[str, np.ndarray], temperature: float) -> np.ndarray:
    """The policy's target over each bid's options: the softmax of the search's values at
    ``temperature``, or (0) the option the search bid."""
    mask = data["mask"]
    if temperature <= 0:
        y = np.zeros_like(mask)
        y[np.arange(len(y)), data["choice"]] = 1
        return y
    return _softmax(data["values"] / temperature, mask)


def fit(data: dict[str, np.ndarray], args, sources: list[dict]) -> tuple[dict, dict]:
    """The network's weights (with their recipe) and the held-out report."""
    mask = data["mask"]
    # the comparison rule: the heuristic rating's best option (NAMES[2], "best")
    best = data["x"][..., 2] * mask
    rule = best / np.maximum(best.sum(axis=1, keepdims=True), 1)
    train_data = {"x": data["x"], "mask": mask, "y": targets(data, args.temperature),
                  "hand_set": rule, "seed": data["seed"]}
    weights, report = train(train_data, args, sources, names=NAMES)
    hold = (data["seed"] % 10) == 0
    net = Mlp(weights, NAMES, "the weights")
    z = np.where(mask > 0, net.scores(data["x"]), -1e9)
    picked = z.argmax(axis=1)
    report = {"bids": report["positions"], "held_out": report["held_out"],
              "cross_entropy": report["learned"], "uniform": report["uniform"],
              "net_agrees": float((picked[hold] == data["choice"][hold]).mean()),
              "heuristic_agrees": float((best.argmax(axis=1)[hold]
                                         == data["choice"][hold]).mean())}
    for key in ("positions", "learned", "hand_set"):    # (train_eval's names for them)
        weights["recipe"].pop(key, None)
    weights["recipe"].update(report, temperature=args.temperature)
    return weights, report


def _load(paths: list[Path]) -> tuple[dict[str, np.ndarray], list[dict]]:
    parts = []
    for p in paths:
        with np.load(p, allow_pickle=False) as f:
            parts.append({k: f[k] for k in f.files})
    sources = [json.loads(str(p.pop("recipe"))) for p in parts]
    data = {k: np.concatenate([p[k] for p in parts]) for k in _KEYS}
    if data["x"].shape[1:] != (OPTIONS, SIZE):
        raise ValueError(f"rows of {data['x'].shape[-1]} numbers, not {SIZE}")
    return data, sources


def _part(text: str) -> tuple[int, int, int | None]:
    """``SEED:GAMES[:PLAYERS]``: games seeded SEED to SEED + GAMES − 1 (PLAYERS each, else
    by seed mod 4)."""
    try:
        nums = [int(x) for x in text.split(":")]
        if len(nums) not in (2, 3) or nums[1] < 1 or (len(nums) == 3 and nums[2] not in (3, 4, 5)):
            raise ValueError
    except ValueError:
        raise argparse.ArgumentTypeError(f"SEED:GAMES[:PLAYERS] (3, 4 or 5), not {text!r}") from None
    return nums[0], nums[1], nums[2] if len(nums) == 3 else None


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("data", help="play games and write the hard bot's bids (.npz)")
    t = sub.add_parser("train", help="fit the network to bids (.npz files)")
    a = sub.add_parser("all", help="data, then training, in one run")
    d.add_argument("--games", type=int, default=200)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--players", type=int, choices=(3, 4, 5), default=None,
                   help="every game this many players (default: 4, 3, 4, 5 by seed mod 4)")
    d.add_argument("--apprentice", type=Path, default=None,
                   help="a net bot's weights: it plays the seat, the search labels its bids")
    a.add_argument("--part", type=_part, action="append", default=None,
                   metavar="SEED:GAMES[:PLAYERS]",
                   help="games of the data (repeatable; default: the shipped weights' "
                        + " ".join(SHIPPED) + ")")
    a.add_argument("--apprentice-part", type=_part, action="append", default=None,
                   metavar="SEED:GAMES[:PLAYERS]",
                   help="games of a second round, played by the network fitted to the first "
                        "and labelled by the search (repeatable; default with no --part: "
                        + (" ".join(SHIPPED_APPRENTICE) or "none") + ")")
    for p in (d, a):
        p.add_argument("--iterations", type=int, default=300,
                       help="the hard bot's search budget per decision")
    t.add_argument("data", type=Path, nargs="+")
    t.add_argument("--exclude", type=int, nargs=2, metavar=("FIRST", "END"), default=None,
                   help="leave out the bids of the games seeded FIRST to END - 1 (the games "
                        "a network is then measured on)")
    for p in (t, a):
        p.add_argument("--hidden", type=int, default=32)
        p.add_argument("--epochs", type=int, default=30)
        p.add_argument("--batch", type=int, default=128)
        p.add_argument("--lr", type=float, default=0.003)
        p.add_argument("--l2", type=float, default=1e-4)
        p.add_argument("--temperature", type=float, default=0.01,
                       help="the target's softmax temperature on the search's values "
                            "(0: the option it bid)")
        p.add_argument("--train-seed", type=int, default=0, help="the fit's random numbers")
    for p in (d, t, a):
        p.add_argument("--progress", type=int, default=0)
        p.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    start = time.process_time()
    if args.cmd == "data":
        np.savez_compressed(args.out, **generate(args.games, args.seed, args.iterations,
                                                 args.progress, args.players, args.apprentice))
        return
    if args.cmd == "all":
        parts = [generate(games, seed, args.iterations, args.progress, players)
                 for seed, games, players in args.part or [_part(p) for p in SHIPPED]]
        second = args.apprentice_part
        if second is None and args.part is None:
            second = [_part(p) for p in SHIPPED_APPRENTICE]
        if second:
            # expert iteration's second round: the first network plays, the search labels
            data = {k: np.concatenate([p[k] for p in parts]) for k in _KEYS}
            first, _ = fit(data, argparse.Namespace(**{**vars(args), "seed": args.train_seed}),
                           [])
            save(args.out, first)
            parts += [generate(games, seed, args.iterations, args.progress, players, args.out)
                      for seed, games, players in second]
        sources = [json.loads(str(p.pop("recipe"))) for p in parts]
        data = {k: np.concatenate([p[k] for p in parts]) for k in _KEYS}
    else:
        try:
            data, sources = _load(args.data)
        except (OSError, ValueError, KeyError) as e:
            ap.error(f"not bids written by this command's 'data': {e}")
        if args.exclude:
            first, end = args.exclude
            keep = (data["seed"] < first) | (data["seed"] >= end)
            data = {k: v[keep] for k, v in data.items()}
            sources.append({"excluded": [first, end]})
    fit_args = argparse.Namespace(**{**vars(args), "seed": args.train_seed})
    weights, report = fit(data, fit_args, sources)
    save(args.out, weights)
    report["cpu_seconds"] = round(time.process_time() - start, 1)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
