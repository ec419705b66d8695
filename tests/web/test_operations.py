"""What the server's operator relies on: structured log lines, /healthz, /metrics in the
Prometheus text format, and a shutdown on SIGTERM/SIGINT that finishes the moves in flight,
closes the pages with "server restarting" and exits 0 (docs/web.md, "Operations")."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from starlette.websockets import WebSocketDisconnect

from fuyuki.web.app import create_app
from fuyuki.web.operations import CLOSE_RESTARTING
from fuyuki.web.storage import MemoryStorage
from tests.web.conftest import fast_settings, free_port
from tests.web.helpers import Client, close_all, connect_all, create, drive, join, three_humans

ROOT = Path(__file__).resolve().parents[2]


def samples(http) -> dict[tuple[str, tuple], float]:
    """GET /metrics parsed: {(sample name, sorted labels): value}."""
    r = http.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(r.text) for s in family.samples}


def played_game(http, moves: int = 12) -> tuple[str, dict[int, str], dict[int, Client], list[Client]]:
    """Three people at a table, a spectator, ``moves`` moves played."""
    code, tokens = three_humans(http)
    seats, clients = connect_all(http, code, tokens, spectators=1)
    done = [0]

    def enough(_state):
        done[0] += 1
        return done[0] > moves
    drive(seats, clients, random.Random(3), until=enough)
    return code, tokens, seats, clients


@pytest.fixture
def http(app_factory):
    """A test client of a fresh server whose /metrics is made anew on every request."""
    with TestClient(app_factory(metrics_cache=0)) as client:
        try:
            yield client
        finally:
            close_all()


@pytest.fixture
def json_log():
    """The server's log as ``fuyuki serve --log-format json`` writes it (into a buffer)."""
    from fuyuki.cli.web_commands import configure_logging

    out = io.StringIO()
    handler = configure_logging("info", out, fmt="json")
    try:
        yield out
    finally:
        logging.getLogger().removeHandler(handler)


# ---------------------------------------------------------------------- log lines
def test_a_json_log_line_is_one_object_with_time_level_logger_message_and_the_table_event(
        tmp_path, json_log):
    with TestClient(create_app(tmp_path, settings=fast_settings())) as http:
        made = create(http, players=3, bots=0, name="a")
        code = made["code"]
        tokens = {0: made["token"], 1: join(http, code, "b")["token"], 2: join(http, code, "c")["token"]}
        seats, clients = connect_all(http, code, tokens, spectators=0)
        drive(seats, clients, random.Random(1))
        close_all()
    lines = [json.loads(x) for x in json_log.getvalue().splitlines()]
    assert lines and all({"time", "level", "logger", "message"} <= line.keys() for line in lines)
    assert all(line["time"].endswith("Z") for line in lines)
    events = {line.get("event"): line for line in lines if line.get("table") == code}
    assert events["created"]["game"] == "sbb" and events["created"]["level"] == "INFO"
    assert events["created"]["logger"] == "fuyuki.web.manager"
    assert events["started"]["message"] == f"table {code} started"
    assert events["finished"]["step"] == clients[0].last["step"]
    text = json_log.getvalue()
    assert not any(token in text for token in [made["token"], *tokens.values()])


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_log_line_never_carries_an_email_address_or_a_url(fmt):
    from fuyuki.cli.web_commands import configure_logging

    out = io.StringIO()
    handler = configure_logging("info", out, fmt=fmt)
    try:
        log = logging.getLogger("fuyuki.web.notify")
        log.warning("notice to %s failed", "player.one+games@mail.example.org")
        try:
            raise OSError("POST https://discord.com/api/webhooks/123/SeCrEt failed")
        except OSError:
            log.exception("the webhook of postgresql://fuyuki:pw@db.example/fuyuki failed")
    finally:
        logging.getLogger().removeHandler(handler)
    text = out.getvalue()
    for secret in ("player.one", "mail.example", "discord.com", "SeCrEt", "pw@db", "db.example"):
        assert secret not in text
    assert "notice to <hidden> failed" in text


