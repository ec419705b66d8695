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
