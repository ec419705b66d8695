"""The hard bot: search over worlds sampled from its view only, reproducible with an iteration
budget, legal, plays games to the end; the paired benchmark's function."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from fuyuki import board
from fuyuki.board.agents import HeuristicBot, RandomBot, make_bot
from fuyuki.board.agents.belief import RESUMABLE, sample_world
from fuyuki.board.agents.hard import HardBot
from fuyuki.core import rng
from fuyuki.core.protocol import Decision

ROOT = Path(__file__).resolve().parents[2]
SAME = ("chars", "camps", "hand", "plotted", "discard", "deck_count", "round", "turn", "phase",
        "decision")


def _searched(seed: int, bots=HeuristicBot, after: int = 0):
    """A heuristic (or random) game at the first decision the hard bot searches, from
    submission ``after`` on."""
    g = board.new_game(players=4, seed=seed)
    players = [bots(seed, s) for s in range(4)]
    while not g.over:
        (seat, d), = g.pending().items()
        options = [o for o in d.options if o != "令呪"]
        if len(g.submissions) >= after and d.kind in RESUMABLE and len(options) > 1:
            return g, seat, d
        g.submit(seat, players[seat].choose(g.view(seat), d))
    raise AssertionError("the game ended without a searched decision")


def test_a_sampled_world_shows_the_seat_exactly_its_view() -> None:
    for seed in range(6):
        for after in (0, 60, 150):
            g, seat, d = _searched(seed, after=after)
            view = g.view(seat)
            world = sample_world(view, 99, rng.stream(seed, "deal"))
            wv = world.view(seat)
            assert {k: wv.get(k) for k in SAME} == {k: view.get(k) for k in SAME}


def test_worlds_deal_the_unseen_cards_differently() -> None:
    g, seat, _ = _searched(3, after=40)
    view = g.view(seat)
    other = next(c["seat"] for c in view["camps"] if c["seat"] != seat and c["hand_count"])
    hands = {tuple(sorted(sample_world(view, 1, rng.stream(k, "deal")).camps[other].hand))
             for k in range(8)}
    assert len(hands) > 1


def test_the_hard_bot_sees_only_its_view() -> None:
    """Two true states that differ in another camp's hand but show the seat the same view get
    the same answer."""
    g, seat, d = _searched(2, after=30)
    other = next(c for c in g.camps if c.seat != seat and c.hand)
    h = g.clone()
    theirs = h.camps[other.seat]
    k = next(i for i, kid in enumerate(h.deck) if h.card_type(kid) != h.card_type(theirs.hand[0]))
    theirs.hand[0], h.deck[k] = h.deck[k], theirs.hand[0]
    assert sorted(g.camps[other.seat].hand) != sorted(theirs.hand)
    assert g.view(seat) == h.view(seat)
    choices = {HardBot(7, seat, iterations=2).choose(x.view(seat), d) for x in (g, h)}
    assert len(choices) == 1


def test_the_same_view_and_seed_give_the_same_choice_with_an_iteration_budget() -> None:
    for seed in (1, 4):
        g, seat, d = _searched(seed, after=20)
        view = g.view(seat)
        first = HardBot(11, seat, iterations=3).choose(view, d)
        again = HardBot(11, seat, iterations=3).choose(g.view(seat), d)
        assert first == again
        assert first in d.options


def test_the_hard_bot_chooses_legal_options_on_random_positions() -> None:
    for seed in range(5):
        g, seat, d = _searched(seed, bots=RandomBot, after=10 + 25 * seed)
        bot = HardBot(seed, seat, iterations=1)
        for _ in range(40):
            if g.over:
                break
            (seat, d), = g.pending().items()
            bot.seat = seat
            choice = bot.choose(g.view(seat), d)
            assert choice in d.options
            g.submit(seat, choice)
        assert bot.times, "some decision was searched"


def test_the_hard_bot_plays_full_games_to_the_end() -> None:
    for seed, seat in ((0, 0), (5, 3)):
        g = board.new_game(players=4, seed=seed)
        bots = [make_bot("hard", seed, s, iterations=1) if s == seat else HeuristicBot(seed, s)
                for s in range(4)]
        while not g.over:
            (s, d), = g.pending().items()
            g.submit(s, bots[s].choose(g.view(s), d))
        assert g.result["reason"] in ("last_master", "all_masters_dead", "round_limit")
        assert bots[seat].times


def test_the_paired_benchmark_scores_both_arms_on_the_same_deals() -> None:
    spec = importlib.util.spec_from_file_location("board_paired", ROOT / "benchmarks" / "board_paired.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    rows = mod.paired_games(2, first=3, budget={"iterations": 1})
    assert [(r["game"], r["seat"]) for r in rows] == [(3, 3), (4, 0)]
    s = mod.summary(rows)
    assert s["games"] == 2 and 0 <= s["hard"] <= 1 and s["decisions"] == len(rows[0]["times"] + rows[1]["times"])
    assert "paired difference" in mod.show(s)


def test_the_board_tables_offer_hard_as_a_slow_bot_thinking_from_the_seat_view() -> None:
    from fuyuki.web.bots import think
    from fuyuki.web.games import adapter

    board_tables = adapter("board")
    assert board_tables.levels()["hard"] == "hard" and "hard" in board_tables.slow_bots
    g, seat, d = _searched(6, after=20)
    choice = think("board", "hard", 3, seat, {"players": 4}, 0.05, g.view(seat), d.to_json())
    assert choice in d.options


def test_a_decision_the_worlds_do_not_reach_is_left_to_the_heuristic_bot() -> None:
    g, seat, d = _searched(1, after=20)
    view = g.view(seat)
    bogus = Decision(d.kind, (*d.options, "move:nowhere"), d.info)
    view["decision"] = bogus.to_json()
    bot = HardBot(2, seat, iterations=2)
    assert bot.choose(view, bogus) == HeuristicBot(2, seat).choose(g.view(seat), bogus)
    assert not bot.times
