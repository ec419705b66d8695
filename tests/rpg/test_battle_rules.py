"""Battle rules checked on the decisions themselves (who is asked, in which order)."""

from dataclasses import replace

from fuyuki.core.dice import FixedDice
from fuyuki.rpg.battle_game import BattleGame
from fuyuki.rpg.roster import parse_pair
from fuyuki.core.data import Table
from fuyuki.rpg.rules import default_rules

ZERO = {"str": 0, "end": 0, "agi": 0, "mgi": 0, "luk": 0, "np": 0}


def pair(pid, agi=30):
    stats = {"str": 30, "end": 30, "agi": agi, "mgi": 30, "luk": 30, "np": 30}
    return parse_pair(Table({"id": pid, "servant": {"name": pid, "lv": 60, "stats": stats},
                             "master": {"name": pid + "主", "stats": dict(ZERO)}}, "t"),
                      default_rules())


def game(rolls):
    dice = FixedDice(rolls)
    g = BattleGame(default_rules(), ([pair("a", 31)], [pair("b")]), lambda: dice,
                   lineups=("servant|master", "servant|master"))
    return g, dice


def answer_until(g, kind):
    while True:
        pend = g.pending()
        seat, d = sorted(pend.items())[0]
        if d.kind == kind:
            return seat, d
        g.submit(seat, "pass" if "pass" in d.options else d.options[0])


def test_a_drawn_random_comparison_is_offered_for_redraw_to_the_non_initiative_side_first():
    g, dice = game([1])            # the 1D4 shows 1: the first of the four left, 耐久
    seat, d = answer_until(g, "pick_stat")
    g.submit(0, "agi")             # A (initiative) picks 敏捷
    g.submit(1, "str")             # B picks 筋力; the 1D4 draws 耐久: 30 vs 30, a draw
    seat, d = answer_until(g, "redraw")
    assert seat == 1               # B, the side without initiative, is asked first
    g.submit(1, "pass")
    assert list(g.pending()) == [0] and g.pending()[0].kind == "redraw"


def test_the_random_stat_is_drawn_from_the_four_stats_not_picked_in_order():
    g, dice = game([4])
    answer_until(g, "pick_stat")
    g.submit(0, "end")
    g.submit(1, "luk")
    seat, d = answer_until(g, "redraw")
    assert d.info["four"] == ["str", "agi", "mgi", "np"] and d.info["stat"] == "np"


def test_a_stat_picked_by_the_initiative_side_cannot_be_picked_again():
    g, dice = game([])
    answer_until(g, "pick_stat")
    g.submit(0, "mgi")
    d = g.pending()[1]
    assert d.kind == "pick_stat" and "mgi" not in d.options and len(d.options) == 5


def test_the_nonservant_penalty_counts_a_servant_of_the_other_side_in_sonota():
    # 「相手陣営にサーヴァントが存在する場合」: side B puts two masters in メイン and サブ; its
    # servants take part as その他 all the same, so A's master (サブ) takes −10: 30 → 20 → 10
    def pr(pid):
        return parse_pair(Table({"id": pid, "servant": {"name": pid, "lv": 60, "stats": {
            **ZERO, "str": 30}}, "master": {"name": pid + "主", "stats": {**ZERO, "str": 30}}},
            "t"), default_rules())
    dice = FixedDice([1])          # equal 敏捷 and no defender: the 1D2 gives A initiative
    g = BattleGame(default_rules(), ([pr("a")], [pr("b"), pr("c")]), lambda: dice,
                   lineups=("servant|master", "master1|master2"))
    answer_until(g, "pick_stat")
    rows = {r["name"]: r["steps"] for e in g.events if e.kind == "totals" for r in e.data["rows"]}
    assert [k for k, _ in rows["a主"]] == ["base", "nonservant", "half"]
    assert rows["a主"][-1][1][0] == 10


def test_the_seal_stat_boost_has_no_limit_per_servant():
    # seed 令呪 3: 「戦闘終了時まで、サーヴァントのステータス全てに「＋１０」」 — no limit but the 令呪
    g, dice = game([])
    seat, d = answer_until(g, "prepare")
    assert seat == 0 and "boost:a.servant" in d.options
    g.submit(0, "boost:a.servant")
    g.submit(1, "pass")
    assert "boost:a.servant" in g.pending()[0].options
    g.submit(0, "boost:a.servant")
    g.submit(1, "pass")
    g.submit(0, "boost:a.servant")              # the third and last 令呪
    assert g.states[0].seals == 0 and g.pending()[1].kind == "prepare"


