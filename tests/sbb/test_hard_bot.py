"""The hard bot (ISMCTS) and the determinization it stands on (fuyuki.sbb.sampling)."""

from __future__ import annotations

import random

import pytest

from fuyuki.sbb import agents, new_game
from fuyuki.sbb.agents import make_bot
from fuyuki.sbb.agents.belief import draft_policy
from fuyuki.sbb.agents.hard import HardBot
from fuyuki.sbb.agents.heuristic import HeuristicBot
from fuyuki.sbb.rules import Rules
from fuyuki.sbb.sampling import SUPPORTED, Sampler, Unsupported

from .conftest import first_bid, game_with, play_out


def _comparable(view):
    """A view minus what a sampled game cannot (and need not) reproduce: the size of the
    event log (sampled games are quiet) and who has locked a sealed bid (the search treats
    the bids as simultaneous)."""
    v = dict(view)
    v.pop("log_size")
    v["seats"] = [{k: x for k, x in p.items() if k != "locked"} for p in v["seats"]]
    return v


def _walk(game, bots, visit):
    """Play ``game`` with ``bots``, calling ``visit(game, seat, decision)`` before each
    answer."""
    agents.play_out(game, bots, visit=visit)


CONFIGS = [
    (4, None, ()),
    (3, None, ()),
    (5, None, ()),
    (4, ("v1.1", None), ()),
    (4, ("final", "hf"), ()),
]


@pytest.mark.parametrize("players,preset,options", CONFIGS)
def test_sampled_worlds_show_the_seat_its_own_view(players, preset, options):
    """Determinization: every sampled game shows the seat exactly its real view (hand,
    cards, gems, decks, discards, bids, its open decision) and plays on legally to the end,
    with the view alone, with the seat's visible events, and with the others' drafted cards
    drawn by the opponent policy's picks."""
    rules = Rules.preset(*preset) if preset else None
    policy = draft_policy(HeuristicBot(0, cards=rules.cards if rules else None))
    checked = {k: 0 for k in SUPPORTED}
    for seed in range(6):
        game = new_game(players, seed, rules)
        kinds = ("heuristic", "random")
        bots = [make_bot(kinds[(seed + i) % 2], seed * 10 + i) for i in range(players)]
        rng = random.Random(seed)

        def visit(g, seat, d):
            view = g.view(seat)
            for events, drafts in ((None, None), (g.visible_events(seat), None),
                                   (None, policy)):
                try:
                    sampler = Sampler(view, g.rules, events, drafts)
                except Unsupported:
                    assert d.kind not in SUPPORTED
                    return
                world = sampler.sample(rng)
                assert world.pending()[seat] == d
                assert _comparable(world.view(seat)) == _comparable(view)
                play_out(world, rng_seed=rng.randrange(1000))
                checked[d.kind] += 1

        _walk(game, bots, visit)
    assert checked["bid"] and checked["place_gem"]
    assert checked["draft_master"] or (rules and rules.deal != "draft")


def _hidden_slots(sampler):
    return {what: dict(sampler.slots[what]) for what in ("master", "servant")}


def test_sampling_keeps_the_draft_knowledge():
    """What a seat saw in the drafts narrows the others' cards: a seat that picked after
    it holds a card of the pack it passed on, one that picked before holds a card it never
    saw. The real cards always satisfy the constraints (the real game is a possible world),
    and every sampled world satisfies them."""
    constrained = 0
    for seed in range(12):
        game = new_game(4, seed)
        bots = [make_bot("heuristic", seed * 10 + i) for i in range(4)]
        rng = random.Random(seed)

        def visit(g, seat, d):
            nonlocal constrained
            if d.kind != "bid" or g.s.round > 2:
                return
            view = g.view(seat)
            for events in (None, g.visible_events(seat)):
                sampler = Sampler(view, g.rules, events)
                for what, slots in _hidden_slots(sampler).items():
                    real = g.t.names_of(g.s.master if what == "master" else g.s.servant)
                    for other, allowed in slots.items():
                        if allowed is None:
                            continue
                        constrained += 1
                        assert real[other] in allowed, (seed, what, other)
                        world = sampler.sample(rng)
                        mine = world.t.names_of(world.s.master if what == "master"
                                                else world.s.servant)
                        assert mine[other] in allowed
                        seen = set(view["me"]["seen"])
                        picks_after = sampler._pick_index(what, other) > \
                            sampler._pick_index(what, seat)
                        assert (mine[other] in seen) == picks_after

        _walk(game, bots, visit)
    assert constrained > 50


