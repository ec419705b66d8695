"""Load benchmark of the Servant Big Battle server (a script, not a test).

Starts ``fuyuki.web`` under uvicorn in a child process on loopback (SQLite storage in a temporary
directory, bots answering at once), then runs N simulated players: every 4 clients share a
4-seat table, join it through the HTTP API, open their WebSocket and play random legal moves
(with a little thinking time) until the game ends, then start a new table, until the time is up.

Printed: games in flight (mean and max), games finished, moves, messages received, move latency
(from sending a move to receiving the state that contains it) p50/p99, errors.

    .venv/bin/python benchmarks/web_load.py --clients 50 --seconds 30
    .venv/bin/python benchmarks/web_load.py --clients 200 --seconds 30
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

SEATS = 4


def serve(port: int, data: str) -> None:
    import uvicorn

    from fuyuki.web.app import create_app
    from fuyuki.web.settings import Settings

    settings = Settings(bot_delay=0.0, http_rate=1e6, http_burst=1e6, msg_rate=1e6, msg_burst=1e6,
                        disconnect_grace=60.0, tables_per_address=10**6,
                        sockets_per_address=10**6)   # every simulated player is on loopback
    uvicorn.run(create_app(data, settings=settings), host="127.0.0.1", port=port,
                log_level="warning", ws_max_size=16384)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: dict[str, int] = {}
        self.messages = 0
        self.moves = 0
        self.games_done = 0
        self.in_flight = 0
        self.samples: list[int] = []

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def player(base: str, code: str, token: str, stats: Stats, rng: random.Random,
                 think: float) -> bool:
    import websockets

    uri = base.replace("http", "ws") + f"/ws/{code}"
    async with websockets.connect(uri, max_size=2**22, origin=base) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        sent_at: float | None = None
        sent_turn = None
        async for raw in ws:
            stats.messages += 1
            m = json.loads(raw)
            if m["type"] == "error":
                stats.error(m["code"])
                sent_at = sent_turn = None
                continue
            if m["type"] != "state" or "view" not in m:
                continue
            turn = m.get("turn")
            if sent_turn is not None and turn == sent_turn:
                continue                     # sent before our move was handled
            if sent_at is not None:
                stats.latencies.append(time.perf_counter() - sent_at)
                sent_at = sent_turn = None
            view = m["view"]
            if view["over"]:
                return True
            d = view["me"]["decision"]
            if d and turn is not None:
                if think:
                    await asyncio.sleep(rng.uniform(0, think))
                sent_turn = turn
                sent_at = time.perf_counter()
                stats.moves += 1
                await ws.send(json.dumps({"type": "move", "choice": rng.choice(d["options"]),
                                          "turn": turn}))
    return False


async def table_loop(base: str, seats: int, stats: Stats, deadline: float, seed: int,
                     think: float) -> None:
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    while time.monotonic() < deadline:
        try:
            made = await loop.run_in_executor(None, post, base + "/api/tables",
                                              {"players": SEATS, "bots": SEATS - seats, "name": "player0"})
            tokens = [made["token"]]
            for i in range(1, seats):
                j = await loop.run_in_executor(None, post, base + f"/api/tables/{made['code']}/join",
                                               {"name": f"player{i}"})
                tokens.append(j["token"])
        except Exception as exc:  # noqa: BLE001
            stats.error(f"http:{type(exc).__name__}")
            await asyncio.sleep(0.5)
            continue
        stats.in_flight += 1
        try:
            results = await asyncio.gather(*(player(base, made["code"], tok, stats,
                                                    random.Random(rng.random()), think)
                                             for tok in tokens), return_exceptions=True)
            for r in results:
                if isinstance(r, Exception):
                    stats.error(f"ws:{type(r).__name__}")
            if all(r is True for r in results):
                stats.games_done += 1
        finally:
            stats.in_flight -= 1


async def sampler(stats: Stats, deadline: float) -> None:
    while time.monotonic() < deadline:
        stats.samples.append(stats.in_flight)
        await asyncio.sleep(0.25)


async def run(base: str, clients: int, seconds: float, think: float, offset: int = 0) -> Stats:
    from concurrent.futures import ThreadPoolExecutor

    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=64))
    stats = Stats()
    deadline = time.monotonic() + seconds
    groups = []
    left = clients
    while left > 0:
        groups.append(min(SEATS, left))
        left -= SEATS
    tasks = [table_loop(base, g, stats, deadline, offset + i, think) for i, g in enumerate(groups)]
    await asyncio.gather(sampler(stats, deadline), *tasks)
    return stats


def cpu_seconds(pid: int) -> float:
    """user + system CPU of a live process (Linux /proc)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def worker(base: str, clients: int, seconds: float, think: float, offset: int) -> None:
    stats = asyncio.run(run(base, clients, seconds, think, offset))
    print(json.dumps({"latencies": stats.latencies, "errors": stats.errors,
                      "messages": stats.messages, "moves": stats.moves,
                      "games_done": stats.games_done, "samples": stats.samples}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30.0,
                    help="no new table starts after this; games in flight finish")
    ap.add_argument("--think", type=float, default=0.2, help="max thinking time per move (s)")
    ap.add_argument("--procs", type=int, default=2, help="load generator processes")
    ap.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--data", help=argparse.SUPPRESS)
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--offset", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.serve, args.data)
        return
    if args.worker:
        worker(args.worker, args.clients, args.seconds, args.think, args.offset)
        return
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    # whole tables per load process
    tables = (args.clients + SEATS - 1) // SEATS
    procs = max(1, min(args.procs, tables))
    shares = [tables // procs + (1 if i < tables % procs else 0) for i in range(procs)]
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen([sys.executable, __file__, "--serve", str(port), "--data", data],
                                  env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(base + "/api/meta", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.05)
            t0 = time.perf_counter()
            workers = []
            given = 0
            for i, share in enumerate(shares):
                n = min(share * SEATS, args.clients - given)
                given += n
                workers.append(subprocess.Popen(
                    [sys.executable, __file__, "--worker", base, "--clients", str(n),
                     "--seconds", str(args.seconds), "--think", str(args.think),
                     "--offset", str(i * 100000)], stdout=subprocess.PIPE, text=True))
            parts = [json.loads(w.communicate()[0]) for w in workers]
            wall = time.perf_counter() - t0
            server_cpu = cpu_seconds(server.pid)
        finally:
            server.terminate()
            server.wait(10)
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    lat = [x for p in parts for x in p["latencies"]]
    errors: dict[str, int] = {}
    for p in parts:
        for k, v in p["errors"].items():
            errors[k] = errors.get(k, 0) + v
    samples = [sum(x) for x in zip(*(p["samples"] for p in parts))]
    messages = sum(p["messages"] for p in parts)
    print(f"clients {args.clients}  tables {tables}  load processes {procs}  "
          f"wall {wall:.1f} s  think <= {args.think} s")
    print(f"games in flight: mean {statistics.mean(samples or [0]):.1f}  max {max(samples or [0])}"
          f"   games finished {sum(p['games_done'] for p in parts)}")
    print(f"moves {sum(p['moves'] for p in parts)}  messages received {messages} "
          f"({messages / wall:.0f}/s)")
    print(f"move latency: p50 {percentile(lat, 0.50) * 1000:.1f} ms  "
          f"p99 {percentile(lat, 0.99) * 1000:.1f} ms  (n={len(lat)})")
    print(f"errors: {sum(errors.values())} {errors or ''}")
    total = usage.ru_utime + usage.ru_stime
    print(f"CPU: server {server_cpu:.1f} s ({100 * server_cpu / wall:.0f}% of a core), "
          f"load generators {total - server_cpu:.1f} s, over {wall:.1f} s wall (same machine)")


if __name__ == "__main__":
    main()