def test_a_retreat_may_be_paid_into_negative_mana_and_the_servant_then_vanishes_at_the_turn_end():
    # step 7 「魔力を「１００」点消費することで令呪１画分の代用にできます」 sets no floor:
    # B at -80 loses (-30 after the battle: -110), pays all 300 in mana (-410) and retreats;
    # 「そのターンの終了時」 the check (-410 + 20) finds it at -100 or below: it vanishes then
    from tests.rpg.test_war import QUIET, kinds, play, war
    w, dice = war(QUIET + [1, 51], b_extra={"mana": -80})
    play(w, {(0, "action"): ["attack:B"], (1, "action"): ["other"], (1, "retreat"): ["pay:0"]})
    paid = kinds(w, "retreat")[0]
    assert w.battles == 1 and paid["seals"] == 0 and paid["mana"] == 300
    assert [e.kind for e in w.events].index("retreat") < [e.kind for e in w.events].index("vanish")
    assert w.pairs[1].seals == 3 and w.pairs[1].mana == -410 + 20
    assert w.pairs[1].out_reason == "vanished" and w.pairs[1].losses == 1
    # mana recovered before the check saves it: three 令呪 for +100 each, -410 + 20 + 300 = -90
    w, dice = war(QUIET + [1, 51], b_extra={"mana": -80})
    play(w, {(0, "action"): ["attack:B"], (1, "action"): ["other"], (1, "retreat"): ["pay:0"],
             (1, "mana"): ["seal", "seal", "seal", "done"]})
    assert w.pairs[1].alive and w.pairs[1].mana == -90 and not kinds(w, "vanish")


def test_with_the_variant_mana_above_vanish_a_retreat_is_paid_only_while_the_servant_stays_above_it():
    # retreat.mana_above_vanish = true (a group's stricter reading of step 6): at -110
    # (after the battle's -30) no mana can be paid; at 60, one 100 (-> -40), not two or three
    rules = default_rules()
    strict = replace(rules, retreat={**rules.retreat, "mana_above_vanish": True})
    for mana, legal in ((-80, ["stay", "pay:3"]), (90, ["stay", "pay:2", "pay:3"])):
        dice = FixedDice([1, 1])
        g = BattleGame(strict, ([pair("a", 31)], [pair("b")]), lambda: dice,
                       lineups=("servant|master", "servant|master"),
                       setup=lambda states, m=mana: setattr(states[1], "mana", m))
        answer_until(g, "pick_stat")
        g.submit(0, "str")
        g.submit(1, "end")
        seat, d = answer_until(g, "retreat")
        assert seat == 1 and list(d.options) == legal, (mana, d.options)


def test_no_odds_before_spending_seals_the_prepare_decision_carries_the_totals_base_rates_and_each_seals_effect():
    # issue 48: 「■2 戦力値・基礎勝率」 asked about 令呪 before any number. The decision now
    # carries both sides' totals and 基礎勝率 and what each 令呪 would change — the numbers the
    # battle then logs — computed without a roll or an event (the log stays what it was)
    from fuyuki.cli.files import rpg_sheet
    from fuyuki.core.data import package_file

    sheets = [rpg_sheet(str(package_file("fuyuki.rpg", "data", "sheets", f"{n}.toml")))
              for n in ("saber", "assassin")]
    dice = FixedDice([1])
    g = BattleGame(default_rules(), ([sheets[0]], [sheets[1]]), lambda: dice,
                   lineups=("servant|master", "servant|master"))
    seat, d = answer_until(g, "prepare")
    logged = list(g.events)
    assert g.pending()[0] == d and g.events == logged and dice.used == []
    assert not {"roll", "base_rate", "totals"} & {e.kind for e in logged}
    saber, assassin = (s.servant.id for s in sheets)
    assert d.info["base"] == [5, 0] and d.info["seal_rate"] == [30, 15]
    assert d.info["effects"][f"boost:{saber}"]["totals"] == [v + 10 for v in d.info["totals"][0]]
    assert d.info["effects"][f"mana:{saber}"]["mana"] == [210, 210]      # full already
    g.submit(0, f"boost:{saber}")
    d = g.pending()[1]
    # the assassin at −25 mana: +100 lifts it out of the shortage, −20 to every stat gone
    mana = d.info["effects"][f"mana:{assassin}"]
    assert mana["mana"] == [-25, 75] and mana["totals"][0] == d.info["totals"][1][0] + 10
    g.submit(1, f"mana:{assassin}")
    g.submit(0, "pass")
    g.submit(1, "pass")
    logged = {(e.kind, e.data["side"]): e.data for e in g.events if e.kind in ("totals", "base_rate")}
    assert logged["base_rate", 0]["value"] == 5 and logged["base_rate", 1]["value"] == 0
    assert logged["totals", 1]["totals"] == mana["totals"]
