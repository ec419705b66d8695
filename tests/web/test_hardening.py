"""The holes of issue 19, closed for every game (the generic table server):
malformed input of any depth or size, connection places (seats always get in; spectators have
their own cap and a per-address limit), tables that need a person and are bounded per address
and in total, rate limits by the real client behind a trusted proxy, decision timers that
start with the seat's page and survive a restart, and display names that cannot imitate a
seat or a bot."""

from __future__ import annotations

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fuyuki.web import table
from fuyuki.web.app import create_app
from fuyuki.web.settings import check_name
from fuyuki.web.table import CLOSE_REPLACED, CLOSE_SPECTATORS_FULL, CLOSE_TOO_MANY
from tests.web.conftest import fast_settings
from tests.web.helpers import Client, close_all, connect_all, create, join, recv, three_humans

DEEP = ["[" * 1000 + "]" * 1000, '{"a":' * 1000 + "1" + "}" * 1000,
        '{"type":"hello","token":' + "[" * 5000 + "]" * 5000 + "}"]


def closed_with(http, code: str, hello: dict | None = None) -> int:
    """Open a WebSocket, say hello (a spectator unless a token is given): the close code."""
    with pytest.raises(WebSocketDisconnect) as e:
        with http.websocket_connect(f"/ws/{code}") as ws:
            ws.send_json(hello or {"type": "hello", "token": None})
            while True:
                recv(ws)
    return e.value.code


# ---------------------------------------------------------------------- malformed input
@pytest.mark.parametrize("body", DEEP + [b"\xff\xfe{}", "NaN", '{"players":' + "9" * 5000 + "}",
                                         "", "null", '"text"', "{" * 20 + "}" * 20])
