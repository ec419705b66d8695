"""Rules and rosters as data: ranks [R-1], the table's ten cells, validation with clear errors."""

import copy
import tomllib

import pytest

from fuyuki.core import i18n
from fuyuki.core.data import package_file
from fuyuki.core.errors import DataError
from fuyuki.rpg.roster import load_pair_file, load_roster, parse_roster
from fuyuki.rpg.rules import load_rules, default_rules
from fuyuki.rpg.text import t


def rules():
    return default_rules()


@pytest.mark.parametrize("rank,value", [("E", 10), ("D", 20), ("C", 30), ("B", 40), ("A", 50),
                                        ("EX", 60), ("A+", 55), ("A++", 60), ("B-", 35),
                                        ("C−", 25), ("b+", 45), ("Ａ", None), ("Z", None),
                                        ("A+-", None)])
def test_rank_letters_map_to_numbers(rank, value):
    if value is None:
        with pytest.raises(ValueError):
            rules().rank_value(rank)
    else:
        assert rules().rank_value(rank) == value


def test_the_table_has_all_ten_cells_including_both_evens():
    t_ = rules().table
    assert len(t_) == 10
    assert t_[(1, 1, 1)] == 50 and t_[(0, 3, 0)] == 50
    assert [t_[k] for k in [(0, 0, 3), (0, 1, 2), (1, 0, 2), (0, 2, 1), (1, 2, 0), (2, 0, 1),
                            (2, 1, 0), (3, 0, 0)]] == [0, 20, 30, 40, 60, 70, 80, 100]


def _rules_file(tmp_path, edit):
    src = package_file("fuyuki.rpg", "data", "rules.toml").read_text("utf-8")
    p = tmp_path / "rules.toml"
    p.write_text(edit(src), "utf-8")
    return p


def test_a_missing_table_row_is_refused(tmp_path):
    p = _rules_file(tmp_path, lambda s: s.replace("result = [0, 3, 0]\nrate = 50", "result = [1, 1, 1]\nrate = 50"))
    with pytest.raises(DataError) as e:
        load_rules(p)
    assert str(p) in str(e.value) and "battle.table" in str(e.value)


def test_an_asymmetric_table_is_refused(tmp_path):
    p = _rules_file(tmp_path, lambda s: s.replace("result = [2, 0, 1]\nrate = 70", "result = [2, 0, 1]\nrate = 75"))
    with pytest.raises(DataError, match="not symmetric"):
        load_rules(p)


def test_a_bad_number_names_file_and_key(tmp_path):
    p = _rules_file(tmp_path, lambda s: s.replace("nonservant_penalty = 10", 'nonservant_penalty = "x"'))
    with pytest.raises(DataError) as e:
        load_rules(p)
    assert e.value.key == "battle.nonservant_penalty"


def test_the_sample_roster_has_two_factions_of_seven_pairs():
    ro = load_roster(None, rules())
    assert sorted(ro.factions) == ["black", "red"]
    assert [sum(p.faction == f for p in ro.pairs) for f in ("red", "black")] == [7, 7]
    assassin = ro.pair("red-assassin")
    assert assassin.craft_set == "double"
    # 貯蔵魔力 max = Lv + 魔力 + 100, summoned full
    saber = ro.pair("red-saber")
    assert saber.max_mana(rules()) == 70 + 40 + 100
    assert saber.servant.stats == {"str": 45, "end": 50, "agi": 40, "mgi": 40, "luk": 20, "np": 50}
    assert saber.seals == 3


def _sample():
    p = package_file("fuyuki.rpg", "data", "roster.toml")
    return tomllib.loads(p.read_text("utf-8"))


@pytest.mark.parametrize("edit,key,reason", [
    (lambda d: d["pair"][0]["servant"]["stats"].pop("筋力"), "pair[0].servant.stats.str", "missing"),
    (lambda d: d["pair"][0]["servant"]["stats"].__setitem__("筋力", "Q"), "pair[0].servant.stats.筋力", "not a rank"),
    (lambda d: d["pair"][1].__setitem__("faction", "green"), "pair[1].faction", "unknown faction"),
    (lambda d: d["pair"][1].__setitem__("base", "nowhere"), "pair[1].base", "unknown site"),
    (lambda d: d["pair"][2].__setitem__("id", "red-saber"), "pair[2].id", "defined twice"),
    (lambda d: d["pair"][0].__setitem__("seals", 4), "pair[0].seals", "at most 3"),
    (lambda d: d["pair"][0]["servant"].__setitem__("lv", 0), "pair[0].servant.lv", "at least 1"),
    (lambda d: d["pair"][0]["servant"]["skills"][0]["effects"][0].__setitem__("kind", "fly"),
     "pair[0].servant.skills[0].effects[0].kind", "must be one of"),
    (lambda d: d["pair"][0].__setitem__("craft_set", "triple"), "pair[0].craft_set", "unknown craft set"),
    (lambda d: d["pair"][0]["master"].__setitem__("hp", 3), "pair[0].master.hp", "unknown key"),
    (lambda d: d["pair"][0].__setitem__("items", {"sword": 1}), "pair[0].items.sword", "unknown item"),
    (lambda d: d["pair"][0].__setitem__("items", {"charm": -1}), "pair[0].items.charm", "at least 0"),
])
def test_a_bad_roster_names_file_key_and_reason(edit, key, reason):
    data = copy.deepcopy(_sample())
    edit(data)
    with pytest.raises(DataError) as e:
        parse_roster(data, "my_roster.toml", rules())
    assert e.value.file == "my_roster.toml"
    assert e.value.key == key
    assert reason in e.value.reason


def test_a_single_sheet_file_loads(tmp_path):
    p = tmp_path / "sheet.toml"
    p.write_text('[servant]\nname = "甲"\nlv = 50\nstats = { "筋力" = "A", "耐久" = "B+", "敏捷" = 30,'
                 ' "魔力" = "C", "幸運" = "D-", "宝具" = "EX" }\n'
                 '[master]\nname = "主"\nstats = { str = 1, end = 2, agi = 3, mgi = 4, luk = 5, np = 6 }\n',
                 "utf-8")
    pair = load_pair_file(p, rules())
    assert pair.id == "sheet"
    assert list(pair.servant.stats.values()) == [50, 45, 30, 30, 15, 60]


def test_both_catalogs_have_the_same_keys():
    t("ja", "success")  # registers the catalogs
    ja = {k for k in i18n.keys("ja") if k.startswith("rpg.")}
    en = {k for k in i18n.keys("en") if k.startswith("rpg.")}
    assert ja == en and len(ja) > 150
