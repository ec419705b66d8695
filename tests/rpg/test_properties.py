"""Invariants: the win rate never falls when one side's stat rises; whole wars end, replay
exactly, and never leak a secret through a view."""

import json

from hypothesis import given, settings, strategies as st

from fuyuki.rpg.agents.simple import SimpleAgent
from fuyuki.rpg.battle_game import BattleGame
from fuyuki.rpg.roster import load_roster, parse_pair
from fuyuki.core.data import Table
from fuyuki.rpg.rules import STATS, default_rules
from fuyuki.rpg.war import War


class LabelDice:
    """Dice that answer by label: no tie-break surprises when a stat changes."""

    def __init__(self, d4):
        self.d4 = d4

    def roll(self, label, faces):
        if label.endswith("random_stat"):
            return self.d4
        return 1


def pair(pid, stats, master):
    return parse_pair(Table({"id": pid, "servant": {"name": pid, "lv": 60, "stats": stats},
                             "master": {"name": pid + "の主", "stats": master}}, "prop"),
                      default_rules())


def chance_of_a(a_stats, a_master, b_stats, b_master, first, second, d4):
    rules = default_rules()
    game = BattleGame(rules, ([pair("a", a_stats, a_master)], [pair("b", b_stats, b_master)]),
                      lambda: LabelDice(d4), lineups=("servant|master", "servant|master"))
    while not game.over:
        for seat, d in sorted(game.pending().items()):
            if d.kind == "pick_stat":
                choice = first if d.info["n"] == 1 else (second if second in d.options else d.options[0])
            elif d.kind == "retreat":
                choice = "stay"
            else:
                choice = "pass"
            game.submit(seat, choice)
    rate = next(e.data for e in game.events if e.kind == "rate")
    return rate["rate"] if rate["side"] == 0 else 100 - rate["rate"]


stat_block = st.fixed_dictionaries({s: st.integers(0, 80) for s in STATS})


@settings(max_examples=300, deadline=None)
@given(stat_block, stat_block, stat_block, stat_block, st.sampled_from(STATS),
       st.sampled_from(STATS), st.integers(1, 4), st.sampled_from(STATS), st.integers(1, 30),
       st.booleans(), st.booleans())
def test_win_rate_never_falls_when_ones_stat_rises(a, am, b, bm, first, second, d4, stat, k,
                                                   on_master, on_b):
    base = chance_of_a(a, am, b, bm, first, second, d4)
    target = (bm if on_master else b) if on_b else (am if on_master else a)
    raised = dict(target, **{stat: target[stat] + k})
    if on_b:
        args = (a, am, raised, bm) if not on_master else (a, am, b, raised)
        assert chance_of_a(*args, first, second, d4) <= base
    else:
        args = (raised, am, b, bm) if not on_master else (a, raised, b, bm)
        assert chance_of_a(*args, first, second, d4) >= base


def autoplay(seed, turns=None):
    rules = default_rules()
    w = War(load_roster(None, rules), rules, seed, max_turns=turns)
    agents = [SimpleAgent(seed, i) for i in range(len(w.pairs))]
    while not w.over:
        for seat, d in w.pending().items():
            w.submit(seat, agents[seat].choose(w.view(seat), d))
    return w


def test_whole_wars_end_and_replay_exactly():
    for seed in (1, 2):
        w = autoplay(seed)
        assert w.over and w.result["reason"] in ("faction", "last", "limit", "none")
        again = autoplay(seed)
        assert [e.to_json() for e in again.events] == [e.to_json() for e in w.events]
        # a record (seed + submissions) replays it
        replay = War(w.roster, w.rules, seed)
        for s, c in w.submissions:
            replay.submit(s, c)
        assert replay.over and replay.result == w.result


def test_clone_is_independent_and_identical():
    rules = default_rules()
    w = War(load_roster(None, rules), rules, 5, max_turns=3)
    agents = [SimpleAgent(5, i) for i in range(len(w.pairs))]
    for _ in range(40):
        for seat, d in w.pending().items():
            w.submit(seat, agents[seat].choose(w.view(seat), d))
    c = w.clone()
    assert [e.to_json() for e in c.events] == [e.to_json() for e in w.events]
    assert c.pending() == w.pending()
    seat, d = next(iter(c.pending().items()))
    c.submit(seat, d.options[-1])
    assert len(c.submissions) == len(w.submissions) + 1


def test_views_never_carry_the_running_secret_or_unlearned_sheets():
    rules = default_rules()
    w = War(load_roster(None, rules), rules, 11, max_turns=2)
    agents = [SimpleAgent(11, i) for i in range(len(w.pairs))]
    checked = 0
    while not w.over:
        for seat, d in w.pending().items():
            secret = w.dice.secret.hex()          # the running turn's secret
            public = json.dumps(w.view(None), ensure_ascii=False)
            assert secret not in public and '"to"' not in public
            view = w.view(seat)
            text = json.dumps(view, ensure_ascii=False)
            assert secret not in text
            for p in view["pairs"]:
                if p["id"] != w.pairs[seat].id and p["id"] not in w.pairs[seat].known:
                    assert "sheet" not in p
            for e in view["events"]:
                assert e.get("to") is None or seat in e["to"]
            checked += 1
            w.submit(seat, agents[seat].choose(view, d))
    assert checked > 40


def test_seals_stay_within_zero_and_three_and_mana_never_exceeds_the_maximum():
    rules = default_rules()
    w = War(load_roster(None, rules), rules, 21)
    agents = [SimpleAgent(21, i) for i in range(len(w.pairs))]
    while not w.over:
        for seat, d in w.pending().items():
            w.submit(seat, agents[seat].choose(w.view(seat), d))
            for p in w.pairs:
                assert 0 <= p.seals <= rules.seals["count"]
                assert p.mana <= p.max_mana(rules)
                assert all(n > 0 for n in p.items.values())


def test_every_event_of_a_war_renders_in_both_languages():
    from fuyuki.rpg.text import Renderer
    w = autoplay(4)
    for lang in ("ja", "en"):
        text = Renderer(lang, dice=True).text(w.events)
        assert "rpg." not in text and "{" not in text
        assert "(1D100<=" in text and "#DICE REVEAL" in text
