"""OpenSpiel's Python ISMCTSBot against our heuristic bot in Servant Big Battle.

One seat is played by ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` on the turn-based
game ``python_servant_big_battle_seq`` (worlds resampled with ``resample_from_infostate``,
random-rollout evaluator); the other seats by ``make_bot("heuristic")``, which sees only
its own view. The searching seat rotates with the game number (game k: seat k mod n), so
no seat has an advantage. A game counts as a win when the seat is among the winners
(shared wins are counted and shown apart). Prints the win rate with a 95 % Wilson interval
and, for scale, the same figure for a uniform random bot in that seat.

    .venv/bin/python benchmarks/ismcts_vs_heuristic.py --games 200 --sims 50
    .venv/bin/python benchmarks/ismcts_vs_heuristic.py --games 200 --sims 50 \
        --rollout heuristic --no-baseline     # leaves valued by heuristic play-outs
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import fuyuki.adapters.openspiel as sbb_openspiel
from fuyuki.sbb.agents import make_bot
from fuyuki.sim.stats import wilson


class HeuristicRolloutEvaluator:
    """Values a leaf by playing it out with heuristic bots in every seat (each sees only
    its own view of the sampled world); a uniform prior."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def evaluate(self, state):
        g = state.engine.clone()
        g.quiet = True
        n = g.players
        bots = [make_bot("heuristic", self.seed + q) for q in range(n)]
        while not g.over:
            for seat, d in list(g.pending().items()):
                g.submit(seat, bots[seat].choose(g.view(seat), d))
        winners = g.result["winners"]
        return np.array([1.0 / len(winners) if q in winners else 0.0 for q in range(n)])

    def prior(self, state):
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def play(game, k: int, searcher: str, sims: int, uct_c: float, rollouts: int,
         rollout: str = "random") -> tuple:
    n = game.num_players()
    me = k % n
    state = game.new_initial_state()
    state.apply_action(k % game.max_chance_outcomes())
    bots = {q: make_bot("heuristic", 1000 * k + q) for q in range(n) if q != me}
    rng = np.random.RandomState(k)
    if searcher == "ismcts":
        if rollout == "heuristic":
            evaluator = HeuristicRolloutEvaluator(10_000 * k)
        else:
            evaluator = mcts.RandomRolloutEvaluator(rollouts, rng)
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c, sims, random_state=rng)
        worlds = random.Random(k)   # seeded world sampling: the run is reproducible
        bot.set_resampler(lambda st, player: st.resample_from_infostate(
            player, None, rng=random.Random(worlds.getrandbits(64))))
    else:
        pick = random.Random(k)
    decisions = 0
    while not state.is_terminal():
        p = state.current_player()
        if p == me:
            if searcher == "ismcts":
                action = bot.step(state)
            else:
                action = pick.choice(state.legal_actions())
            decisions += 1
            state.apply_action(int(action))
        else:
            g = state.engine
            d = g.pending()[p]
            option = bots[p].choose(g.view(p), d)
            state.apply_action(game.shared.enc.action_of(p, n, d.kind, option))
    winners = state.engine.result["winners"]
    return me in winners, len(winners) > 1 and me in winners, decisions


def run(games: int, searcher: str, players: int, sims: int, uct_c: float,
        rollouts: int, rollout: str = "random") -> dict:
    game = pyspiel.load_game(sbb_openspiel.SEQ_NAME, {"players": players})
    wins = shared = decisions = 0
    t = time.perf_counter()
    for k in range(games):
        won, tie, d = play(game, k, searcher, sims, uct_c, rollouts, rollout)
        wins += won
        shared += tie
        decisions += d
    secs = time.perf_counter() - t
    lo, hi = wilson(wins, games)
    return {"searcher": searcher, "games": games, "wins": wins, "shared": shared,
            "rate": wins / games, "lo": lo, "hi": hi, "secs": secs,
            "per_decision_ms": 1000 * secs / max(decisions, 1)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--sims", type=int, default=50, help="ISMCTS simulations per decision")
    ap.add_argument("--uct-c", type=float, default=2.0)
    ap.add_argument("--rollouts", type=int, default=1, help="random rollouts per leaf")
    ap.add_argument("--rollout", choices=("random", "heuristic"), default="random",
                    help="leaf evaluation: OpenSpiel's RandomRolloutEvaluator (default) or "
                         "one play-out by heuristic bots")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the random-bot baseline")
    a = ap.parse_args(argv)
    rows = [run(a.games, "ismcts", a.players, a.sims, a.uct_c, a.rollouts, a.rollout)]
    if not a.no_baseline:
        rows.append(run(a.games, "random", a.players, a.sims, a.uct_c, a.rollouts))
    print(f"Servant Big Battle, {a.players} players, one searching seat vs "
          f"{a.players - 1} heuristic bots; ISMCTS: {a.sims} simulations per decision, "
          f"uct_c={a.uct_c}, leaf value: "
          f"{'one heuristic play-out' if a.rollout == 'heuristic' else f'{a.rollouts} random rollout(s)'}; "
          f"even share = {1 / a.players:.3f}")
    for r in rows:
        print(f"{r['searcher']:>7}: {r['wins']}/{r['games']} wins ({r['shared']} shared) = "
              f"{r['rate']:.3f}, 95% Wilson [{r['lo']:.3f}, {r['hi']:.3f}]; "
              f"{r['secs']:.1f} s, {r['per_decision_ms']:.1f} ms per own decision")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
