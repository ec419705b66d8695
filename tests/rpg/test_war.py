"""The turn (seed): random events, the five actions, コミュ, the mana check and vanishing.

A two-pair war (赤 R, 黒 B) with fixed rolls: each turn rolls R's and B's morning event, then
their afternoon event (1D10, 10 reads as 0), then the actions resolve in seat order.
Rolls of 5 are quiet events in both tables.
"""

import json

import pytest

from fuyuki.core.dice import FixedDice
from fuyuki.rpg.roster import parse_roster
from fuyuki.rpg.rules import default_rules
from fuyuki.rpg.war import War

QUIET = [5, 5, 5, 5]


def roster(r_extra=None, b_extra=None, c=False):
    zero = {"str": 10, "end": 10, "agi": 10, "mgi": 20, "luk": 10, "np": 0}
    serv = {"str": 30, "end": 30, "agi": 30, "mgi": 30, "luk": 30, "np": 30}
    pairs = [
        {"id": "R", "faction": "red", "base": "shrine", "workshop": 10,
         "servant": {"name": "赤の鯖", "lv": 60, "stats": dict(serv)},
         "master": {"name": "赤の主", "stats": dict(zero)}},
        {"id": "B", "faction": "black",
         "servant": {"name": "黒の鯖", "lv": 60, "stats": dict(serv)},
         "master": {"name": "黒の主", "stats": dict(zero)}},
    ]
    if c:
        pairs.append({"id": "C", "faction": "black",
                      "servant": {"name": "黒の弓", "lv": 60, "stats": dict(serv)},
                      "master": {"name": "黒の弓主", "stats": dict(zero)}})
    pairs[0].update(r_extra or {})
    pairs[1].update(b_extra or {})
    data = {"faction": [{"id": "red", "name": {"ja": "赤", "en": "Red"}},
                        {"id": "black", "name": {"ja": "黒", "en": "Black"}}],
            "site": [{"id": "shrine", "name": "神社", "grade": 30}],
            "pair": pairs}
    return parse_roster(data, "test-roster", default_rules())


class TurnDice(FixedDice):
    commitment = "fixed"
    secret = b""


def war(rolls, turns=1, **kw):
    dice = TurnDice(rolls)
    w = War(roster(**kw), default_rules(), 1, max_turns=turns, dice=lambda t: dice)
    return w, dice


def play(w, answers):
    """answers: {(seat, kind): [choices...]} consumed in order; defaults pass/done/keep/ignore."""
    defaults = {"comm": "pass", "mana": "done", "reroll": "keep", "engage": "ignore",
                "intervene": "ignore", "contact": "talk", "prepare": "pass", "declare": "pass",
                "redraw": "pass", "lineup": None, "pick_stat": None, "alliance": "refuse"}
    while not w.over:
        for seat, d in sorted(w.pending().items()):
            queue = answers.get((seat, d.kind))
            if queue:
                choice = queue.pop(0)
            elif d.kind in ("lineup", "pick_stat"):
                choice = d.options[0]
            elif d.kind in defaults:
                choice = defaults[d.kind]
            else:
                raise AssertionError(f"no answer for seat {seat} {d.kind} {d.options}")
            w.submit(seat, choice)
    return w


def kinds(w, kind):
    return [e.data for e in w.events if e.kind == kind]


def test_mana_check_adds_the_masters_magic_and_rest_replaces_it():
    w, dice = war(QUIET, r_extra={"mana": 100}, b_extra={"mana": 100})
    play(w, {(0, "action"): ["rest"], (1, "action"): ["other"]})
    dice.check_all_used()
    # rest: 【魔】20 × 2 + 霊地 30 + 工房 10 = 80, no +【魔】
    assert w.pairs[0].mana == 180
    assert w.pairs[1].mana == 120
    assert kinds(w, "act_rest")[0]["amount"] == 80


def test_every_gain_stops_at_the_maximum():
    w, dice = war(QUIET, r_extra={"mana": 150}, b_extra={"mana": 185})
    play(w, {(0, "action"): ["rest"], (1, "action"): ["other"]})
    assert w.pairs[0].mana == 190 == w.pairs[0].max_mana(default_rules())
    assert w.pairs[1].mana == 190


def test_a_master_without_seals_drains_another_lv_half_at_the_check():
    w, dice = war(QUIET, b_extra={"mana": 100, "seals": 0})
    play(w, {(0, "action"): ["other"], (1, "action"): ["other"]})
    assert w.pairs[1].mana == 100 + 20 - 30


