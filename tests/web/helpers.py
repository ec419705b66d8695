"""Test clients for the WebSocket protocol over FastAPI's TestClient (in process).

With ``bot_delay=0`` the server is synchronous per client message: every accepted message
(a move, a start, a connection or a disconnection) sends exactly one state message to every
connection, and a refused one sends exactly one error to its sender. The drivers below rely on
that to read without guessing.
"""

from __future__ import annotations

import json
import random
from typing import Any

import anyio


def recv(ws, timeout: float = 5.0) -> dict[str, Any]:
    """The next message of a TestClient WebSocket session, or TimeoutError."""

    async def _get():
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(_get)
    ws._raise_on_close(message)
    return json.loads(message["text"])


OPEN: list["Client"] = []


def close_all() -> None:
    """Close every client still open (a failed test must not hang the TestClient's exit)."""
    while OPEN:
        OPEN.pop().close()


class Client:
    """One connection (a seat with its token, or a spectator) that keeps every message."""

    def __init__(self, http, code: str, token: str | None, headers: dict | None = None) -> None:
        self.ws = http.websocket_connect(f"/ws/{code}", headers=headers or {})
        self.ws.__enter__()
        OPEN.append(self)
        self.ws.send_json({"type": "hello", "token": token})
        self.messages: list[dict[str, Any]] = []
        self.last: dict[str, Any] | None = None

    def read(self, timeout: float = 5.0) -> dict[str, Any]:
        m = recv(self.ws, timeout)
        self.messages.append(m)
        if m["type"] == "state":
            self.last = m
        return m

    def send(self, msg: dict[str, Any]) -> None:
        self.ws.send_json(msg)

    @property
    def decision(self) -> dict[str, Any] | None:
        """The seat's open decision (Servant Big Battle: ``view.me.decision``; the board:
        ``view.decision``)."""
        if not self.last or "view" not in self.last:
            return None
        view = self.last["view"]
        if "me" in view:
            return view["me"]["decision"] if view["me"] is not None else None
        return view.get("decision")

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
        try:
            self.ws.__exit__(None, None, None)
        except Exception:  # noqa: BLE001 - already closed by the server
            pass


def connect_all(http, code: str, tokens: dict[int, str], spectators: int = 1):
    """Connect every seat of ``tokens`` and some spectators; read the broadcasts each
    connection causes so that every client is up to date."""
    clients: list[Client] = []
    seats: dict[int, Client] = {}
    for seat, token in list(tokens.items()) + [(None, None)] * spectators:
        c = Client(http, code, token)
        for other in clients:
            other.read()
        c.read()
        clients.append(c)
        if seat is not None:
            seats[seat] = c
    return seats, clients


def drive(seats: dict[int, Client], clients: list[Client], rng: random.Random,
          max_moves: int = 5000, until=None) -> int:
    """Play the humans' decisions with random legal choices until the game is over (or
    ``until(last_state)`` is true). Returns the number of moves."""
    moves = 0
    while moves < max_moves:
        any_state = clients[0].last
        if any_state["view"]["over"] or (until is not None and until(any_state)):
            return moves
        for _seat, c in sorted(seats.items()):
            d = c.decision
            if d:
                c.send({"type": "move", "choice": rng.choice(d["options"]), "turn": c.last["turn"]})
                for other in clients:
                    m = other.read()
                    assert m["type"] == "state", m
                moves += 1
                break
        else:
            raise AssertionError("nobody has a decision but the game is not over")
    raise AssertionError("too many moves")


def create(http, **config) -> dict[str, Any]:
    r = http.post("/api/tables", json=config)
    assert r.status_code == 200, r.text
    return r.json()


def join(http, code: str, name: str) -> dict[str, Any]:
    r = http.post(f"/api/tables/{code}/join", json={"name": name})
    assert r.status_code == 200, r.text
    return r.json()


def three_humans(http, **config) -> tuple[str, dict[int, str]]:
    """A 3-seat table of three people (the host "a", then "b" and "c"): its code and tokens."""
    made = create(http, players=3, bots=0, name="a", **config)
    code = made["code"]
    tokens = {0: made["token"], 1: join(http, code, "b")["token"], 2: join(http, code, "c")["token"]}
    return code, tokens
