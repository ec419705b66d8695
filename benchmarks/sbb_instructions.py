"""Servant Big Battle: instructions per game, counted by valgrind — a load-proof measure.

    .venv/bin/python benchmarks/sbb_instructions.py [--games 300] [--bots random] [--path api]

On the shared 2-core machine a CPU-time rate moves by ±15 % between runs of the same code (the
other processes' load changes the caches and the clock); valgrind's instruction count does not
move at all, given the same string-hash seed (``PYTHONHASHSEED``, 0 unless set: with a random
one a game's count moves by about ±2,000, dict and set layouts changing with the hashes).
The program runs itself twice under ``valgrind --tool=callgrind`` — playing 3
warm-up games then ``--games`` more, and the warm-up games alone — and prints the difference
over ``--games``: the instructions one game costs, start-up and imports cancelled out. Run it
in two trees (``PYTHONPATH=<tree>/src``) to compare two versions of the engine; run it with
the compiled build (``fuyuki.compiled()``), which is what the speed targets are about.

- ``--path api``: ``new_game(4, seed)`` + ``agents.play_out`` with ``make_bot`` bots (the
  public API, as ``benchmarks/sbb_speed.py`` part 1);
- ``--path sim``: the simulator's worker path (``count_jobs``, chunks of 10 games: setup hook,
  seat rotation, bots, engine, event-log summary, the report's counts);
- ``--path cli``: the command ``fuyuki simulate --workers 1 --gap-games 0 --json`` with
  ``--games`` and with twice as many games: the difference over ``--games`` is the command's
  marginal cost of a game, the quantity ``benchmarks/sbb_speed.py`` part 2 times;
- ``--path goofspiel``: the anchor of ``benchmarks/sbb_speed.py`` (OpenSpiel goofspiel, 4
  players, random actions from a Python loop), for a ratio in instructions (the CPU-time
  ratio is lower: the engine's compiled Python runs fewer instructions a cycle than
  OpenSpiel's C++).

``--cycles``: run under ``valgrind --tool=cachegrind --cache-sim=yes`` instead, and print
beside the instructions an *estimated cycle count*, the formula of iai-callgrind: L1 hits + 5 ×
last-level hits + 35 × memory reads, from cachegrind's simulated caches (first-level
instruction and data caches and the last level, sized as this machine's). Still load-proof,
and it sees what the instruction count cannot: code and data that a game evicts and the next
one must fetch again (a game of compiled Python touches far more code than goofspiel's loop).

Needs ``valgrind`` (``apt-get install valgrind``); a game under callgrind runs ~50× slower
(under cachegrind's cache simulation, ~100×).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

WARM = 3


def play(path: str, bots: str, games: int) -> None:
    if path == "api":
        from fuyuki.sbb import new_game
        from fuyuki.sbb.agents import make_bot, play_out

        for i in [*range(10**6, 10**6 + WARM), *range(games)]:
            play_out(new_game(4, i), [make_bot(bots, i * 4 + k) for k in range(4)])
    elif path == "goofspiel":
        from sim_throughput import goofspiel   # this directory: the same anchor

        g = goofspiel()
        for i in range(WARM + games):
            g(i)
    else:
        from fuyuki.sim.config import SimConfig
        from fuyuki.sim.runner import count_jobs

        cfg = SimConfig(games=0, players=4, bots=(bots,), seed=1)
        count_jobs(cfg, [("game", None, 10**6 + k) for k in range(10)])   # warm-up
        for c in range(games // 10):
            count_jobs(cfg, [("game", None, c * 10 + k) for k in range(10)])


def count(path: str, bots: str, games: int, cycles: bool = False) -> tuple[int, int]:
    """Instructions and (``cycles``) estimated cycles, else 0, of this program playing
    ``games`` games (and the warm-up) under valgrind (``path`` cli: of the command playing
    ``games`` games)."""
    if path == "cli":
        cmd = [sys.executable, "-m", "fuyuki.cli.main", "simulate", "--games", str(games),
               "--workers", "1", "--bots", bots, "--gap-games", "0", "--seed", "1", "--json",
               "--no-progress"]
    else:
        cmd = [sys.executable, __file__, "--child", "--path", path, "--bots", bots, "--games",
               str(games)]
    tool = (["--tool=cachegrind", "--cache-sim=yes", "--cachegrind-out-file={}/cg.out"]
            if cycles else ["--tool=callgrind", "--callgrind-out-file={}/cg.out"])
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", *[t.format(tmp) for t in tool], *cmd],
            capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0")})
    if not cycles:
        m = re.search(r"Collected : (\d+)", out.stderr)
        if m is None:
            raise SystemExit(f"no instruction count from valgrind:\n{out.stderr[-2000:]}")
        return int(m.group(1)), 0
    return estimated_cycles(out.stderr)


def estimated_cycles(summary: str) -> tuple[int, int]:
    """Instructions and estimated cycles from cachegrind's summary: L1 hits + 5 × last-level
    hits + 35 × memory reads (the formula of iai-callgrind)."""
    def total(label: str) -> int:
        m = re.search(label.replace(" ", r"\s+") + r":\s+([\d,]+)", summary)
        if m is None:
            raise SystemExit(f"no '{label}' in cachegrind's summary:\n{summary[-2000:]}")
        return int(m.group(1).replace(",", ""))

    refs = total("I refs") + total("D refs")
    l1_misses = total("I1 misses") + total("D1 misses")
    ll_misses = total("LLi misses") + total("LLd misses")
    return (total("I refs"),
            (refs - l1_misses) + 5 * (l1_misses - ll_misses) + 35 * ll_misses)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--bots", default="random", help="random or heuristic")
    ap.add_argument("--path", choices=("api", "sim", "cli", "goofspiel"), default="api")
    ap.add_argument("--cycles", action="store_true",
                    help="also estimated cycles, from cachegrind's cache simulation")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        play(a.path, a.bots, a.games)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    if a.path == "sim" and a.games % 10:
        raise SystemExit("--path sim plays chunks of 10 games: give a multiple of 10")
    from fuyuki._build import describe

    print(f"build: {describe()}")
    if a.path == "cli":   # the command's marginal cost: N more games than a run of N
        sizes = (a.games, 2 * a.games)
    else:
        sizes = (0, a.games)
    (i0, c0), (i1, c1) = (count(a.path, a.bots, n, a.cycles) for n in sizes)
    what = "" if a.path == "goofspiel" else f" {a.bots}"
    cyc = f", {(c1 - c0) / a.games:,.0f} estimated cycles" if a.cycles else ""
    print(f"{a.path}{what}: {(i1 - i0) / a.games:,.0f} instructions{cyc} per 4-player game "
          f"({a.games} games)")


if __name__ == "__main__":
    main()
