"""Editions v1.0, v1.1 and final as data (design §1): every difference is a value of the
edition file, and the engine plays it. Rule-level differences in a round are pinned by the
scenario files in scenarios/variants/; these tests pin the set-up and whole-game ones."""

from dataclasses import replace
from pathlib import Path

import pytest

from fuyuki.core.errors import DataError, ScenarioError
from fuyuki.sbb import new_game
from fuyuki.sbb.cards import parse_action
from fuyuki.sbb.judge import judge, load_scenario
from fuyuki.sbb.rules import Rules, editions

from .conftest import play_out

VARIANTS = Path(__file__).parent / "scenarios" / "variants"


def _deck_total(g) -> int:
    s = g.s
    return len(s.adeck) + len(s.adisc) + sum(len(h) for h in s.hand) + sum(
        1 for b in s.bids if b)


def test_the_three_editions_exist():
    assert editions() == ["final", "v1.0", "v1.1"]


@pytest.mark.parametrize("edition,masters,servants,actions,events", [
    ("v1.0", 9, 10, 50, 0), ("v1.1", 10, 10, 52, 2), ("final", 10, 10, 53, 3)])
def test_card_counts_match_the_seeds(edition, masters, servants, actions, events):
    r = Rules.preset(edition)
    assert len(r.masters) == masters and len(r.servants) == servants
    assert len(r.cards.lands) == 5
    assert len(r.events) == events
    g = new_game(4, 1, r)
    assert _deck_total(g) == actions  # 4 players: every land, 50 actions + the events


def test_v1_0_has_no_taiga():
    assert "taiga" not in Rules.preset("v1.0").masters
    assert "taiga" in Rules.preset("v1.1").masters


@pytest.mark.parametrize("edition,pool", [("v1.0", 30), ("v1.1", 40), ("final", 50)])
def test_gem_pool(edition, pool):
    g = new_game(4, 2, Rules.preset(edition))
    assert g.s.pool + sum(g.s.gems_on) == pool
    assert g.events[0].kind == "setup" and g.events[0].data["pool"] == pool


@pytest.mark.parametrize("edition", ["v1.0", "v1.1"])
def test_v1x_deals_master_and_servant_at_random_and_five_cards(edition):
    g = new_game(4, 3, Rules.preset(edition))
    pending = g.pending()
    assert [d.kind for d in pending.values()] == ["place_gem"]  # no draft was asked
    for seat in range(4):
        assert g.s.master[seat] and g.s.servant[seat]
        assert not g.s.m_up[seat] and not g.s.s_up[seat]
        assert len(g.s.hand[seat]) == 5
    kinds = [e.kind for e in g.events]
    assert "dealt" in kinds and "draft_start" not in kinds


def test_final_drafts_and_deals_three():
    g = new_game(4, 3, Rules.preset("final"))
    assert [d.kind for d in g.pending().values()] == ["draft_master"]
    play_out(g)
    assert any(e.kind == "draft_start" for e in g.events)


def test_dealt_cards_are_private():
    g = new_game(4, 5, Rules.preset("v1.1"))
    for e in g.events:
        if e.kind == "dealt":
            assert e.to == (e.data["seat"],)
    for seat in range(4):
        v = g.view((seat + 1) % 4)
        assert v["seats"][seat]["master"] is None and v["seats"][seat]["servant"] is None


@pytest.mark.parametrize("edition,players", [
    ("v1.0", (3, 4, 5, 7)), ("v1.1", (3, 4, 5)), ("final", (3, 4, 5))])
def test_player_counts(edition, players):
    r = Rules.preset(edition)
    assert r.players == players
    if 7 not in players:
        with pytest.raises(DataError, match="7 players cannot play the edition"):
            r.check_players(7)


def test_v1_0_seven_players_play_a_full_game():
    g = play_out(new_game(7, 4, Rules.preset("v1.0")))
    assert g.result["reason"] in ("deck_out", "pool_empty", "vessel")


def test_v1x_without_mana_every_hand_limit_is_five():
    g = new_game(4, 6, Rules.preset("v1.1"))
    assert {g.mana(seat) for seat in range(4)} == {5}


def test_v1_0_has_no_events_and_no_luck_offer():
    g = new_game(4, 7, Rules.preset("v1.0"))
    assert g.s.luck_cards == ()  # no 強運 card in the deck
    assert not g.luck_possible()
    assert not any(parse_action(c) is None for c in g.t.names_of(g.s.adeck))