def test_sampling_follows_a_swap_it_saw():
    """とりかえっこプリーズ: with its events, the swapping seat knows the servant it gave away
    (face down in the other's hands) and every sampled world puts it there."""
    found = 0
    for seed in range(400):
        game = new_game(4, seed, quiet=False)
        bots = [make_bot("heuristic", seed * 10 + i) for i in range(4)]
        while not game.over and not found:
            for seat, d in game.pending().items():
                game.submit(seat, bots[seat].choose(game.view(seat), d))
            swaps = [e for e in game.events if e.kind == "swap_cards"]
            if swaps and game.pending():
                e = swaps[-1]
                me, other = e.data["seat"], e.data["target"]
                if game.s.s_up[other] or me not in game.pending():
                    break
                view = game.view(me)
                d = game.pending()[me]
                try:
                    sampler = Sampler(view, game.rules, game.visible_events(me))
                except Unsupported:
                    break
                world = sampler.sample(random.Random(1))
                assert world.t.names[world.s.servant[other]] == e.data["now_target"] \
                    == game.t.names[game.s.servant[other]]
                assert world.pending()[me] == d
                found += 1
                break
        if found:
            break
    assert found


def _hide_differently(game, seat, rng):
    """A copy of ``game`` in which another seat's hidden cards (hand, face-down master and
    servant) are exchanged with cards from the decks: ``seat``'s view stays the same."""
    other = game.clone()
    s = other.s
    changed = False
    for k in range(s.n):
        if k == seat:
            continue
        if s.hand[k] and s.adeck:
            i, j = rng.randrange(len(s.hand[k])), rng.randrange(len(s.adeck))
            if s.hand[k][i] != s.adeck[j]:
                s.hand[k][i], s.adeck[j] = s.adeck[j], s.hand[k][i]
                changed = True
        if s.master[k] and not s.m_up[k] and s.mdeck:
            j = rng.randrange(len(s.mdeck))
            s.master[k], s.mdeck[j] = s.mdeck[j], s.master[k]
            changed = True
        if s.servant[k] and not s.s_up[k] and s.sdeck:
            j = rng.randrange(len(s.sdeck))
            s.servant[k], s.sdeck[j] = s.sdeck[j], s.servant[k]
            changed = True
    return other, changed


@pytest.mark.parametrize("options", [{}, {"opponents": "learned", "luck_belief": True,
                                          "belief": True, "draft_belief": True,
                                          "jewel_belief": True},
                                     {"opponents": "unknown"}],
                         ids=["default", "every belief and the learned opponents",
                              "unknown opponents (Smooth UCT)"])
def test_hard_bot_reads_nothing_but_its_own_view(options):
    """Two games that differ only in other seats' hidden cards: with the same seed the hard
    bot decides the same, at every kind of decision it searches — with every belief and
    opponent model on, too."""
    compared = 0
    for seed in range(3):
        game = new_game(4, seed)
        bots = [make_bot("heuristic", seed * 10 + i) for i in range(4)]
        rng = random.Random(seed)

        def visit(g, seat, d):
            nonlocal compared
            if seat != 0 or len(d.options) < 2 or compared >= 12:
                return
            twin, changed = _hide_differently(g, seat, rng)
            if not changed or d.kind == "luck":
                return
            assert twin.view(seat) == g.view(seat)
            assert (twin.s.hand, twin.s.master, twin.s.servant, twin.s.adeck) != \
                (g.s.hand, g.s.master, g.s.servant, g.s.adeck)
            a = HardBot(seed=5, iterations=40, **options).choose(g.view(seat), d)
            b = HardBot(seed=5, iterations=40, **options).choose(twin.view(seat),
                                                                 twin.pending()[seat])
            assert a == b
            compared += 1

        _walk(game, bots, visit)
    assert compared >= 8


