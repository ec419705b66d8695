"""What the server's metrics cost (docs/web.md, "Operations"): the per-move calls on the hot path
and one GET /metrics render with N tables held, each with 4 pages open.

    .venv/bin/python benchmarks/metrics_cost.py [--tables 10000] [--repeat 5]

Prints the median CPU time of ``--repeat`` runs of each (CPU time, so that the other jobs of a
shared machine do not count; timings are printed, never asserted).
"""

from __future__ import annotations

import argparse
import statistics
import time
from types import SimpleNamespace

from fuyuki.web.metrics import Metrics


def per_call(fn, n: int = 200_000) -> float:
    """CPU seconds of one call (CPU time: the shared machine's waiting left out)."""
    start = time.process_time()
    for _ in range(n):
        fn()
    return (time.process_time() - start) / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=10000)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    m = Metrics()
    conns = [SimpleNamespace(closed=False, seat=s) for s in (0, 1, 2, None)]
    tables = [SimpleNamespace(status=("waiting", "playing", "over")[i % 3], conns=conns,
                              adapter=SimpleNamespace(name="sbb"),
                              seats=[SimpleNamespace(kind="bot", level="normal")])
              for i in range(a.tables)]
    m.watch(lambda: tables, {"http 404 not_found": 3, "message not_your_turn": 7})
    t0 = time.perf_counter()
    moved = statistics.median(per_call(lambda: m.moved("sbb")) for _ in range(a.repeat))
    answered = statistics.median(per_call(lambda: m.answered("sbb", t0)) for _ in range(a.repeat))
    thought = statistics.median(per_call(lambda: m.thought(tables[0], 0, t0)) for _ in range(a.repeat))
    renders = []
    for _ in range(a.repeat):
        start = time.process_time()
        text = m.render()
        renders.append(time.process_time() - start)
    print(f"moved (counter inc):         {moved * 1e6:.2f} µs of CPU a call")
    print(f"answered (latency observe):  {answered * 1e6:.2f} µs of CPU a call")
    print(f"thought (bot think observe): {thought * 1e6:.2f} µs of CPU a call")
    print(f"GET /metrics render (CPU), {a.tables} tables x 4 pages: {statistics.median(renders) * 1e3:.1f} ms "
          f"(min {min(renders) * 1e3:.1f}, max {max(renders) * 1e3:.1f}; {len(text)} bytes)")


if __name__ == "__main__":
    main()
