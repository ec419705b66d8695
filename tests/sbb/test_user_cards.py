"""Users' own cards (issue 3 §5, docs/sbb-cards.md): a card file in the built-in schema changes
a servant's power, an ability's numbers, the action mix, or adds a card that combines existing
effect kinds — and every error in it names the file, the key and what is wrong."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from fuyuki.cli.main import app
from fuyuki.core.errors import DataError
from fuyuki.sbb import new_game
from fuyuki.sbb.cards import default_cards_path
from fuyuki.sbb.judge import judge
from fuyuki.sbb.rules import Rules

from .conftest import play_out

BUILTIN = default_cards_path().read_text(encoding="utf-8")
VARIANTS = Path(__file__).parent / "scenarios" / "variants"
FINAL = Path(__file__).parent / "scenarios" / "final"

# the worked example of docs/sbb-cards.md, step by step
POWER = ('id = "saber"\nname = { ja = "セイバー", en = "Saber" }\npower = 3',
         'id = "saber"\nname = { ja = "セイバー", en = "Saber" }\npower = 4')
RIDER = ('effect = { destroy = ["servant"], pool_gems = 1 }',
         'effect = { destroy = ["servant"], pool_gems = 2 }')
SNAKE = ('ability = { kind = "snake", bonus = 2 }', 'ability = { kind = "snake", bonus = 3 }')
MIX = ('sortie = [1, 2, 2, 3, 3, 4, 5]\nnp = [1, 2, 3]', 'sortie = [1, 2, 3, 4, 6]\nnp = [2, 2, 4]')
ALTER = '''
[[servant]]
id = "saber_alter"
name = { ja = "セイバーオルタ", en = "Saber Alter" }
power = 3
np = { name = { ja = "約束された勝利の剣・卑王鉄槌", en = "Excalibur Morgan" }, keyword = "剣" }
effect = { destroy = ["servant", "master"], sure_hit = true, pool_gems = 1 }
passive = { retaliate = true }
text = { ja = "相手のサーヴァントとマスターを必中で破壊し、GEM山から1個取る。破壊されたら相打ち。", en = "Sure-hit destroys every opposing servant and master, then takes a pool gem; retaliates when destroyed." }
'''


def write(tmp_path: Path, *changes, extra: str = "", name: str = "mine.toml") -> Path:
    text = BUILTIN
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    p = tmp_path / name
    p.write_text(text + extra, encoding="utf-8")
    return p


def test_a_copy_of_the_builtin_file_plays_the_same_game(tmp_path):
    p = write(tmp_path)
    a = play_out(new_game(4, 3, Rules.preset("final")))
    b = play_out(new_game(4, 3, Rules.preset("final", cards=p)))
    assert a.result == b.result
    assert Rules.preset("final", cards=p).cards.source == str(p)


def test_change_a_servants_power(tmp_path):
    p = write(tmp_path, POWER)
    assert Rules.preset("final", cards=p).cards.servants["saber"].power == 4
    scenario = VARIANTS / "v1_1_no_land_modifier.toml"  # セイバー 3+2 ties ランサー 2+3
    assert judge(scenario, "en").result["seats"][0]["gems"] == 1
    mine = judge(scenario, "en", cards=p)
    assert mine.result["seats"][0]["gems"] == 3  # 4+2 wins alone
    assert any(e.kind == "case3_win" for e in mine.game.events)


def test_change_an_abilitys_numbers(tmp_path):
    p = write(tmp_path, RIDER, SNAKE)
    r = Rules.preset("final", cards=p)
    assert r.cards.servants["rider"].effect.pool_gems == 2
    assert r.cards.masters["kuzuki"].params == {"bonus": 3}
    base = judge(FINAL / "rider_takes_pool_gem.toml", "en")
    mine = judge(FINAL / "rider_takes_pool_gem.toml", "en", cards=p)
    assert base.result["pool"] - mine.result["pool"] == 1
    takes = [e.data["gems"] for e in mine.game.events if e.kind == "pool_take"]
    assert takes == [2]


def test_change_the_action_mix(tmp_path):
    p = write(tmp_path, MIX)
    r = Rules.preset("final", cards=p)
    assert r.cards.sortie_values == (1, 2, 3, 4, 6) and r.cards.np_values == (2, 2, 4)
    g = new_game(4, 1, r)
    s = g.s
    deck = g.t.names_of(s.adeck + [c for h in s.hand for c in h])
    assert len(deck) == 5 * 8 + 3
    assert deck.count("red-np-2") == 2 and "red-sortie-6" in deck and "red-sortie-5" not in deck
    play_out(g)


def test_add_a_card_combining_effect_kinds(tmp_path):
    p = write(tmp_path, extra=ALTER)
    r = Rules.preset("final", cards=p)
    alter = r.cards.servants["saber_alter"]
    assert alter.effect.destroy == ("servant", "master") and alter.effect.sure_hit
    assert alter.retaliate and "saber_alter" in r.servants  # every card of the file plays
    scenario = tmp_path / "alter.toml"
    scenario.write_text('''title = "セイバーオルタ vs バーサーカー"
players = 3
parent = 0
pool = 20
[lands]
emiya = 1
school = 1
ryudoji = 1
church = 1
[[seat]]
master = "rin"
servant = "saber_alter"
bid = "red-np-3"
[[seat]]
master = "kuzuki"
servant = "berserker"
bid = "red-np-1"
[[seat]]
master = "zouken"
servant = "lancer"
''', encoding="utf-8")
    v = judge(scenario, "en", cards=p)
    seat1 = v.result["seats"][1]
    assert seat1["servant_lost"] and seat1["master_lost"]  # 必中 beats ゴッドハンド
    assert v.result["seats"][0]["gems"] == 2  # the land's gem and a pool gem
    for edition in ("v1.0", "v1.1", "final"):
        rules = Rules.preset(edition, cards=p)
        for seed in range(3):
            play_out(new_game(5, seed, rules), rng_seed=seed)


def test_a_new_auto_servant_follows_its_np_auto(tmp_path):
    golem = ALTER.replace('id = "saber_alter"', 'id = "golem"').replace(
        'keyword = "剣" }', 'keyword = "肉体", auto = true }').replace(
        'effect = { destroy = ["servant", "master"], sure_hit = true, pool_gems = 1 }\n', '').replace(
        'passive = { retaliate = true }', 'passive = { indestructible = true }')
    p = write(tmp_path, extra=golem)
    assert "golem" in Rules.preset("v1.0", cards=p).auto_np
    assert "berserker" not in Rules.preset("v1.0", cards=p).auto_np  # the edition's own list
    assert "berserker" in Rules.preset("v1.1", cards=p).auto_np


def test_edition_card_params_apply_to_a_users_file(tmp_path):
    p = write(tmp_path)
    assert Rules.preset("v1.1", cards=p).cards.masters["illya"].params["victory"] == 7
    assert Rules.preset("final", cards=p).cards.masters["illya"].params["victory"] == 10


def test_a_user_event_of_an_edition_kind_plays(tmp_path):
    luck2 = '''
[[event]]
id = "luck2"
kind = "luck"
name = { ja = "強運（二枚目）", en = "Good Luck (2nd)" }
'''
    p = write(tmp_path, extra=luck2)
    assert Rules.preset("final", cards=p).events == ("luck", "swap", "grail", "luck2")
    assert Rules.preset("v1.1", cards=p).events == ("luck", "swap", "luck2")
    assert Rules.preset("v1.0", cards=p).events == ()
    g = new_game(4, 1, Rules.preset("final", cards=p))
    assert g.t.names_in(g.s.luck_cards) == ("luck", "luck2")


def test_modes_work_with_a_users_file(tmp_path):
    p = write(tmp_path, POWER, extra=ALTER)
    r = Rules.preset("v1.1", "hollow", cards=p)
    assert "saber_alter" in r.servants and "kirei" not in r.masters
    assert r.power_override == {"gilgamesh": 0}
    play_out(new_game(4, 2, r))


def test_too_few_masters_for_any_player_count(tmp_path):
    text = BUILTIN
    start = text.index("[[master]]\nid = \"rin\"")
    end = text.index("# --------------------------------------------------------------------------- servants")
    p = tmp_path / "two.toml"
    p.write_text(text[:start] + text[end:], encoding="utf-8")  # only 衛宮士郎 left
    with pytest.raises(DataError) as exc:
        Rules.preset("final", cards=p)
    assert exc.value.file == str(p) and exc.value.key == "master"
    assert "only 1 masters" in exc.value.reason


BAD = [
    ("power_not_int", ('power = 3\nnp = { name = { ja = "約束', 'power = "3"\nnp = { name = { ja = "約束'),
     "servant[0].power", "must be an integer"),
    ("unknown_key", ('id = "saber"\n', 'id = "saber"\nspeed = 3\n'), "servant[0].speed",
     "unknown key"),
    ("unknown_ability", ('ability = { kind = "jewel" }', 'ability = { kind = "jewels" }'),
     "master[1].ability.kind", "must be one of"),
    ("missing_parameter", ('ability = { kind = "snake", bonus = 2 }', 'ability = { kind = "snake" }'),
     "master[8].ability.bonus", "missing"),
    ("negative_parameter", ('ability = { kind = "snake", bonus = 2 }',
                            'ability = { kind = "snake", bonus = -2 }'),
     "master[8].ability.bonus", "at least 0"),
    ("bad_destroy", ('effect = { destroy = ["servant"], pool_gems = 1 }',
                     'effect = { destroy = ["servants"], pool_gems = 1 }'),
     "servant[3].effect.destroy[0]", "'servant' or 'master'"),
    ("duplicate_id", ('id = "archer"', 'id = "saber"'), "servant[1].id", "duplicate"),
    ("fetch_unknown_master", ('card = "sakura"', 'card = "sakuraa"'), "master[3].ability.card",
     "no master"),
    ("land_modifier_unknown", ('servant = "rider", bonus = 1', 'servant = "medusa", bonus = 1'),
     "land[1].modifier.servant", "no servant"),
    ("bad_colour", ('colour = "purple"', 'colour = "black"'), "land[4].colour", "must be one of"),
    ("negative_action", ('sortie = [1, 2, 2, 3, 3, 4, 5]', 'sortie = [1, 2, -2]'),
     "actions.sortie[2]", "0 to 99"),
    ("bad_event_kind", ('kind = "grail"', 'kind = "chalice"'), "event[2].kind", "must be one of"),
    ("missing_english", ('name = { ja = "セイバー", en = "Saber" }', 'name = { ja = "セイバー" }'),
     "servant[0].name.en", "missing"),
    ("unknown_effect_key", ('effect = { cancel = true }', 'effect = { cancel = true, explode = 2 }'),
     "servant[4].effect.explode", "unknown key"),
    ("not_toml", ("[actions]", "[actions"), "-", "not valid TOML"),
]


@pytest.mark.parametrize("name,change,key,reason", BAD, ids=[b[0] for b in BAD])
def test_every_error_names_file_key_and_reason(tmp_path, name, change, key, reason):
    p = write(tmp_path, change, name=f"{name}.toml")
    with pytest.raises(DataError) as exc:
        Rules.preset("final", cards=p)
    assert exc.value.file == str(p)
    assert exc.value.key == key
    assert reason in exc.value.reason
    assert str(p) in str(exc.value) and key in str(exc.value)


def test_missing_card_file(tmp_path):
    with pytest.raises(DataError) as exc:
        Rules.preset("final", cards=tmp_path / "nope.toml")
    assert exc.value.file == str(tmp_path / "nope.toml") and "no such file" in exc.value.reason


def test_cli_reports_a_bad_card_file_with_exit_2(tmp_path):
    p = write(tmp_path, BAD[0][1], name="bad.toml")
    scenario = VARIANTS / "v1_1_no_land_modifier.toml"
    res = CliRunner().invoke(app, ["judge", str(scenario), "--cards", str(p), "--lang", "en"])
    assert res.exit_code == 2
    flat = " ".join(res.output.split())
    assert "servant[0].power" in flat and "bad.toml" in flat


def test_cli_plays_with_a_users_file(tmp_path):
    p = write(tmp_path, POWER, MIX, extra=ALTER)
    res = CliRunner().invoke(app, ["play", "--bots-only", "--bots", "random", "--seed", "4",
                                   "--edition", "v1.1", "--mode", "ubw", "--cards", str(p),
                                   "--lang", "en", "-p", "3"])
    assert res.exit_code == 0, res.output
    assert "Game over" in res.output
