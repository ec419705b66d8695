"""Several server processes on one PostgreSQL (fuyuki.web.cluster): the database orders each
table's moves, notifications bring them to every process, one process at a time runs a
table's bots and timers — and the shipped nginx configuration in front of real ``fuyuki serve``
processes, one of them killed mid-game."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from fuyuki.core.errors import IllegalAction
from fuyuki.web import security
from fuyuki.web.games import adapter
from fuyuki.web.manager import Manager
from fuyuki.web.table import Conn
from tests.web.conftest import fast_settings, free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX_CONF = ROOT / "deploy" / "nginx" / "fuyuki.conf"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def norm(x):
    return json.loads(json.dumps(x))


def stored(url: str, code: str) -> list[tuple[int, int, object]]:
    import psycopg

    with psycopg.connect(url) as db:
        return [(i, s, json.loads(c)) for i, s, c in db.execute(
            "SELECT idx, seat, choice FROM submissions WHERE code=%s ORDER BY idx", (code,))]


async def until(check, seconds: float = 10.0, why=lambda: "") -> None:
    end = time.monotonic() + seconds
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"the condition did not come true in time {why()}")
        await asyncio.sleep(0.02)


async def claim_until(m: Manager, check) -> None:
    """Claim until ``check()`` holds: a closed connection's advisory locks end with its
    backend, just after the close returns, so a claim at once may still find them held."""
    def claimed() -> bool:
        m.cluster.claim()
        return check()
    await until(claimed, 5.0)


def managers(url: str, n: int = 2) -> list[Manager]:
    from fuyuki.web.pgstorage import PostgresStorage

    return [Manager(PostgresStorage(url), fast_settings(cluster_tick=60.0)) for _ in range(n)]


@contextlib.contextmanager
def processes(url: str, n: int = 2):
    """``n`` server processes' managers on one database, started (inside a running loop)."""
    ms = managers(url, n)
    for m in ms:
        m.start()
    try:
        yield ms
    finally:
        for m in ms:
            m.close()


def play_first(t, seat: int) -> None:
    """``seat`` answers its open decision at table ``t`` with the first option."""
    t.move(seat, t.game.pending()[seat].options[0], t.asked_at[seat])


def page(seat: int | None) -> Conn:
    return Conn(seat, asyncio.Queue(1000), security.RateLimiter(100, 100))


def three_people(m: Manager, seed: int = 5):
    """A Servant Big Battle table of three people, playing."""
    t, _, _ = m.create({"players": 3, "bots": 0}, "a", seed=seed)
    t.join("b")
    t.join("c")
    return t


# ---------------------------------------------------------------------- in one test process
def test_two_processes_moving_on_one_step_store_one_move_and_the_loser_catches_up(postgres_url):
    async def main():
        with processes(postgres_url) as (a, b):
            ta = three_people(a)
            tb = b.get(ta.code)
            seat = min(ta.game.pending())
            turn = ta.asked_at[seat]
            options = ta.game.pending()[seat].options
            ta.move(seat, options[0], turn)            # A stores step 0 first
            with pytest.raises(IllegalAction) as refused:
                tb.move(seat, options[-1], turn)       # B's step 0 is refused by the database
            assert refused.value.code in ("stale_decision", "not_your_turn")
            assert tb.submissions == ta.submissions
            assert [(s, c) for _, s, c in stored(postgres_url, ta.code)] == ta.submissions
            assert norm(tb.game.view(seat)) == norm(ta.game.view(seat))
    asyncio.run(main())


def test_a_move_on_a_decision_still_open_after_catching_up_is_stored_at_the_next_step(postgres_url):
    async def main():
        with processes(postgres_url) as (a, b):
            ta = three_people(a)
            while len(ta.game.pending()) < 2:          # up to the bids: every seat's decision
                seat = min(ta.game.pending())
                play_first(ta, seat)
            tb = b.get(ta.code)
            step, turns = ta.step, dict(ta.asked_at)
            first, second = sorted(turns)[:2]
            ta.move(first, ta.game.pending()[first].options[0], turns[first])
            tb.move(second, tb.game.pending()[second].options[0], turns[second])   # lost its step
            assert [s for _, s, _ in stored(postgres_url, ta.code)][step:] == [first, second]
            assert tb.step == step + 2
    asyncio.run(main())


