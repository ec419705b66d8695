"""What players of online board games expect, server side (every game alike): chat with
stamps, the rematch with the same players, the list of public open tables, who the table
waits for, the invite QR code and the after-game replay with every hand."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from fuyuki.web.app import create_app
from fuyuki.web.chat import MAX_TEXT, STAMPS
from tests.web.conftest import fast_settings
from tests.web.helpers import Client, close_all, connect_all, create, drive, join, three_humans


def read_all(clients):
    return [c.read() for c in clients]


# ---------------------------------------------------------------------- chat
def test_chat_reaches_everyone_as_typed_and_stays_with_the_table(tmp_path):
    data = tmp_path / "data"
    app = create_app(data, settings=fast_settings())
    with TestClient(app) as http:
        try:
            code, tokens = three_humans(http)
            seats, clients = connect_all(http, code, tokens, spectators=1)
            seats[1].send({"type": "chat", "text": "  <b>hi</b>\u200b \x07 all  "})
            for m in read_all(clients):
                assert m["chat"] == [{"seat": 1, "step": m["step"], "at": m["chat"][0]["at"],
                                      "text": "<b>hi</b> all"}]     # verbatim; the page escapes
            seats[2].send({"type": "chat", "stamp": "gg"})
            for m in read_all(clients):
                assert m["chat_from"] == 1 and [e["stamp"] for e in m["chat"]] == ["gg"]
            spectator = clients[-1]
            spectator.send({"type": "chat", "text": "hello"})
            assert spectator.read()["code"] == "spectator"
            for bad in ({"text": ""}, {"text": "x" * (MAX_TEXT + 1)}, {"text": ["x"]},
                        {"stamp": "<img>"}, {"text": " \u200b "}):
                seats[0].send({"type": "chat", **bad})
                assert seats[0].read()["code"] == "bad_chat", bad
        finally:
            close_all()
    app.state.storage.close()
    app2 = create_app(data, settings=fast_settings())             # after a restart
    with TestClient(app2) as http:
        c = Client(http, code, tokens[0])
        m = c.read()
        assert m["chat_from"] == 0 and [e.get("text", e.get("stamp")) for e in m["chat"]] == \
            ["<b>hi</b> all", "gg"]
        c.close()


def test_chat_is_rate_limited_per_seat(app_factory):
    with TestClient(app_factory(chat_rate=0.001, chat_burst=3)) as http:
        try:
            code, tokens = three_humans(http)
            seats, clients = connect_all(http, code, tokens, spectators=0)
            second_tab = Client(http, code, tokens[0])       # another page: the same budget
            clients.append(second_tab)
            read_all(clients[:-1])
            second_tab.read()
            for i in range(3):
                (seats[0] if i % 2 else second_tab).send({"type": "chat", "stamp": STAMPS[i]})
                read_all(clients)
            seats[0].send({"type": "chat", "text": "one more"})
            assert seats[0].read()["code"] == "rate_limited"
        finally:
            close_all()


# ---------------------------------------------------------------------- after the game
def finished(http, rng_seed: int = 4):
    code, tokens = three_humans(http)
    seats, clients = connect_all(http, code, tokens, spectators=1)
    seats[0].send({"type": "chat", "text": "よろしく"})
    read_all(clients)
    drive(seats, clients, random.Random(rng_seed))
    seats[2].send({"type": "chat", "stamp": "gg"})
    read_all(clients)
    return code, tokens, seats, clients


def test_the_replay_shows_the_chat_and_after_the_game_every_hand(http):
    code, tokens, seats, clients = finished(http)
    steps = clients[0].last["step"]
    first = http.get(f"/api/tables/{code}/replay/0").json()
    assert [c.get("text") for c in first["chat"]] == ["よろしく"] and "hands" not in first
    last = http.get(f"/api/tables/{code}/replay/{steps}?hands=1").json()
    assert [c.get("text", c.get("stamp")) for c in last["chat"]] == ["よろしく", "gg"]
    assert [h["me"]["hand"] for h in last["hands"]] == \
        [seats[s].last["view"]["me"]["hand"] for s in range(3)]
    close_all()


def test_every_hand_is_refused_before_the_game_is_over(http):
    code, tokens = three_humans(http)
    r = http.get(f"/api/tables/{code}/replay/0?hands=1")
    assert r.status_code == 409 and r.json()["error"] == "not_over"


def test_a_rematch_seats_the_same_players_at_a_new_table(http):
    code, tokens, seats, clients = finished(http)
    clients[-1].send({"type": "rematch"})
    assert clients[-1].read()["code"] == "spectator"
    seats[1].send({"type": "rematch"})
    msgs = read_all(clients)
    new = msgs[0]["rematch"]
    assert new and all(m["rematch"] == new for m in msgs)
    seats[2].send({"type": "rematch"})                   # asked again: nothing new, no error
    seats[2].send({"type": "ping"})
    assert seats[2].read()["type"] == "pong"
    assert http.app.state.manager.get(code).rematch_code == new
    summary = http.get(f"/api/tables/{new}").json()
    assert summary["status"] == "playing" and [s["name"] for s in summary["seats"]] == ["a", "b", "c"]
    assert summary["config"]["players"] == 3
    again = {s: Client(http, new, t) for s, t in tokens.items()}   # the same tokens
    for s, c in again.items():
        while True:
            m = c.read()
            if m["type"] == "state" and all(x["connected"] for x in m["seats"][:s + 1]):
                break
        assert m["you"] == s and m["step"] == 0 and not m["view"]["over"]
    close_all()


def test_no_rematch_before_the_game_is_over(http):
    code, tokens = three_humans(http)
    c = Client(http, code, tokens[0])
    c.read()
    c.send({"type": "rematch"})
    assert c.read()["code"] == "not_over"
    c.close()


# ---------------------------------------------------------------------- the lobby's lists
def test_public_open_tables_are_listed_and_no_others(http):
    public = create(http, players=3, bots=1, name="host1", public=True)["code"]
    create(http, players=3, bots=1, name="host2")                          # private
    full = create(http, players=3, bots=1, name="host3", public=True)["code"]
    join(http, full, "guest")                                              # no open seat left
    listed = http.get("/api/tables").json()["tables"]
    assert [t["code"] for t in listed] == [public]
    assert listed[0]["host"] == "host1" and listed[0]["open"] == 1 and listed[0]["seats"] == 3
    assert "token" not in str(listed) and "seed" not in listed[0]
    r = http.post("/api/tables", json={"players": 3, "name": "x", "public": "yes"})
    assert r.status_code == 400 and r.json()["error"] == "bad_config"


def test_the_invite_qr_code_is_an_svg_of_the_join_link(http):
    code = create(http, players=3, bots=1, name="a")["code"]
    r = http.get(f"/api/tables/{code}/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.lstrip().startswith("<svg") and "<script" not in r.text
    assert http.get("/api/tables/nosuchtable1/qr.svg").status_code == 404


# ---------------------------------------------------------------------- whose turn
def test_the_table_says_whom_it_waits_for(http):
    code, tokens = three_humans(http)
    seats, clients = connect_all(http, code, tokens, spectators=1)
    rng = random.Random(2)
    seen_bid = seen_draft = False
    while not clients[0].last["view"]["over"] and not (seen_bid and seen_draft):
        m = clients[-1].last
        phase, waiting = m["view"]["phase"], m["waiting_for"]
        pending = sorted(s for s, c in seats.items() if c.decision)
        if phase.startswith("draft"):
            assert waiting == pending
            seen_draft = True
        elif phase == "bid":
            unlocked = [p["seat"] for p in m["view"]["seats"] if not p["locked"]]
            assert waiting == pending == unlocked          # who has not locked is public
            seen_bid = True
        elif phase != "gems":
            assert waiting is None                         # a battle decision: not named
        c = next(c for s, c in sorted(seats.items()) if c.decision)
        c.send({"type": "move", "choice": rng.choice(c.decision["options"]), "turn": c.last["turn"]})
        read_all(clients)
    assert seen_bid and seen_draft
    close_all()


def test_a_finished_table_waits_for_nobody(http):
    code, tokens, seats, clients = finished(http)
    assert clients[-1].last["waiting_for"] is None and clients[-1].last["view"]["over"]
    close_all()