def test_hard_bot_is_reproducible_with_an_iteration_budget():
    game = new_game(4, 11)
    bots = [make_bot("heuristic", i) for i in range(4)]
    while not game.over:
        pend = game.pending()
        if 2 in pend and pend[2].kind == "bid" and len(pend[2].options) > 1:
            break
        for seat, d in pend.items():
            game.submit(seat, bots[seat].choose(game.view(seat), d))
    d = game.pending()[2]
    picks = {HardBot(seed=9, iterations=60).choose(game.view(2), d) for _ in range(3)}
    assert len(picks) == 1 and picks <= set(d.options)


@pytest.mark.parametrize("players,preset", [(4, None), (3, None), (5, ("v1.1", None))])
def test_hard_bot_plays_whole_games_legally(players, preset):
    """Every answer is one of the options (``submit`` raises otherwise) and games end."""
    rules = Rules.preset(*preset) if preset else None
    for seed in range(2):
        game = new_game(players, 100 + seed, rules)
        bots = [HardBot(seed, iterations=15, rules=rules) if i == seed % players
                else make_bot("heuristic", i) for i in range(players)]
        play_out(game, bots)
        assert game.over and game.result["winners"] is not None


def test_hard_bot_time_budget_and_level_name():
    bot = make_bot("hard", 3)
    assert isinstance(bot, HardBot) and bot.name == "hard" and bot.needs_view
    game = first_bid(4, 2, seat=0, choice=True)
    d = game.pending()[0]
    fast = HardBot(1, seconds=0.05)
    assert fast.choose(game.view(0), d) in d.options
    assert fast.last_search["iterations"] >= 1
    # a searched draft on the same budget
    game = new_game(4, 2)
    seat, d = next(iter(game.pending().items()))
    fast = HardBot(1, seconds=0.05, search_drafts=True)
    assert fast.choose(game.view(seat), d) in d.options
    assert fast.last_search["iterations"] >= 1


@pytest.mark.parametrize("players, searched", [(3, False), (4, False), (5, True)])
def test_hard_bot_drafts_like_the_heuristic_bot_below_five_players_and_searches_from_five(
        players, searched):
    """By default the drafts follow the heuristic bot's tuned preferences (no search) at three
    and four players and are searched from five on; search_drafts=True / False forces
    either."""
    from fuyuki.sbb.agents.heuristic import HeuristicBot

    drafts = 0
    for seed in range(4):
        game = new_game(players, seed)
        for seat, d in game.pending().items():
            if d.kind.startswith("draft") and len(d.options) > 1:
                view = game.view(seat)
                default = HardBot(seed, iterations=60)
                choice = default.choose(view, d)
                assert (default.last_search != {}) is searched
                if not searched:
                    assert choice == HeuristicBot(seed).choose(view, d)
                forced = HardBot(seed, iterations=60, search_drafts=True)
                forced.choose(view, d)
                assert forced.last_search["iterations"] == 60
                plain = HardBot(seed, iterations=60, search_drafts=False)
                assert plain.choose(view, d) == HeuristicBot(seed).choose(view, d)
                assert plain.last_search == {}
                drafts += 1
    assert drafts >= 4


def test_hard_bot_refuses_a_search_drafts_that_is_not_true_false_or_none():
    with pytest.raises(ValueError, match="search_drafts"):
        HardBot(1, search_drafts="yes")


@pytest.mark.parametrize("switch, value", [("draft_belief", 1), ("luck_belief", "yes"),
                                           ("jewel_belief", 1)])
def test_hard_bot_refuses_a_belief_switch_that_is_not_true_or_false(switch, value):
    with pytest.raises(ValueError, match=switch):
        HardBot(1, **{switch: value})


