"""Load benchmark of the table server (a script, not a test).

Starts real ``fuyuki serve`` processes and plays Servant Big Battle against them with simulated
players, all on this machine:

* ``--servers 0`` (default): one process on SQLite (a temporary ``--data``), players connect to
  it directly;
* ``--servers N``: a PostgreSQL server of its own (started as ``tests/web/postgres.py`` does),
  N processes on it (``--db``, ``--proxy-headers``) behind Debian's nginx running the shipped
  ``deploy/nginx/fuyuki.conf`` (its upstream pointed at the N processes' ports).

The players: every 4 share a 4-seat table (no bot seat), join it through the HTTP API, open
their WebSocket, and play random legal moves after a think time (uniform in [t/2, 3t/2] for
``--think t``, 2 s by default: a person reading a decision of a card game and clicking) until
the game ends, then start a new table, until ``--seconds`` are up (games in flight then
finish, up to ``--grace`` seconds more). The first tables start one after another over
``--ramp`` seconds (10 s: people arrive; a thousand players all dealt their first decision
in the same second would measure that second's queue, not the server). Each player comes from an address of its own on
loopback (127.1.x.y), as people do, so the server's per-address bounds stay as shipped.

The load generator is one process (asyncio, the ``websockets`` library) that parses only what
a random mover needs: the head of each state message (its ``status``, ``turn`` and
``type``), and a message's JSON only when it carries a new decision of its seat.

Printed per server process and in total: connected players (open WebSockets at a seat, mean
and max), games finished, moves, move latency p50/p99/max (from sending a move to receiving
the state message that answers it), errors, the server processes' CPU (``/proc/<pid>/stat``,
over the load only) and CPU ms a move; PostgreSQL's, nginx's and the load generator's CPU
apart. Which process served a connection is read from nginx's log (``$upstream_addr``).

    .venv/bin/python benchmarks/web_load.py --clients 200 --seconds 60
    .venv/bin/python benchmarks/web_load.py --clients 200 --think 0.2 --profile /tmp/server.prof
    .venv/bin/python benchmarks/web_load.py --clients 1000 --servers 2 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NGINX_CONF = ROOT / "deploy" / "nginx" / "fuyuki.conf"
SEATS = 4
HEAD = 160                 # a state message's small fields come first (table.state_message)
TURN = re.compile(r'"turn":(\d+|null)')


# ---------------------------------------------------------------------- measurements
@dataclass
class Conn:
    """One player's WebSocket: what it saw, for the per-process figures."""
    code: str
    addr: str
    opened: float = 0.0
    closed: float = 0.0
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    finished: bool = False

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


