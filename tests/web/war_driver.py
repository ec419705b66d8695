"""Drive a Grail War RPG table over the WebSocket protocol (tests): a GM, players, readers."""

from __future__ import annotations

import random
from typing import Any

from tests.web.helpers import Client, create


def create_war(http, **config) -> dict[str, Any]:
    return create(http, game="rpg", name="GM", **config)


def read_all(clients: list[Client]) -> list[dict[str, Any]]:
    """After one accepted message every connection gets one state."""
    out = []
    for c in clients:
        m = c.read()
        assert m["type"] == "state", m
        out.append(m)
    return out


def step(gm: Client, players: dict[int, Client], readers: list[Client], clients: list[Client],
         rng: random.Random, asked: list[int]) -> bool:
    """One accepted message that moves the war on; False when the war is over."""
    view = gm.last["view"]
    if view["over"]:
        return False
    if view["held"]:
        gm.send({"type": "gm", "gm": "next"})
        read_all(clients)
        return True
    for _seat, c in sorted(players.items()):
        d = c.last["view"].get("decision")
        if d:
            opts = [o["value"] for o in d["options"]]
            c.send({"type": "move", "choice": rng.choice(opts), "turn": c.last["turn"]})
            read_all(clients)
            return True
    for s, d in sorted(view["decisions"].items()):
        if not d["anka"]:
            continue
        seat = int(s)
        open_q = [q for q in view["questions"] if q["seat"] == seat]
        if open_q:
            q = open_q[0]
            reader = readers[q["answers"] % len(readers)]
            reader.send({"type": "answer", "q": q["q"], "option": rng.choice(q["options"]),
                         "name": f"reader{q['answers']}", "text": "いけ"})
            read_all(clients)
            return True
        opts = [o["value"] for o in d["options"]]
        if not asked and len(opts) >= 2:
            gm.send({"type": "gm", "gm": "ask", "seat": seat, "options": opts[:3], "mode": "count",
                     "n": 2})
            asked.append(seat)
        else:
            gm.send({"type": "gm", "gm": "auto", "seat": seat})
        read_all(clients)
        return True
    raise AssertionError("nobody can move but the war is not over")
