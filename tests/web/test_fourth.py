"""The fourth game at the table server (issue 50): the sealed-bid test game of tests/fourth,
registered with its adapter of a few dozen lines, plays to its end over HTTP and WebSocket with
two people and a bot — seats, the view filter, events, a replay — with no change to the server."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from fuyuki.web import games
from tests.fourth.engine import GAME
from tests.fourth.web import SealedBidAdapter
from tests.web.helpers import Client, close_all, connect_all, create, drive, join


@pytest.fixture
def sealed(http):
    games.register(SealedBidAdapter())
    try:
        yield http
    finally:
        games.unregister(GAME)


def test_the_adapter_is_small():
    assert len(Path(__file__).parent.parent.joinpath("fourth", "web.py").read_text(
        encoding="utf-8").splitlines()) <= 100


def test_the_fourth_game_plays_to_its_end_with_two_people_and_a_bot(sealed):
    http = sealed
    meta = http.get("/api/meta").json()["games"][GAME]
    assert meta["players"] == [2, 3, 4] and meta["levels"] == ["easy"]
    made = create(http, game=GAME, players=3, bots=1, name="ann")
    code = made["code"]
    tokens = {0: made["token"], 1: join(http, code, "bob")["token"]}
    seats, clients = connect_all(http, code, tokens, spectators=1)
    watcher = clients[-1]
    summary = http.get(f"/api/tables/{code}").json()
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "bot"]
    moves = drive(seats, clients, random.Random(3))
    assert moves == 10                                     # 5 rounds, two people
    result = watcher.last["view"]["result"]
    assert watcher.last["status"] == "over" and set(result) >= {"winners", "ranking"}
    # each seat saw its own hand and bids only; the spectator no hand at all
    for seat, c in seats.items():
        for m in c.messages:
            if m["type"] != "state" or "view" not in m:
                continue
            assert m["view"]["seat"] == seat and "hand" in m["view"]
            assert all(e["kind"] not in ("dealt", "bid") or e["data"]["seat"] == seat
                       for e in m["events"])
    assert all("hand" not in m.get("view", {}) and
               all(e["kind"] not in ("dealt", "bid") for e in m.get("events", []))
               for m in watcher.messages)
    texts = [e["text"]["en"] for m in watcher.messages for e in m.get("events", [])]
    assert texts[0] == "Round 1: the prize is " + texts[0].split()[-1]
    assert texts[-1].startswith("Over: won by ")
    # the replay: every step, the public view and events
    steps = http.get(f"/api/tables/{code}/replay/0").json()["steps"]
    assert steps == 15
    last = http.get(f"/api/tables/{code}/replay/{steps}").json()
    assert last["view"]["result"] == result and "hand" not in last["view"]
    close_all()


def test_a_refused_bid_changes_nothing(sealed):
    http = sealed
    made = create(http, game=GAME, players=2, bots=1, name="ann")
    me = Client(http, made["code"], made["token"])
    state = me.read()
    hand = state["view"]["hand"]
    me.send({"type": "move", "choice": 99, "turn": state["turn"]})
    assert me.read()["code"] == "not_an_option"
    me.send({"type": "move", "choice": hand[0], "turn": state["turn"]})
    assert me.read()["view"]["hand"] == hand[1:]
    close_all()
