"""The war's judge: every scenario file under tests/rpg/scenarios meets its [expect], each pins
a line of seed 002, and `fuyuki judge FILE` runs them end to end (ja and en; exit 0 met, 1 not
met, 2 a bad file naming its key). A state the rules cannot reach is refused naming the key."""

import json
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuyuki.cli.main import app
from fuyuki.core.errors import ScenarioError
from fuyuki.rpg.judge import judge

ROOT = Path(__file__).parent / "scenarios"
FILES = sorted(ROOT.glob("*.toml"))
SEED = Path("/work/shared/seeds/002_62a2d85681a68f3a.txt")
runner = CliRunner()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_war_scenario(path):
    for lang in ("ja", "en"):
        judged = judge(path, lang)
        assert not judged.failures, "\n".join(judged.log)


def test_every_war_scenario_pins_a_line_of_seed_002_and_states_an_expectation():
    assert len(FILES) >= 40
    seed = "".join(SEED.read_text("utf-8").split()) if SEED.exists() else None
    for path in FILES:
        data = tomllib.loads(path.read_text("utf-8"))
        assert data["game"] == "war" and data.get("expect"), path
        assert data.get("pins"), f"{path.name}: no pins"
        if seed is not None:
            assert "".join(data["pins"].split()) in seed, f"{path.name}: pins is not in seed 002"


# -- the command --------------------------------------------------------------------------------

def scenario(tmp_path, name="x.toml", edit=None, base="other_action.toml"):
    text = (ROOT / base).read_text("utf-8")
    if edit:
        text = edit(text)
    p = tmp_path / name
    p.write_text(text, "utf-8")
    return str(p)


def test_judge_explains_a_war_scenario_in_japanese_and_english_and_exits_0():
    path = str(ROOT / "battle_rate_difference.toml")
    ja = runner.invoke(app, ["judge", path])
    assert ja.exit_code == 0, ja.output
    assert "(1D100<=72) ＞ 72 ＞ 成功" in ja.output and "ダイス t1/b1/win：1D100 ＝ 72" in ja.output
    assert "＞ 赤の鯖の選択（比較するステータス）：筋力" in ja.output
    assert "期待どおり" in ja.output and "根拠（シード002）" in ja.output
    en = runner.invoke(app, ["judge", path, "--lang", "en"])
    assert en.exit_code == 0, en.output
    assert "(1D100<=72) > 72 > Success" in en.output and "die t1/b1/win: 1D100 = 72" in en.output
    assert "As expected" in en.output


