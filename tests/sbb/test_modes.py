"""The five play modes (seed 000 §モードプレイ, design §7): every difference is a value of the
mode file, modes combine with any edition, impossible combinations are refused. Battle-level
differences are pinned by scenarios/variants/*.toml; these tests pin set-up and whole games."""

from dataclasses import replace
from pathlib import Path

import pytest

from fuyuki.core.errors import DataError, ScenarioError
from fuyuki.sbb import new_game
from fuyuki.sbb.judge import judge, load_scenario
from fuyuki.sbb.losses import _replace_master
from fuyuki.sbb.modes import check_card, mode_values, modes
from fuyuki.sbb.rules import Rules, editions

from .conftest import play_out

ROOT = Path(__file__).parent / "scenarios"
ALL_M = {"shirou", "rin", "sakura", "shinji", "illya", "kirei", "zouken", "bazett", "kuzuki",
         "taiga"}
ALL_S = {"saber", "archer", "lancer", "rider", "caster", "assassin", "berserker", "gilgamesh",
         "true_assassin", "avenger"}
REMOVED = {  # seed 000, word for word
    "fate": ({"sakura", "zouken", "bazett"}, {"true_assassin", "avenger"}),
    "ubw": ({"sakura", "zouken", "bazett"}, {"true_assassin", "avenger"}),
    "hf": ({"shinji", "bazett"}, {"gilgamesh", "avenger"}),
    "hollow": ({"kirei", "zouken"}, {"true_assassin"}),
    "big_battle": (set(), set()),
}


def test_the_five_modes_exist():
    assert modes() == sorted(REMOVED)


@pytest.mark.parametrize("edition", ["v1.0", "v1.1", "final"])
@pytest.mark.parametrize("mode", sorted(REMOVED))
def test_mode_removes_exactly_the_seed_cards(edition, mode):
    base = Rules.preset(edition)
    r = Rules.preset(edition, mode)
    gone_m, gone_s = REMOVED[mode]
    assert set(r.masters) == set(base.masters) - gone_m
    assert set(r.servants) == set(base.servants) - gone_s
    assert r.mode == mode and r.edition == edition


def test_fate_and_ubw_ignore_shinji():
    assert Rules.preset("final", "fate").fetch_ignored
    assert Rules.preset("v1.0", "ubw").fetch_ignored
    assert not Rules.preset("final", "hollow").fetch_ignored
    assert not Rules.preset("final").fetch_ignored


@pytest.mark.parametrize("mode,blades", [("ubw", True), ("hf", True), ("fate", False),
                                         ("hollow", False), ("big_battle", False)])
def test_shirou_infinite_blades_replaces_substitute(mode, blades):
    r = Rules.preset("final", mode)
    kind = r.cards.masters["shirou"].ability
    assert kind == ("infinite_blades" if blades else "substitute")
    if blades:  # players read the new ability, not 身代わり
        assert r.cards.masters["shirou"].ability_name["ja"] == "無限の剣製"
        assert "無限の剣製" in r.cards.masters["shirou"].text["ja"]
        assert r.blades_as == "archer"
        assert {"gilgamesh", "archer"} <= set(r.shirou_blades_vs)
    assert ("sakura" in r.shirou_blades_vs) == (mode == "hf")
    # the built-in card set itself is not changed by a mode
    assert Rules.preset("final").cards.masters["shirou"].ability == "substitute"


def test_hf_sakura_starts_dark_in_a_random_deal():
    r = Rules.preset("v1.1", "hf")
    found = 0
    for seed in range(30):
        g = new_game(4, seed, r)
        for seat in range(4):
            assert g.s.dark[seat] == (g.t.names[g.s.master[seat]] == "sakura")
            found += g.t.names[g.s.master[seat]] == "sakura"
    assert found


def test_hf_sakura_starts_dark_after_a_draft():
    r = Rules.preset("final", "hf")
    for seed in range(8):
        g = new_game(3, seed, r)
        while g.pending() and next(iter(g.pending().values())).kind == "draft_master":
            for seat, d in g.pending().items():
                g.submit(seat, "sakura" if "sakura" in d.options else d.options[0])
        holder = [i for i in range(3) if g.t.names[g.s.master[i]] == "sakura"]
        if holder:
            assert g.s.dark[holder[0]]
            assert g.view(holder[0])["me"]["dark"] is True
            return
    pytest.fail("nobody drafted 桜")


def _draw_sakura_as_new_master(rules):
    for seed in range(20):
        g = new_game(3, seed, rules)
        sakura = g.t.ids["sakura"]
        if sakura in g.s.mdeck:
            g.s.mdeck.remove(sakura)
            g.s.mdeck.append(sakura)  # on top of the master deck
            _replace_master(g, 0, g.s.master[0], None)
            assert g.s.master[0] == sakura
            return g
    raise AssertionError("桜 never in the master deck")