def test_any_malformed_body_gets_a_4xx_never_a_traceback(http, body):
    code, _ = three_humans(http)
    for path in ("/api/tables", f"/api/tables/{code}/join"):
        r = http.post(path, content=body if isinstance(body, bytes) else body.encode(),
                      headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500, (path, r.status_code, r.text)
        assert "Traceback" not in r.text and r.json()["error"]


def test_a_nested_config_field_is_refused_by_name(http):
    for config in ({"options": [["tie_dice"]]}, {"players": {"n": 3}}, {"timer": [[[]]]},
                   {"game": ["sbb"]}, {"name": {"x": 1}}):
        r = http.post("/api/tables", json=config)
        assert r.status_code == 400 and r.json()["error"] in ("bad_config", "bad_name"), config


def test_a_deep_or_binary_websocket_frame_is_refused_and_the_seat_plays_on(http):
    code, tokens = three_humans(http)
    seats, clients = connect_all(http, code, tokens, spectators=0)
    c = seats[0]
    for bad in DEEP[:2]:
        c.ws.send_text(bad)
        m = c.read()
        assert m["type"] == "error" and m["code"] == "bad_message"
    c.ws.send_bytes(b'{"type":"ping"}')
    assert c.read()["code"] == "bad_message"
    c.send({"type": "ping"})
    assert c.read()["type"] == "pong"
    for x in clients:
        x.close()


@pytest.mark.parametrize("hello", DEEP)
def test_a_deep_hello_closes_the_socket_with_a_policy_code(http, hello):
    code, _ = three_humans(http)
    with pytest.raises(WebSocketDisconnect) as e:
        with http.websocket_connect(f"/ws/{code}") as ws:
            ws.send_text(hello)
            assert recv(ws)["code"] == "bad_hello"
            recv(ws)
    assert e.value.code == 1008


def test_an_unknown_table_closes_with_not_found(http):
    with pytest.raises(WebSocketDisconnect) as e:
        with http.websocket_connect("/ws/nosuchtable1"):
            pass
    assert e.value.code == table.CLOSE_NOT_FOUND


# ---------------------------------------------------------------------- connection places
def test_spectators_cannot_take_the_seats_places(app_factory):
    with TestClient(app_factory(max_spectators=2, spectators_per_address=10)) as http:
        try:
            code, tokens = three_humans(http)
            watchers = [Client(http, code, None) for _ in range(2)]
            assert closed_with(http, code) == CLOSE_SPECTATORS_FULL     # the third is refused
            seats, clients = connect_all(http, code, tokens, spectators=0)   # every seat gets in
            assert all(c.last["you"] == s for s, c in seats.items())
            watchers[0].close()
            late = Client(http, code, None)                  # a place came free
            assert late.read()["type"] == "state"
        finally:
            close_all()


def test_spectators_from_one_address_are_limited(app_factory):
    with TestClient(app_factory(max_spectators=40, spectators_per_address=3)) as http:
        try:
            code, _ = three_humans(http)
            for _ in range(3):
                Client(http, code, None)
            assert closed_with(http, code) == CLOSE_SPECTATORS_FULL
        finally:
            close_all()


def test_a_seats_newest_page_replaces_its_oldest(app_factory):
    with TestClient(app_factory(tabs_per_seat=2)) as http:
        try:
            code, tokens = three_humans(http)
            first = Client(http, code, tokens[0])
            first.read()
            second = Client(http, code, tokens[0])
            second.read()
            first.read()
            third = Client(http, code, tokens[0])
            assert third.read()["you"] == 0
            with pytest.raises(WebSocketDisconnect) as e:
                while True:
                    first.read()
            assert e.value.code == CLOSE_REPLACED
            second.read()
        finally:
            close_all()


def test_one_address_has_a_bounded_number_of_sockets(app_factory):
    with TestClient(app_factory(sockets_per_address=2)) as http:
        try:
            code, tokens = three_humans(http)
            Client(http, code, tokens[0])
            Client(http, code, tokens[1])
            with pytest.raises(WebSocketDisconnect) as e:
                with http.websocket_connect(f"/ws/{code}"):
                    pass
            assert e.value.code == CLOSE_TOO_MANY
        finally:
            close_all()


# ---------------------------------------------------------------------- tables
def test_a_table_needs_a_person(http):
    r = http.post("/api/tables", json={"players": 3, "bots": 3, "bot_level": "hard", "name": "a"})
    assert r.status_code == 400 and r.json()["error"] == "bad_config" and "person" in r.json()["message"]
    r = http.post("/api/tables", json={"players": 3, "bots": 2})      # the creator is the host
    assert r.status_code == 400 and r.json()["error"] == "bad_name"


def test_bots_wait_for_a_person_to_connect(app_factory):
    """Bots never play a table on their own: while no seat's page is connected (spectators
    do not count), their moves wait."""
    with TestClient(app_factory(bot_delay=30)) as http:
        try:
            manager = http.app.state.manager
            for seed in range(50):              # a table whose first drafter is a bot
                t, _, token = manager.create({"players": 3, "bots": 2, "bot_level": "easy"},
                                             "solo", seed=seed)
                if 0 not in t.game.pending():
                    break

            async def tick():
                t._bot_tick()

            watcher = Client(http, t.code, None)
            watcher.read()
            watcher.ws.portal.call(tick)          # the bot's turn: a spectator alone
            assert t.step == 0
            host = Client(http, t.code, token)
            host.read()
            watcher.read()
            watcher.ws.portal.call(tick)          # a person is seated: the bot plays
            assert t.step == 1
        finally:
            close_all()


def test_running_tables_are_bounded_per_address_and_in_total(app_factory, monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(table, "_now", lambda: clock[0])
    with TestClient(app_factory(tables_per_address=2, max_running_tables=3,
                                idle_seconds=600)) as http:
        create(http, players=3, bots=2, name="a")
        create(http, players=3, bots=0, name="a")
        r = http.post("/api/tables", json={"players": 3, "bots": 2, "name": "a"})
        assert r.status_code == 429 and r.json()["error"] == "too_many_tables"
        manager = http.app.state.manager
        manager.create({"players": 3, "bots": 1}, "x", address="198.51.100.7")   # another address
        with pytest.raises(Exception) as e:                                      # the server is full
            manager.create({"players": 3, "bots": 1}, "y", address="198.51.100.8")
        assert e.value.code == "too_many_tables"
        clock[0] += 601                          # nobody came: idle tables stop counting
        assert manager.running() == 0
        create(http, players=3, bots=2, name="a")


def test_the_real_client_is_rate_limited_behind_a_trusted_proxy(tmp_path, live_server):
    from fuyuki.cli.web_commands import server_config

    def budget(trusted: str | None) -> list[int]:
        app = create_app(tmp_path / trusted.replace("*", "any") if trusted else tmp_path / "no",
                         settings=fast_settings(http_rate=0.001, http_burst=2))
        config = server_config(app, "127.0.0.1", 0, proxy_headers=trusted is not None,
                               forwarded_allow_ips=trusted or "")
        with live_server(app, config=config) as server:
            got = []
            for client in ("203.0.113.1", "203.0.113.1", "203.0.113.1", "203.0.113.2"):
                r = httpx.post(server.url + "/api/tables", json={"players": 3, "bots": 2, "name": "a"},
                               headers={"x-forwarded-for": client})
                got.append(r.status_code)
            return got

    assert budget("127.0.0.1") == [200, 200, 429, 200]    # each client has its own budget
    assert budget(None) == [200, 200, 429, 429]           # without --proxy-headers: one budget
    assert budget("10.9.9.9") == [200, 200, 429, 429]     # a proxy that is not trusted


# ---------------------------------------------------------------------- decision timers
def test_a_timer_starts_when_the_seats_page_is_connected(http, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(table, "_now", lambda: clock[0])
    code, tokens = three_humans(http, timer=30)
    t = http.app.state.manager.get(code)
    assert t.status == "playing" and set(t.game.pending()) and not t.deadline
    clock[0] += 100                                   # long before anyone opens the page
    seat = min(t.game.pending())
    c = Client(http, code, tokens[seat])
    m = c.read()
    assert m["deadline"] == 30 and set(t.deadline) == {seat}
    assert m["auto"] is False
    c.close()


def test_a_running_timer_survives_a_restart(tmp_path, monkeypatch):
    clock, wall = [1000.0], [1.7e9]
    monkeypatch.setattr(table, "_now", lambda: clock[0])
    monkeypatch.setattr(table, "_wall", lambda: wall[0])
    data = tmp_path / "data"
    app = create_app(data, settings=fast_settings())
    with TestClient(app) as http:
        code, tokens = three_humans(http, timer=60)
        seats, clients = connect_all(http, code, tokens, spectators=0)
        waiting = sorted(app.state.manager.get(code).game.pending())
        assert all(seats[s].last["deadline"] == 60 for s in waiting)
        for c in clients:
            c.close()
        close_all()
    app.state.storage.close()
    clock[0], wall[0] = 50.0, wall[0] + 45            # a new process 45 s later
    app2 = create_app(data, settings=fast_settings())
    with TestClient(app2) as http:
        c = Client(http, code, tokens[waiting[0]])
        assert c.read()["deadline"] == 15             # 60 - 45: not a fresh timer
        c.close()
    app2.state.storage.close()
    wall[0] += 300                                    # long after: a few seconds to answer
    app3 = create_app(data, settings=fast_settings(restart_timer_floor=10))
    with TestClient(app3) as http:
        c = Client(http, code, tokens[waiting[0]])
        assert c.read()["deadline"] == 10
        c.close()


# ---------------------------------------------------------------------- names
@pytest.mark.parametrize("name", ["P0", "p1 Bob", "Ｐ２", "Р3 (Cyrillic)", "x P4", "bot", "BOT",
                                  "Bot 2", "ボット", "ﾎﾞｯﾄ", "ｂｏｔ", "\u200bBob", "a\u202eb", " ",
                                  "x" * 25])
def test_names_that_imitate_a_seat_or_a_bot_or_hide_characters_are_refused(name):
    with pytest.raises(Exception) as e:
        check_name(name)
    assert e.value.code in ("bad_name", "reserved_name")


@pytest.mark.parametrize("name,shown", [("Ｂｏｂ", "Bob"), ("  あかね  ", "あかね"), ("ｱｶﾈ", "アカネ"),
                                        ("Abbott", "Abbott"), ("ロボット好き", "ロボット好き"),
                                        ("Bob  P", "Bob P")])
def test_names_are_nfkc_normalized(name, shown):
    assert check_name(name) == shown


def test_names_are_unique_per_table(http):
    made = create(http, players=3, bots=0, name="Bob")
    for same in ("bob", "ＢＯＢ", "B o b", "Воb"):            # the last has a Cyrillic В
        r = http.post(f"/api/tables/{made['code']}/join", json={"name": same})
        assert r.status_code == 409 and r.json()["error"] == "name_taken", same
    assert join(http, made["code"], "Bobby")["seat"] == 1


def test_serve_hands_the_trusted_proxies_to_uvicorn_and_refuses_a_bad_db(monkeypatch, tmp_path):
    import uvicorn
    from typer.testing import CliRunner

    from fuyuki.cli.main import app as cli

    started = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: started.append(self.config))
    r = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path), "--proxy-headers",
                                 "--forwarded-allow-ips", "10.0.0.5"])
    assert r.exit_code == 0, r.output
    assert started[0].proxy_headers and started[0].forwarded_allow_ips == "10.0.0.5"
    assert started[0].ws_max_size == 16384
    r = CliRunner().invoke(cli, ["serve", "--data", str(tmp_path), "--db", "mysql://x"])
    assert r.exit_code == 2 and "postgresql://" in r.output and "Traceback" not in r.output