def test_judge_json_gives_the_final_state():
    res = runner.invoke(app, ["judge", str(ROOT / "retreat_paid_with_mana.toml"), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["pairs"]["B"]["mana"] == -20 and out["pairs"]["B"]["seals"] == 2
    assert out["battles"][0]["label"] == "t1/b1" and out["battles"][0]["winner"] == "A"
    assert out["dice"] == {"t1/b1/random_stat": 1, "t1/b1/win": 51} and out["failures"] == []


def test_judge_exits_1_naming_each_unmet_expectation(tmp_path):
    path = scenario(tmp_path, edit=lambda t: t.replace("mana = 120,", "mana = 121,"))
    ja = runner.invoke(app, ["judge", path])
    assert ja.exit_code == 1
    assert f"✘ {path}：expect.pair.R.mana：期待 121、結果 120" in ja.output
    assert "期待と違う点：1件" in ja.output
    en = runner.invoke(app, ["judge", path, "--lang", "en"])
    assert en.exit_code == 1 and f"✘ {path}: expect.pair.R.mana: expected 121, got 120" in en.output


@pytest.mark.parametrize("edit,key", [
    (lambda t: t.replace('pins = ', 'colour = "red"\npins = '), "colour"),
    (lambda t: t.replace('pins = "６．その他"\n', ''), "pins"),
    (lambda t: t.replace("[choices]", '[dice]\n"t1/act/R" = 0\n\n[choices]'), 'dice."t1/act/R"'),
    (lambda t: t.replace('R = { action = ["other"] }', 'R = { action = ["fly"] }'),
     "choices.R.action[0]"),
    (lambda t: t.replace('R = { action = ["other"] }', 'R = { action = ["other", "rest"] }'),
     "choices.R.action[1]"),
    (lambda t: t.replace("[choices]", '[dice]\n"t1/act/R" = 5\n\n[choices]'), 'dice."t1/act/R"'),
    (lambda t: t.replace('R = { action = ["other"] }', 'R = { action = ["info:B"] }'),
     'dice."t1/act/R"'),
    (lambda t: t.replace('events = ["act_other"]', 'events = ["act_othr"]'), "expect.events[0]"),
    (lambda t: t.replace("pair.R = { mana = 120,", "pair.R = { manna = 120,"), "expect.pair.R.manna"),
])
def test_judge_exits_2_on_a_bad_scenario_naming_the_key(tmp_path, edit, key):
    path = scenario(tmp_path, edit=edit)
    for lang in ("ja", "en"):
        res = runner.invoke(app, ["judge", path, "--lang", lang])
        assert res.exit_code == 2, res.output
        assert key in res.output and "Traceback" not in res.output


# -- states the rules cannot reach -------------------------------------------------------------

def alliance_c(text):
    return text.replace('[[pair]]\nid = "C"', '[[pair]]\nid = "C"\nmana = -120\nout = "vanished"')


UNREACHABLE = [
    # (rule, the edit of other_action.toml (or of another base), the key, a word of the reason)
    ("mana_above_the_maximum", lambda t: t.replace("mana = 100", "mana = 191"), None,
     "pair[0].mana", "above the maximum 190"),
    ("more_than_three_seals", lambda t: t.replace("mana = 100", "mana = 100\nseals = 4"), None,
     "pair[0].seals", "at most 3"),
    ("a_vanished_servant_cannot_act",
     lambda t: alliance_c(t).replace("turn = 1", "turn = 2"), "alliance.toml",
     "choices.C", "out of the war"),
    ("a_vanished_servant_had_minus_100_or_less",
     lambda t: t.replace("mana = 100", 'out = "vanished"').replace(
         '[choices]\nR = { action = ["other"] }', ""), None, "pair[0].mana", "vanishes at"),
    ("a_living_servant_at_minus_100_cannot_start_a_turn",
     lambda t: t.replace("mana = 100", "mana = -100").replace(
         'phase = "action"', 'phase = "events"').replace("turn = 1", "turn = 2"), None,
     "pair[0].mana", "cannot start one"),
    ("nothing_happened_before_the_events_of_turn_1",
     lambda t: t.replace("mana = 100", "mana = 100\nwins = 1").replace(
         'phase = "action"', 'phase = "events"'), None, "pair[0].wins", "nothing has happened"),
    ("a_win_needs_a_loser", lambda t: t.replace("mana = 100", "mana = 100\nwins = 2"), None,
     "pair[0].wins", "leave room for 0"),
    ("battles_agree_with_wins_and_losses",
     lambda t: t.replace("mana = 100", "mana = 100\nwins = 1").replace(
         '[[pair]]\nid = "B"', '[[pair]]\nid = "B"\nlosses = 1').replace(
         "turn = 1", "turn = 2\nbattles = 2"), None, "battles", "allow 1..1"),
    ("an_alliance_is_mutual", lambda t: t.replace("mana = 100", 'mana = 100\nallies = ["B"]'),
     None, "pair[0].allies", "mutual"),
    ("a_war_already_over_cannot_go_on",
     lambda t: t.replace('[[pair]]\nid = "B"', '[[pair]]\nid = "B"\nout = "defeated"\nlosses = 1')
     .replace("mana = 100", "mana = 100\nwins = 1"), None, "pair[1].out", "already be over"),
    ("an_item_of_the_pairs_own_craft_set",
     lambda t: t.replace("mana = 100", "mana = 100\nitems = { stone = 1 }"), None,
     "pair[0].items.stone", "craft set"),
    ("a_turn_within_the_limit", lambda t: t.replace("turn = 1", "turn = 4\nmax_turns = 3"), None,
     "turn", "turn limit"),
    ("a_rest_counts_only_from_the_comm_phase", lambda t: t.replace("mana = 100", "mana = 100\nrested = true"),
     None, "pair[0].rested", "休息"),
]


@pytest.mark.parametrize("edit,base,key,reason", [u[1:] for u in UNREACHABLE],
                         ids=[u[0] for u in UNREACHABLE])
def test_a_state_the_rules_cannot_reach_is_refused_naming_the_key(tmp_path, edit, base, key, reason):
    with pytest.raises(ScenarioError) as info:
        judge(scenario(tmp_path, edit=edit, base=base or "other_action.toml"), "en")
    assert info.value.key == key and reason in info.value.reason, info.value


def test_the_war_example_of_docs_judge_md_runs_and_meets_its_expectations(tmp_path):
    doc = (Path(__file__).parents[2] / "docs" / "judge.md").read_text("utf-8")
    start = doc.index('game = "war"\nrule')
    p = tmp_path / "example.toml"
    p.write_text(doc[start:doc.index("```", start)], "utf-8")
    judged = judge(p, "ja")
    assert not judged.failures and judged.result["pairs"]["B"]["seals"] == 2


def test_mutated_war_scenarios_give_typed_errors_only(tmp_path):
    # structural and textual mutations of the scenario files (tests/core/fuzz.py): every one
    # ends in a result or in one of the project's typed errors, never a traceback
    import random

    from fuyuki.core.errors import FuyukiError
    from tests.core.fuzz import mutate_text, structural_toml

    rng = random.Random(46)
    evil = ["1", "-1", '"x"', "true", "[]", "{}", '[1, "a"]', "1.5", "99999999999999999999",
            '"t1/*"', '"seal_mana"', "-200", '"vanished"', "1979-05-27"]
    p = tmp_path / "m.toml"
    refused = 0
    for _ in range(300):
        text = rng.choice(FILES).read_text("utf-8")
        for _ in range(rng.randint(1, 3)):
            text = structural_toml(text, rng) if rng.random() < 0.5 else mutate_text(text, rng, evil)
        p.write_text(text, "utf-8", errors="surrogateescape")
        try:
            judge(p, rng.choice(["ja", "en"]))
        except FuyukiError:
            refused += 1
    assert 0 < refused < 300