def test_unknown_edition_is_refused():
    with pytest.raises(DataError) as exc:
        Rules.preset("v2.0")
    assert exc.value.key == "edition" and "v2.0" in exc.value.reason


def test_v1x_deck_out_ends_the_game():
    """A random v1.0 game with 5 players: 25 cards dealt, 5 drawn a round — the deck runs
    out; the game ends at the first draw that meets it, most gems wins."""
    for seed in range(10):
        g = play_out(new_game(5, seed, Rules.preset("v1.0")), rng_seed=seed)
        if g.result["reason"] == "deck_out":
            assert g.s.adeck == []
            best = max(g.s.gems)
            assert g.result["winners"] == [i for i in range(5) if g.s.gems[i] == best]
            return
    pytest.fail("no v1.0 game ran out of cards")


def test_final_deck_never_runs_out():
    r = replace(Rules.preset("final"), victory_gems=999, events=(), gem_pool=1000, round_cap=60)
    reshuffled = False
    for seed in range(6):
        g = play_out(new_game(5, seed, r), rng_seed=seed)
        assert g.result["reason"] != "deck_out"
        reshuffled |= any(e.kind == "reshuffle" and e.data["deck"] == "action" for e in g.events)
    assert reshuffled


def test_vessel_end_ranks_the_others_by_gems():
    v = judge(VARIANTS / "v1_1_vessel_ends_game_at_once.toml", "en")
    r = v.game.result
    assert r["reason"] == "vessel" and r["winners"] == [0] and not r["draw"]
    assert r["ranking"] == [[0], [2], [1]]  # イリヤ 7, then 9 gems, then 6


def test_vessel_end_in_full_games_is_immediate():
    """In v1.x games that end by 聖杯の器, イリヤ's player holds at least 7 gems, is the only
    winner and the game ended in the middle of a round (no round end after it)."""
    seen = 0
    for seed in range(40):
        g = play_out(new_game(3, seed, Rules.preset("v1.1")), rng_seed=seed)
        if g.result["reason"] == "vessel":
            (w,) = g.result["winners"]
            assert g.t.names[g.s.master[w]] == "illya" and g.s.gems[w] >= 7 and g.s.m_up[w]
            seen += 1
    assert seen


def test_round_cap_ends_as_a_draw_among_the_leaders():
    r = replace(Rules.preset("v1.1"), round_cap=2, deck_out="reshuffle", vessel_ends_game=False)
    g = play_out(new_game(3, 1, r))
    assert g.result["reason"] == "round_cap" and g.result["rounds"] == 2
    best = max(g.s.gems)
    assert g.result["winners"] == [i for i in range(3) if g.s.gems[i] == best]
    assert g.result["ranking"][0] == g.result["winners"]


def test_every_result_ranks_every_seat_once():
    for edition in editions():
        g = play_out(new_game(4, 11, Rules.preset(edition)))
        flat = [seat for place in g.result["ranking"] for seat in place]
        assert sorted(flat) == [0, 1, 2, 3]


def _scenario(tmp_path, text: str) -> Path:
    p = tmp_path / "s.toml"
    p.write_text(text, encoding="utf-8")
    return p


BASE = """
players = 3
parent = 0
pool = 20
[lands]
emiya = 1
school = 1
ryudoji = 1
church = 1
[[seat]]
master = "{m0}"
servant = "saber"
{extra}
[[seat]]
master = "rin"
servant = "rider"
[[seat]]
master = "kuzuki"
servant = "lancer"
"""


def test_scenario_with_a_card_the_edition_lacks_is_refused(tmp_path):
    p = _scenario(tmp_path, 'edition = "v1.0"' + BASE.format(m0="taiga", extra=""))
    with pytest.raises(ScenarioError) as exc:
        load_scenario(p)
    assert exc.value.file == str(p) and exc.value.key == "seat[0].master"


def test_scenario_with_an_event_the_edition_lacks_is_refused(tmp_path):
    p = _scenario(tmp_path, 'edition = "v1.1"' + BASE.format(m0="shirou",
                                                               extra='hand = ["grail"]'))
    with pytest.raises(ScenarioError) as exc:
        load_scenario(p)
    assert exc.value.key == "seat[0].hand[0]" and "grail" in exc.value.reason
