"""[R-8] Stats by camp count: ``by_camps`` in camps.toml gives a character other HP/AT/DF (CH and
hand limit for masters) in a game of that many camps (docs/board.md, decision R-8)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fuyuki import board
from fuyuki.board.content import default_dir, load_pack
from fuyuki.core.errors import DataError

FIVE = ["saber", "archer", "rider", "berserker", "caster"]


def _pack(tmp_path: Path, after: str, lines: str) -> str:
    """The default pack with ``lines`` inserted after the line ``after`` of camps.toml."""
    d = tmp_path / "pack"
    shutil.copytree(default_dir(), d)
    text = (d / "camps.toml").read_text("utf-8")
    assert after in text
    (d / "camps.toml").write_text(text.replace(after, after + "\n" + lines, 1), "utf-8")
    return str(d)


def _hp(g: board.Game, cid: str) -> tuple[int, int]:
    c = g.chars[cid]
    return c.hp, c.max_hp


def test_rule_r8_by_camps_sets_a_servants_stats_for_that_camp_count(tmp_path: Path) -> None:
    pack = _pack(tmp_path, "[chars.rider]", "by_camps = { 3 = { hp = 11, at = 2, df = 9 } }")
    own = load_pack().chars["rider"]
    three = board.new_game(players=3, seed=1, camps=["rider", "saber", "archer"], pack=pack)
    assert _hp(three, "rider") == (11, 11)
    assert (three.chars["rider"].at, three.chars["rider"].df) == (2, 9)
    four = board.new_game(players=4, seed=1, camps=FIVE[:4], pack=pack)
    assert _hp(four, "rider") == (own.hp, own.hp)
    assert (four.chars["rider"].at, four.chars["rider"].df) == (own.at, own.df)


def test_rule_r8_by_camps_sets_a_masters_ch_and_hand_limit(tmp_path: Path) -> None:
    pack = _pack(tmp_path, "[chars.rin]", "by_camps = { 2 = { ch = 1, hand_limit = 3 } }")
    g = board.new_game(players=2, seed=1, camps=["archer", "saber"], pack=pack)
    rin = g.camps[0]
    assert (rin.ch, rin.hand_limit) == (1, 3)
    g4 = board.new_game(players=4, seed=1, camps=["archer", "saber", "rider", "berserker"],
                        pack=pack)
    own = load_pack().chars["rin"]
    assert (g4.camps[0].ch, g4.camps[0].hand_limit) == (own.ch, own.hand_limit)


def test_rule_r8_default_pack_stats_by_camp_count_reach_the_game() -> None:
    """Whatever the shipped camps.toml sets by camp count is what the characters play with."""
    pack = load_pack()
    for players in (2, 3, 4, 5):
        g = board.new_game(players=players, seed=3, camps=FIVE[:players])
        for cid, c in g.chars.items():
            d = pack.chars[cid].for_camps(players)
            assert (c.max_hp, c.at, c.df) == (d.hp, d.at, d.df), (players, cid)


@pytest.mark.parametrize("after,lines,key", [
    ("[chars.rider]", "by_camps = { x = { hp = 20 } }", "chars.rider.by_camps.x"),
    ("[chars.rider]", "by_camps = { 1 = { hp = 20 } }", "chars.rider.by_camps.1"),
    ("[chars.rider]", "by_camps = { 6 = { hp = 20 } }", "chars.rider.by_camps.6"),
    ("[chars.rider]", "by_camps = { 5 = { ch = 3 } }", "chars.rider.by_camps.5.ch"),
    ("[chars.rider]", "by_camps = { 5 = { hp = 0 } }", "chars.rider.by_camps.5.hp"),
    ("[chars.shirou]", "by_camps = { 4 = { skills = 1 } }", "chars.shirou.by_camps.4.skills"),
])
def test_rule_r8_bad_stats_by_camp_count_are_refused(tmp_path: Path, after: str, lines: str,
                                                     key: str) -> None:
    with pytest.raises(DataError) as e:
        load_pack(_pack(tmp_path, after, lines))
    assert e.value.file.endswith("camps.toml") and e.value.key == key, (e.value.key, str(e.value))
