"""The program (fuyuki.rpg.agents.odds): each of its rules, its answers legal in whole wars,
and reproducible."""

from fuyuki.core.protocol import Decision
from fuyuki.rpg.agents import LEVELS, OddsAgent, make_agent, program
from fuyuki.rpg.battle_game import BattleGame
from fuyuki.rpg.roster import load_roster
from fuyuki.rpg.rules import default_rules
from fuyuki.rpg.war import War

RULES = default_rules()
ROSTER = load_roster(None, RULES)


def sheet_of(pid: str, **change) -> dict:
    war = War(ROSTER, RULES, 0)
    return war.by_id[pid].sheet() | change


def agent() -> OddsAgent:
    return OddsAgent(0, 0)


def war_view(me: dict, others: list[dict], known: bool = True) -> dict:
    pairs = [{"id": me["id"], "faction": me["faction"], "alive": True, "sheet": me}]
    for o in others:
        pairs.append({"id": o["id"], "faction": o["faction"], "alive": True}
                     | ({"sheet": o} if known else {}))
    me = me | {"max_mana": me["mana"], "allies": [], "known": [o["id"] for o in others] if known else []}
    return {"me": me, "pairs": pairs}


class FixedDice:
    def __init__(self, d4):
        self.d4 = d4

    def roll(self, label, faces):
        return self.d4 if label.endswith("random_stat") else 1


def engine_rate(a: str, b: str, first: str, second: str, d4: int) -> tuple[int, int, str]:
    """The engine's rate, its initiative side and the random third stat: lone pairs, fixed
    picks, no bonus."""
    pa, pb = (next(p for p in ROSTER.pairs if p.id == x) for x in (a, b))
    game = BattleGame(RULES, ([pa], [pb]), lambda: FixedDice(d4), attacker=0,
                      lineups=("servant|master", "servant|master"))
    while not game.over:
        for seat, d in sorted(game.pending().items()):
            game.submit(seat, first if d.kind == "pick_stat" and d.info["n"] == 1 else
                        second if d.kind == "pick_stat" else "stay" if d.kind == "retreat" else "pass")
    e = next(e.data for e in game.events if e.kind == "rate")
    four = [s for s in RULES.stat_order if s not in (first, second)]
    return e["rate"], e["side"], four[d4 - 1]


def test_the_programs_rate_is_the_battle_tables_rate():
    ag = agent()
    for a, b in (("red-saber", "black-saber"), ("red-archer", "black-caster")):
        sa, sb = sheet_of(a), sheet_of(b)
        ta, tb = ag.side_totals(sa), ag.side_totals(sb)
        for d4 in (1, 2, 3, 4):
            rate, init, third = engine_rate(a, b, "str", "end", d4)
            tot = (ta, tb) if init == 0 else (tb, ta)
            side_base = [ag.effect_sum(s, "base_rate") for s in (sa, sb)]
            base = side_base[init] - side_base[1 - init]
            assert ag.rate(*tot, ("str", "end", third), base) == rate


def test_fight_at_the_odds_attacks_a_known_enemy_it_beats():
    ag = agent()
    me = sheet_of("red-saber")
    weak = sheet_of("black-saber", mana=-200)              # a shortage of −100 on every stat
    view = war_view(me, [weak])
    d = Decision("action", ("rest", f"attack:{weak['id']}", f"surprise:{weak['id']}",
                            f"info:{weak['id']}", "craft:jewel"))
    assert ag.win_chance(me, weak, attacker=True) >= ag.fight_at
    assert ag.on_action(view, d).endswith(":" + weak["id"])
    assert ag.on_action(view, d).split(":")[0] in ("attack", "surprise")


def test_fight_at_the_odds_looks_an_unknown_enemy_up_first():
    ag = agent()
    me, foe = sheet_of("red-saber"), sheet_of("black-saber", mana=-200)
    d = Decision("action", ("rest", f"attack:{foe['id']}", f"info:{foe['id']}", "craft:jewel"))
    assert ag.on_action(war_view(me, [foe], known=False), d) == f"info:{foe['id']}"


def test_fight_at_the_odds_declines_a_battle_it_would_likely_lose():
    ag = agent()
    me, strong = sheet_of("red-saber"), sheet_of("black-saber")
    me["servant"] = me["servant"] | {"stats": {s: 10 for s in RULES.stat_order}}
    view = war_view(me, [strong])
    assert ag._fit(view) and ag.win_chance(me, strong, attacker=True) < ag.fight_at
    assert ag.on_contact(view, Decision("contact", ("talk", "fight"), {"target": strong["id"]})) == "talk"
    assert ag.on_engage(view, Decision("engage", ("attack", "ignore", "surprise"),
                                       {"target": strong["id"]})) == "ignore"


def test_a_familiar_first_at_full_mana_when_its_master_crafts_it_at_50_percent():
    ag = agent()
    me, foe = sheet_of("red-saber"), sheet_of("black-saber")
    d = Decision("action", ("rest", f"attack:{foe['id']}", f"info:{foe['id']}", "craft:jewel",
                            "craft:familiar"))
    assert me["master"]["stats"]["mgi"] * RULES.actions["craft_per_magic"] >= 50
    assert ag.on_action(war_view(me, [foe], known=False), d) == "craft:familiar"
    held = me | {"items": {"familiar": 1}}
    assert ag.on_action(war_view(held, [foe], known=False), d) == f"info:{foe['id']}"


