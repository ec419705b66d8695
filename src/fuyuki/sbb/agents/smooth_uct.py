"""How a seat selects in the hard bot's tree: UCB1 (:func:`ucb1`), and Smooth UCT
(:func:`select`) at a simultaneous decision when the other players are unknown
(``HardBot(opponents="unknown")``).

Plain UCT at a simultaneous decision (every seat selecting on its own statistics, as the
tree does) lets each seat answer the others' *current* choice: the seats chase each other
and no mixed strategy is ever learned. Smooth UCT (Heinrich & Silver, "Smooth UCT Search in
Computer Poker", IJCAI 2015) makes every seat, at each visit, select by UCB1 with a
probability ``η_k`` and otherwise sample its own **average strategy** so far (each option in
proportion to its visits), so that each seat answers the others' average play — fictitious
play inside the tree. ``η_k = max(γ, η / (1 + d √N))`` with ``N`` the seat's visits at the
node: mostly UCB1 early, never less than ``γ`` late. The hard bot answers with its most
visited option at the root: drawing it from its average strategy, as Smooth UCT would,
measured 0.06 less against heuristic bots and 0.07 less against random ones (400 paired
games each, docs/hard-bot.md, What does not help).

The statistics are the tree's: per option ``[visits, total reward, availability]``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

#: η, γ and d of Heinrich & Silver (their Kuhn and Leduc poker settings: 0.9, 0.1, 0.001)
ETA = 0.9
GAMMA = 0.1
D = 0.001


def mixing(visits: int) -> float:
    """``η_k``: the chance of selecting by UCB1 at a seat's ``visits``-th visit."""
    return max(GAMMA, ETA / (1.0 + D * math.sqrt(visits)))


def select(stats: dict[Any, list], options: Sequence[Any], rng: random.Random,
           c: float) -> Any:
    """A seat's choice among ``options`` at one visit: by :func:`ucb1` with the chance
    :func:`mixing`, else from its average strategy."""
    visits = 0
    for o in options:
        visits += stats[o][0]
    if visits and rng.random() >= mixing(visits):
        return average(stats, options, rng)
    return ucb1(stats, options, rng, c)


def ucb1(stats: dict[Any, list], options: Sequence[Any], rng: random.Random, c: float) -> Any:
    """The tree's plain selection: an option never tried (at random among them), else the
    best ``mean + c √(ln availability / visits)``. ``stats[option] = [visits, total reward,
    availability]`` (availability already counts this visit)."""
    fresh = [o for o in options if stats[o][0] == 0]
    if fresh:
        return fresh[0] if len(fresh) == 1 else rng.choice(fresh)
    best, best_v = options[0], -1e9
    for o in options:
        n, w, avail = stats[o]
        v = w / n + c * math.sqrt(math.log(avail) / n)
        if v > best_v:
            best, best_v = o, v
    return best


def average(stats: dict[Any, list], options: Sequence[Any], rng: random.Random) -> Any:
    """One option drawn from the average strategy: each in proportion to its visits (the
    first option if none was visited)."""
    weights = [stats[o][0] if o in stats else 0 for o in options]
    total = sum(weights)
    if total == 0:
        return options[0]
    x = rng.random() * total
    for o, w in zip(options, weights):
        x -= w
        if x < 0:
            return o
    return options[-1]