def test_sampler_needs_a_seat_view_and_a_rebuildable_decision():
    """A spectator's view cannot be determinized for a seat; a decision asked in the middle
    of an effect (強運) is refused with Unsupported, and the bot then answers like the
    heuristic bot (a legal option)."""
    from fuyuki.sbb.sampling import SamplingError

    game = new_game(4, 1)
    with pytest.raises(SamplingError):
        Sampler(game.view(None))
    bots = [make_bot("heuristic", i) for i in range(4)]
    for seed in range(60):
        game = new_game(4, seed)
        while not game.over:
            pend = game.pending()
            luck = [(s, d) for s, d in pend.items() if d.kind == "luck" and len(d.options) > 1]
            if luck:
                seat, d = luck[0]
                with pytest.raises(Unsupported):
                    Sampler(game.view(seat), game.rules)
                assert HardBot(0, iterations=5).choose(game.view(seat), d) in d.options
                return
            for seat, d in pend.items():
                game.submit(seat, bots[seat].choose(game.view(seat), d))
    pytest.fail("no 強運 offer with a choice in 60 games")


@pytest.mark.parametrize("mode,players", [("hollow", 4), ("big_battle", 7)])
def test_hard_bot_in_modes(mode, players):
    """hollow (遠坂凛 set aside during the master draft) and 聖杯大戦争 (7 players, coins,
    unlimited gems): the sampler rebuilds every searched decision — with the draft belief
    too, its worlds showing the seat its own view — and the bot answers legally (the first
    four rounds)."""
    rules = Rules.preset("final", mode)
    game = new_game(players, 4, rules)
    hard = HardBot(1, iterations=10, rules=rules, max_rounds=3)
    bots = [hard] + [make_bot("heuristic", i) for i in range(1, players)]
    policy = draft_policy(HeuristicBot(0, cards=rules.cards))
    rng = random.Random(4)
    searched = 0
    while not game.over and game.s.round <= 4:
        for seat, d in game.pending().items():
            view = game.view(seat)
            if seat == 0 and len(d.options) > 1 and d.kind in SUPPORTED:
                Sampler(view, rules)          # never refused for these
                world = Sampler(view, rules, draft_policy=policy).sample(rng)
                assert _comparable(world.view(seat)) == _comparable(view)
                searched += 1
            game.submit(seat, bots[seat].choose(view, d))
    assert searched >= 4


def test_sealed_bids_are_chosen_without_seeing_the_others_in_the_tree(monkeypatch):
    """Sealed bids are simultaneous in the tree search too: whenever a seat's bid is chosen
    (in the tree or in a playout) no other seat's bid of that batch is in the world yet."""
    calls = []
    original = HardBot._fast

    def watched(self, g, seat, d, rng):
        if d.kind == "bid":
            calls.append(dict(g.s.answers))
        return original(self, g, seat, d, rng)

    monkeypatch.setattr(HardBot, "_fast", watched)
    game = first_bid(4, 3, seat=0, choice=True)
    HardBot(2, iterations=30, horizon=1, bids="tree").choose(game.view(0), game.pending()[0])
    assert len(calls) > 60
    assert all(answers == {} for answers in calls)


def test_sealed_bids_on_common_worlds_answer_from_each_worlds_own_hand(monkeypatch):
    """The bid search on common worlds: every other seat bids from its own view of the
    sampled world (its hand there), before anyone's bid is in; each option of the bot is
    scored on the same worlds."""
    from fuyuki.sbb.agents.heuristic import HeuristicBot

    seen = []
    original = HeuristicBot.choose

    def watched(self, view, d):
        if d.kind == "bid":
            seen.append((view["seat"], tuple(view["me"]["hand"]),
                         any(p["locked"] for p in view["seats"])))
        return original(self, view, d)

    monkeypatch.setattr(HeuristicBot, "choose", watched)
    game = first_bid(4, 3, seat=0, choice=True)
    d = game.pending()[0]
    bot = HardBot(2, iterations=40 * len(d.options))
    assert bot.choose(game.view(0), d) in d.options
    assert {seat for seat, _, _ in seen} == {1, 2, 3}
    assert not any(locked for _, _, locked in seen)
    # the hands differ from world to world (they are sampled), one answer per world
    assert len({hand for seat, hand, _ in seen if seat == 1}) > 5
    assert bot.last_search["worlds"] == 40
    assert set(bot.last_search["values"]) == set(d.options)


