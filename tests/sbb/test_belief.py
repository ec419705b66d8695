"""The hard bot's belief (agents/belief.py): the others' bids read from its own views, and
the weight a sampled world gets from them."""

from __future__ import annotations

import random
import statistics

from fuyuki.sbb import new_game
from fuyuki.sbb.agents import make_bot
from fuyuki.sbb.agents.belief import BidHistory, bid_likelihood
from fuyuki.sbb.agents.heuristic import HeuristicBot
from fuyuki.sbb.sampling import Sampler


def _bids_seen_by_seat_0(seeds, at_bid):
    """Heuristic games; at each of seat 0's bids (with a choice) its history observes its
    view, then ``at_bid(game, history, true_last_bids)`` runs."""
    for seed in seeds:
        game = new_game(4, seed)
        bots = [make_bot("heuristic", seed * 10 + i) for i in range(4)]
        history = BidHistory()
        last: dict[int, str] = {}
        while not game.over:
            pend = game.pending()
            if 0 in pend and pend[0].kind == "bid" and len(pend[0].options) > 1:
                history.observe(game.view(0))
                at_bid(game, history, last)
            choices = {s: bots[s].choose(game.view(s), d) for s, d in pend.items()}
            if any(d.kind == "bid" for d in pend.values()):
                last = {s: c for s, c in choices.items() if pend[s].kind == "bid"}
                if 0 in choices:
                    history.bid(choices[0])
            for s, c in choices.items():
                game.submit(s, c)


def test_the_history_reads_the_others_last_bids_from_the_bots_own_views():
    observed = []

    def check(game, history, last):
        if history.bids:
            assert history.bids == {s: c for s, c in last.items() if s != 0}
            observed.append(len(history.bids))

    _bids_seen_by_seat_0(range(8), check)
    assert len(observed) >= 20 and max(observed) == 3


def test_a_bid_is_likelier_from_a_hand_that_had_nothing_better():
    """Scripted: a seat bid a 1 on the poorest land. A hand that also held a 5 for the
    richest land explains that bid worse than a hand of weak cards."""
    game = new_game(4, 2)
    table = game.view(0)
    table["lands"][0]["gems"] = 9
    policy = HeuristicBot(0)
    cs = policy.cards
    rich = cs.lands[table["lands"][0]["id"]].colour
    poor = cs.lands[table["lands"][-1]["id"]].colour
    bid = f"{poor}-sortie-1"
    seen = {"master": None, "servant": "saber", "dark": False}
    strong = bid_likelihood(policy, table, 1, {**seen, "hand": [f"{rich}-sortie-5"]}, bid)
    weak = bid_likelihood(policy, table, 1, {**seen, "hand": [f"{poor}-np-1"]}, bid)
    assert weak > 3 * strong


def test_the_belief_concentrates_on_the_truth():
    """At the hard bot's bids in heuristic games: the true world (the real hands, masters
    and servants) weighs more than the average sampled world, and weighting the sampled
    worlds raises the share of the others' true hand cards they hold."""
    policy = HeuristicBot(0)
    ratios, weighted, uniform = [], [], []

    def weigh(game, history, last):
        if not history.bids:
            return
        sampler = Sampler(game.view(0), game.rules)
        rng = random.Random(len(ratios))
        weights, overlaps = [], []
        for _ in range(60):
            world = sampler.sample(rng)
            w, overlap = 1.0, 0.0
            for seat, card in history.bids.items():
                me = world.view(seat)["me"]
                w *= bid_likelihood(policy, history.table, seat, me, card)
                true = set(game.view(seat)["me"]["hand"])
                overlap += len(true & set(me["hand"])) / max(len(true), 1)
            weights.append(w)
            overlaps.append(overlap)
        truth = 1.0
        for seat, card in history.bids.items():
            truth *= bid_likelihood(policy, history.table, seat, game.view(seat)["me"], card)
        ratios.append(truth / statistics.mean(weights))
        weighted.append(sum(w * o for w, o in zip(weights, overlaps)) / sum(weights))
        uniform.append(statistics.mean(overlaps))

    # 32 games: the median over 8 games' bids swings from 1.1 to 2.0 with the seeds (games
    # 40-47: 1.12 at b24f8f1; games 0-7: 1.18 once the servant draft changed); over games
    # 0-31 it is 1.56 at b24f8f1 and 1.38 after
    _bids_seen_by_seat_0(range(32), weigh)
    assert len(ratios) >= 80
    assert statistics.median(ratios) > 1.2
    assert statistics.mean(w - u for w, u in zip(weighted, uniform)) > 0.005
