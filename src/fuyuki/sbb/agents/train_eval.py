"""Training the hard bot's learned evaluation (issue 21, item 4): data, then weights.

    python -m fuyuki.sbb.agents.train_eval data --games 20000 --seed 1 --out pos1.npz
    python -m fuyuki.sbb.agents.train_eval train pos1.npz [pos2.npz ...] \\
        --out src/fuyuki/sbb/agents/eval_weights.json

**Data.** Games of the final edition (standard mode) at 3, 4 and 5 players in turn, seeded
``--seed + i``; each seat is played by the hard bot at ``--hard-iterations`` with
probability ``--hard``, by the random bot with probability ``--random``, else by the
heuristic bot. At the end of every round (where the hard bot's bid search cuts its
playouts) every seat's row of :func:`.features.seat_features` is kept, and the hand-set
evaluation of the same position for comparison; when the game ends each position is
labelled with the share of the win each seat took (1/k for a k-way draw).

**Training.** A multilayer perceptron (one tanh layer of ``--hidden`` units) scores each
seat; the softmax over the seats of a position is fitted to the win shares (cross-entropy)
with Adam on mini-batches, a little L2, features standardised; 10 % of the games (by seed)
are held out. Printed: the held-out cross-entropy of the learned and of the hand-set
evaluation. Numbers only; no GPU, a minute or two on one core.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

from fuyuki import sbb
from fuyuki.sbb.agents import make_bot
from fuyuki.sbb.agents.features import NAMES, SIZE, seat_features
from fuyuki.sbb.agents.hard import HardBot

SEATS = 5   # positions are padded to this many seats
_DATA_ARGS = ("games", "seed", "hard", "hard_iterations", "random")
_TRAIN_ARGS = ("hidden", "epochs", "batch", "lr", "l2", "seed")


def _bots(n: int, rng: random.Random, seed: int, args) -> list:
    bots = []
    for k in range(n):
        r = rng.random()
        if r < args.hard:
            bots.append(make_bot("hard", seed * 10 + k, iterations=args.hard_iterations))
        elif r < args.hard + args.random:
            bots.append(make_bot("random", seed * 10 + k))
        else:
            bots.append(make_bot("heuristic", seed * 10 + k))
    return bots


def games(args):
    """The data's games, ``(i, seed, game, bots)``: seeds ``args.seed + i``, at 3, 4 and 5
    players in turn, the seats' bots drawn by :func:`_bots`."""
    rng = random.Random(args.seed)
    for i in range(args.games):
        seed = args.seed + i
        n = (3, 4, 5)[i % 3]
        yield i, seed, sbb.new_game(n, seed, quiet=True), _bots(n, rng, seed, args)


def generate(args) -> dict[str, np.ndarray]:
    """Positions of ``args.games`` games: x (P, SEATS, SIZE), mask, y (win shares), the
    hand-set evaluation, the game's seed."""
    hand_set = HardBot(0, iterations=1)
    xs, masks, ys, olds, seeds = [], [], [], [], []
    for i, seed, game, bots in games(args):
        n = game.players
        rows, evals = [], []
        last_round = None
        while not game.over:
            if game.s.round != last_round and game.s.round > 1 and game.s.master[0]:
                rows.append(seat_features(game))
                evals.append(hand_set._evaluate(game))
            last_round = game.s.round
            answers = [(s, bots[s].choose(game.view(s) if bots[s].needs_view else None,
                                          d)) for s, d in game.pending().items()]
            for s, c in answers:
                game.submit(s, c)
        assert game.result is not None
        winners = game.result["winners"]
        share = [1 / len(winners) if k in winners else 0.0 for k in range(n)]
        for row, ev in zip(rows, evals):
            x = np.zeros((SEATS, SIZE))
            x[:n] = row
            m = np.zeros(SEATS)
            m[:n] = 1
            y = np.zeros(SEATS)
            y[:n] = share
            o = np.zeros(SEATS)
            o[:n] = ev
            xs.append(x)
            masks.append(m)
            ys.append(y)
            olds.append(o)
            seeds.append(seed)
        if args.progress and (i + 1) % args.progress == 0:
            print(f"{i + 1}/{args.games} games, {len(xs)} positions", file=sys.stderr)
    recipe = {k: v for k, v in vars(args).items() if k in _DATA_ARGS}
    return {"x": np.array(xs), "mask": np.array(masks), "y": np.array(ys),
            "hand_set": np.array(olds), "seed": np.array(seeds),
            "recipe": np.array(json.dumps(recipe))}


def _softmax(z: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask > 0, z, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z) * mask
    return e / e.sum(axis=1, keepdims=True)


def cross_entropy(p: np.ndarray, y: np.ndarray, mask: np.ndarray) -> float:
    """Mean over positions of −Σ y log p over the seats."""
    return float(-(y * np.log(np.clip(p, 1e-9, 1)) * mask).sum(axis=1).mean())


