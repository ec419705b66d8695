"""The hard bot's sealed bid: every option scored on the same sampled worlds.

A sealed bid is simultaneous: nobody sees another's card before the reveal. The search
that the hard bot runs elsewhere (one tree, decoupled statistics per seat) lets an opponent
learn one "best on average" card over all sampled worlds, whatever hand each world dealt it
(strategy fusion). Here instead, for a bid:

1. draw a world from the sampler (the others' hands, masters, servants and the decks among
   what the view allows);
2. in that world every other seat answers **from its own hand in that world** by the
   opponent policy (the heuristic bot's judgement, read from that seat's view of the world,
   with a little noise): nothing is shared across worlds;
3. every option of the bot is played in a copy of that same world against the same answers
   with the same random numbers (common random numbers), to the end of the round
   ``horizon`` rounds after the bid's (the hard bot: the next one), and scored by the bot's
   evaluation;
4. the answer is the option with the best mean over the worlds — a paired comparison, so
   the choice is not decided by noise between worlds. With a :class:`.belief.BidHistory`
   each world counts with its weight: the likelihood, under the same opponent policy, of
   the bids the others were seen to make last round (:mod:`.belief`); with a
   :class:`.belief.LuckHistory`, by what their silence at 強運 told of their hands; with a
   :class:`.belief.JewelHistory`, by what a face-up 凛's use or non-use of 宝石魔術 told.

The budget counts (world, option) playouts: ``iterations`` of them, or as many as fit in
``seconds``. Deterministic for an iteration budget and a seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from fuyuki.sbb.agents.belief import BidHistory, bid_likelihood, place_likelihood
from fuyuki.sbb.agents.heuristic import HeuristicBot
from fuyuki.sbb.sampling import Sampler


class Evidence(Protocol):
    """What the bot saw that weighs a sampled world (:mod:`.belief`)."""

    def weight(self, world: Any, view: dict[str, Any]) -> float: ...


class BidSearch:
    """Scores a bid's options on common worlds. ``respond(g, seat, decision, rng)`` answers
    the decisions after the bids; ``evaluate(g)`` gives every seat's value of a world at the
    end of the round ``horizon`` rounds after the bid's (or at the game's end). ``noise``: the
    share of the other seats' bids drawn uniformly instead of by the opponent policy.
    ``policy``: the opponent model that bids for the others in a world (a bot with ``rng``
    and ``choose``; by default ``opponent``, the heuristic bot, whose ratings the beliefs
    read in any case)."""

    def __init__(self, opponent: HeuristicBot, respond: Callable, evaluate: Callable,
                 noise: float = 0.1, horizon: int = 0, gem_belief: int = 0,
                 policy: Any = None) -> None:
        self.opponent = opponent
        self.policy = opponent if policy is None else policy
        self.respond = respond
        self.evaluate = evaluate
        self.noise = noise
        self.horizon = horizon
        #: what the parent's extra gem tells of its hand: 0 nothing; 1 each world weighed
        #: by the chance of that placement; k > 1 each world drawn among k by that chance
        self.gem_belief = gem_belief

    def run(self, sampler: Sampler, me: int, options: tuple, rng: random.Random,
            more: Callable[[int], bool], history: BidHistory | None = None,
            view: dict[str, Any] | None = None, evidence: Sequence[Evidence] = ()
            ) -> tuple[Any, dict[Any, float], int, float]:
        """Worlds while ``more(playouts so far)``; returns the chosen option, the weighted
        mean value of each option, the number of worlds and their effective number
        (``(Σw)² / Σw²``: how many equally weighted worlds they are worth). Each of
        ``evidence`` (:class:`.belief.LuckHistory`, :class:`.belief.JewelHistory`) weighs
        every world at ``view``."""
        totals = dict.fromkeys(options, 0.0)
        worlds = 0
        done = 0
        wsum = wsq = 0.0
        parent = view["parent"] if view is not None else me
        gem = self.gem_belief if view and view.get("extra_gem") and parent != me else 0
        while more(done) or worlds == 0:
            if gem > 1:
                worlds_k = [sampler.sample(rng) for _ in range(gem)]
                ws = [self._placed(x, view, parent) for x in worlds_k]
                world = rng.choices(worlds_k, weights=ws)[0]
            else:
                world = sampler.sample(rng)
            answers, w = self._answers(world, me, rng, history)
            if gem == 1:
                w *= self._placed(world, view, parent)
            if view is not None:
                for e in evidence:
                    w *= e.weight(world, view)
            playout_seed = rng.getrandbits(32)
            # the last round played: the bid's own (the bids, once submitted, may already
            # have run the engine into the next round and its first decisions)
            stop = world.s.round + self.horizon
            for o in options:
                g = world.clone()
                for seat in sorted(answers):
                    g.submit(seat, o if seat == me else answers[seat])
                totals[o] += w * self._finish(g, me, random.Random(playout_seed), stop)
            worlds += 1
            wsum += w
            wsq += w * w
            done += len(options)
        means = {o: totals[o] / wsum for o in options}
        best = max(options, key=lambda o: (means[o], -options.index(o)))
        return best, means, worlds, wsum * wsum / wsq

    def _answers(self, world, me: int, rng: random.Random,
                 history: BidHistory | None) -> tuple[dict[int, Any], float]:
        """Every seat's bid in ``world`` (``me``: a placeholder; the others decide from
        their own hand in this world) and the world's weight: the likelihood of the bids
        ``history`` saw, given this world's hands."""
        answers: dict[int, Any] = {}
        weight = 1.0
        self.policy.rng = rng
        seen = history.bids if history is not None else {}
        for seat, d in world.pending().items():
            opts = d.options
            view = world.view(seat) if seat in seen or len(opts) > 1 else None
            if seat in seen and seat != me:
                weight *= bid_likelihood(self.opponent, history.table, seat, view["me"],
                                         seen[seat])
            if seat == me:
                answers[seat] = None
            elif len(opts) == 1:
                answers[seat] = opts[0]
            elif rng.random() < self.noise:
                answers[seat] = rng.choice(opts)
            else:
                answers[seat] = self.policy.choose(view, d)
        return answers, weight

    def _placed(self, world, view: dict[str, Any], parent: int) -> float:
        """The chance the parent of ``world`` put the extra gem where ``view`` shows it."""
        return place_likelihood(self.opponent, view, parent, world.view(parent)["me"],
                                view["extra_gem"])

    def _finish(self, g, me: int, rng: random.Random, stop: int) -> float:
        """Play ``g`` to the end of round ``stop``; ``me``'s value."""
        while not g.over and g.s.round <= stop:
            answers = [(seat, d.options[0] if len(d.options) == 1
                        else self.respond(g, seat, d, rng)) for seat, d in g.pending().items()]
            for seat, choice in answers:
                g.submit(seat, choice)
        return self.evaluate(g)[me]
