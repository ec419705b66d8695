"""The server tells its operator what happens (issue 50, item 4): a log line for each table
created, started, finished and resumed, each refused request kind (counted per kind), every
unexpected error with its traceback (never to a client), no token in any line, and no
``except`` in the server that drops an error unlogged."""

from __future__ import annotations

import ast
import io
import logging
import random
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fuyuki.web import security
from fuyuki.web.app import create_app
from fuyuki.web.games.sbb import SbbAdapter
from tests.web.conftest import fast_settings
from tests.web.helpers import Client, close_all, connect_all, create, drive, join, recv, \
    three_humans

WEB = Path(__file__).resolve().parents[2] / "src" / "fuyuki" / "web"


@pytest.fixture
def info(caplog):
    caplog.set_level(logging.INFO, logger="fuyuki")
    return caplog


def lines(caplog, logger: str = "fuyuki.web") -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name.startswith(logger)]


def test_a_table_created_started_finished_and_resumed_is_one_line_each(tmp_path, info):
    with TestClient(create_app(tmp_path, settings=fast_settings())) as http:
        made = create(http, players=3, bots=0, name="a")
        code = made["code"]
        assert f"table {code} created from the lobby: sbb, 3 seats (3 human)" in lines(info)
        tokens = {0: made["token"], 1: join(http, code, "b")["token"],
                  2: join(http, code, "c")["token"]}
        assert f"table {code} started" in lines(info)
        seats, clients = connect_all(http, code, tokens, spectators=0)
        drive(seats, clients, random.Random(1))
        close_all()
    done = [x for x in lines(info) if x.startswith(f"table {code} finished after ")]
    assert len(done) == 1 and re.fullmatch(rf"table {code} finished after \d+ steps", done[0])
    info.clear()
    with TestClient(create_app(tmp_path, settings=fast_settings())) as http:
        assert http.get(f"/api/tables/{code}").status_code == 200
    assert re.fullmatch(rf"table {code} resumed \(sbb, over\) at step \d+", lines(info)[0])


def test_a_table_playing_from_its_creation_is_logged_started_and_a_rematch_names_its_table(
        http, info):
    made = create(http, players=3, bots=2, name="a")
    code = made["code"]
    assert lines(info)[-2:] == [f"table {code} created from the lobby: sbb, 3 seats "
                                "(2 bot, 1 human)", f"table {code} started"]
    me = Client(http, code, made["token"])
    while not me.read()["view"]["over"]:
        d = me.decision
        if d:
            me.send({"type": "move", "choice": d["options"][0], "turn": me.last["turn"]})
    me.send({"type": "rematch"})
    new = me.read()["rematch"]
    assert f"table {new} created rematch of {code}: sbb, 3 seats (2 bot, 1 human)" in lines(info)
    close_all()


def test_each_refused_request_kind_is_a_line_naming_it(http, info):
    code, tokens = three_humans(http)
    assert http.get("/api/tables/nosuchtable1").status_code == 404
    assert http.post("/api/tables", content=b"[1", headers={"content-type": "application/json"}
                     ).status_code == 400
    assert http.post(f"/api/tables/{code}/join", json={"name": "d"}).status_code == 409
    assert http.get("/api/nothing-here").status_code == 404
    assert http.get(f"/api/tables/{code}/replay/abc").status_code == 422
    with pytest.raises(WebSocketDisconnect):
        with http.websocket_connect("/ws/nosuchtable1"):
            pass
    with pytest.raises(WebSocketDisconnect):
        with http.websocket_connect(f"/ws/{code}", headers={"origin": "https://evil.example"}):
            pass
    with http.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "move"})
        assert recv(ws)["code"] == "bad_hello"
    with http.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-token"})
        assert recv(ws)["code"] == "bad_token"
    seats, clients = connect_all(http, code, tokens, spectators=0)
    waiting = next(c for s, c in seats.items() if not c.decision)
    waiting.send({"type": "move", "choice": 0, "turn": 0})
    assert waiting.read()["code"] == "not_your_turn"
    waiting.ws.send_text("not json")
    assert waiting.read()["code"] == "bad_message"
    said = "\n".join(lines(info, "fuyuki.web.refused"))
    for kind in ("http 404 not_found", "http 400 bad_json", "http 409 table_started", "http 404",
                 "http 422 invalid", "ws 4004 not_found", "ws 1008 origin", "ws 1008 bad_hello",
                 "ws 1008 bad_token", "message not_your_turn", "message bad_message"):
        assert f"refused {kind}: 1 since the last line, 1 in all" in said, kind
    assert http.app.state.refusals.counts["http 404 not_found"] == 1
    close_all()


