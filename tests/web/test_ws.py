"""The WebSocket protocol: hello, origin check, limits, typed refusals, the host's start,
the decision timer and the bot that plays for a timed-out or disconnected player."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fuyuki.web import bots, table
from tests.web.helpers import close_all, Client, connect_all, create, recv, three_humans


def test_a_foreign_origin_is_refused_and_the_same_origin_let_in(http):
    code, tokens = three_humans(http)
    with pytest.raises(WebSocketDisconnect) as e:
        with http.websocket_connect(f"/ws/{code}", headers={"origin": "https://evil.example"}):
            pass
    assert e.value.code == 1008
    c = Client(http, code, tokens[0], headers={"origin": "http://testserver"})
    assert c.read()["type"] == "state"
    c.close()


def test_unknown_table_and_bad_hello_and_bad_token_are_refused(http):
    with pytest.raises(WebSocketDisconnect):
        with http.websocket_connect("/ws/nosuchtable1"):
            pass
    code, tokens = three_humans(http)
    with http.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "move", "choice": "x"})
        assert recv(ws)["code"] == "bad_hello"
        with pytest.raises(WebSocketDisconnect):
            recv(ws)
    with http.websocket_connect(f"/ws/{code}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-token"})
        assert recv(ws)["code"] == "bad_token"
        with pytest.raises(WebSocketDisconnect):
            recv(ws)


def test_oversized_or_malformed_messages_are_refused_without_harm(http):
    code, tokens = three_humans(http)
    seats, clients = connect_all(http, code, tokens, spectators=0)
    c = seats[0]
    for bad in ("x" * 5000, "not json", "[1,2]", '{"type": "dance"}'):
        c.ws.send_text(bad)
        m = c.read()
        assert m["type"] == "error" and m["code"] in ("bad_message",), m
    c.send({"type": "ping"})
    assert c.read()["type"] == "pong"
    for x in clients:
        x.close()


def test_message_rate_is_limited(app_factory):
    with TestClient(app_factory(msg_rate=0.001, msg_burst=3)) as http:
        code, tokens = three_humans(http)
        c = Client(http, code, tokens[0])
        c.read()
        for _ in range(5):
            c.send({"type": "ping"})
        got = [c.read()["type"] for _ in range(5)]
        c.close()
    assert got[:3] == ["pong"] * 3 and c.messages[-1]["code"] == "rate_limited"


def test_moves_are_checked_and_refused_with_a_typed_reason(http):
    code, tokens = three_humans(http)
    seats, clients = connect_all(http, code, tokens, spectators=1)
    spectator = clients[-1]
    mover = next(s for s, c in seats.items() if c.decision)
    idle = next(s for s, c in seats.items() if not c.decision)
    c = seats[mover]
    step = c.last["step"]
    cases = [
        (spectator, {"type": "move", "choice": "x", "turn": 0}, "spectator"),
        (seats[idle], {"type": "move", "choice": "x", "turn": 0}, "not_your_turn"),
        (c, {"type": "move", "choice": c.decision["options"][0], "turn": c.last["turn"] + 1}, "stale_decision"),
        (c, {"type": "move", "choice": "excalibur", "turn": c.last["turn"]}, "not_an_option"),
        (c, {"type": "move", "choice": {"a": 1}, "turn": c.last["turn"]}, "bad_choice"),
        (c, {"type": "move", "choice": "y" * 100, "turn": c.last["turn"]}, "bad_choice"),
        (c, {"type": "start"}, "table_started"),
    ]
    for client, msg, code_ in cases:
        client.send(msg)
        m = client.read()
        assert m["type"] == "error" and m["code"] == code_, (msg, m)
    c.send({"type": "move", "choice": c.decision["options"][0], "turn": c.last["turn"]})
    for x in clients:
        assert x.read()["step"] == step + 1                 # accepted, and everyone is told
    for x in clients:
        x.close()


def test_the_host_starts_with_bots_in_the_open_seats_and_the_bots_play(http):
    made = create(http, players=4, bots=1, name="host", bot_level="easy")
    code = made["code"]
    c = Client(http, code, made["token"])
    m = c.read()
    assert m["status"] == "waiting" and "view" not in m
    other = Client(http, code, None)
    other.read()
    c.read()
    other.send({"type": "start"})
    assert other.read()["code"] == "not_host"
    c.send({"type": "start"})
    m = c.read()
    other.read()
    assert m["status"] == "playing"
    assert [s["kind"] for s in m["seats"]] == ["human", "bot", "bot", "bot"]
    assert [s["level"] for s in m["seats"]][1:] == ["easy"] * 3  # open seats take the table level
    assert m["view"]["me"]["decision"] is not None           # the bots have played up to the host
    c.close()
    other.close()


def test_a_timed_out_player_is_played_by_a_bot_until_they_come_back(http, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(table, "_now", lambda: clock[0])
    code, tokens = three_humans(http, timer=30)
    seats, clients = connect_all(http, code, tokens, spectators=0)
    slow = next(s for s, c in seats.items() if c.decision)
    assert seats[slow].last["deadline"] == 30
    step = seats[slow].last["step"]
    clock[0] += 31
    late = Client(http, code, None)                           # any event makes the table look
    for x in clients:
        x.read()
    late.read()
    m = seats[slow].last
    assert m["step"] > step and m["auto"] is True
    assert m["seats"][slow]["auto"] is True
    seats[slow].send({"type": "back"})
    for x in clients + [late]:
        x.read()
    assert seats[slow].last["auto"] is False and seats[slow].last["seats"][slow]["auto"] is False
    for x in clients + [late]:
        x.close()


def test_a_disconnected_player_is_played_by_a_bot_after_the_grace_period(http, monkeypatch):
    clock = [5000.0]
    monkeypatch.setattr(table, "_now", lambda: clock[0])
    code, tokens = three_humans(http)
    seats, clients = connect_all(http, code, tokens, spectators=1)
    rng = random.Random(1)
    # play until the seat that leaves has a decision
    leaving = next(s for s, c in seats.items() if c.decision)
    seats[leaving].close()
    rest = [c for c in clients if c is not seats[leaving]]
    for x in rest:
        assert x.read()["seats"][leaving]["connected"] is False
    step = rest[0].last["step"]
    clock[0] += 31                                            # the grace period is 30 s
    watcher = Client(http, code, None)
    for x in rest:
        x.read()
    watcher.read()
    assert watcher.last["step"] > step                        # the bot answered for them
    assert watcher.last["seats"][leaving]["auto"] is True
    back = Client(http, code, tokens[leaving])                # they come back: their seat again
    for x in rest + [watcher]:
        x.read()
    m = back.read()
    assert m["you"] == leaving and m["auto"] is False and m["seats"][leaving]["connected"]
    assert m["from_start"] and any(e.get("private") for e in m["events"])  # their own history
    del rng
    for x in rest + [watcher, back]:
        x.close()


def test_hard_bots_think_in_a_worker_process_and_finish_the_game(app_factory):
    """The search bot never runs on the event loop: its seats are answered from a worker
    process while the server keeps serving (here with a 0.05 s budget a decision)."""
    with TestClient(app_factory(hard_seconds=0.05)) as http:
        try:
            made = create(http, players=3, bots=2, name="solo", bot_level="hard")
            c = Client(http, made["code"], made["token"])
            rng = random.Random(5)
            moves = 0
            while True:
                m = c.read(timeout=30)
                if m["type"] != "state":
                    continue
                if m["view"]["over"]:
                    break
                d = m["view"]["me"]["decision"]
                if d and m["turn"] is not None and m["turn"] != getattr(c, "sent", None):
                    c.sent = m["turn"]
                    c.send({"type": "move", "choice": rng.choice(d["options"]), "turn": m["turn"]})
                    moves += 1
            assert m["view"]["result"]["winners"] and moves >= 3
            assert [s["level"] for s in m["seats"]] == [None, "hard", "hard"]
            table = http.app.state.manager.get(made["code"])
            assert table.slow_failures == 0            # every bot answer came from the worker
        finally:
            close_all()
            bots.shutdown_pool()