# ---------------------------------------------------------------------- issue 47's doors
def _deep_rosters() -> list[str]:
    n = 600
    return ["a = " + "[" * n + "]" * n + "\n", "a = " + "{ b = " * n + "1" + " }" * n + "\n",
            "[[pair]]\nid = " + "[" * 60 + "]" * 60 + "\n"]


@pytest.mark.parametrize("roster", _deep_rosters())
def test_a_deeply_nested_roster_upload_is_a_4xx_naming_the_roster(http, roster):
    r = http.post("/api/tables", json={"game": "rpg", "name": "GM", "roster": roster})
    assert r.status_code == 400, r.text
    assert r.json()["error"] == "bad_config" and "roster" in r.json()["message"]
    assert "nested deeper than" in r.json()["message"]


def test_an_uploaded_roster_may_be_larger_than_a_message(http):
    """The upload limit (64 KiB) holds for a table's creation, not the 2 KiB of a message:
    the sample roster (about 10 KB) uploads, as the war's creation page sends it."""
    from fuyuki.core.data import package_file

    text = package_file("fuyuki.rpg", "data", "roster.toml").read_text("utf-8")
    assert len(text.encode("utf-8")) > 4 * 2048
    r = http.post("/api/tables", json={"game": "rpg", "name": "GM", "roster": text,
                                       "humans": [], "anka": []})
    assert r.status_code == 200, r.text
    big = http.post("/api/tables", json={"game": "rpg", "name": "GM", "roster": "#" * 70000})
    assert big.status_code == 413                     # the upload limit itself still holds
    join = http.post(f"/api/tables/{r.json()['code']}/join", json={"name": "x" * 3000})
    assert join.status_code in (400, 413)             # and a join is still a message


