"""Two builds of the simulator compared in CPU time: the command's game loop (sbb_speed's
"simulate loop") beside the goofspiel anchor, each build in a process of its own, the two
alternating run by run (a change of the machine's load hits both alike).

Each run prints the loop's CPU rate as a ratio to goofspiel's in the same process, and the
CPU microseconds a game of each; the end, the medians. A build is a tree (a checkout with its
compiled modules in ``src/``) and the Python of its venv: for instance this tree against the
commit before a change, checked out and built apart::

    git worktree add /tmp/before REV && (cd /tmp/before && FUYUKI_VENV=/tmp/before-venv ./dev lint)
    .venv/bin/python benchmarks/builds_ab.py --other /tmp/before --other-python /tmp/before-venv/bin/python

The other tree needs ``benchmarks/sbb_speed.py`` with its ``SimulateLoop`` (stop 42 on).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import NoReturn

HERE = Path(__file__).resolve().parents[1]

#: what one run does, in the tree it runs in (its own sbb_speed, engine and anchor)
RUN = """
import sys
sys.argv = sys.argv[:1]
import sbb_speed as S
goof = S.Workload("goofspiel", S.goofspiel())
loop = S.Workload("simulate loop", S.SimulateLoop(), S.LOOP_CHUNK)
for w in (goof, loop):
    w.play(10 ** 6)   # warm-up
for _ in range({slices}):
    for w in (goof, loop):
        w.slice({seconds})
print(loop.cpu_rate / goof.cpu_rate, 1e6 / loop.cpu_rate, 1e6 / goof.cpu_rate)
"""


def fail(message: str) -> NoReturn:
    """One line on stderr, exit status 2."""
    print(f"builds_ab: {message}", file=sys.stderr)
    raise SystemExit(2)


def run(tree: Path, python: str, slices: int, seconds: float) -> tuple[float, float, float]:
    """One run in ``tree``: (loop/goofspiel CPU ratio, µs a loop game, µs a goofspiel game)."""
    env = dict(os.environ, PYTHONHASHSEED="0",
               PYTHONPATH=os.pathsep.join([str(tree / "src"), str(tree / "benchmarks")]))
    try:
        out = subprocess.run([python, "-c", RUN.format(slices=slices, seconds=seconds)],
                             cwd=tree, env=env, capture_output=True, text=True)
    except OSError as exc:
        fail(f"cannot run {python}: {exc.strerror}")
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["no message"])[-1]
        fail(f"the run in {tree} failed: {last}")
    ratio, loop_us, goof_us = (float(x) for x in out.stdout.split()[-3:])
    return ratio, loop_us, goof_us


def main(argv: list[str] | None = None) -> dict[str, list[float]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--other", type=Path, required=True, help="the other build's tree")
    ap.add_argument("--other-python", default=sys.executable, help="its venv's python")
    ap.add_argument("--runs", type=int, default=5, help="runs of each build, alternating")
    ap.add_argument("--slices", type=int, default=8, help="slices of each workload a run")
    ap.add_argument("--seconds", type=float, default=0.5, help="seconds a slice")
    args = ap.parse_args(argv)
    if not (args.other / "benchmarks" / "sbb_speed.py").is_file():
        ap.error(f"--other {args.other}: no benchmarks/sbb_speed.py there (a checkout's root?)")
    if min(args.runs, args.slices) < 1 or args.seconds <= 0:
        ap.error("--runs and --slices must be at least 1, --seconds above 0")
    builds = {"this": (HERE, sys.executable), "other": (args.other.resolve(), args.other_python)}
    ratios: dict[str, list[float]] = {name: [] for name in builds}
    for k in range(args.runs):
        line = []
        for name, (tree, python) in builds.items():
            ratio, loop_us, goof_us = run(tree, python, args.slices, args.seconds)
            ratios[name].append(ratio)
            line.append(f"{name} {ratio:.3f} ({loop_us:.1f} µs a game, goofspiel {goof_us:.1f})")
        print(f"run {k + 1}: " + " | ".join(line), flush=True)
    print("median loop / goofspiel, CPU: " + "  ".join(
        f"{name} {statistics.median(r):.3f}" for name, r in ratios.items()))
    return ratios


if __name__ == "__main__":
    main()