@dataclass
class Load:
    conns: list[Conn] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)      # outside a WebSocket (HTTP)
    messages: int = 0
    lags: list[float] = field(default_factory=list)           # the load generator's own delays

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def cpu_ticks(pid: int) -> tuple[int, int, int]:
    """(own user+system, children's user+system, parent pid) of a live process, in clock ticks."""
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14]), int(fields[1])


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and its live descendants, plus what its dead children used."""
    parents: dict[int, int] = {}
    own: dict[int, tuple[int, int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                mine, kids, ppid = cpu_ticks(int(entry))
            except (OSError, IndexError, ValueError):
                continue
            parents[int(entry)], own[int(entry)] = ppid, (mine, kids)
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        if pid in own:
            total += own[pid][0] + (own[pid][1] if pid == root else 0)
            todo.extend(p for p, pp in parents.items() if pp == pid)
    return total / os.sysconf("SC_CLK_TCK")


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


# ---------------------------------------------------------------------- the simulated players
async def post(host: str, port: int, addr: str, path: str, body: dict) -> dict:
    """A JSON POST over HTTP/1.1 from the local address ``addr`` (no client library: cheap)."""
    data = json.dumps(body).encode()
    reader, writer = await asyncio.open_connection(host, port, local_addr=(addr, 0))
    try:
        writer.write(f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(data)}\r\nConnection: close\r\n\r\n".encode() + data)
        raw = await reader.read()
    finally:
        writer.close()
    head, _, payload = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if status != 200:
        raise OSError(f"HTTP {status}")
    return json.loads(payload)


async def player(base: str, conn: Conn, token: str, load: Load, rng: random.Random,
                 think: float) -> bool:
    from websockets.asyncio.client import connect

    async with connect(base.replace("http", "ws") + f"/ws/{conn.code}", origin=base,
                       max_size=2**22, local_addr=(conn.addr, 0), open_timeout=60) as ws:
        conn.opened = time.monotonic()
        try:
            await ws.send(json.dumps({"type": "hello", "token": token, "patch": True}))
            sent_at: float | None = None
            sent_turn: int | None = None
            decision = None
            async for raw in ws:
                load.messages += 1
                head = raw[:HEAD]
                if not head.startswith('{"type":"state"'):
                    m = json.loads(raw)
                    if m.get("type") == "error":
                        conn.error(m["code"])
                        sent_at = sent_turn = None
                    continue
                found = TURN.search(head) or TURN.search(raw, max(0, len(raw) - 120))
                turn = int(found.group(1)) if found and found.group(1) != "null" else None
                if sent_turn is not None and turn == sent_turn:
                    continue                     # sent before our move was handled
                if sent_at is not None:
                    conn.latencies.append(time.monotonic() - sent_at)
                    sent_at = sent_turn = None
                if '"status":"over"' in head:
                    conn.finished = True
                    return True
                if turn is None:
                    continue
                m = json.loads(raw)
                view = m.get("view") or m.get("view_patch") or {}
                me = view.get("me", view)        # a game's view carries the decision in "me" or at the top
                decision = me.get("decision", decision)   # (a patch without it: the one held)
                if not decision:
                    continue
                if think:
                    await asyncio.sleep(rng.uniform(think / 2, think * 1.5))
                sent_turn, sent_at = turn, time.monotonic()
                conn.moves += 1
                await ws.send(json.dumps({"type": "move", "choice": rng.choice(decision["options"]),
                                          "turn": turn}))
        finally:
            conn.closed = time.monotonic()
    return False


async def table_loop(host: str, port: int, addrs: list[str], load: Load, deadline: float,
                     seed: int, think: float) -> None:
    rng = random.Random(seed)
    base = f"http://{host}:{port}"
    while time.monotonic() < deadline:
        try:
            made = await post(host, port, addrs[0], "/api/tables",
                              {"players": SEATS, "bots": SEATS - len(addrs), "name": "player0"})
            tokens = [made["token"]]
            for i, addr in enumerate(addrs[1:], 1):
                tokens.append((await post(host, port, addr, f"/api/tables/{made['code']}/join",
                                          {"name": f"player{i}"}))["token"])
        except Exception as exc:  # noqa: BLE001 - counted
            load.error(f"http:{exc}")
            await asyncio.sleep(1.0)
            continue
        conns = [Conn(made["code"], addr) for addr in addrs]
        load.conns.extend(conns)
        results = await asyncio.gather(*(player(base, c, tok, load, random.Random(rng.random()), think)
                                         for c, tok in zip(conns, tokens)), return_exceptions=True)
        for c, r in zip(conns, results):
            if isinstance(r, Exception):
                c.error(f"ws:{type(r).__name__}")
                if not c.closed:
                    c.closed = time.monotonic()
        if not all(c.finished for c in conns):
            await asyncio.sleep(1.0)             # a failed game: no storm of new tables


async def play(host: str, port: int, clients: int, seconds: float, think: float, ramp: float,
               seed: int) -> Load:
    load = Load()
    deadline = time.monotonic() + seconds
    addrs = [f"127.1.{i // 250}.{i % 250 + 1}" for i in range(clients)]   # one address a player
    groups = [addrs[i:i + SEATS] for i in range(0, clients, SEATS)]
    rng = random.Random(seed)
    tasks = []
    for g in groups:
        tasks.append(asyncio.create_task(table_loop(host, port, g, load, deadline, rng.random(), think)))
        await asyncio.sleep(min(ramp, seconds) / len(groups))     # people arrive over the ramp
    watch = asyncio.create_task(lag(load))
    await asyncio.gather(*tasks)
    watch.cancel()
    return load


async def lag(load: Load) -> None:
    """How late this process's event loop wakes up (its own queue, part of every latency)."""
    while True:
        t = time.monotonic()
        await asyncio.sleep(0.05)
        load.lags.append(time.monotonic() - t - 0.05)


# ---------------------------------------------------------------------- the servers
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ``fuyuki`` under cProfile counting CPU time (not wall time: the machine is shared)
PROFILED = """import cProfile, runpy, sys, time
out, sys.argv = sys.argv[1], ["fuyuki", *sys.argv[2:]]
p = cProfile.Profile(time.process_time)
p.enable()
try:
    runpy.run_module("fuyuki", run_name="__main__")
finally:
    p.disable()
    p.dump_stats(out)
"""


def start_server(port: int, data: Path, db: str, profile: str | None, log: Path) -> subprocess.Popen:
    cmd = [sys.executable, *(("-c", PROFILED, profile) if profile else ("-m", "fuyuki")),
           "serve", "--port", str(port), "--bot-delay", "0", "--log-level", "warning"]
    cmd += ["--db", db, "--proxy-headers"] if db else ["--data", str(data)]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(log, "w"),
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})


