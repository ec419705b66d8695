"""Training the learned bid policy (issue 21, item 4): data, then weights.

    python -m fuyuki.sbb.agents.train_policy data --games 1500 --seed 1 --hard 0.3 \\
        --out bids1.npz
    python -m fuyuki.sbb.agents.train_policy train bids1.npz [bids2.npz ...] \\
        --out src/fuyuki/sbb/agents/policy_weights.json

**Data.** Games of the final edition (standard mode) at 3, 4 and 5 players in turn, seeded
``--seed + i``, each seat played by the hard bot (share ``--hard``, at
``--hard-iterations``: the search's own games), the random bot (``--random``) or the
heuristic bot — as for the learned evaluation (:mod:`.train_eval`). At every sealed bid
with more than one option, the bidder's options are described by
:func:`.learned_policy.option_features` (read from that seat's own view) and labelled with
the card it bid. The rule it is compared with: the hard bot's belief likelihood of a bid
(:func:`.belief.shares` of the heuristic's scores).

**Training.** The same fit as the learned evaluation (:func:`.train_eval.train`): one tanh
layer, a softmax over the options of each bid, Adam, 10 % of the games held out. Printed:
the held-out cross-entropy of the policy, of the belief's rule and of uniform bids, and the
policy's per bot kind.
"""

from __future__ import annotations

import json
import sys

import numpy as np

from fuyuki.sbb.agents.belief import shares
from fuyuki.sbb.agents.heuristic import HeuristicBot
from fuyuki.sbb.agents.learned_eval import Mlp
from fuyuki.sbb.agents.learned_policy import NAMES, SIZE, option_features
from fuyuki.sbb.agents.train_eval import _softmax, cli, cross_entropy, games
from fuyuki.sbb.view import build_seen

OPTIONS = 12   # a bid's options are padded to this many rows
KINDS = ("heuristic", "hard", "random")
_DATA_ARGS = ("games", "seed", "hard", "hard_iterations", "random")


def generate(args) -> dict[str, np.ndarray]:
    """The bids of ``args.games`` games: x (B, OPTIONS, SIZE), mask, y (the card bid,
    one-hot), the belief's chances, the game's seed, the bidder's kind."""
    reader = HeuristicBot(0)
    xs, masks, ys, olds, seeds, kinds = [], [], [], [], [], []
    for i, seed, game, bots in games(args):
        while not game.over:
            answers = []
            for s, d in game.pending().items():
                choice = bots[s].choose(game.view(s) if bots[s].needs_view else None, d)
                answers.append((s, choice))
                k = len(d.options)
                if d.kind != "bid" or k == 1 or k > OPTIONS:
                    continue
                seen = build_seen(game, s)
                x = np.zeros((OPTIONS, SIZE))
                x[:k] = option_features(reader, seen, d.options)
                m = np.zeros(OPTIONS)
                m[:k] = 1
                y = np.zeros(OPTIONS)
                y[d.options.index(choice)] = 1
                rule = shares(dict(zip(d.options, x[:k, 0])))
                o = np.zeros(OPTIONS)
                o[:k] = [rule[c] for c in d.options]
                xs.append(x)
                masks.append(m)
                ys.append(y)
                olds.append(o)
                seeds.append(seed)
                kinds.append(KINDS.index(bots[s].name))
            for s, c in answers:
                game.submit(s, c)
        if args.progress and (i + 1) % args.progress == 0:
            print(f"{i + 1}/{args.games} games, {len(xs)} bids", file=sys.stderr)
    recipe = {k: v for k, v in vars(args).items() if k in _DATA_ARGS}
    return {"x": np.array(xs), "mask": np.array(masks), "y": np.array(ys),
            "hand_set": np.array(olds), "seed": np.array(seeds), "kind": np.array(kinds),
            "recipe": np.array(json.dumps(recipe))}


def by_kind(weights: dict, data: dict[str, np.ndarray]) -> dict[str, dict[str, float]]:
    """The held-out cross-entropy of the policy and of the belief's rule, per bidder kind."""
    x, mask, y, old, seeds, kind = (data[k] for k in
                                    ("x", "mask", "y", "hand_set", "seed", "kind"))
    p = _softmax(Mlp(weights, NAMES, "the weights").scores(x), mask)
    out = {}
    for i, name in enumerate(KINDS):
        sel = ((seeds % 10) == 0) & (kind == i)
        if sel.any():
            out[name] = {"bids": int(sel.sum()),
                         "policy": cross_entropy(p[sel], y[sel], mask[sel]),
                         "belief rule": cross_entropy(old[sel], y[sel], mask[sel])}
    return out


def main(argv: list[str] | None = None) -> None:
    cli(argv, __doc__.split("\n\n")[0], generate, NAMES, games=1500, hard=0.3,
        hard_iterations=60, hidden=16, epochs=20, what="bids",
        report=lambda weights, data: {"by kind": by_kind(weights, data)})


if __name__ == "__main__":
    main()
