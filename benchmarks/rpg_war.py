"""Grail War RPG throughput: whole auto-played wars (sample roster, 14 pairs) and single
battles per second. A script, not a test:  python benchmarks/rpg_war.py [wars] [battles]"""

from __future__ import annotations

import sys
import time

from fuyuki.core.dice import CommittedDice, derive_secret
from fuyuki.rpg.agents.simple import SimpleAgent
from fuyuki.rpg.battle_game import BattleGame
from fuyuki.rpg.roster import load_roster
from fuyuki.rpg.rules import default_rules
from fuyuki.rpg.war import War


def main() -> None:
    n_wars = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    n_battles = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    rules = default_rules()
    roster = load_roster(None, rules)
    t0 = time.perf_counter()
    turns = decisions = rolls = 0
    reasons: dict[str, int] = {}
    for seed in range(n_wars):
        w = War(roster, rules, seed)
        agents = [SimpleAgent(seed, i) for i in range(len(w.pairs))]
        while not w.over:
            for seat, d in w.pending().items():
                w.submit(seat, agents[seat].choose(w.view(seat), d))
        turns += w.turn
        decisions += len(w.submissions)
        rolls += sum(1 for e in w.events if e.kind == "roll")
        reasons[w.result["reason"]] = reasons.get(w.result["reason"], 0) + 1
    dt = time.perf_counter() - t0
    print(f"wars: {n_wars} in {dt:.2f}s = {n_wars / dt:.1f} wars/s; mean {turns / n_wars:.1f} turns, "
          f"{decisions / n_wars:.0f} decisions, {rolls / n_wars:.0f} rolls per war; ends {reasons}")
    pairs = roster.pairs
    t0 = time.perf_counter()
    for i in range(n_battles):
        a, b = pairs[i % 7], pairs[7 + (i * 3) % 7]
        dice = CommittedDice(derive_secret(i, "battle"))
        g = BattleGame(rules, ([a], [b]), lambda: dice, attacker=0)
        bots = [SimpleAgent(i, 0), SimpleAgent(i, 1)]
        while not g.over:
            for seat, d in g.pending().items():
                me = g.states[seat].sheet() | {"max_mana": g.states[seat].max_mana(rules)}
                g.submit(seat, bots[seat].choose({"me": me, "pairs": []}, d))
    dt = time.perf_counter() - t0
    print(f"battles: {n_battles} in {dt:.2f}s = {n_battles / dt:.0f} battles/s")


if __name__ == "__main__":
    main()