def test_websocket_text_frames_that_are_not_utf8_leave_one_short_line_in_the_log(tmp_path,
                                                                                  live_server):
    """uvicorn writes a traceback for each such frame; the server's filter makes it one line
    at most a minute, and the connection is closed with 1007 each time."""
    import io
    import logging

    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from fuyuki.cli.web_commands import server_config

    app = create_app(tmp_path / "d", settings=fast_settings())
    config = server_config(app, "127.0.0.1", 0)
    log = io.StringIO()
    handler = logging.StreamHandler(log)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    with live_server(app, config=config) as server:
        logger = logging.getLogger("uvicorn.error")
        logger.addHandler(handler)
        try:
            code = httpx.post(server.url + "/api/tables",
                              json={"players": 3, "bots": 2, "name": "a"}).json()["code"]
            url = server.url.replace("http", "ws") + f"/ws/{code}"
            closes = []
            for i in range(100):
                with connect(url) as ws:
                    if i % 2:                          # after the hello, or as the first frame
                        ws.send('{"type":"hello","token":null}')
                        ws.recv(5)
                    ws.send(b'{"type":"ping","x":"\xff\xfe"}', text=True)
                    try:
                        while True:
                            ws.recv(5)
                    except ConnectionClosed as exc:
                        closes.append(exc.rcvd.code if exc.rcvd else None)
        finally:
            logger.removeHandler(handler)
    text = log.getvalue()
    assert closes == [1007] * 100
    assert "Traceback" not in text and len(text) < 200, text[:1000]
    assert text.count("not UTF-8") == 1


def _finished_war(http):
    from tests.web.war_driver import create_war, read_all

    made = create_war(http, humans=["red-saber"], turns=1)
    gm_seat, player = made["seat"], made["invites"]["0"]
    seats, clients = connect_all(http, made["code"], {gm_seat: made["token"], 0: player},
                                 spectators=0)
    gm, me = seats[gm_seat], seats[0]
    for _ in range(3000):
        if gm.last["view"]["over"]:
            break
        d = me.last["view"].get("decision")
        if gm.last["view"]["held"]:
            gm.send({"type": "gm", "gm": "next"})
        elif d:
            me.send({"type": "move", "choice": d["options"][0]["value"], "turn": me.last["turn"]})
        else:
            gm.send({"type": "gm", "gm": "next"})
        read_all(clients)
    assert gm.last["view"]["over"]
    return made, gm_seat, player, clients


def test_a_finished_wars_gm_console_is_the_gms_alone(http):
    """A finished war's public frames are public; every seat's page (the GM's console: every
    sheet and decision) needs the GM's seat token, never in the URL."""
    made, gm_seat, player, clients = _finished_war(http)
    url = f"/api/tables/{made['code']}/replay/1"
    public = http.get(url)
    assert public.status_code == 200 and "hands" not in public.json()
    assert "sheets" not in public.json()["view"]
    for headers in ({}, {"x-seat-token": player}, {"x-seat-token": "x" * 500},
                    {"x-seat-token": made["token"] + "x"}):
        r = http.get(url + "?hands=1", headers=headers)
        assert r.status_code == 403 and r.json()["error"] == "host_only", (headers, r.text)
    r = http.get(url + "?hands=1", headers={"x-seat-token": made["token"]})
    assert r.status_code == 200
    hands = r.json()["hands"]
    assert hands[gm_seat]["role"] == "gm" and "sheets" in hands[gm_seat]
    for c in clients:
        c.close()