def test_refusals_of_one_kind_are_counted_and_said_at_most_once_a_minute(info):
    now = [0.0]
    refusals = security.Refusals(every=60, clock=lambda: now[0])
    for t in (0, 1, 2, 30, 61, 62):
        now[0] = t
        refusals.note("ws 1008 bad_token")
    refusals.note("http 404 not_found")
    assert lines(info) == ["refused ws 1008 bad_token: 1 since the last line, 1 in all",
                           "refused ws 1008 bad_token: 4 since the last line, 5 in all",
                           "refused http 404 not_found: 1 since the last line, 1 in all"]
    assert refusals.counts == {"ws 1008 bad_token": 6, "http 404 not_found": 1}


def _traceback_logged(caplog, word: str) -> bool:
    for r in caplog.records:
        if r.name.startswith("fuyuki.web") and r.exc_info and r.levelno >= logging.ERROR:
            text = logging.Formatter().format(r)
            if "Traceback" in text and word in text:
                return True
    return False


def test_an_unexpected_error_is_logged_with_its_traceback_and_the_page_gets_a_plain_error(
        http, info, monkeypatch):
    code, tokens = three_humans(http)
    seats, clients = connect_all(http, code, tokens, spectators=0)
    mover = next(c for c in seats.values() if c.decision)

    def broken(self, game, seat):
        raise RuntimeError("kaboom in page_view")

    monkeypatch.setattr(SbbAdapter, "page_view", broken)
    mover.send({"type": "move", "choice": mover.decision["options"][0], "turn": mover.last["turn"]})
    got = [c.read() for c in clients]
    assert all(m == {"type": "error", "code": "server_error", "message": "the server failed"}
               for m in got), got
    assert _traceback_logged(info, "kaboom in page_view")
    close_all()


def test_an_unexpected_http_error_is_logged_with_its_traceback_and_answered_plainly(
        tmp_path, info, monkeypatch):
    from fuyuki.web.table import Table

    def broken(self):
        raise RuntimeError("kaboom in summary")

    with TestClient(create_app(tmp_path, settings=fast_settings()),
                    raise_server_exceptions=False) as http:
        code = create(http, players=3, bots=2, name="a")["code"]
        monkeypatch.setattr(Table, "summary", broken)
        r = http.get(f"/api/tables/{code}")
    assert r.status_code == 500 and r.json() == {"error": "server_error",
                                                 "message": "the server failed"}
    assert _traceback_logged(info, "kaboom in summary")


def test_a_failing_timer_is_logged_with_its_traceback(http, info, monkeypatch):
    made = create(http, players=3, bots=2, name="a")
    table = http.app.state.manager.get(made["code"])

    def broken():
        raise RuntimeError("kaboom in a timer")
    broken.__name__ = "refresh"
    table._guarded(broken)
    assert _traceback_logged(info, "kaboom in a timer")


def test_no_token_is_in_any_line_of_a_whole_game(http, caplog):
    caplog.set_level(logging.DEBUG)
    code, tokens = three_humans(http)
    seats, clients = connect_all(http, code, tokens, spectators=1)
    with http.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": tokens[1][:-1] + "x"})
        recv(ws)
    drive(seats, clients, random.Random(2))
    close_all()
    text = "\n".join(logging.Formatter().format(r) for r in caplog.records)
    assert f"table {code} finished" in text
    for token in tokens.values():
        assert token not in text and token[:-1] not in text
        assert security.hash_token(token) not in text


def test_serve_writes_one_line_per_record_with_time_level_logger_and_message():
    from fuyuki.cli.web_commands import configure_logging

    out = io.StringIO()
    handler = configure_logging("info", out)
    try:
        logging.getLogger("fuyuki.web.table").info("table %s started", "abc")
        logging.getLogger("fuyuki.web.table").debug("not shown at info")
    finally:
        logging.getLogger().removeHandler(handler)
        logging.getLogger("fuyuki").setLevel(logging.NOTSET)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} INFO fuyuki.web.table: "
                        r"table abc started\n", out.getvalue())


def _logs_or_raises(handler: ast.ExceptHandler) -> bool:
    for node in ast.walk(ast.Module(body=handler.body, type_ignores=[])):
        if isinstance(node, ast.Raise):
            return True
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            # log.*, a refusal counted (note, app's _error), a refused bot's choice logged
            if name in ("debug", "info", "warning", "error", "exception", "note", "_error",
                        "_first_option"):
                return True
    return False


def test_no_except_in_the_server_drops_an_error_unlogged():
    """Every handler raises, logs (with its traceback when unexpected) or counts a refusal;
    the few that are no error at all say why on their line (``# not an error:`` or, when the
    caller logs the refusal, ``# refusal:``)."""
    silent = []
    for path in sorted(WEB.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        rows = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ExceptHandler) and not _logs_or_raises(node):
                line = rows[node.lineno - 1]
                if "# not an error:" not in line and "# refusal:" not in line:
                    silent.append(f"{path.relative_to(WEB)}:{node.lineno}: {line.strip()}")
    assert not silent, "\n".join(silent)