def test_allies_first_offers_an_alliance_to_a_faction_mate_and_accepts_one():
    ag = agent()
    me, mate, foe = sheet_of("red-saber"), sheet_of("red-archer"), sheet_of("black-saber")
    view = war_view(me, [mate, foe])
    d = Decision("comm", ("pass", f"offer:{foe['id']}", f"offer:{mate['id']}", "order"))
    assert ag.on_comm(view, d) == f"offer:{mate['id']}"
    assert ag.on_alliance(view, Decision("alliance", ("accept", "refuse"), {"offer": mate["id"]})) == "accept"
    assert ag.on_alliance(view, Decision("alliance", ("accept", "refuse"), {"offer": foe["id"]})) == "refuse"


def test_picks_by_the_table_takes_the_stat_with_the_best_expected_rate():
    ag = agent()
    own, other = [50, 10, 30, 30, 30, 30], [10, 60, 30, 30, 30, 30]
    d = Decision("pick_stat", tuple(RULES.stat_order), {"side": 0, "n": 1, "totals": [own, other],
                                                         "stats": list(RULES.stat_order)})
    pick = ag.on_pick_stat({}, d)
    assert pick == "str"
    assert ag.expected_rate(own, other, first=pick) == max(
        ag.expected_rate(own, other, first=s) for s in RULES.stat_order)


def test_picks_by_the_table_answers_the_second_pick_with_the_first_sides_worst():
    ag = agent()
    init, me = [50, 10, 30, 30, 30, 30], [10, 60, 30, 30, 30, 30]
    rest = tuple(s for s in RULES.stat_order if s != "str")
    d = Decision("pick_stat", rest, {"side": 1, "n": 2, "totals": [init, me],
                                     "stats": list(RULES.stat_order)})
    assert ag.on_pick_stat({}, d) == "end"


def test_no_shortage_in_battle_buys_mana_with_a_seal_only_when_one_stays():
    ag = agent()
    d = Decision("prepare", ("pass", "boost:x.servant", "mana:x.servant"),
                 {"effects": {"mana:x.servant": {"value": 100, "mana": [-60, 40]}}})
    assert ag.on_prepare({"me": {"seals": 2}}, d) == "mana:x.servant"
    assert ag.on_prepare({"me": {"seals": 1}}, d) == "pass"


def test_a_seal_where_it_tips_the_battle_and_no_redraw():
    ag = agent()
    d = Decision("declare", ("pass", "seal:x.servant"), {"side": 0, "initiative": 0, "bonus": [0, 0]})
    events = [{"kind": "battle_start", "data": {}},
              {"kind": "base_rate", "data": {"side": 0, "value": 0}},
              {"kind": "base_rate", "data": {"side": 1, "value": 0}}]
    # one advantage, two disadvantages (30 %), differences +10 −5 −5 = 0: open
    for n, (a, b) in enumerate(((40, 30), (30, 35), (30, 35)), 1):
        events.append({"kind": "compare", "data": {"n": n, "a": a, "b": b,
                                                   "res": ["adv", "dis"] if a > b else ["dis", "adv"]}})
    view = {"me": {"seals": 3, "mana": 100}, "events": events}
    assert ag.current_rate(view, d) == 30
    assert ag.on_declare(view, d) == "seal:x.servant"
    assert ag.on_declare({**view, "me": {"seals": 1, "mana": 100}}, d) == "pass"
    assert ag.on_redraw(view, Decision("redraw", ("pass", "redraw:x"), {"side": 0})) == "pass"


def test_retreat_pays_with_mana_down_to_the_floor_and_never_stays_while_it_can_pay():
    ag = agent()
    d = Decision("retreat", ("stay", "pay:0", "pay:1", "pay:2", "pay:3"),
                 {"cost": 3, "mana": [150], "mana_per_seal": 100})
    assert ag.on_retreat({}, d) == "pay:1"          # 150 → −50 with two 100s, one 令呪
    d = Decision("retreat", ("stay", "pay:3"), {"cost": 3, "mana": [-50], "mana_per_seal": 100})
    assert ag.on_retreat({}, d) == "pay:3"


def test_mana_before_vanishing_spends_a_seal_when_the_servant_would_vanish():
    ag = agent()
    d = Decision("mana", ("done", "seal"), {"mana": -100, "max": 200, "vanish_at": -100})
    assert ag.on_mana({}, d) == "seal"
    d = Decision("mana", ("done", "seal"), {"mana": -10, "max": 200, "vanish_at": -100})
    assert ag.on_mana({}, d) == "done"


def auto_war(seed: int, level: str, turns: int = 6) -> War:
    war = War(ROSTER, RULES, seed, max_turns=turns)
    agents = [make_agent(level, seed, s) for s in range(len(war.pairs))]
    while not war.over:
        for seat, d in war.pending().items():
            view = war.view(seat)
            rule = getattr(agents[seat], "on_" + d.kind, None)
            if rule is not None and level == "odds":
                assert rule(view, d) in d.options, (d.kind, d.options)
            war.submit(seat, agents[seat].choose(view, d))
    return war


def test_the_programs_every_answer_is_one_of_the_options_in_whole_wars():
    for seed in (1, 2):
        assert auto_war(seed, "odds").over


def test_the_program_plays_the_same_war_from_the_same_seed():
    assert auto_war(3, "odds").submissions == auto_war(3, "odds").submissions


def test_the_doors_program_is_the_odds_level_and_every_level_is_named():
    assert isinstance(program(0, 0), OddsAgent)
    assert list(LEVELS) == ["random", "simple", "odds"]