@pytest.mark.parametrize("bid_horizon", [0, 1, 2, None])
def test_a_bids_playouts_end_with_the_round_bid_horizon_rounds_after_the_bids(bid_horizon):
    """Every playout of a bid is scored at the end of the round ``bid_horizon`` rounds after
    the bid's own (None: at the game's end) — counted from the bid's round, not from
    wherever the engine stood once the bids were in (it may already have started the next
    round and asked its extra gem)."""
    game = first_bid(4, 4, seat=3, choice=True)
    d = game.pending()[0]
    bid_round = game.s.round
    bot = HardBot(2, iterations=8 * len(d.options), bid_horizon=bid_horizon)
    cut = []
    value = bot.bid_search.evaluate

    def scored(g):
        cut.append((g.over, g.s.round))
        return value(g)

    bot.bid_search.evaluate = scored
    bot.choose(game.view(0), d)
    assert len(cut) == 8 * len(d.options)
    if bid_horizon is None:
        assert all(over for over, _ in cut)
    else:
        # cut as the round after the last one played starts (or earlier, at the game's end)
        assert {r for over, r in cut if not over} == {bid_round + bid_horizon + 1}


@pytest.mark.parametrize("bid_horizon", [-1, 1.5, "next"])
def test_a_bid_horizon_that_is_not_a_count_of_rounds_is_refused(bid_horizon):
    with pytest.raises(ValueError, match="bid_horizon"):
        HardBot(2, iterations=30, bid_horizon=bid_horizon)


def test_hard_bot_bids_are_reproducible_with_an_iteration_budget():
    """With an iteration budget the same view, decision and seed give the same bid — and
    the same values, world by world — while another seed samples other worlds."""
    game = first_bid(4, 5, seat=1, choice=True)
    d = game.pending()[1]
    runs = []
    for seed in (7, 7, 8):
        bot = HardBot(seed=seed, iterations=30 * len(d.options))
        runs.append((bot.choose(game.view(1), d), bot.last_search["values"]))
    assert runs[0] == runs[1]
    assert runs[2][1] != runs[0][1]


def test_sampler_rebuilds_the_rules_from_the_view():
    """Without ``rules=`` the sampler reads edition, mode and options from the view."""
    rules = Rules.preset("final", "ubw", ("tie_dice",))
    game = new_game(4, 2, rules)
    seat, d = next(iter(game.pending().items()))
    sampler = Sampler(game.view(seat))
    assert (sampler.rules.edition, sampler.rules.mode, tuple(sampler.rules.options)) == \
        ("final", "ubw", ("tie_dice",))
    assert sampler.sample(random.Random(0)).pending()[seat] == d


@pytest.mark.parametrize("belief", [{}, {"belief": True}, {"draft_belief": True},
                                    {"luck_belief": True}, {"jewel_belief": True},
                                    {"opponents": "unknown"}])
def test_a_whole_game_with_a_hard_bot_replays_exactly_from_its_seed(belief):
    """``--bots hard --seed N`` with an iteration budget: the same seeds play the same game
    (every answer, hence every event) — with the belief from the others' bids, from their
    draft picks, from their silence at 強運 or from 凛's 宝石魔術, and against unknown
    players (Smooth UCT), too."""
    def play(seed):
        return game_with(HardBot(seed, iterations=24, **belief), 21, 1)

    first = play(3)
    assert play(3) == first
    assert first[1]["winners"] is not None


def test_a_bid_on_a_cpu_time_budget():
    """``clock="cpu"`` measures the budget in this process's CPU time; a bid searches at
    least one world (every option once) within it."""
    game = first_bid(4, 5, seat=1, choice=True)
    d = game.pending()[1]
    bot = HardBot(4, seconds=0.05, clock="cpu")
    assert bot.choose(game.view(1), d) in d.options
    assert bot.last_search["worlds"] >= 1
    assert bot.last_search["iterations"] == bot.last_search["worlds"] * len(d.options)
    with pytest.raises(ValueError):
        HardBot(4, clock="sundial")