def test_a_notification_missed_while_the_listener_was_down_is_recovered(postgres_url):
    import psycopg

    async def main():
        with processes(postgres_url) as (a, b):
            ta = three_people(a)
            tb = b.get(ta.code)
            tb.attach(page(None))                      # a spectator's page on B
            await until(b.cluster.listening.is_set)
            with psycopg.connect(postgres_url, autocommit=True) as db:
                db.execute("SELECT pg_terminate_backend(%s)", (b.cluster.listen_pid,))
            await until(lambda: not b.cluster.listening.is_set())
            seat = min(ta.game.pending())
            play_first(ta, seat)   # unheard by B
            assert tb.step == 0
            await until(lambda: tb.step == ta.step)    # caught up when B listens again
            assert tb.submissions == ta.submissions
    asyncio.run(main())


def test_a_process_that_does_not_own_a_table_never_runs_its_bots(postgres_url):
    import psycopg

    async def main():
        (b,) = managers(postgres_url, 1)
        b.start()
        other = psycopg.connect(postgres_url, autocommit=True)   # another process, owning it
        try:
            tb, seat, _ = b.create({"players": 3, "bots": 2}, "a", seed=11)
            bots = {s.seat for s in tb.seats if s.kind == "bot"}
            other.execute("SELECT pg_advisory_lock(hashtextextended(%s, 51))", (tb.code,))
            tb.attach(page(seat))                      # a person's page is open here
            while not bots & set(tb.game.pending()):   # the person plays until a bot's turn
                play_first(tb, seat)
            b.cluster.claim()
            assert not tb.is_owner
            tb.refresh()
            step = tb.step
            assert bots & set(tb.game.pending()) and len(stored(postgres_url, tb.code)) == step
            other.close()                              # the owner dies: its lock with it
            await claim_until(b, lambda: tb.is_owner)
            assert tb.step > step and len(stored(postgres_url, tb.code)) == tb.step
        finally:
            other.close()
            b.close()
    asyncio.run(main())


def test_a_seat_whose_page_is_open_on_another_process_is_connected_for_the_owner(postgres_url):
    async def main():
        with processes(postgres_url) as (a, b):
            ta = three_people(a)
            ta.attach(page(0))
            a.cluster.claim()                          # A runs the table: seat 0's page is here
            tb = b.get(ta.code)
            tb.attach(page(1))                         # seat 1's page is on B
            assert ta.is_owner and not tb.is_owner
            assert not ta.connected(1)
            a.cluster.claim()                          # the owner reads the others' pages
            assert ta.connected(1) and not ta.connected(2)
            tb.detach(tb.conns[0])
            a.cluster.claim()
            assert not ta.connected(1)
    asyncio.run(main())


def test_a_move_on_a_process_that_does_not_run_the_table_stops_the_owners_bot_for_that_seat(postgres_url):
    async def main():
        with processes(postgres_url) as (a, b):
            ta = three_people(a)
            ta.attach(page(0))
            a.cluster.claim()                          # A runs the table
            while 1 not in ta.game.pending():
                seat = min(ta.game.pending())
                play_first(ta, seat)
            tb = b.get(ta.code)
            assert ta.is_owner and not tb.is_owner
            ta.away[1] = True                          # the owner's bot plays seat 1 for its player
            play_first(tb, 1)   # who moves on B
            await until(lambda: not ta.away[1])
            assert ta.submissions == tb.submissions
    asyncio.run(main())


def test_two_people_taking_the_last_open_seat_on_two_processes_one_gets_it(postgres_url):
    async def main():
        with processes(postgres_url) as (a, b):
            ta, _, _ = a.create({"players": 3, "bots": 1}, "a", seed=2)   # one seat open
            tb = b.get(ta.code)
            seat, _ = ta.join("b")
            with pytest.raises(IllegalAction) as refused:
                tb.join("c")                           # B still shows the seat open
            assert refused.value.code == "table_started"
            assert tb.seats[seat].name == "b" and tb.status == "playing"
            assert [s.name for s in b.storage.load_table(ta.code).seats] == [s.name for s in ta.seats]
    asyncio.run(main())


