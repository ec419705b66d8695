"""The setup hook for studies: fixed pairings and random assignment, through the engine."""

import json

import pytest

from fuyuki import sbb
from fuyuki.core.errors import DataError, IllegalAction
from fuyuki.sbb import setup_overrides as so
from fuyuki.sbb.agents.random_bot import RandomBot


def play_out(g, seed=0):
    bots = [RandomBot(seed + i) for i in range(g.players)]
    kinds = []
    while not g.over:
        for seat, d in g.pending().items():
            kinds.append(d.kind)
            g.submit(seat, bots[seat].choose(None, d))
    return kinds


def initial_cards(g):
    """Each seat's master and servant at the first round (from the full log)."""
    masters, servants = [""] * g.players, [""] * g.players
    for e in g.events:
        if e.kind == "round":
            break
        if e.kind == "dealt":
            masters[e.data["seat"]], servants[e.data["seat"]] = e.data["master"], e.data["servant"]
        if e.kind == "draft_kept":
            (masters if e.data["kind"] == "master" else servants)[e.data["seat"]] = e.data["card"]
    return masters, servants


@pytest.mark.parametrize("assign", ["draft", "random"])
def test_fixed_pairing_is_the_seats_cards_and_nobody_elses(assign):
    for seed in range(6):
        g = so.new_game(4, seed, fixed={2: ("sakura", "gilgamesh")}, assign=assign)
        play_out(g, seed)
        masters, servants = initial_cards(g)
        assert (masters[2], servants[2]) == ("sakura", "gilgamesh")
        assert masters.count("sakura") == 1 and servants.count("gilgamesh") == 1
        assert all(masters) and all(servants)
        assert len(set(masters)) == 4 and len(set(servants)) == 4


def test_fixed_seat_takes_no_part_in_the_drafts_and_its_cards_are_in_no_pack():
    g = so.new_game(4, 3, fixed={0: ("sakura", "gilgamesh"), 3: ("rin", "saber")})
    asked = []
    bots = [RandomBot(i) for i in range(4)]
    while g.s.phase.startswith("draft") or g.s.phase == "setup":
        for seat, d in g.pending().items():
            asked.append(seat)
            assert "sakura" not in d.options and "gilgamesh" not in d.options
            assert "rin" not in d.options and "saber" not in d.options
            g.submit(seat, bots[seat].choose(None, d))
    assert sorted(asked) == [1, 1, 2, 2]


def test_draft_among_free_seats_keeps_the_directions():
    # parent first and to the left for masters; the parent's right first and to the right
    # for servants, passing over the fixed seats
    g = so.start(5, 11)
    parent = g.view(None)["parent"]
    fixed_seat = (parent + 1) % 5
    so.deal(g, {fixed_seat: ("kirei", "lancer")})
    order = {"draft_master": [], "draft_servant": []}
    bots = [RandomBot(i) for i in range(5)]
    while g.s.phase.startswith("draft"):
        for seat, d in g.pending().items():
            order[d.kind].append(seat)
            g.submit(seat, bots[seat].choose(None, d))
    p = parent
    assert order["draft_master"] == [p, (p + 2) % 5, (p + 3) % 5, (p + 4) % 5]
    assert order["draft_servant"] == [(p - 1) % 5, (p - 2) % 5, (p - 3) % 5, p]


def test_random_assignment_asks_no_draft_and_deals_every_seat():
    g = so.new_game(4, 5, assign="random")
    kinds = play_out(g)
    assert not any(k.startswith("draft") for k in kinds)
    masters, servants = initial_cards(g)
    assert all(masters) and all(servants)


def test_random_assignment_gives_every_card_equal_exposure():
    counts = {}
    for seed in range(300):
        g = so.new_game(4, seed, assign="random")
        masters, _ = initial_cards(g)
        for m in masters:
            counts[m] = counts.get(m, 0) + 1
    # 1200 draws over 10 masters: 120 each expected; 4 sigma ~ 42
    assert set(counts) == set(sbb.Rules.preset().masters)
    assert all(abs(c - 120) < 45 for c in counts.values())


def test_a_fixed_pairing_is_private_to_its_seat():
    g = so.new_game(4, 8, fixed={1: ("zouken", "avenger")}, assign="random")
    for seat in (0, 2, 3, None):
        v = g.view(seat)
        assert v["seats"][1]["master"] is None and v["seats"][1]["servant"] is None
        text = json.dumps([e.data for e in g.visible_events(seat)], ensure_ascii=False)
        assert "zouken" not in text and "avenger" not in text
    assert g.view(1)["me"]["master"] == "zouken" and g.view(1)["me"]["servant"] == "avenger"


def test_without_overrides_the_game_is_the_engines_own():
    plain = sbb.new_game(4, 21)
    hooked = so.new_game(4, 21)
    play_out(plain, 4)
    play_out(hooked, 4)
    assert hooked.record.submissions == plain.record.submissions
    assert hooked.events == plain.events and hooked.result == plain.result


@pytest.mark.parametrize("assign", ["draft", "random"])
def test_a_hooked_game_replays_from_its_record(assign):
    g = so.new_game(4, 33, fixed={0: ("illya", "berserker")}, assign=assign)
    play_out(g, 2)
    again = so.replay(g.record)
    assert again.events == g.events and again.result == g.result
    assert g.record.config["setup"] == {"assign": assign, "fixed": {"0": ["illya", "berserker"]}}


@pytest.mark.parametrize("fixed,key", [
    ({4: ("rin", "saber")}, "fix[4]"),
    ({0: ("nobody", "saber")}, "fix[0]"),
    ({0: ("rin", "nobody")}, "fix[0]"),
    ({0: ("rin", "saber"), 1: ("rin", "lancer")}, "fix[1]"),
])
def test_bad_fixes_are_refused_with_a_clear_error(fixed, key):
    with pytest.raises(DataError) as err:
        so.new_game(4, 1, fixed=fixed)
    assert err.value.key == key


def test_the_hook_works_only_at_setup():
    g = so.new_game(4, 1)
    with pytest.raises(IllegalAction):
        so.deal(g, {})
    with pytest.raises(DataError):
        so.new_game(4, 1, assign="auction")


def test_by_default_the_edition_deals_as_its_rules_say():
    g = so.new_game(4, 2, sbb.Rules.preset("v1.1"))
    assert not any(k.startswith("draft") for k in play_out(g))
    g = so.new_game(4, 2, sbb.Rules.preset("v1.1"), assign="draft", fixed={0: ("rin", "saber")})
    kinds = play_out(g)
    assert kinds.count("draft_master") == 3 and kinds.count("draft_servant") == 3


@pytest.mark.parametrize("assign", ["draft", "random"])
def test_a_set_aside_master_still_returns_and_is_never_doubled(assign):
    rules = sbb.Rules.preset("final", mode="hollow")
    for seed in range(5):
        g = so.new_game(4, seed, rules, fixed={1: ("sakura", "saber")}, assign=assign)
        play_out(g, seed)
        assert any(e.kind == "set_aside_returned" for e in g.events)
        s = g.s
        masters = g.t.names_of(s.master + s.mdeck + s.mdisc)
        assert sorted(masters) == sorted(rules.masters)
    with pytest.raises(DataError):
        so.new_game(4, 1, rules, fixed={0: (rules.set_aside[0], "saber")})
