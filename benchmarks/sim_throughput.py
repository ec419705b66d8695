"""Simulator throughput: 4-player full Servant Big Battle games per second per core, against
OpenSpiel's goofspiel driven from a Python loop.

    .venv/bin/python benchmarks/sim_throughput.py [--seconds 10] [--profile]

- random and heuristic bots, through the simulator (``fuyuki.sim.runner.count_jobs`` with one
  worker in this process, ten games a call as the simulator's chunks: setup hook, seat
  rotation, bots, engine, event-log summary, the report's counts);
- OpenSpiel goofspiel (13 cards, 4 players, imperfect information), uniform random actions
  from a Python loop (``open-spiel`` is a benchmark-only dependency, extra ``rl``).

Prints both rates and their ratio; the target is a random-bot rate of at least a quarter of
goofspiel's. The three workloads run interleaved in short slices, so that a load change on a
shared machine hits all of them alike and the ratio stays meaningful. The first line says
which build ran: mypyc-compiled (what ``./dev`` installs) or pure Python (``FUYUKI_PURE=1``,
``FUYUKI_COMPILE=0 ./dev``, or a compiled build whose sources changed since). ``--profile``
adds a cProfile of the random-bot run (top functions by own time; cProfile sees only pure
Python, so profile the rules with ``FUYUKI_PURE=1``).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import time

from fuyuki._build import describe
from fuyuki.sim.config import SimConfig
from fuyuki.sim.runner import count_jobs


class Workload:
    """Games played in slices; counts games and the time spent in them. ``play(i)`` plays
    the next ``per_call`` games, numbered from ``i``."""

    def __init__(self, play, per_call: int = 1) -> None:
        self.play = play
        self.per_call = per_call
        self.games = 0
        self.seconds = 0.0

    def slice(self, seconds: float) -> None:
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            self.play(self.games)
            self.games += self.per_call
        self.seconds += time.perf_counter() - start

    @property
    def rate(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


CHUNK = 10  # games per call: the simulator plays its games in chunks too (runner.chunk_size)


def simulator_games(bots: str) -> Workload:
    """Games through the simulator's worker path (chunking, setup hook, rotation, bots,
    engine, event-log summary, the report's counts), ``CHUNK`` per call."""
    cfg = SimConfig(games=0, players=4, bots=(bots,), seed=1)
    return Workload(lambda i: count_jobs(cfg, [("game", None, i + k) for k in range(CHUNK)]),
                    CHUNK)


def goofspiel():
    import pyspiel

    game = pyspiel.load_game("goofspiel", {"num_cards": 13, "players": 4, "imp_info": True})
    rng = random.Random(0)
    players = range(game.num_players())

    def play_one(i: int) -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in players])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    return play_one


def profile(seconds: float) -> str:
    prof = cProfile.Profile()
    w = simulator_games("random")
    prof.enable()
    w.slice(seconds)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(25)
    return out.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="per workload")
    ap.add_argument("--profile", action="store_true", help="cProfile the random-bot run")
    args = ap.parse_args()
    loads = {"random": simulator_games("random"), "heuristic": simulator_games("heuristic")}
    try:
        loads["goofspiel"] = Workload(goofspiel())
    except ImportError:
        pass
    slices = max(1, int(args.seconds / 0.5))
    for _ in range(slices):
        for w in loads.values():
            w.slice(args.seconds / slices)
    r, h = loads["random"], loads["heuristic"]
    print("4-player full games per second, one core (interleaved slices)")
    print(f"  build: {describe()}")
    print(f"  simulator, random bots      {r.rate:10.1f} games/s  ({r.games} games)")
    print(f"  simulator, heuristic bots   {h.rate:10.1f} games/s  ({h.games} games)")
    g = loads.get("goofspiel")
    if g is None:
        print("  goofspiel: open_spiel is not installed (pip install open-spiel)")
    else:
        print(f"  OpenSpiel goofspiel         {g.rate:10.1f} games/s  ({g.games} games; 13 cards, "
              "4 players, imp_info, Python loop, uniform random actions)")
        ratio = r.rate / g.rate
        print(f"  ratio random / goofspiel     {ratio:.3f}  "
              f"(target >= 0.25: {'met' if ratio >= 0.25 else 'NOT met'})")
        print(f"  ratio heuristic / goofspiel  {h.rate / g.rate:.3f}")
    if args.profile:
        print(profile(args.seconds))


if __name__ == "__main__":
    main()