def test_a_play_by_post_table_nobody_runs_is_taken_by_a_process_without_its_pages(postgres_url):
    async def main():
        a, b = managers(postgres_url)
        a.start()
        made, _, _ = a.create({"players": 3, "bots": 2, "timer": 3600}, "a", seed=4)
        code = made.code
        a.close()                                      # its process is gone; nobody runs it
        b.start()
        try:
            assert code not in b.tables
            await claim_until(b, lambda: code in b.tables and b.tables[code].is_owner)
            assert b.tables[code].deadline             # the person's decision timer runs here
        finally:
            b.close()
    asyncio.run(main())


# ---------------------------------------------------------------------- real processes, nginx
class Stack:
    """``n`` ``fuyuki serve`` processes on one database behind nginx running the shipped
    configuration (its upstream and listen port rendered for this test)."""

    def __init__(self, url: str, tmp: Path, n: int = 3) -> None:
        self.url, self.tmp = url, tmp
        self.ports = [free_port() for _ in range(n)]
        self.procs: list[subprocess.Popen] = []
        for i, port in enumerate(self.ports):
            log = open(tmp / f"server{i}.log", "w")
            self.procs.append(subprocess.Popen(
                [sys.executable, "-m", "fuyuki", "serve", "--db", url, "--port", str(port),
                 "--bot-delay", "0.05", "--cluster-tick", "0.3", "--grace", "60",
                 "--proxy-headers", "--log-level", "info"],
                stdout=log, stderr=subprocess.STDOUT, cwd=ROOT))
        self.proxy_port = free_port()
        self.proxy = f"http://127.0.0.1:{self.proxy_port}"
        conf = NGINX_CONF.read_text()
        conf = re.sub(r"^\s*server 127\.0\.0\.1:\d+ .*\n", "", conf, flags=re.M)
        servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n" for p in self.ports)
        conf = conf.replace("    hash $fuyuki_route consistent;\n",
                            "    hash $fuyuki_route consistent;\n" + servers)
        conf = conf.replace("listen 8080;", f"listen 127.0.0.1:{self.proxy_port};")
        (tmp / "fuyuki.conf").write_text(conf)
        temp = " ".join(f"{k}_temp_path {tmp};" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (tmp / "nginx.conf").write_text(
            f"worker_processes 1; daemon off; pid {tmp}/nginx.pid; error_log {tmp}/nginx.log;\n"
            f"events {{ worker_connections 1024; }}\n"
            f"http {{ access_log off; {temp} include {tmp}/fuyuki.conf; }}\n")
        os.chmod(tmp, 0o755)
        self.nginx = subprocess.Popen([NGINX, "-c", str(tmp / "nginx.conf"), "-p", str(tmp)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        for port in self.ports + [self.proxy_port]:
            self._wait(f"http://127.0.0.1:{port}/api/meta")

    def _wait(self, address: str) -> None:
        end = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(address, timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                if time.monotonic() > end:
                    logs = "".join(p.read_text()[-2000:] for p in self.tmp.glob("*.log"))
                    raise AssertionError(f"{address} did not answer:\n{logs}") from None
                time.sleep(0.1)

    def post(self, path: str, data: dict) -> dict:
        req = urllib.request.Request(self.proxy + path, json.dumps(data).encode(),
                                     {"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read())

    def owners(self) -> dict[int, list[str]]:
        """The tables each process runs (their advisory locks), by process id."""
        import psycopg

        with psycopg.connect(self.url) as db:
            locks = db.execute("SELECT a.application_name, l.objid::bigint, l.classid::bigint "
                               "FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
                               "WHERE l.locktype = 'advisory' AND l.granted").fetchall()
            codes = [c for (c,) in db.execute("SELECT code FROM tables WHERE status='playing'")]
            keys = {}
            for code in codes:
                k = db.execute("SELECT hashtextextended(%s, 51)", (code,)).fetchone()[0]
                keys[(k >> 32) & 0xFFFFFFFF, k & 0xFFFFFFFF] = code
        found: dict[int, list[str]] = {}
        for name, objid, classid in locks:
            code = keys.get((classid, objid))
            if code is not None and name.startswith("fuyuki owner "):
                found.setdefault(int(name.split()[-1]), []).append(code)
        return found

    def close(self) -> None:
        for p in self.procs + [self.nginx]:
            if p.poll() is None:
                p.terminate()
        for p in self.procs + [self.nginx]:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()


@pytest.fixture
def stack(postgres_url, tmp_path):
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (apt-get install nginx)")
    s = Stack(postgres_url, tmp_path)
    try:
        yield s
    finally:
        s.close()


def decision(state: dict):
    view = state.get("view") or {}
    if "me" in view:
        return view["me"]["decision"] if view["me"] is not None else None
    return view.get("decision")


class Player:
    """A scripted page of one seat: random legal moves, reconnecting (through the proxy)
    whenever its connection ends, every state message kept."""

    def __init__(self, code: str, seat: int, token: str, url: str, proxy: str, rng: random.Random):
        self.code, self.seat, self.token, self.url, self.proxy, self.rng = code, seat, token, url, proxy, rng
        self.states: list[dict] = []
        self.over = False
        self.reconnects = 0
        self.errors: list[str] = []

    async def run(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import WebSocketException

        while not self.over:
            try:
                async with connect(self.url.replace("http", "ws") + f"/ws/{self.code}",
                                   open_timeout=5) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    sent = None
                    async for raw in ws:
                        m = json.loads(raw)
                        if m["type"] == "error":
                            self.errors.append(m["code"])
                        if m["type"] == "error" and m["code"] not in ("stale_decision", "not_your_turn"):
                            # refused for another reason (too fast: the server's message rate):
                            # send again a little later
                            await asyncio.sleep(0.3 if m["code"] == "rate_limited" else 0.05)
                            sent = None
                            m = self.states[-1] if self.states else {}
                        elif m["type"] != "state":
                            continue
                        else:
                            self.states.append(m)
                        if (m.get("view") or {}).get("over"):
                            self.over = True
                            return
                        d = decision(m)
                        if d and m.get("turn") is not None and m["turn"] != sent:
                            sent = m["turn"]
                            await ws.send(json.dumps({"type": "move", "turn": sent,
                                                      "choice": self.rng.choice(d["options"])}))
            except (OSError, WebSocketException, asyncio.TimeoutError):
                pass
            self.reconnects += 1
            self.url = self.proxy                      # as the page does: the same address again
            await asyncio.sleep(0.2)

    def __repr__(self) -> str:
        return (f"{self.code} seat {self.seat}: step {self.step}, over {self.over}, reconnects "
                f"{self.reconnects}, errors {self.errors[-5:]}, {self.url}")

    @property
    def step(self) -> int:
        return self.states[-1]["step"] if self.states else 0


# two people and a bot at Servant Big Battle, a person and a bot at the board (a few hundred
# steps of random moves)
GAMES = [{"players": 3, "bots": 1, "timer": 60}, {"game": "board", "players": 2, "bots": 1},
         {"players": 3, "bots": 1}, {"game": "board", "players": 2, "bots": 1}]


def test_a_killed_process_loses_no_move_and_every_table_plays_to_its_end(stack):
    rng = random.Random(51)
    players: list[Player] = []
    codes = []
    for k, cfg in enumerate(GAMES):
        made = stack.post("/api/tables", {**cfg, "name": "a"})
        code = made["code"]
        codes.append(code)
        pages = [(made["seat"], made["token"], stack.proxy)]
        direct = f"http://127.0.0.1:{stack.ports[k % len(stack.ports)]}"
        if made["status"] == "waiting":
            joined = stack.post(f"/api/tables/{code}/join", {"name": "b"})
            pages.append((joined["seat"], joined["token"], direct))
        pages.append((None, None, direct))             # a spectator
        # the host's page through the proxy, the others straight to a process: a table's pages
        # on two processes (or on one, when the proxy chose that one)
        players += [Player(code, seat, token, url, stack.proxy, random.Random(rng.random()))
                    for seat, token, url in pages]

    killed = []

    async def main():
        tasks = [asyncio.create_task(p.run()) for p in players]
        await until(lambda: all(p.step >= 6 for p in players), 40, lambda: players)
        owners = stack.owners()
        victim = max(stack.procs, key=lambda proc: len(owners.get(proc.pid, ())))
        killed.extend(c for c in owners.get(victim.pid, ()) if c in codes)
        victim.send_signal(signal.SIGKILL)             # mid-game, running tables' bots
        done, pending = await asyncio.wait(tasks, timeout=40)
        for t in pending:
            t.cancel()
        assert not pending, [p for p in players if not p.over]
    asyncio.run(main())

    assert killed                                      # the killed process ran tables
    assert any(p.reconnects for p in players)          # and cut some pages
    import psycopg

    with psycopg.connect(stack.url) as db:
        rows = {c: (seed, json.loads(cfg), status) for c, seed, cfg, status in db.execute(
            "SELECT code, seed, config, status FROM tables")}
    for code in codes:
        seed, cfg, status = rows[code]
        subs = stored(stack.url, code)
        assert [i for i, _, _ in subs] == list(range(len(subs)))      # gap-free, one per step
        assert status == "over"
        game_adapter = adapter(cfg["game"])
        g = game_adapter.new_game(cfg, seed)
        mine = [p for p in players if p.code == code]
        seen = {(p.seat, st["step"]): [] for p in mine for st in p.states}
        for p in mine:
            for st in p.states:
                seen[p.seat, st["step"]].append(st["view"])
        for k in range(len(subs) + 1):                 # every view any page saw, at its step
            for p in mine:
                for view in seen.get((p.seat, k), []):
                    assert view == norm(game_adapter.page_view(g, p.seat)), (code, p.seat, k)
            if k < len(subs):
                g.submit(subs[k][1], subs[k][2])
        assert g.over
        for p in mine:                                 # every seat's final view: the replay's
            assert p.states[-1]["step"] == len(subs)
            assert p.states[-1]["view"] == norm(game_adapter.page_view(g, p.seat))


@pytest.mark.browser
def test_a_page_reconnects_through_the_proxy_to_another_process_when_its_own_dies(postgres_url, tmp_path):
    """Chromium on the table page through nginx; the process running the table is killed: the
    page reconnects by itself (client.js), reaches another process and the game plays to its
    end there."""
    from tests.web.test_browser import ARGS, CHROMIUM, _act, play_to_the_end
    from tests.web.test_browser_social import _state

    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (apt-get install nginx)")
    stack = Stack(postgres_url, tmp_path, 2)
    try:
        made = stack.post("/api/tables", {"players": 3, "bots": 2, "name": "あかね"})
        code = made["code"]
        with sync_api.sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                ctx = browser.new_context()
                ctx.add_init_script(f"localStorage.setItem('fuyuki.token.{code}', '{made['token']}')")
                page = ctx.new_page()
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                page.goto(stack.proxy + f"/t/{code}")
                page.wait_for_selector("#game:not(.hidden)", timeout=15000)
                end = time.monotonic() + 30
                while not _state(page, "last.step >= 3"):   # the page answers, the bots play
                    assert time.monotonic() < end, "the game did not start moving"
                    if not _act(page):
                        page.wait_for_timeout(100)
                for _ in range(200):
                    owner = [pid for pid, codes in stack.owners().items() if code in codes]
                    if owner:
                        break
                    page.wait_for_timeout(50)
                victim = next(p for p in stack.procs if p.pid == owner[0])
                step = _state(page, "last.step")
                victim.send_signal(signal.SIGKILL)
                assert play_to_the_end({"a": page}, lambda _name, p: _act(p), 60, 100)
                assert _state(page, "last.step") > step
                assert not errors, errors
            finally:
                browser.close()
        with urllib.request.urlopen(f"{stack.proxy}/api/tables/{code}", timeout=5) as r:
            assert json.loads(r.read())["status"] == "over"
    finally:
        stack.close()
