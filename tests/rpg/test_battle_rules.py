"""Battle rules checked on the decisions themselves (who is asked, in which order)."""

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
