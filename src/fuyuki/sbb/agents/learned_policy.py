"""A learned bid policy (issue 21, item 4): the chance that a seat bids each of its cards.

The hard bot answers the others' bids in its sampled worlds by an opponent model. By
default that is the heuristic bot's judgement (the exact policy of a heuristic field, with
10 % of bids uniform); ``HardBot(opponents="learned")`` uses this policy instead, a model of
*unknown* players fitted to how the heuristic, random and hard bots actually bid.

Each option of a sealed bid is described by :func:`option_features` — what the heuristic
bot's rating (:class:`~.heuristic.HeuristicBot`) reads of that card from the seat's view:
its score and its gap to the best, the card's kind and value, its land's gems and whether
they would meet the seat's victory condition, the seat's servant power, lead and hand —
one row per option. A small multilayer perceptron (rows standardised, one tanh
layer) scores each row; the softmax over the options is the policy. It was fitted by
:mod:`.train_policy` to the bids of bot games (the recipe is in the weights file,
``policy_weights.json``); loading takes milliseconds, numpy does the arithmetic.

Hidden information: the features read a :class:`~fuyuki.sbb.view.Seen` — one seat's view
(in the hard bot, that seat's view of a sampled world: its own guess).
"""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

import numpy as np

from fuyuki.core.protocol import Decision
from fuyuki.sbb.agents.heuristic import HeuristicBot
from fuyuki.sbb.agents.learned_eval import Mlp
from fuyuki.sbb.cards import ACTION
from fuyuki.sbb.view import Seen, seen_of_view

WEIGHTS = Path(__file__).with_name("policy_weights.json")

NAMES = ("score", "gap to best", "best", "rank", "sortie", "np", "grail", "swap", "luck",
         "value", "land gems", "land share", "reach", "power", "lead", "options", "hand")
SIZE = len(NAMES)


def option_features(bot: HeuristicBot, seen: Seen, options: Any) -> list[list[float]]:
    """One row of :data:`NAMES` for each card of ``options`` (a sealed bid of the seat of
    ``seen``), read through the heuristic bot ``bot``'s rating."""
    table = bot.bid_table(seen)
    gems = bot._colour_gems(seen)
    scores = bot._scores(table, gems, options)
    t = bot._t()
    best = max(scores.values())
    ranked = sorted(scores.values(), reverse=True)
    n = len(options)
    total = sum(gems) or 1
    mine = seen.gems[seen.seat]
    rows = []
    for card in options:
        c = t.ids.get(card, 0)
        s = scores[card]
        action = t.kind[c] == ACTION
        event = "" if action else t.event[c]
        g = gems[t.colour[c]] if action else 0
        rows.append([
            s, s - best, 1.0 if s == best else 0.0, ranked.index(s) / n,
            1.0 if action and not t.np[c] else 0.0, 1.0 if action and t.np[c] else 0.0,
            1.0 if event == "grail" else 0.0, 1.0 if event == "swap" else 0.0,
            1.0 if event == "luck" else 0.0,
            float(t.value[c]), float(g), g / total,
            1.0 if action and mine + g >= table.target else 0.0,
            float(table.power), float(table.lead), float(n), float(len(seen.hand))])
    return rows


class LearnedPolicy:
    """``probabilities(seen, options)``: the chance of each option of a sealed bid;
    ``choose(view, decision)``: a bid drawn by those chances (``self.rng``), any other
    decision answered like the heuristic bot."""

    name = "learned_policy"
    needs_view = True

    def __init__(self, seed: int = 0, cards: Any = None, path: str | Path = WEIGHTS) -> None:
        self.model = _load(str(path))
        self.rating = HeuristicBot(seed, cards=cards)
        self.rng = random.Random(seed)

    def probabilities(self, seen: Seen, options: Any) -> list[float]:
        z = self.model.scores(np.array(option_features(self.rating, seen, options)))
        e = np.exp(z - z.max())
        return (e / e.sum()).tolist()

    def choose(self, view: dict[str, Any] | Seen, decision: Decision) -> Any:
        opts = decision.options
        if decision.kind != "bid" or len(opts) == 1:
            self.rating.rng = self.rng
            return self.rating.choose(view, decision)
        seen = view if isinstance(view, Seen) else seen_of_view(view)
        p = self.probabilities(seen, opts)
        r = self.rng.random()
        for o, q in zip(opts, p):
            r -= q
            if r < 0:
                return o
        return opts[-1]


@functools.cache
def _load(path: str) -> Mlp:
    """A weights file, read once per process (a hard bot is made for every game)."""
    return Mlp(json.loads(Path(path).read_text(encoding="utf-8")), NAMES, path)
