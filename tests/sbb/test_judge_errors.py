"""A bad scenario is refused with the file, the key and the reason."""

import pytest

from fuyuki.core.errors import ScenarioError
from fuyuki.sbb.judge import judge

BASE = """players = 3
pool = 10
[lands]
emiya = 1
school = 1
[[seat]]
master = "shirou"
servant = "saber"
{extra}
[[seat]]
master = "rin"
servant = "lancer"
[[seat]]
master = "kirei"
servant = "rider"
"""


@pytest.mark.parametrize("extra, key, words", [
    ('bid = "green-np-3"', "seat[0].bid", "no land of colour"),
    ('bid = "red-np-9"', "seat[0].bid", "more copies"),
    ('hand = ["red-np-3", "red-np-3"]', "seat[0].hand[1]", "more copies"),
    ('bid = "swap"', "seat[0].choices.swap", "must name a target"),
    ('gems = -1', "seat[0].gems", "at least 0"),
    ('dark = true', "seat[0].dark", "黒化"),
    ('colour = "red"', "seat[0].colour", "unknown key"),
    ('[seat.choices]\nluck = true', "seat[0].choices.luck", "no 強運"),
])
def test_bad_scenario_names_key(tmp_path, extra, key, words):
    p = tmp_path / "s.toml"
    p.write_text(BASE.format(extra=extra))
    with pytest.raises(ScenarioError) as exc:
        judge(p)
    assert exc.value.key == key and words in exc.value.reason and str(p) in str(exc.value)


def test_duplicate_servant_refused(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text(BASE.format(extra="").replace('servant = "lancer"', 'servant = "saber"'))
    with pytest.raises(ScenarioError) as exc:
        judge(p)
    assert exc.value.key == "seat[1].servant" and "already" in exc.value.reason


def test_bad_toml_refused(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text("players = ")
    with pytest.raises(ScenarioError) as exc:
        judge(p)
    assert "not valid TOML" in exc.value.reason


@pytest.mark.parametrize("extra, key, words", [
    ('gems = 100000000000000000000000000000000000000', "seat[0].gems", "at most 50"),
    ('gems = 45', "pool", "more than the 50"),
    ('coins = 1', "seat[0].coins", "at most 0"),
])
def test_numbers_are_bounded_by_the_rules(tmp_path, extra, key, words):
    """Gems beyond the edition's supply (the pool, the lands and the seats together) and
    coins outside 聖杯大戦争 are refused."""
    p = tmp_path / "s.toml"
    p.write_text(BASE.format(extra=extra))
    with pytest.raises(ScenarioError) as exc:
        judge(p)
    assert exc.value.key == key and words in exc.value.reason


def test_three_players_play_with_four_lands(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text(BASE.format(extra="").replace("school = 1", "school = 1\nryudoji = 0\n"
                                                "church = 0\neinzbern = 0"))
    with pytest.raises(ScenarioError) as exc:
        judge(p)
    assert exc.value.key == "lands" and "at most 4 lands" in exc.value.reason


TSUBAME = """players = 4
pool = 10
[lands]
emiya = 1
school = 0
ryudoji = 0
church = 0
einzbern = 0
[[seat]]
master = "kuzuki"
servant = "assassin"
bid = "red-np-3"
{choices}
[[seat]]
master = "taiga"
servant = "saber"
bid = "red-sortie-1"
[[seat]]
master = "rin"
servant = "lancer"
bid = "red-sortie-2"
[[seat]]
master = "shirou"
servant = "rider"
"""


@pytest.mark.parametrize("choices, key, words", [
    ("[seat.choices]\ntsubame = 3", "seat[0].choices.tsubame", "3 is not a legal choice"),
    ("[seat.choices]\ntsubame = 0", "seat[0].choices.tsubame", "legal: [1, 2]"),
])
def test_an_illegal_scripted_choice_is_an_error_naming_it(tmp_path, choices, key, words):
    """A scripted choice that is not one of the decision's options is refused, not replaced
    (つばめ返し on a seat that is not a candidate)."""
    p = tmp_path / "s.toml"
    p.write_text(TSUBAME.format(choices=choices))
    with pytest.raises(ScenarioError) as exc:
        judge(p)
    assert exc.value.key == key and words in exc.value.reason


def test_an_illegal_jewel_card_is_an_error(tmp_path):
    """宝石魔術 may discard an action card only: an event in hand is not a legal choice."""
    p = tmp_path / "s.toml"
    p.write_text(TSUBAME.format(choices="").replace('master = "taiga"', 'master = "rin"', 1)
                 .replace('master = "rin"\nservant = "lancer"', 'master = "taiga"\nservant = "lancer"')
                 .replace('bid = "red-sortie-1"', 'bid = "red-sortie-1"\nhand = ["luck", '
                          '"blue-sortie-1"]\n[seat.choices]\njewel = "luck"'))
    with pytest.raises(ScenarioError) as exc:
        judge(p)
    assert exc.value.key == "seat[1].choices.jewel" and "'luck' is not a legal choice" in \
        exc.value.reason


@pytest.mark.parametrize("expect, key, words", [
    ("[expect]\npools = 3", "expect.pools", "unknown key"),
    ("[expect]\nevents = [\"lsot\"]", "expect.events[0]", "no event kind 'lsot'"),
    ("[expect]\nseat.0 = { gem = 1 }", "expect.seat.0.gem", "unknown key"),
    ("[expect]\nseat.7 = { gems = 1 }", "expect.seat.7", "no seat"),
    ("[expect]\nlands = { moon = 1 }", "expect.lands.moon", "no land"),
])
def test_an_unknown_key_under_expect_is_an_error(tmp_path, expect, key, words):
    p = tmp_path / "s.toml"
    p.write_text(BASE.format(extra="") + expect + "\n")
    with pytest.raises(ScenarioError) as exc:
        judge(p)
    assert exc.value.key == key and words in exc.value.reason