def train(data: dict[str, np.ndarray], args, sources: list[dict],
          names: tuple[str, ...] = NAMES) -> tuple[dict, dict[str, float]]:
    """Fit a softmax over the rows of each position (``x``: positions × rows × features,
    ``mask``: which rows exist, ``y``: the target shares) — the seats of a position here,
    the options of a bid in :mod:`.train_policy`; ``hand_set`` holds the rule it is
    compared with. Returns the weights (with the recipe) and the held-out report."""
    x, mask, y, old, seeds = (data[k] for k in ("x", "mask", "y", "hand_set", "seed"))
    size = x.shape[-1]
    hold = (seeds % 10) == 0
    tr = ~hold
    rows = x[tr][mask[tr] > 0]
    mean = rows.mean(axis=0)
    std = rows.std(axis=0) + 1e-6
    xn = (x - mean) / std
    rng = np.random.default_rng(args.seed)
    h = args.hidden
    params = {"w1": rng.normal(0, 1 / np.sqrt(size), (size, h)), "b1": np.zeros(h),
              "w2": rng.normal(0, 1 / np.sqrt(h), h), "b2": np.zeros(1)}
    m1 = {k: np.zeros_like(v) for k, v in params.items()}
    m2 = {k: np.zeros_like(v) for k, v in params.items()}
    b1, b2, lr, l2 = 0.9, 0.999, args.lr, args.l2

    def forward(xb):
        hid = np.tanh(xb @ params["w1"] + params["b1"])
        return hid, hid @ params["w2"] + params["b2"][0]

    idx = np.flatnonzero(tr)
    step = 0
    for epoch in range(args.epochs):
        rng.shuffle(idx)
        for start in range(0, len(idx), args.batch):
            bi = idx[start:start + args.batch]
            xb, mb, yb = xn[bi], mask[bi], y[bi]
            hid, z = forward(xb)
            p = _softmax(z, mb)
            dz = (p - yb) * mb / len(bi)               # d CE / d score
            grads = {"w2": np.einsum("psh,ps->h", hid, dz) + l2 * params["w2"],
                     "b2": np.array([dz.sum()])}
            dh = dz[..., None] * params["w2"] * (1 - hid ** 2)
            grads["w1"] = np.einsum("psf,psh->fh", xb, dh) + l2 * params["w1"]
            grads["b1"] = dh.sum(axis=(0, 1))
            step += 1
            for k in params:
                m1[k] = b1 * m1[k] + (1 - b1) * grads[k]
                m2[k] = b2 * m2[k] + (1 - b2) * grads[k] ** 2
                mhat = m1[k] / (1 - b1 ** step)
                vhat = m2[k] / (1 - b2 ** step)
                params[k] -= lr * mhat / (np.sqrt(vhat) + 1e-8)
        if args.progress:
            _, z = forward(xn[hold])
            print(f"epoch {epoch + 1}: held-out cross-entropy "
                  f"{cross_entropy(_softmax(z, mask[hold]), y[hold], mask[hold]):.4f}",
                  file=sys.stderr)
    _, z = forward(xn[hold])
    report = {
        "positions": int(len(x)), "held_out": int(hold.sum()),
        "learned": cross_entropy(_softmax(z, mask[hold]), y[hold], mask[hold]),
        "hand_set": cross_entropy(old[hold], y[hold], mask[hold]),
        "uniform": cross_entropy(mask[hold] / mask[hold].sum(axis=1, keepdims=True),
                                 y[hold], mask[hold])}
    weights = {"features": list(names), "mean": _r(mean), "std": _r(std),
               "w1": _r(params["w1"]), "b1": _r(params["b1"]), "w2": _r(params["w2"]),
               "b2": round(float(params["b2"][0]), 6),
               "recipe": {"data": sources, **{k: getattr(args, k) for k in _TRAIN_ARGS},
                          **report}}
    return weights, report


def _r(a: np.ndarray):
    return np.round(a, 6).tolist()


def cli(argv: list[str] | None, description: str, generate, names: tuple[str, ...], *,
        games: int, hard: float, hard_iterations: int, hidden: int, epochs: int,
        what: str, report=None) -> None:
    """The ``data`` / ``train`` command line shared by this module and :mod:`.train_policy`:
    ``generate(args)`` plays the games, ``report(weights, data)`` adds to the printed
    report (and to the weights' recipe)."""
    ap = argparse.ArgumentParser(description=description)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("data", help=f"play games and write their {what} (.npz)")
    d.add_argument("--games", type=int, default=games)
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--hard", type=float, default=hard, help="share of seats for the hard bot")
    d.add_argument("--hard-iterations", type=int, default=hard_iterations)
    d.add_argument("--random", type=float, default=0.15, help="share of seats for random")
    d.add_argument("--progress", type=int, default=0)
    d.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("train", help=f"fit the weights to {what} (.npz files)")
    t.add_argument("data", type=Path, nargs="+")
    t.add_argument("--hidden", type=int, default=hidden)
    t.add_argument("--epochs", type=int, default=epochs)
    t.add_argument("--batch", type=int, default=256)
    t.add_argument("--lr", type=float, default=0.003)
    t.add_argument("--l2", type=float, default=1e-4)
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--progress", type=int, default=0)
    t.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)
    if args.cmd == "data":
        np.savez_compressed(args.out, **generate(args))
        return
    try:
        parts = [dict(np.load(p)) for p in args.data]
        sources = [json.loads(str(p.pop("recipe"))) for p in parts]
        data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
        if data["x"].shape[-1] != len(names):
            raise ValueError(f"rows of {data['x'].shape[-1]} numbers, not {len(names)}")
    except (OSError, ValueError, KeyError) as e:
        ap.error(f"not {what} written by this command's 'data': {e}")
    weights, result = train(data, args, sources, names=names)
    if report is not None:
        for key, value in report(weights, data).items():
            result[key] = weights["recipe"][key] = value
    args.out.write_text(json.dumps(weights, separators=(",", ":")) + "\n", encoding="utf-8")
    print(json.dumps(result))


def main(argv: list[str] | None = None) -> None:
    cli(argv, __doc__.split("\n\n")[0], generate, NAMES, games=20000, hard=0.0,
        hard_iterations=50, hidden=32, epochs=10, what="positions")


if __name__ == "__main__":
    main()