def wait_up(port: int, proc: subprocess.Popen, what: str) -> None:
    for _ in range(600):
        if proc.poll() is not None:
            raise SystemExit(f"{what} ended at start (exit {proc.returncode})")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/meta", timeout=2).read()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{what} did not answer on port {port}")


NGINX_MAIN = """worker_processes 1;
worker_rlimit_nofile 20000;
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 8192; }}
http {{
    log_format load '$request_uri $remote_addr $upstream_addr';
    access_log {dir}/access.log load;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
{site}
}}
"""


def nginx_site(ports: list[int], listen: int) -> str:
    """The shipped server configuration, its upstream's servers (the first one's line as the
    pattern) and its listen port replaced by this run's."""
    text = NGINX_CONF.read_text()
    lines = re.findall(r"^[ \t]*server\s+127\.0\.0\.1:\d+[^;\n]*;\n", text, flags=re.M)
    if not lines:
        raise SystemExit(f"{NGINX_CONF}: no upstream server line (server 127.0.0.1:PORT ...;)")
    ours = "".join(re.sub(r"127\.0\.0\.1:\d+", f"127.0.0.1:{p}", lines[0]) for p in ports)
    text = text.replace(lines[0], ours, 1)
    for other in lines[1:]:
        text = text.replace(other, "", 1)
    text, n = re.subn(r"^([ \t]*)listen\s+\d+;", rf"\g<1>listen 127.0.0.1:{listen};", text, flags=re.M)
    if n != 1:
        raise SystemExit(f"{NGINX_CONF}: no single 'listen PORT;' line")
    return re.sub(r"^[ \t]*access_log\s+[^;]+;", "", text, flags=re.M)   # this run's log, above


def start_nginx(ports: list[int], listen: int, where: Path) -> subprocess.Popen:
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (where / sub).mkdir(parents=True, exist_ok=True)
    os.chmod(where, 0o777)
    for sub in where.iterdir():
        os.chmod(sub, 0o777)
    conf = where / "nginx.conf"
    conf.write_text(NGINX_MAIN.format(dir=where, site=nginx_site(ports, listen)))
    return subprocess.Popen(["/usr/sbin/nginx", "-p", str(where), "-c", str(conf), "-g", "daemon off;"],
                            stderr=open(where / "stderr.log", "w"))


def upstream_of(access_log: Path) -> dict[tuple[str, str], str]:
    """(table code, client address) -> the server address nginx sent its WebSocket to."""
    out = {}
    for line in access_log.read_text().splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[0].startswith("/ws/"):
            out[(parts[0][4:], parts[1])] = parts[2].split(",")[-1].strip()
    return out


# ---------------------------------------------------------------------- the report
def figures(conns: list[Conn], t0: float, t1: float) -> dict:
    """The figures of ``conns``; the connected players are counted from ``t0`` to ``t1``
    (the time new tables start, not the tail where the last games finish)."""
    lat = [x for c in conns for x in c.latencies]
    errors: dict[str, int] = {}
    for c in conns:
        for k, v in c.errors.items():
            errors[k] = errors.get(k, 0) + v
    samples = []
    t = t0
    while t < t1:                          # seated WebSockets open at each quarter second
        samples.append(sum(1 for c in conns if c.opened and c.opened <= t < (c.closed or t1 + 1)))
        t += 0.25
    return {"connected": statistics.mean(samples or [0]), "connected_max": max(samples or [0]),
            "games": len({c.code for c in conns if c.finished}), "moves": sum(c.moves for c in conns),
            "p50": percentile(lat, 0.5) * 1000, "p99": percentile(lat, 0.99) * 1000,
            "max": max(lat, default=float("nan")) * 1000, "n": len(lat), "errors": errors}