def test_hf_a_sakura_drawn_later_enters_dark():
    assert _draw_sakura_as_new_master(Rules.preset("v1.1", "hf")).s.dark[0]
    assert not _draw_sakura_as_new_master(Rules.preset("v1.1")).s.dark[0]


def test_other_modes_do_not_start_dark():
    for mode in ("fate", "ubw", "hollow", "big_battle"):
        assert not Rules.preset("final", mode).start_dark


def test_hollow_gilgamesh_power_zero():
    r = Rules.preset("final", "hollow")
    assert r.power_override == {"gilgamesh": 0}
    g = new_game(3, 2, r)
    g.s.servant[0] = g.t.ids["gilgamesh"]
    assert g.power(0) == 0
    assert new_game(3, 2, Rules.preset("final")).rules.power_override == {}


@pytest.mark.parametrize("edition", ["v1.1", "final"])
def test_hollow_rin_set_aside_while_dealing_then_shuffled_back(edition):
    r = Rules.preset(edition, "hollow")
    assert r.set_aside == ("rin",)
    for seed in range(8):
        g = new_game(5, seed, r)
        while next(iter(g.pending().values())).kind != "place_gem":  # play the drafts
            for seat, d in g.pending().items():
                g.submit(seat, d.options[seed % len(d.options)])
        kinds = [e.kind for e in g.events]
        packs = [c for e in g.events if e.kind == "draft_pack" and e.data["kind"] == "master"
                 for c in e.data["pack"]]
        dealt = [e.data["master"] for e in g.events if e.kind == "dealt"]
        assert "rin" not in packs and "rin" not in dealt  # never dealt at the start
        assert "rin" not in g.t.names_of(g.s.master)
        assert "rin" in g.t.names_of(g.s.mdeck)  # shuffled back into the master deck
        back = kinds.index("set_aside_returned")
        if edition == "final":  # after the master draft, before the servant draft
            firsts = [i for i, k in enumerate(kinds) if k == "draft_start"]
            assert firsts[0] < back < firsts[1]
        else:
            assert back > max(i for i, k in enumerate(kinds) if k == "dealt")


def test_big_battle_is_seven_players_with_a_coin_each():
    for edition in editions():
        r = Rules.preset(edition, "big_battle")
        assert r.players == (7,) and r.coins and r.unlimited_gems
        assert r.deck_out == "reshuffle" and r.victory_gems == 0 and not r.vessel_ends_game
        g = new_game(7, 1, r)
        assert g.s.coins == [1] * 7
        assert all(p["coins"] == 1 for p in g.view(None)["seats"])


@pytest.mark.parametrize("n", [3, 4, 5])
def test_big_battle_with_fewer_than_seven_players_is_refused(n):
    r = Rules.preset("final", "big_battle")
    with pytest.raises(DataError) as exc:
        r.check_players(n)
    assert exc.value.key == "players"
    assert "big_battle" in exc.value.reason and "7" in exc.value.reason


