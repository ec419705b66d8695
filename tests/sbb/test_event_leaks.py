"""No event names a card that is face down for a seat that can see it (§5.1 [R-35], §8):
every public event, rendered in ja and en, is searched for the names (and ability names) of
every master and servant face down at the moment it was emitted."""

from hypothesis import given, settings
from hypothesis import strategies as st

from fuyuki.sbb.rules import Rules

from tests.sbb.leaks import leaks, play_watched


def test_big_battle_events_never_name_face_down_masters():
    """聖杯大戦争 (7 players): アヴェンジャー's retaliation destroying the servant of a seat whose
    master was just replaced face down fired 黒化 / 延命 / タイガー道場 with an event naming
    that master (issue 16: "P2's 桜 turns dark"); seed 59 did so before the fix."""
    rules = Rules.preset("final", "big_battle")
    for seed in (59, 1):
        g = play_watched(7, seed, rules)
        assert g.over
        assert leaks(g) == []


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.sampled_from([3, 4, 5]),
       edition=st.sampled_from(["final", "v1.1", "v1.0"]),
       mode=st.sampled_from(["standard", "fate", "ubw", "hf", "hollow"]),
       bot=st.sampled_from(["random", "heuristic"]))
def test_public_events_name_no_face_down_card(seed, players, edition, mode, bot):
    rules = Rules.preset(edition, mode)
    g = play_watched(players, seed, rules, bot)
    assert g.over
    assert leaks(g) == []


def test_infinite_blades_names_no_hidden_archer():
    """ubw: 士郎's 無限の剣製 event named アーチャー ("as アーチャー's 宝具") while another seat held
    アーチャー face down (found by benchmarks/input_audit.py, v1.1/ubw, 5 players, seed 50002,
    RNG version 1)."""
    g = play_watched(5, 50002, Rules.preset("v1.1", "ubw"), "random", rng=1)
    blades = [e for e in g.events if e.kind == "infinite_blades"]
    assert blades and all("servant" not in e.data for e in blades)   # nor in the event's data
    assert leaks(g) == []


def test_infinite_blades_fizzle_names_no_hidden_archer():
    """hf: 士郎's 無限の剣製 fizzling (no face-up 剣) was told as "P1's アーチャー's 宝具 fizzles"
    while seat 3 held アーチャー face down (found by benchmarks/input_audit.py, v1.0/hf,
    5 players, seed 27001, RNG version 1). The fizzle of 無限の剣製 names no servant [R-35]."""
    g = play_watched(5, 27001, Rules.preset("v1.0", "hf"), "heuristic", rng=1)
    fizzles = [e for e in g.events if e.kind == "blades_fizzle"]
    assert fizzles and all("servant" not in e.data for e in fizzles)
    assert leaks(g) == []