def line(name: str, f: dict, cpu: float | None, wall: float) -> str:
    out = (f"{name:<14} connected {f['connected']:6.1f} (max {f['connected_max']:4d})  games {f['games']:4d}  "
           f"moves {f['moves']:6d}  latency p50 {f['p50']:6.1f} p99 {f['p99']:6.1f} max {f['max']:7.1f} ms  "
           f"errors {sum(f['errors'].values())}{' ' + str(f['errors']) if f['errors'] else ''}")
    if cpu is not None:
        out += (f"  CPU {cpu:6.1f} s ({100 * cpu / wall:3.0f}% of a core)"
                f"  {1000 * cpu / max(f['moves'], 1):.2f} ms a move")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=200, help="simulated players (4 to a table)")
    ap.add_argument("--seconds", type=float, default=60.0, help="no new table starts after this")
    ap.add_argument("--grace", type=float, default=120.0, help="games in flight finish within this")
    ap.add_argument("--think", type=float, default=2.0,
                    help="a player's think time per move: uniform in [t/2, 3t/2] seconds")
    ap.add_argument("--ramp", type=float, default=10.0,
                    help="the tables start one after another over this many seconds")
    ap.add_argument("--servers", type=int, default=0,
                    help="0: one process on SQLite; N: N processes on PostgreSQL behind nginx")
    ap.add_argument("--profile", help="run the (first) server under cProfile, its stats to this file")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.clients > 250 * 250:
        raise SystemExit("--clients: at most 62500")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 20000)), hard))
    workdir = Path(tempfile.mkdtemp(prefix="fuyuki-load-"))
    procs: list[subprocess.Popen] = []
    pg = nginx = None
    try:
        n = max(args.servers, 1)
        ports = [free_port() for _ in range(n)]
        db = ""
        if args.servers:
            sys.path.insert(0, str(ROOT))
            from tests.web.postgres import PostgresServer

            pg = PostgresServer()
            why = pg.start()
            if why:
                raise SystemExit(f"PostgreSQL: {why}")
            db = pg.database()
        for i, port in enumerate(ports):
            procs.append(start_server(port, workdir / "data", db, args.profile if i == 0 else None,
                                      workdir / f"server{i}.log"))
        for i, (port, proc) in enumerate(zip(ports, procs)):
            wait_up(port, proc, f"server {i}")
        port = ports[0]
        if args.servers:
            port = free_port()
            nginx = start_nginx(ports, port, workdir / "nginx")
            wait_up(port, nginx, "nginx")
        pg_pid = int((pg.data / "postmaster.pid").read_text().split()[0]) if pg else None
        before = [tree_cpu(p.pid) for p in procs]
        pg_before = tree_cpu(pg_pid) if pg_pid else 0.0
        nginx_before = tree_cpu(nginx.pid) if nginx else 0.0
        me_before = time.process_time()
        t0 = time.monotonic()
        load = asyncio.run(asyncio.wait_for(
            play("127.0.0.1", port, args.clients, args.seconds, args.think, args.ramp, args.seed),
            args.seconds + args.grace))
        t1 = time.monotonic()
        cpu = [tree_cpu(p.pid) - b for p, b in zip(procs, before)]
        pg_cpu = tree_cpu(pg_pid) - pg_before if pg_pid else None
        nginx_cpu = tree_cpu(nginx.pid) - nginx_before if nginx else None
        me_cpu = time.process_time() - me_before
    finally:
        for p in procs:
            p.send_signal(signal.SIGINT)
        for p in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()
        if nginx:
            nginx.send_signal(signal.SIGQUIT)
            nginx.wait(10)
        if pg:
            pg.stop()
    wall, t_end = t1 - t0, min(t1, t0 + args.seconds)
    by_server: dict[str, list[Conn]] = {}
    if nginx:
        where = upstream_of(workdir / "nginx" / "access.log")
        for c in load.conns:
            by_server.setdefault(where.get((c.code, c.addr), "?"), []).append(c)
    shutil.rmtree(workdir, ignore_errors=True)
    print(f"clients {args.clients}  servers {args.servers} "
          f"({'PostgreSQL behind nginx' if args.servers else 'SQLite, direct'})  think {args.think} s  "
          f"wall {wall:.1f} s  state messages received {load.messages} ({load.messages / wall:.0f}/s)")
    for i, port_i in enumerate(ports if nginx else []):
        print(line(f"server {i}", figures(by_server.get(f"127.0.0.1:{port_i}", []), t0, t_end), cpu[i], wall))
    if by_server.get("?"):
        print(line("unattributed", figures(by_server["?"], t0, t_end), None, wall))
    total = figures(load.conns, t0, t_end)
    total["errors"] = {**total["errors"], **load.errors}
    print(line("total", total, sum(cpu), wall))
    if pg_cpu is not None:
        print(f"PostgreSQL CPU {pg_cpu:.1f} s   nginx CPU {nginx_cpu:.1f} s")
    print(f"load generator CPU {me_cpu:.1f} s ({100 * me_cpu / wall:.0f}% of a core), its loop late "
          f"p50 {percentile(load.lags, 0.5) * 1000:.1f} p99 {percentile(load.lags, 0.99) * 1000:.1f} ms; "
          f"load average {os.getloadavg()[0]:.2f} (2 cores, shared)")
    if args.profile:
        import pstats

        pstats.Stats(args.profile).sort_stats("cumulative").print_stats(60)


if __name__ == "__main__":
    main()