def test_big_battle_scenario_with_four_players_is_refused(tmp_path):
    text = (ROOT / "variants" / "big_battle_tie_moves_no_coin.toml").read_text(encoding="utf-8")
    p = tmp_path / "four.toml"
    p.write_text(text.replace("players = 7", "players = 4"), encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(p)
    assert exc.value.file == str(p) and exc.value.key == "players"


def test_big_battle_ends_only_when_one_player_holds_every_coin():
    ended = 0
    from fuyuki.sbb.agents import make_bot
    for seed in range(3):
        bots = [make_bot("heuristic", seed * 7 + i) for i in range(7)]
        g = play_out(new_game(7, seed, Rules.preset("final", "big_battle")), bots)
        assert sum(g.s.coins) == 7
        if g.result["reason"] == "coins":
            (w,) = g.result["winners"]
            assert g.s.coins[w] == 7 and g.result["coins"][w] == 7
            ended += 1
        else:
            assert g.result["reason"] == "round_cap"
    assert ended


def test_big_battle_round_cap_is_a_draw_among_most_coins():
    r = replace(Rules.preset("v1.1", "big_battle"), round_cap=3)
    g = play_out(new_game(7, 5, r))
    assert g.result["reason"] == "round_cap" and g.result["rounds"] == 3
    best = max(g.s.coins)
    assert g.result["winners"] == [i for i in range(7) if g.s.coins[i] == best]
    assert g.result["ranking"][0] == g.result["winners"]


def test_big_battle_on_v1x_reshuffles_forever():
    """v1.x ends when the deck runs out; 聖杯大戦争 reshuffles it instead."""
    r = replace(Rules.preset("v1.0", "big_battle"), round_cap=30)
    g = play_out(new_game(7, 2, r))
    assert g.result["reason"] in ("coins", "round_cap")
    if g.result["rounds"] > 3:  # 7 players draw 7 a round from 15 cards
        assert any(e.kind == "reshuffle" and e.data["deck"] == "action" for e in g.events)


def test_big_battle_gems_are_unlimited():
    r = replace(Rules.preset("final", "big_battle"), round_cap=20)
    g = play_out(new_game(7, 3, r))
    assert g.result["reason"] != "pool_empty"
    if g.result["rounds"] > 10:  # 8 gems a round from a pool of 50
        assert sum(g.s.gems) + sum(g.s.gems_on) > 50


def test_unknown_mode_is_refused():
    with pytest.raises(DataError) as exc:
        Rules.preset("final", "zero")
    assert exc.value.key == "mode" and "zero" in exc.value.reason
    assert "big_battle" in exc.value.reason


def test_fate_on_v1_0_cannot_seat_seven():
    r = Rules.preset("v1.0", "fate")
    assert 7 not in r.players
    with pytest.raises(DataError, match="only 6 masters"):
        r.check_players(7)


def test_hollow_counts_set_aside_cards_when_seating():
    r = Rules.preset("v1.0", "hollow")  # 9 - 2 masters, rin aside: 6 can be dealt
    assert 7 not in r.players
    with pytest.raises(DataError, match="set aside"):
        r.check_players(7)


def test_check_card_names_the_mode_that_removed_it():
    r = Rules.preset("final", "fate")
    with pytest.raises(DataError) as exc:
        check_card(r, "master", "sakura", "s.toml", "seat[0].master")
    assert exc.value.file == "s.toml" and exc.value.key == "seat[0].master"
    assert "fate" in exc.value.reason and "sakura" in exc.value.reason
    with pytest.raises(DataError, match="edition 'v1.0' has no master 'taiga'"):
        check_card(Rules.preset("v1.0", "fate"), "master", "taiga", "s.toml", "k")
    check_card(r, "servant", "saber", "s.toml", "k")  # in play: nothing


def test_scenario_using_a_removed_card_is_refused(tmp_path):
    text = (ROOT / "variants" / "hf_infinite_blades_vs_sakura.toml").read_text(encoding="utf-8")
    p = tmp_path / "ubw.toml"
    p.write_text(text.replace('mode = "hf"', 'mode = "ubw"'), encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        load_scenario(p)
    assert exc.value.file == str(p) and exc.value.key == "seat[1].master"


def test_mode_files_name_only_real_cards():
    r = Rules.preset("final")
    for mode in modes():
        v = mode_values(mode)
        for cid in v["remove_masters"] + v["set_aside"] + tuple(v["master_abilities"]):
            assert cid in r.cards.masters, (mode, cid)
        for cid in v["remove_servants"] + tuple(v["power_override"]):
            assert cid in r.cards.servants, (mode, cid)
        for cid in v["blades_vs"]:
            assert cid in r.cards.servants or cid in r.cards.masters, (mode, cid)


def test_fetch_ignored_in_fate_with_a_card_that_could_fetch(tmp_path):
    """Built-in fate removes 桜, so 慎二's ignoring shows only with a card file where 慎二
    fetches a master that stays (here 遠坂凛)."""
    from fuyuki.sbb.cards import default_cards_path

    text = default_cards_path().read_text(encoding="utf-8")
    cards = tmp_path / "cards.toml"
    cards.write_text(text.replace('card = "sakura"', 'card = "rin"'), encoding="utf-8")
    scenario = """title = "t"
players = 3
parent = 0
pool = 20
{mode}
[lands]
emiya = 1
school = 1
ryudoji = 1
church = 1
[[seat]]
master = "kuzuki"
servant = "gilgamesh"
bid = "red-np-3"
[[seat]]
master = "shinji"
servant = "rider"
bid = "red-sortie-1"
[[seat]]
master = "illya"
servant = "lancer"
"""
    plain = tmp_path / "plain.toml"
    plain.write_text(scenario.format(mode=""), encoding="utf-8")
    fate = tmp_path / "fate.toml"
    fate.write_text(scenario.format(mode='mode = "fate"'), encoding="utf-8")
    a = judge(plain, "en", cards=cards)
    assert a.result["seats"][1]["master"] == "rin"
    assert any(e.kind == "fetch" for e in a.game.events)
    b = judge(fate, "en", cards=cards)
    assert b.result["seats"][1]["master"] != "rin" or not b.game.s.m_up[1]
    assert not any(e.kind == "fetch" for e in b.game.events)
