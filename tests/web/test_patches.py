"""A page whose hello asks for patches (client.js) holds, after every message, exactly the state
a page of whole messages holds: every seat and a spectator of a whole game watch it twice, once
with whole state messages and once with patches merged as client.js merges them."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import Client, join, recv
from tests.web.war_driver import create_war, step

NEW = ("events", "chat", "chat_from", "from_start")     # the new items of one message


class Patched(Client):
    """A page that asks for patches and merges them as client.js's ``merged`` does."""

    def __init__(self, http, code: str, token: str | None) -> None:
        self.ws = http.websocket_connect(f"/ws/{code}")
        self.ws.__enter__()
        self.ws.send_json({"type": "hello", "token": token, "patch": True})
        self.messages: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None

    def read(self, timeout: float = 5.0) -> dict[str, Any]:
        raw = recv(self.ws, timeout)
        self.messages.append(raw)
        if raw["type"] == "state":
            if self.last is None:
                self.last = raw
            else:
                held = {k: v for k, v in self.last.items() if k not in NEW}
                msg = {**held, **raw}
                if "view_patch" in raw or "view_gone" in raw:
                    msg["view"] = {k: v for k, v in {**self.last["view"], **raw.get("view_patch", {})}.items()
                                   if k not in raw.get("view_gone", ())}
                    msg.pop("view_patch", None)
                    msg.pop("view_gone", None)
                self.last = msg
        return raw


def held_state(c: Client) -> dict[str, Any]:
    return {k: v for k, v in json.loads(json.dumps(c.last)).items() if k not in NEW}


def new_items(c: Client) -> tuple[list, list]:
    events: list = []
    chat: list = []
    for m in c.messages:
        if m["type"] == "state":
            if m.get("from_start"):
                events = []
            events += m.get("events", [])
            chat = chat[:m["chat_from"]] + m["chat"] if "chat" in m else chat
    return events, chat


def connect_pairs(http, code: str, tokens: list[str | None]) -> tuple[list[tuple[Client, Client]], list[Client]]:
    """For each token (None: a spectator) a whole page and a patched one, every page read up
    to date after each connection."""
    pairs: list[tuple[Client, Client]] = []
    clients: list[Client] = []
    for token in tokens:
        for kind in (Client, Patched):
            c = kind(http, code, token)
            for other in clients:
                other.read()
            c.read()
            clients.append(c)
        pairs.append((clients[-2], clients[-1]))
    return pairs, clients


def same(pairs: list[tuple[Client, Client]]) -> None:
    for w, p in pairs:
        assert held_state(p) == held_state(w)
        assert new_items(p) == new_items(w)


@pytest.mark.parametrize("game,players", [("sbb", 4), ("board", 3)])
def test_a_patched_page_holds_exactly_the_whole_state_after_every_message(app_factory, game, players):
    app = app_factory()
    rng = random.Random(7)
    with TestClient(app) as http:
        table, _, host = app.state.manager.create({"game": game, "players": players, "bots": 0},
                                                  "host", seed=5)
        tokens = {0: host, **{i: join(http, table.code, f"player{i}")["token"] for i in range(1, players)}}
        pairs, clients = connect_pairs(http, table.code, [*tokens.values(), None])
        try:
            moves = 0
            while not table.game.over:
                whole, patched = next((w, p) for w, p in pairs if w.decision)
                whole.send({"type": "move", "choice": rng.choice(whole.decision["options"]),
                            "turn": whole.last["turn"]})
                for c in clients:
                    assert c.read()["type"] == "state"
                same(pairs)
                moves += 1
            assert moves > 20
            later = [m for _, p in pairs for m in p.messages[3:] if m["type"] == "state"]
            assert later and not any("config" in m or "view" in m for m in later)   # patches, not wholes
            assert sum(len(json.dumps(m)) for m in later) < sum(
                len(json.dumps(m)) for w, _ in pairs for m in w.messages[3:] if m["type"] == "state") / 2
        finally:
            for c in clients:
                c.close()


def test_a_patched_war_page_of_the_gm_a_player_and_a_reader_holds_the_whole_state(http):
    made = create_war(http, humans=["red-saber"], anka=["black-saber"], turns=1)
    seat = min(int(k) for k in made["invites"])
    pairs, clients = connect_pairs(http, made["code"], [made["token"], made["invites"][str(seat)], None, None])
    (gm, _), (player, _), (reader, _), (other_reader, _) = pairs     # (a reader answers a question once)
    rng = random.Random(5)
    asked: list[int] = []
    n = 0
    try:
        while step(gm, {seat: player}, [reader, other_reader], clients, rng, asked) and n < 3000:
            same(pairs)
            n += 1
        assert gm.last["view"]["over"] and n > 10
    finally:
        for c in clients:
            c.close()