@pytest.mark.parametrize("start,survives", [(-119, True), (-120, False), (-121, False)])
def test_vanishing_at_minus_100_or_below_at_the_end_of_the_turn(start, survives):
    w, dice = war(QUIET, turns=2, b_extra={"mana": start})
    answers = {(0, "action"): ["other", "other"], (1, "action"): ["other", "other"]}
    play(w, answers) if not survives else None
    if survives:
        w2, d2 = war(QUIET + QUIET, turns=2, b_extra={"mana": start})
        play(w2, answers)
        assert w2.pairs[1].alive and w2.pairs[1].mana == start + 20 + 20
        return
    assert not w.pairs[1].alive
    assert kinds(w, "vanish")[0]["mana"] == start + 20
    assert w.result["reason"] == "faction" and w.result["faction"] == "red"


def test_a_seal_at_the_mana_check_saves_a_servant_from_vanishing():
    w, dice = war(QUIET, b_extra={"mana": -150})
    play(w, {(0, "action"): ["other"], (1, "action"): ["other"], (1, "mana"): ["seal", "done"]})
    assert w.pairs[1].alive and w.pairs[1].mana == -30 and w.pairs[1].seals == 2


def test_information_gathering_success_reveals_the_sheet_only_to_the_gatherer():
    w, dice = war(QUIET + [50])
    play(w, {(0, "action"): ["info:B"], (1, "action"): ["other"]})
    dice.check_all_used()
    assert "B" in w.pairs[0].known
    mine = w.view(0)
    assert next(p for p in mine["pairs"] if p["id"] == "B")["sheet"]["servant"]["name"] == "黒の鯖"
    theirs = json.dumps(w.view(1), ensure_ascii=False)
    public = json.dumps(w.view(None), ensure_ascii=False)
    assert "info_ok" not in theirs and "info_ok" not in public


def test_information_gathering_with_a_familiar_fails_and_loses_it():
    w, dice = war(QUIET + [66])
    w.pairs[0].add_item("familiar")
    play(w, {(0, "action"): ["info:B"], (1, "action"): ["other"]})
    assert kinds(w, "act_info")[0]["rate"] == 65
    assert w.pairs[0].items == {} and "B" not in w.pairs[0].known


def test_a_talisman_rerolls_a_failed_check():
    w, dice = war(QUIET + [66, 12])
    w.pairs[0].add_item("talisman")
    play(w, {(0, "action"): ["info:B"], (1, "action"): ["other"], (0, "reroll"): ["use:talisman"]})
    dice.check_all_used()
    assert "B" in w.pairs[0].known and w.pairs[0].items == {}
    assert [r.label for r in dice.used][-2:] == ["t1/act/R", "t1/act/R/reroll1"]


def test_the_double_talisman_gives_two_rerolls():
    # 赤のアサシン's set: the craft fails three times — the roll and the two re-rolls
    w, dice = war(QUIET + [90, 90, 90], r_extra={"craft_set": "double"})
    w.pairs[0].add_item("double_talisman")
    play(w, {(0, "action"): ["craft:stone"], (1, "action"): ["other"],
             (0, "reroll"): ["use:double_talisman", "reroll"]})
    dice.check_all_used()
    assert w.pairs[0].charges == 0 and w.pairs[0].items == {}
    assert [r.label for r in dice.used][-3:] == ["t1/act/R", "t1/act/R/reroll1", "t1/act/R/reroll2"]


def test_crafting_succeeds_at_magic_times_two():
    w, dice = war(QUIET + [40])
    play(w, {(0, "action"): ["craft:charm"], (1, "action"): ["other"]})
    assert kinds(w, "act_craft")[0]["rate"] == 40
    assert w.pairs[0].items == {"charm": 1}
    w, dice = war(QUIET + [41])
    play(w, {(0, "action"): ["craft:charm"], (1, "action"): ["other"]})
    assert w.pairs[0].items == {}


def test_a_jewel_restores_20_at_the_mana_check():
    w, dice = war(QUIET, r_extra={"mana": 50})
    w.pairs[0].add_item("jewel")
    play(w, {(0, "action"): ["other"], (1, "action"): ["other"], (0, "mana"): ["item:jewel"]})
    assert w.pairs[0].mana == 50 + 20 + 20


def test_soul_eating_unnoticed_gains_100_and_full_fills_up():
    w, dice = war(QUIET + [51], r_extra={"mana": 10})
    play(w, {(0, "action"): ["soul"], (1, "action"): ["other"]})
    assert w.pairs[0].mana == 10 + 100 + 20
    w, dice = war(QUIET + [51], r_extra={"mana": 10})
    play(w, {(0, "action"): ["soul_full"], (1, "action"): ["other"]})
    assert w.pairs[0].mana == 190


