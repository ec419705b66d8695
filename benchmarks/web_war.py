"""Grail War RPG on the table server: the size of each page's state messages and the server's
time per accepted message (a script, not a test).

One war of the sample roster (14 pairs: 12 program, 1 player, 1 安価), a GM, the player and
two readers connected in process (FastAPI's TestClient, SQLite in a temporary directory,
bots answering at once), played to the turn limit; the 安価 pair's first decision goes to
the readers, the others to the program.

    PYTHONPATH=src FUYUKI_PURE=1 .venv/bin/python benchmarks/web_war.py --turns 2
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fastapi.testclient import TestClient  # noqa: E402

from fuyuki.web.app import create_app  # noqa: E402
from tests.web.conftest import fast_settings  # noqa: E402
from tests.web.helpers import close_all, connect_all  # noqa: E402
from tests.web.war_driver import create_war, step  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--turns", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    app = create_app(tempfile.mkdtemp(), settings=fast_settings())
    with TestClient(app) as http:
        made = create_war(http, humans=["red-saber"], anka=["black-saber"], turns=args.turns)
        seat = min(int(k) for k in made["invites"])
        seats, clients = connect_all(http, made["code"], {made["seat"]: made["token"],
                                                          seat: made["invites"][str(seat)]}, 2)
        gm, player, readers = seats[made["seat"]], seats[seat], clients[-2:]
        rng, asked, times = random.Random(args.seed), [], []
        while True:
            t0 = time.perf_counter()
            if not step(gm, {seat: player}, readers, clients, rng, asked):
                break
            times.append(time.perf_counter() - t0)
        for name, c in (("gm", gm), ("player", player), ("reader", readers[0])):
            sizes = [len(json.dumps(m, ensure_ascii=False).encode()) for m in c.messages
                     if m["type"] == "state"]
            print(f"{name}: {len(sizes)} states, median {statistics.median(sizes) / 1024:.1f} KiB, "
                  f"max {max(sizes) / 1024:.1f} KiB")
        times.sort()
        print(f"{len(times)} accepted messages (every connection reads its state): median "
              f"{statistics.median(times) * 1000:.1f} ms, p95 {times[int(len(times) * .95)] * 1000:.1f} ms")
        close_all()


if __name__ == "__main__":
    main()