def test_a_json_line_takes_only_the_named_extra_fields():
    from fuyuki.web.logs import JsonFormatter

    record = logging.LogRecord("fuyuki.web.table", logging.INFO, __file__, 1, "table %s started",
                               ("abc",), None)
    record.__dict__.update(table="abc", seat=2, duration=0.25, token="t0k3n", hand=["x"])
    line = json.loads(JsonFormatter().format(record))
    assert line["table"] == "abc" and line["seat"] == 2 and line["duration"] == 0.25
    assert "token" not in line and "hand" not in line


def test_serve_refuses_an_unknown_log_format():
    r = subprocess.run([sys.executable, "-m", "fuyuki", "serve", "--log-format", "xml"],
                       capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert r.returncode == 2 and "--log-format: one of text | json" in r.stderr


# ---------------------------------------------------------------------- /healthz
def test_healthz_is_ok_while_the_store_answers_and_says_nothing_secret(http):
    made = create(http, players=3, bots=2, name="a")
    r = http.get("/healthz")
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    assert r.json() == {"status": "ok", "tables": 1, "connections": 0}
    assert made["code"] not in r.text and made["token"] not in r.text


class _Broken(MemoryStorage):
    def ping(self, timeout: float) -> None:
        raise OSError("connection refused")


class _Stuck(MemoryStorage):
    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def ping(self, timeout: float) -> None:
        self.release.wait(30)


def test_healthz_is_503_with_the_reason_when_the_store_does_not_answer(caplog):
    with TestClient(create_app(storage=_Broken(), settings=fast_settings())) as http:
        for _ in range(3):
            r = http.get("/healthz")
            assert r.status_code == 503
            assert r.json() == {"status": "unavailable", "reason": "storage_unreachable"}
    said = [r for r in caplog.records if r.name == "fuyuki.web.operations"]
    assert len(said) == 1 and "does not answer" in said[0].getMessage()   # once, not per request


def test_healthz_is_503_when_the_store_is_slower_than_the_health_timeout():
    store = _Stuck()
    with TestClient(create_app(storage=store, settings=fast_settings(health_timeout=0.2))) as http:
        try:
            r = http.get("/healthz")
            assert r.status_code == 503 and r.json()["reason"] == "storage_timeout"
        finally:
            store.release.set()
        assert http.get("/healthz").status_code == 200


def test_healthz_pings_postgresql_and_is_503_once_its_database_is_gone(postgres_server):
    import psycopg

    from fuyuki.web.pgstorage import PostgresStorage

    url = postgres_server.database()
    store = PostgresStorage(url)
    with TestClient(create_app(storage=store, settings=fast_settings())) as http:
        assert http.get("/healthz").json()["status"] == "ok"
        with psycopg.connect(postgres_server.url(), autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {url.rsplit('/', 1)[1]} WITH (FORCE)")
        r = http.get("/healthz")
        assert r.status_code == 503 and r.json()["reason"] == "storage_unreachable"
        assert "postgres" not in r.text


def test_healthz_is_503_and_new_pages_are_refused_while_the_server_shuts_down(http):
    code, tokens = three_humans(http)
    app = http.app
    http.portal.call(app.state.drain)
    r = http.get("/healthz")
    assert r.status_code == 503 and r.json() == {"status": "unavailable", "reason": "shutting_down"}
    with pytest.raises(WebSocketDisconnect) as closed:
        with http.websocket_connect(f"/ws/{code}"):
            pass
    assert closed.value.code == CLOSE_RESTARTING


def test_a_drain_closes_every_page_with_server_restarting_after_its_last_state(http):
    code, tokens, seats, clients = played_game(http, moves=3)
    step = clients[0].last["step"]
    drained = http.portal.start_task_soon(http.app.state.drain)
    for c in clients:
        with pytest.raises(WebSocketDisconnect) as closed:
            c.read()
        assert closed.value.code == CLOSE_RESTARTING
        assert c.last["step"] == step
        c.close()                           # the page answers the close: it has gone
    drained.result(timeout=10)              # every page gone: the drain is over
    assert http.get("/healthz").status_code == 503


# ---------------------------------------------------------------------- /metrics
def test_metrics_count_moves_latency_tables_and_connections(http):
    code, tokens, seats, clients = played_game(http, moves=12)
    table = http.app.state.manager.get(code)
    m = samples(http)
    assert m[("fuyuki_moves_total", (("game", "sbb"),))] == table.step
    assert m[("fuyuki_move_latency_seconds_count", (("game", "sbb"),))] == 12
    assert m[("fuyuki_move_latency_seconds_bucket", (("game", "sbb"), ("le", "+Inf")))] == 12
    assert m[("fuyuki_tables", (("state", "playing"),))] == 1
    assert m[("fuyuki_tables", (("state", "waiting"),))] == 0
    assert m[("fuyuki_connections", (("role", "seat"),))] == 3
    assert m[("fuyuki_connections", (("role", "spectator"),))] == 1
    clients[-1].close()
    clients[0].read()
    assert samples(http)[("fuyuki_connections", (("role", "spectator"),))] == 0


def test_metrics_time_every_bot_move_by_game_and_level(http):
    made = create(http, players=3, bots=2, name="a", bot_level="easy")
    seats, clients = connect_all(http, made["code"], {0: made["token"]}, spectators=0)
    drive(seats, clients, random.Random(5), until=lambda s: s["step"] > 20)
    table = http.app.state.manager.get(made["code"])
    bot_moves = sum(1 for seat, _ in table.submissions if seat != 0)
    m = samples(http)
    assert bot_moves > 0
    assert m[("fuyuki_bot_think_seconds_count", (("game", "sbb"), ("level", "easy")))] == bot_moves
    assert m[("fuyuki_moves_total", (("game", "sbb"),))] == table.step


def test_metrics_count_refusals_by_kind_and_errors_by_logger(http):
    assert http.get("/api/tables/nosuchtable").status_code == 404
    assert http.get("/api/tables/nosuchtable").status_code == 404
    logging.getLogger("fuyuki.web.table").error("a failure for the count")
    m = samples(http)
    assert m[("fuyuki_refusals_total", (("kind", "http 404 not_found"),))] == 2
    assert m[("fuyuki_errors_total", (("logger", "fuyuki.web.table"),))] == 1


def test_two_apps_in_one_process_count_apart(tmp_path):
    with TestClient(create_app(tmp_path / "a", settings=fast_settings(metrics_cache=0))) as a, \
            TestClient(create_app(tmp_path / "b", settings=fast_settings(metrics_cache=0))) as b:
        played_game(a, moves=4)
        close_all()
        assert samples(a)[("fuyuki_move_latency_seconds_count", (("game", "sbb"),))] == 4
        assert ("fuyuki_move_latency_seconds_count", (("game", "sbb"),)) not in samples(b)
        assert samples(b)[("fuyuki_tables", (("state", "playing"),))] == 0


def test_metrics_are_made_at_most_once_a_metrics_cache_period(app_factory):
    with TestClient(app_factory(metrics_cache=3600)) as http:
        first = http.get("/metrics").text
        assert http.get("/api/tables/nosuchtable").status_code == 404
        assert http.get("/metrics").text == first


def test_metrics_name_no_table_code_player_name_or_token(http):
    code, tokens, seats, clients = played_game(http, moves=4)
    text = http.get("/metrics").text
    assert code not in text and not any(t in text for t in tokens.values())
    values = {v for family in text_string_to_metric_families(text) for s in family.samples
              for k, v in s.labels.items() if k != "le"}
    assert not values & {code, "a", "b", "c"}
    assert values <= {"sbb", "waiting", "playing", "over", "seat", "spectator"}


# ---------------------------------------------------------------------- shutdown
def _serve(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "fuyuki", "serve", "--port", str(port), "--data", str(tmp_path / "data"),
         "--bot-delay", "0", "--log-format", "json", *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.HTTPError:
            pass
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server did not start: " + proc.communicate()[1])


def _stored(tmp_path: Path, code: str) -> int:
    with sqlite3.connect(tmp_path / "data" / "fuyuki-web.sqlite3") as db:
        return db.execute("SELECT COUNT(*) FROM submissions WHERE code=?", (code,)).fetchone()[0]


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stores_the_move_in_flight_closes_pages_with_1012_and_exits_0(tmp_path, sig):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    proc, url = _serve(tmp_path)
    try:
        made = httpx.post(url + "/api/tables", json={"players": 3, "bots": 2, "name": "a"}).json()
        with connect(url.replace("http", "ws") + f"/ws/{made['code']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            state = json.loads(ws.recv(timeout=10))
            decision = state["view"]["me"]["decision"]
            ws.send(json.dumps({"type": "move", "choice": decision["options"][0], "turn": state["turn"]}))
            proc.send_signal(sig)          # the move is in flight (sent, maybe not read yet)
            seen = []
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    seen.append(json.loads(ws.recv(timeout=30)))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == CLOSE_RESTARTING
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    stored = _stored(tmp_path, made["code"])
    shown = max([m["step"] for m in seen if m["type"] == "state"], default=state["step"])
    assert stored == shown                  # what the page was shown is exactly what is stored
    lines = [json.loads(x) for x in err.splitlines() if x.startswith("{")]
    assert any(line.get("event") == "shutdown" for line in lines)
    assert not any(line["level"] == "ERROR" for line in lines) and "Traceback" not in err


def test_a_move_answered_before_the_signal_is_stored_and_the_table_resumes_there(tmp_path):
    from websockets.sync.client import connect

    proc, url = _serve(tmp_path)
    try:
        made = httpx.post(url + "/api/tables", json={"players": 3, "bots": 2, "name": "a"}).json()
        with connect(url.replace("http", "ws") + f"/ws/{made['code']}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": made["token"]}))
            state = json.loads(ws.recv(timeout=10))
            ws.send(json.dumps({"type": "move", "choice": state["view"]["me"]["decision"]["options"][0],
                                "turn": state["turn"]}))
            after = json.loads(ws.recv(timeout=10))
            assert after["type"] == "state" and after["step"] > state["step"]
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0
    assert _stored(tmp_path, made["code"]) == after["step"]
    proc, url = _serve(tmp_path)
    try:
        assert httpx.get(url + f"/api/tables/{made['code']}").json()["step"] == after["step"]
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
    assert proc.returncode == 0


@pytest.mark.browser
def test_a_page_closed_for_a_restart_says_so_in_ja_and_en_and_comes_back_by_itself(app_factory, live_server):
    from tests.web.test_browser import chromium
    from tests.web.test_browser_social import _wait

    app = app_factory()
    with chromium(app, live_server) as (server, browser):
        made = httpx.post(server.url + "/api/tables", json={"players": 3, "bots": 2, "name": "a"}).json()
        ctx = browser.new_context()
        ctx.add_init_script(f"localStorage.setItem('fuyuki.token.{made['code']}', '{made['token']}')")
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + f"/t/{made['code']}")
        page.wait_for_selector("#game:not(.hidden)", timeout=10000)
        loop = server.server.servers[0].get_loop()
        drained = asyncio.run_coroutine_threadsafe(app.state.drain(), loop)
        page.wait_for_selector("#reconnect:not(.hidden)")
        _wait(page, "document.getElementById('reconnect').textContent.includes('サーバーが再起動しています')")
        drained.result(timeout=15)
        page.click("#lang")                  # its next try is refused too (1012): said in English
        _wait(page, "document.getElementById('reconnect').textContent.includes('The server is restarting')",
              timeout=20)
        app.state.draining = False           # the server is back
        page.wait_for_selector("#reconnect.hidden", state="attached", timeout=20000)
        assert not errors
