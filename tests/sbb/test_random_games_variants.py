"""Random full games for every edition × mode × legal player count run clean: they end, the
result is well formed, gems and coins are conserved, no card the rules leave out ever appears,
every view is JSON, and the record replays the game exactly."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuyuki.sbb import new_game
from fuyuki.sbb.modes import modes
from fuyuki.sbb.rules import Rules, editions

from .conftest import play_out

CASES = [(e, m, n) for e in editions() for m in ["standard"] + modes()
         for n in Rules.preset(e, m).players]
REASONS = {
    "immediate": {"deck_out", "pool_empty", "vessel", "round_cap"},
    "round": {"victory", "grail", "pool_empty", "round_cap"},
    "coins": {"coins", "round_cap"},
}
CARD_KEYS = ("card", "master", "servant", "now_seat", "now_target")


def test_every_combination_is_covered():
    # 3 editions x (standard + 4 modes) x 3–5 players, big_battle x 7 players, v1.0 and v1.0-hf x 7
    assert len(CASES) == 3 * 5 * 3 + 3 + 2
    assert ("v1.0", "standard", 7) in CASES and ("final", "big_battle", 7) in CASES
    assert ("final", "big_battle", 5) not in CASES


def _check(g, rules, n):
    s, r = g.s, g.result
    assert g.over and s.phase == "over" and not g.pending()
    kind = "coins" if rules.coins else rules.end_timing
    assert r["reason"] in REASONS[kind], r
    assert r["winners"] and set(r["winners"]) <= set(range(n))
    assert r["draw"] == (len(r["winners"]) != 1)
    assert sorted(x for place in r["ranking"] for x in place) == list(range(n))
    assert r["ranking"][0] == r["winners"]
    if rules.unlimited_gems:
        assert min(s.gems) >= 0
    else:
        assert s.pool + sum(s.gems_on) + sum(s.gems) == rules.gem_pool
        assert s.pool >= 0 and min(s.gems) >= 0
    if rules.coins:
        assert sum(s.coins) == n and r["coins"] == s.coins
    else:
        assert s.coins == [0] * n
    allowed = set(rules.masters) | set(rules.servants)
    for e in g.events:
        for key in CARD_KEYS:
            v = e.data.get(key)
            if isinstance(v, str) and (v in rules.cards.masters or v in rules.cards.servants):
                assert v in allowed, (e, "a card these rules leave out")
    for seat in range(n):
        assert g.t.names[s.master[seat]] in rules.masters
        assert g.t.names[s.servant[seat]] in rules.servants
        json.dumps(g.view(seat))
    json.dumps(g.view(None))


@pytest.mark.parametrize("edition,mode,n", CASES, ids=[f"{e}-{m}-{n}" for e, m, n in CASES])
def test_random_games_run_clean(edition, mode, n):
    rules = Rules.preset(edition, mode)
    for seed in (n, 100 + n):
        g = play_out(new_game(n, seed, rules), rng_seed=seed)
        _check(g, rules, n)
        again = new_game(n, seed, rules)
        for seat, choice in g.record.submissions:
            again.submit(seat, choice)
        assert again.over and again.result == g.result
        assert [(e.kind, e.data, e.to) for e in again.events] == \
            [(e.kind, e.data, e.to) for e in g.events]


@pytest.mark.parametrize("option", ["tie_dice", "land_modifiers", "no_berserker_penalty"])
@pytest.mark.parametrize("edition", ["v1.0", "v1.1", "final"])
def test_random_games_with_each_option(edition, option):
    rules = Rules.preset(edition, None, (option,))
    assert rules.options == (option,)
    for seed in range(2):
        _check(play_out(new_game(4, seed, rules), rng_seed=seed), rules, 4)


def test_all_options_and_a_mode_together():
    rules = Rules.preset("v1.1", "hollow", ("tie_dice", "land_modifiers", "no_berserker_penalty"))
    assert rules.tie_dice and rules.land_modifiers and not rules.berserker_penalty
    _check(play_out(new_game(5, 9, rules), rng_seed=9), rules, 5)


SMALL = [c for c in CASES if c[1] != "big_battle"]  # big_battle games are long: covered above


@settings(max_examples=25, deadline=None)
@given(case=st.sampled_from(SMALL), seed=st.integers(0, 2**31 - 1),
       options=st.sets(st.sampled_from(["tie_dice", "land_modifiers", "no_berserker_penalty"])))
def test_property_any_variant_any_seed_runs_clean(case, seed, options):
    edition, mode, n = case
    rules = Rules.preset(edition, mode, tuple(sorted(options)))
    _check(play_out(new_game(n, seed, rules), rng_seed=seed % 1000), rules, n)