def test_soul_eating_detected_and_a_hostile_intervention_won_by_the_intervener_fails_it():
    # detection 50 <= 50; B intervenes: battle B (attacker) vs R; equal 敏捷, the defender R
    # has initiative; all draws (0/3/0 = 50%); the d100 51 fails: B wins; R retreats (pay:0)
    w, dice = war(QUIET + [50, 1, 51], r_extra={"mana": 10})
    play(w, {(0, "action"): ["soul"], (1, "action"): ["other"], (1, "intervene"): ["intervene"],
             (0, "retreat"): ["pay:0"]})
    dice.check_all_used()
    assert kinds(w, "soul_fail") and not kinds(w, "soul_ok")
    assert w.pairs[0].mana == 10 - 30 - 300 + 20


def test_soul_eating_detected_but_ignored_succeeds():
    w, dice = war(QUIET + [50], r_extra={"mana": 10})
    play(w, {(0, "action"): ["soul"], (1, "action"): ["other"]})
    assert kinds(w, "soul_detected") and w.pairs[0].mana == 130


def test_ten_on_the_event_die_reads_as_zero_a_good_event():
    w, dice = war([10, 1, 5, 5, 5], r_extra={"mana": 100})
    play(w, {(0, "action"): ["other"], (1, "action"): ["other"]})
    ev = kinds(w, "event")[0]
    assert (ev["value"], ev["index"]) == (10, 0)
    assert w.pairs[0].mana == 100 + 30 + 20


def test_afternoon_hostile_contact_can_become_a_battle_the_morning_never_does():
    # morning: R rolls 2 (both factions meet): logged only. afternoon: R rolls 7 (hostile
    # contact): B chooses to attack; battle with all draws, defender R first, d100 50 R wins
    w, dice = war([2, 5, 7, 1, 50, 5])
    play(w, {(1, "engage"): ["attack"], (0, "action"): ["other"], (1, "action"): ["other"],
             (1, "retreat"): ["pay:3"]})
    dice.check_all_used()
    starts = kinds(w, "battle_start")
    assert len(starts) == 1 and starts[0]["label"] == "t1/b1"
    assert w.pairs[0].wins == 1 and w.pairs[1].seals == 0


def test_an_attack_that_is_lost_without_retreat_puts_the_pair_out():
    # equal 敏捷: the defender B has initiative; all draws, 50%; d100 51 fails: R wins
    w, dice = war(QUIET + [1, 51])
    play(w, {(0, "action"): ["attack:B"], (1, "action"): ["other"], (1, "retreat"): ["stay"]})
    assert not w.pairs[1].alive and w.result["reason"] == "faction"


def test_alliance_offer_accepted_makes_allies_and_the_ally_defends():
    w, dice = war(QUIET + [5, 5] + QUIET + [5, 5] + [1, 1], turns=2, c=True)
    # turn 1: B offers C an alliance (same faction); turn 2: R attacks B, C joins B's side
    answers = {(0, "action"): ["other", "attack:B"], (1, "action"): ["other", "other"],
               (2, "action"): ["other", "other"], (1, "comm"): ["offer:C"],
               (2, "alliance"): ["accept"], (1, "abandon"): [], (0, "retreat"): ["pay:0"]}
    play(w, answers)
    assert w.pairs[1].allies == {"C"} and w.pairs[2].allies == {"B"}
    start = kinds(w, "battle_start")[0]
    assert start["sides"] == ["赤の鯖", "黒の鯖・黒の弓"]


def test_a_seal_order_is_logged_and_spends_a_seal():
    w, dice = war(QUIET)
    play(w, {(0, "action"): ["other"], (1, "action"): ["other"], (0, "comm"): ["order"]})
    assert w.pairs[0].seals == 2 and kinds(w, "order")


def test_a_seal_can_be_handed_over_by_consent_but_never_above_three():
    w, dice = war(QUIET + QUIET, turns=2, r_extra={"seals": 2})
    play(w, {(0, "action"): ["other", "other"], (1, "action"): ["other", "other"],
             (1, "comm"): ["give:R", "give:R"], (0, "seal_gift"): ["accept", "accept"]})
    assert (w.pairs[0].seals, w.pairs[1].seals) == (3, 2)
    gifts = kinds(w, "seal_gift")
    assert [g["moved"] for g in gifts] == [True, False]
    w, dice = war(QUIET, r_extra={"seals": 2})
    play(w, {(0, "action"): ["other"], (1, "action"): ["other"], (1, "comm"): ["give:R"],
             (0, "seal_gift"): ["refuse"]})
    assert (w.pairs[0].seals, w.pairs[1].seals) == (2, 3)


