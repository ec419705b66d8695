"""Smooth UCT (fuyuki.sbb.agents.smooth_uct) and the hard bot against unknown players."""

from __future__ import annotations

import random

import pytest

from fuyuki.sbb.agents import smooth_uct
from fuyuki.sbb.agents.hard import HardBot

from .conftest import first_bid

#: asymmetric matching pennies, the row player's payoff (zero-sum): its only equilibrium
#: is mixed, each player showing heads with probability 2/5
PENNIES = [[2, -1], [-1, 1]]


def _self_play(select, iterations: int = 20000, seed: int = 1) -> list[float]:
    """Both players select at one simultaneous node (decoupled statistics, as in the hard
    bot's tree) with ``select``; each one's share of visits to heads."""
    rng = random.Random(seed)
    stats = [{o: [0, 0.0, 0] for o in (0, 1)} for _ in range(2)]
    for _ in range(iterations):
        choice = []
        for seat in range(2):
            for o in (0, 1):
                stats[seat][o][2] += 1
            choice.append(select(stats[seat], (0, 1), rng, 0.7))
        row = (PENNIES[choice[0]][choice[1]] + 1) / 3   # rewards in [0, 1]
        for seat, reward in ((0, row), (1, 1 - row)):
            e = stats[seat][choice[seat]]
            e[0] += 1
            e[1] += reward
    return [stats[seat][0][0] / iterations for seat in range(2)]


def test_smooth_uct_mixing_is_heinrich_and_silvers():
    """η_k = max(γ, η / (1 + d √N)): 0.9 at the first visit, falling with the visits, never
    below 0.1."""
    assert smooth_uct.mixing(0) == pytest.approx(0.9)
    assert smooth_uct.mixing(10_000) == pytest.approx(0.9 / 1.1)
    assert smooth_uct.mixing(10_000) < smooth_uct.mixing(100)
    assert smooth_uct.mixing(10**12) == pytest.approx(0.1)


@pytest.mark.parametrize("seed", [1, 2])
def test_smooth_uct_self_play_reaches_the_mixed_equilibrium_where_ucb1_does_not(seed):
    """In self-play at a simultaneous node both players' average strategies converge to the
    game's mixed equilibrium (heads 2/5); plain UCB1 on the same node does not."""
    smooth = _self_play(smooth_uct.select, seed=seed)
    assert smooth == pytest.approx([0.4, 0.4], abs=0.025)
    plain = _self_play(smooth_uct.ucb1, seed=seed)
    assert max(abs(x - 0.4) for x in plain) > 0.05


def test_smooth_uct_average_strategy_draws_each_option_by_its_visits():
    stats = {"a": [30, 0.0, 40], "b": [10, 0.0, 40], "c": [0, 0.0, 40]}
    rng = random.Random(3)
    draws = [smooth_uct.average(stats, ("a", "b", "c"), rng) for _ in range(4000)]
    assert draws.count("c") == 0
    assert draws.count("a") / len(draws) == pytest.approx(0.75, abs=0.03)
    # options never visited: the first
    assert smooth_uct.average({}, ("x", "y"), rng) == "x"


def test_smooth_uct_selects_by_ucb1_at_a_seats_first_visit():
    """At a seat's first visit (no statistics yet) it selects by UCB1: an unvisited option."""
    stats = {"a": [0, 0.0, 1], "b": [0, 0.0, 1]}
    assert smooth_uct.select(stats, ("a", "b"), random.Random(0), 0.7) in ("a", "b")
    stats = {"a": [5, 4.0, 6], "b": [0, 0.0, 6]}
    picks = {smooth_uct.select(stats, ("a", "b"), random.Random(s), 0.7) for s in range(50)}
    assert "b" in picks      # the UCB1 branch (η ≈ 0.9) takes the unvisited option


def test_the_hard_bot_against_unknown_players_bids_by_smooth_uct_in_the_tree(monkeypatch):
    """``opponents="unknown"``: no model of the others — the bid is searched in the tree,
    every seat of the bids (the bot's and the others') selecting by Smooth UCT at every
    visit, never by the heuristic's guess (which the tree with a model asks for every other
    seat's bid); the answer is the bot's most visited bid."""
    selected = []
    guessed = []
    select, fast = smooth_uct.select, HardBot._fast

    def watched_select(stats, options, rng, c):
        selected.append(options)
        return select(stats, options, rng, c)

    def watched_fast(self, g, seat, d, rng):
        if d.kind == "bid":
            guessed.append(seat)
        return fast(self, g, seat, d, rng)

    monkeypatch.setattr(smooth_uct, "select", watched_select)
    monkeypatch.setattr(HardBot, "_fast", watched_fast)
    game = first_bid(4, 3, seat=0, choice=True)
    d = game.pending()[0]
    HardBot(2, iterations=60, bids="tree").choose(game.view(0), d)
    assert len(guessed) >= 60 * 2 and not selected   # the model's guesses, no Smooth UCT
    guessed.clear()
    bot = HardBot(2, iterations=60, opponents="unknown")
    assert (bot.bids, bot.model) == ("tree", False)
    root = {}
    iterate = bot._iterate

    def keep_root(node, g, rng, me=-1):
        root["node"] = node
        return iterate(node, g, rng, me)

    bot._iterate = keep_root
    choice = bot.choose(game.view(0), d)
    assert guessed == []
    stats = root["node"].stats
    # every seat with a choice at the root (the sealed bids) selected by Smooth UCT
    assert len(stats) >= 3 and len(selected) >= 60 * len(stats) - 10
    visits = {o: stats[0][o][0] for o in d.options}
    assert choice == max(d.options, key=lambda o: (visits[o], stats[0][o][1]))
    # reproducible with an iteration budget
    assert HardBot(2, iterations=60, opponents="unknown").choose(game.view(0), d) == choice


def test_the_hard_bot_refuses_an_opponent_model_it_does_not_know():
    with pytest.raises(ValueError, match="'heuristic', 'learned' or 'unknown'"):
        HardBot(2, iterations=30, opponents="humans")
