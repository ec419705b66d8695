"""The board judge (fuyuki.board.judge) and the set-up it starts from (fuyuki.board.setup):
impossible states refused with their key, dice by roll label, the defence order of the round's
turn order, and `fuyuki judge` end to end in ja and en."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fuyuki.core import contract
from fuyuki import board
from fuyuki.board.agents import RandomBot
from fuyuki.board.content import default_dir
from fuyuki.board.judge import judge
from fuyuki.cli.main import app
from fuyuki.core.errors import DataError, ScenarioError
from fuyuki.core.load import error_line

HERE = Path(__file__).parent / "scenarios"
runner = CliRunner()
BASE = {"start_hand": 0, "clear_deck": True}


def _game(setup: dict[str, Any], camps: list[str] | None = None,
          dice: dict[str, int] | None = None) -> board.Game:
    camps = camps or ["saber", "rider", "berserker"]
    return board.new_game(players=len(camps), camps=camps, setup={**BASE, **setup}, dice=dice)


# ------------------------------------------------------------------ deviation 1 (seed 《攻撃》)
def test_rule_defence_order_counts_turns_in_the_rounds_actual_order() -> None:
    """「攻撃プレイヤーから数えてより早く手番が来るプレイヤー」: round 2 of the snake order is
    played 2, 1, 0 — after seat 1 comes seat 0 (this round), then seat 2 (first in round 3)."""
    g = board.new_game(players=3, camps=["rider", "saber", "berserker"], setup=dict(BASE))
    g.round = 2
    assert g.round_order(2) == [2, 1, 0]
    assert g.turn_rank(1, 0) < g.turn_rank(1, 2)
    assert g.turn_rank(1, 1) == 0 and g.turn_rank(1, None) > g.turn_rank(1, 2)
    g.round = 1                      # round 1 (0, 1, 2): after seat 1 comes seat 2
    assert g.turn_rank(1, 2) < g.turn_rank(1, 0)


def test_rule_defence_order_scenario_asks_the_sooner_camp_first() -> None:
    g = judge(HERE / "defence_order_follows_the_rounds_turn_order.toml", "en").game
    (seat, d), = g.pending().items()
    assert (seat, d.kind, d.info["char"]) == (0, "defence", "rider")


# ------------------------------------------------------------------ set-up: impossible states
def test_setup_error_reasons_exist_in_ja_and_en() -> None:
    from fuyuki.board.setup import register_reasons
    from fuyuki.core import i18n

    register_reasons()
    ja = {k for k in i18n.keys("ja") if k.startswith("load.reason.board_")}
    en = {k for k in i18n.keys("en") if k.startswith("load.reason.board_")}
    assert ja and ja == en



@pytest.mark.parametrize("setup,key", [
    ({"chars": {"shinji": {"dead": True}}}, "chars.shinji.dead"),
    ({"chars": {"saber": {"hp": 40}}}, "chars.saber.hp"),
    ({"chars": {"saber": {"hp": 0}}}, "chars.saber.hp"),
    ({"chars": {"saber": {"hp": 3, "dead": True}}}, "chars.saber.hp"),
    ({"camps": {"0": {"hand": ["healing"] * 6}}}, "camps.0.hand[5]"),
    ({"camps": {"0": {"hand": ["dash"] * 2}}, "deck": ["dash"] * 3}, "deck[2]"),
    ({"camps": {"0": {"plotted": ["dash", "dash", "dash"]}}}, "camps.0.plotted"),
    ({"chars": {"rider": {"stray": True}}}, "chars.rider.stray"),
    ({"chars": {"rider": {"camp": 0}}}, "chars.rider.camp"),
    ({"chars": {"shirou": {"stray": True}}}, "chars.shirou.stray"),
    ({"chars": {"saber": {"alone": True}}}, "chars.saber.alone"),
    ({"chars": {"berserker": {"revives": 2}}}, "chars.berserker.revives"),
    ({"chars": {"berserker": {"dead": True}}}, "chars.berserker.dead"),
    ({"round": 2, "order": [0, 1, 2]}, "order"),
    ({"chars": {"shinji": {"dead": True}, "rider": {"stray": True}},
      "camps": {"1": {"hand": ["dash"]}}}, "camps.1.hand"),
    ({"chars": {"shinji": {"dead": True}, "rider": {"stray": True}}, "turn": 1}, "turn"),
    ({"chars": {"shinji": {"dead": True}, "rider": {"stray": True},
                "illya": {"dead": True}, "berserker": {"dead": True, "revives": 0}}},
     "chars.illya.dead"),
    ({"camps": {"0": {"territory": {"pos": "港", "done": True}},
                "1": {"territory": {"pos": "港", "done": True}}}}, "camps.1.territory"),
    ({"camps": {"3": {"spells": 1}}}, "camps.3"),
    ({"camps": {"0": {"spells": 4}}}, "camps.0.spells"),
    ({"camps": {"0": {"barrier": {"pos": "港", "ability": "excalibur"}}}},
     "camps.0.barrier.ability"),
    ({"chars": {"saber": {"pos": "ロンドン"}}}, "chars.saber.pos"),
    ({"weather": "rain"}, "weather"),
])
def test_setup_refuses_an_impossible_state_naming_the_key(setup: dict, key: str) -> None:
    with pytest.raises(ScenarioError) as e:
        _game(setup)
    assert (e.value.file, e.value.key) == ("setup", key)
    ja, en = error_line(e.value, "ja"), error_line(e.value, "en")
    assert ja != en and "load.reason" not in ja + en and "\n" not in ja


def test_setup_refuses_a_gatekeeper_away_from_its_gate() -> None:
    with pytest.raises(ScenarioError) as e:
        _game({"chars": {"assassin": {"pos": "港"}}}, ["caster", "saber"])
    assert e.value.key == "chars.assassin.pos"


def test_setup_sets_round_turn_discard_and_a_recontracted_servant() -> None:
    g = _game({"round": 2, "turn": 0, "discard": ["dash", "ward"],
               "chars": {"shinji": {"dead": True}, "rider": {"camp": 2, "pos": "港"}}})
    assert (g.round, g.turn_seat) == (2, 0)
    assert [e.data for e in g.events if e.kind == "reshuffle"] == [{"count": 2}]  # the empty deck
    assert g.camps[1].out and g.chars["rider"].camp == 2
    turns = [e.data for e in g.events if e.kind == "turn"]
    assert turns == [{"seat": 0, "round": 2}]     # seat 0 plays last in round 2 (2, 1, 0)


def test_a_record_with_setup_and_dice_replays() -> None:
    g = _game({"chars": {"saber": {"pos": "港"}, "berserker": {"pos": "港"}},
               "camps": {str(seat): {"spells": 0} for seat in range(3)}},
              dice={"r1/t1/a1/saber/attack1": 4})
    for choice in ["battle", "fight:saber", "normal", "guard"]:
        (seat, _), = g.pending().items()
        g.submit(seat, choice)
    again = contract.replay(g.record)
    assert again.chars["berserker"].hp == g.chars["berserker"].hp == 23 - (7 + 4 - 5)


def test_positional_dice_are_refused() -> None:
    with pytest.raises(DataError) as e:
        board.Game(0, {"players": 2, "dice": [3, 4]})
    assert e.value.key == "dice"


# ------------------------------------------------------------------ dice by label
def test_every_roll_of_a_game_has_its_own_label() -> None:
    for seed in range(3):
        g = board.new_game(players=4, seed=seed)
        bots = [RandomBot(seed, s) for s in range(4)]
        while not g.over:
            (seat, d), = g.pending().items()
            g.submit(seat, bots[seat].choose(g.view(seat), d))
        labels = [label for label, _, _ in g.rolls]
        assert labels and len(set(labels)) == len(labels)
        assert all(label.startswith("r") and "/t" in label for label in labels)


def _scenario(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "case.toml"
    p.write_text(text, "utf-8")
    return p


ATTACK = '''game = "board"
rule = "通常攻撃"
pins = "「通常攻撃　６面ダイスを１つ振り、出た目と自身のAT値の合計値を攻撃力として攻撃します。」"
camps = ["saber", "berserker"]
steps = [[0, "battle"], [0, "fight:saber"], [0, "normal"], [1, "guard"]]
[setup.camps.0]
spells = 0
[setup.camps.1]
spells = 0
[setup.chars.saber]
pos = "港"
[setup.chars.berserker]
pos = "港"
'''


def test_a_missing_die_is_an_error_naming_its_label(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as e:
        judge(_scenario(tmp_path, ATTACK), "en")
    assert e.value.key == 'dice."r1/t1/a1/saber/attack1"'
    assert e.value.file.endswith("case.toml")


def test_an_unused_die_is_an_error_naming_it(tmp_path: Path) -> None:
    text = ATTACK + '[dice]\n"r1/t1/a1/saber/attack1" = 4\n"r1/t1/a1/berserker/evade1" = 6\n'
    with pytest.raises(ScenarioError) as e:
        judge(_scenario(tmp_path, text), "en")
    assert e.value.key == 'dice."r1/t1/a1/berserker/evade1"'


def test_dice_may_be_a_list_of_label_and_value(tmp_path: Path) -> None:
    text = ATTACK.replace("steps = ", 'dice = [{label = "r1/t1/a1/saber/attack1", value = 4}]\n'
                          "steps = ") + "[expect]\nchars.berserker = { hp = 17 }\n"
    judged = judge(_scenario(tmp_path, text), "en")
    assert not judged.failures and judged.result["dice"] == [
        {"label": "r1/t1/a1/saber/attack1", "value": 4}]


# ------------------------------------------------------------------ 特殊能力: a skill (no cost)
def test_rule_special_ability_may_be_a_skill_with_no_cost(tmp_path: Path) -> None:
    """「特殊能力　アクションフェイズに実行できる【スキル】【魔術】【宝具】」: a pack may give a
    skill (kind = "skill", cost 0) as a 特殊能力."""
    d = tmp_path / "pack"
    shutil.copytree(default_dir(), d)
    camps = (d / "camps.toml").read_text("utf-8")
    camps = camps.replace('name = "他者封印・鮮血神殿"\nkind = "np"\ntiming = "action"\neffect = "barrier"\ncost = 2',
                          'name = "他者封印・鮮血神殿"\nkind = "skill"\ntiming = "action"\neffect = "barrier"\ncost = 0')
    (d / "camps.toml").write_text(camps, "utf-8")
    g = board.new_game(players=2, camps=["rider", "saber"], pack=str(d),
                       setup={**BASE, "camps": {"0": {"spells": 0}}})
    g.submit(0, "action")
    assert "ability:blood_fort:rider" in g.pending()[0].options
    g.submit(0, "ability:blood_fort:rider")
    assert g.camps[0].barrier == {"pos": (4, 4), "ability": "blood_fort"}


# ------------------------------------------------------------------ fuyuki judge FILE
def test_cli_judge_explains_in_ja_and_en_and_exits_0() -> None:
    path = str(HERE / "defence_order_follows_the_rounds_turn_order.toml")
    ja = runner.invoke(app, ["judge", path])
    en = runner.invoke(app, ["judge", path, "--lang", "en"])
    assert ja.exit_code == 0 and en.exit_code == 0, ja.output + en.output
    assert "第2ラウンド" in ja.output and "✔" in ja.output and "Round 2" not in ja.output
    assert "Round 2" in en.output and "Every expectation is met" in en.output
    assert "約束された勝利の剣" in en.output      # the steps, explained


def test_cli_judge_json_is_the_final_state() -> None:
    path = str(HERE / "barrier_strikes_at_its_camps_draw.toml")
    r = runner.invoke(app, ["judge", path, "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["chars"]["saber"]["hp"] == 8 and data["camps"][1]["barrier"] == "間桐邸"
    assert data["failures"] == [] and data["log"]


def test_cli_judge_unmet_expectation_exits_1_naming_it(tmp_path: Path) -> None:
    text = (HERE / "barrier_strikes_at_its_camps_draw.toml").read_text("utf-8")
    p = _scenario(tmp_path, text.replace("chars.saber = { hp = 8 }", "chars.saber = { hp = 9 }"))
    for lang, word in (("ja", "期待"), ("en", "expected")):
        r = runner.invoke(app, ["judge", str(p), "--lang", lang])
        assert r.exit_code == 1, r.output
        assert "expect.chars.saber.hp" in r.output and word in r.output


@pytest.mark.parametrize("change,key", [
    (('game = "board"', 'game = "board"\nweather = "rain"'), "weather"),
    (("hp = 10", "hp = 99"), "setup.chars.saber.hp"),
    (("steps = []", 'steps = [[0, "battle"]]'), "steps[0]"),
    (("chars.saber = { hp = 8 }", "chars.saber = { mood = 8 }"), "expect.chars.saber.mood"),
])
def test_cli_judge_bad_file_exits_2_naming_the_key(tmp_path: Path, change, key: str) -> None:
    text = (HERE / "barrier_strikes_at_its_camps_draw.toml").read_text("utf-8")
    assert change[0] in text
    p = _scenario(tmp_path, text.replace(*change))
    for lang in ("ja", "en"):
        r = runner.invoke(app, ["judge", str(p), "--lang", lang])
        assert r.exit_code == 2, r.output
        assert str(p) in r.output and key in r.output and len(r.output.strip().splitlines()) == 1