def test_an_illegal_choice_is_refused_and_changes_nothing():
    from fuyuki.core.errors import IllegalAction
    w, dice = war(QUIET)
    before = (w.pending(), len(w.events), w.pairs[0].mana)
    with pytest.raises(IllegalAction):
        w.submit(0, "attack:nobody")
    with pytest.raises(IllegalAction):
        w.submit(5, "rest")
    assert (w.pending(), len(w.events), w.pairs[0].mana) == before
    w.submit(0, "rest")
    with pytest.raises(IllegalAction):
        w.submit(0, "rest")             # already answered this decision


def test_a_seal_for_100_mana_can_be_used_at_any_decision_of_the_pair():
    # seed 令呪 4: 「任意のタイミングで使用し、英霊に即座に「＋１００」の魔力を供給」: every
    # decision of a pair holding a 令呪 whose servant is below the maximum offers it
    w, dice = war(QUIET, r_extra={"mana": 50}, b_extra={"seals": 0, "mana": 50})
    d = w.pending()
    assert "seal_mana" in d[0].options and d[0].kind == "action"
    assert "seal_mana" not in d[1].options                     # B holds no 令呪
    w.submit(1, "other")
    w.submit(0, "seal_mana")
    assert w.pairs[0].mana == 150 and w.pairs[0].seals == 2
    assert list(w.pending()) == [0] and w.pending()[0].kind == "action"   # asked again
    w.submit(0, "other")
    d = w.pending()
    assert d[0].kind == "comm" and "seal_mana" in d[0].options
    w.submit(1, "pass")
    w.submit(0, "seal_mana")                                   # 150 + 100 stops at 190
    assert w.pairs[0].mana == 190 and "seal_mana" not in w.pending()[0].options


def test_a_seal_for_mana_at_the_check_is_offered_whenever_the_servant_is_below_the_maximum():
    w, dice = war(QUIET, r_extra={"mana": 50})
    w.pairs[0].add_item("jewel")
    play(w, {(0, "action"): ["other"], (1, "action"): ["other"], (0, "mana"): ["seal", "done"]})
    assert w.pairs[0].mana == 50 + 20 + 100 and w.pairs[0].seals == 2


def test_a_surprise_attack_can_be_declared_in_a_war():
    # seed step 3: 「不意討ち」等を行う場合 … 【敏】の数値に関係なく、先制を行える; R's 敏捷 is lower
    w, dice = war(QUIET + [1, 30], r_extra={"servant": {"name": "赤の鯖", "lv": 60, "stats": {
        "str": 30, "end": 30, "agi": 20, "mgi": 30, "luk": 30, "np": 30}}})
    assert "surprise:B" in w.pending()[0].options
    play(w, {(0, "action"): ["surprise:B"], (1, "action"): ["other"], (1, "retreat"): ["pay:2"]})
    init = kinds(w, "initiative")[0]
    assert kinds(w, "battle_start")[0]["surprise"] and init["side"] == 0
    assert init["reason"] == "exception" and w.pairs[0].wins == 1


def test_a_master_without_seals_may_cut_the_servants_supply():
    # 令呪使いきり後: 「マスター側から供給を切らない限り、マスターからの魔力供給は続く」
    w, dice = war(QUIET + QUIET, turns=2, r_extra={"mana": 100, "seals": 0})
    assert "cut_supply" in w.comm_decision(w.pairs[0], w.alive()).options
    assert "cut_supply" not in w.comm_decision(w.pairs[1], w.alive()).options   # B holds 令呪
    play(w, {(0, "action"): ["other", "rest"], (1, "action"): ["other", "other"],
             (0, "comm"): ["cut_supply", "pass"]})
    # turn 1: 100 + 0 (cut) - 30 (no 令呪) = 70; turn 2: 休息 gives 霊地 30 + 工房 10 only
    assert not w.pairs[0].supply and w.pairs[0].mana == 70 + 40
    assert kinds(w, "supply_cut") and len(kinds(w, "no_supply")) == 1    # 休息 replaces the check


def test_a_war_can_start_at_a_later_turn_and_phase_from_a_state():
    from fuyuki.rpg.state import Start
    dice = TurnDice([])
    start = Start(turn=4, phase="comm", pairs={"R": {"wins": 1}, "B": {"losses": 1}})
    w = War(roster(b_extra={"seals": 1, "mana": -50}), default_rules(), 1, max_turns=4,
            dice=lambda t: dice, start=start)
    play(w, {(1, "mana"): ["seal"]})
    assert w.turn == 4 and w.battles == 1 and w.result["reason"] == "limit"
    assert not kinds(w, "event") and kinds(w, "h_comm") and w.pairs[1].mana == -50 + 20 + 100
    assert [e.kind for e in w.events][:4] == ["war_start", "start_state", "start_pair", "start_pair"]
