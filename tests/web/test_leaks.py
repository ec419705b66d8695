"""Nothing of another seat's secrets in any message: whole games are played through the
server (with chat lines and stamps), and every message each seat and each spectator received
is searched, and so is every frame of the after-game replay.

A seat's secrets at a moment: its hand, its face-down master and servant, its sealed bid before
the reveal (card ids and their ja/en names). A message to seat A leaks if it holds a secret of
another seat that A could not know — that is, one that is not in anything A legitimately saw up
to then (its own views and visible events, computed here from a replay of the stored record,
not from the server's messages). Spectators may know only the public view and public events.
The checker is first shown to catch a leak (a message built for another seat).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fuyuki.sbb import new_game
from fuyuki.sbb.game import rng_version
from fuyuki.sbb.text import card_name
from fuyuki.web.games.sbb import rules_for
from tests.web.helpers import connect_all, drive, join


def leaves(obj: Any, out: set[str]) -> set[str]:
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(str(k))
            leaves(v, out)
    elif isinstance(obj, list):
        for v in obj:
            leaves(v, out)
    elif isinstance(obj, str):
        out.add(obj)
    return out


def names(card: str) -> set[str]:
    found = {card_name(card, "ja"), card_name(card, "en")}
    return {n for n in found if n and n != card and len(n) >= 2}


def _all_names() -> set[str]:
    cs = rules_for("final", "standard", ()).cards
    ids = list(cs.masters) + list(cs.servants) + list(cs.lands) + list(cs.events)
    for colour in ("red", "blue", "green", "yellow", "purple"):
        ids += cs.actions_of(colour)
    return {nm for i in ids for nm in names(i)}


ALL_NAMES = _all_names()


def _contains(text: str, name: str) -> bool:
    """``name`` in ``text`` as itself, not as a part of a longer card name (アサシン in
    真アサシン)."""
    for longer in ALL_NAMES:
        if name in longer and longer != name:
            text = text.replace(longer, "")
    return name in text


class Knowledge:
    """Replays the stored record; for every step, what each seat may know and what each seat
    keeps secret."""

    def __init__(self, record, rules) -> None:
        self.steps: list[tuple[dict, dict]] = []
        g = new_game(record.config["players"], record.seed, rules,
                     rng=rng_version(record.config))
        n = g.players
        known: dict[Any, set[str]] = {s: set() for s in list(range(n)) + [None]}
        subs = list(record.submissions)
        for k in range(len(subs) + 1):
            for seat in known:
                atoms = leaves(g.view(seat), set())
                for e in g.visible_events(seat, 0):
                    leaves(e.data, atoms)
                    atoms.add(e.kind)
                known[seat] |= atoms | {x for a in atoms for x in names(a)}
            secrets: dict[int, set[str]] = {}
            s = g.s
            for seat in range(n):
                ids = set(g.t.names_of(s.hand[seat]))
                if not s.m_up[seat] and s.master[seat]:
                    ids.add(g.t.names[s.master[seat]])
                if not s.s_up[seat] and s.servant[seat]:
                    ids.add(g.t.names[s.servant[seat]])
                if s.phase == "bid" and seat in s.answers:
                    ids.add(s.answers[seat])
                secrets[seat] = ids
            self.steps.append(({seat: set(v) for seat, v in known.items()}, secrets))
            if k < len(subs):
                g.submit(*subs[k])

    def leaks(self, seat: int | None, message: dict) -> set[str]:
        known, secrets = self.steps[message["step"]]
        atoms = leaves(message, set())
        found = set()
        for other, ids in secrets.items():
            if other == seat:
                continue
            for card in ids:
                if card in known[seat]:
                    continue                 # a copy of it is public or the seat saw it
                if card in atoms:
                    found.add(card)
                for nm in names(card):
                    if nm not in known[seat] and any(_contains(a, nm) for a in atoms):
                        found.add(nm)
        return found


def play(http, app, players: int, bots: int, seed: int, rng: random.Random, edition="final",
         mode="standard"):
    manager = app.state.manager
    table, _, host_token = manager.create({"players": players, "bots": bots, "edition": edition,
                                           "mode": mode}, "host", seed=seed)
    code = table.code
    tokens = {0: host_token}
    for i in range(1, players - bots):
        tokens[i] = join(http, code, f"player{i}")["token"]
    seats, clients = connect_all(http, code, tokens, spectators=2)
    chat(seats[0], clients, {"text": "よろしく <i>all</i>"})
    drive(seats, clients, rng, until=lambda m: m["step"] >= 20)
    chat(seats[max(seats)], clients, {"stamp": "thinking"})
    drive(seats, clients, rng)
    chat(seats[0], clients, {"stamp": "gg"})
    return table, seats, clients, tokens


def chat(seat, clients, line: dict) -> None:
    """A chat line (part of every state message that follows, and of the replay)."""
    seat.send({"type": "chat", **line})
    for c in clients:
        assert c.read()["type"] == "state"


@pytest.mark.parametrize("players,bots,seed,edition,mode", [
    (3, 1, 918273645, "final", "standard"), (4, 0, 1234567891, "final", "standard"),
    (5, 2, 2023111729, "final", "standard"), (4, 1, 1357913579, "v1.1", "hf"),
])
def test_no_message_carries_another_seats_secret(app_factory, players, bots, seed, edition, mode):
    app = app_factory()
    rng = random.Random(seed)
    with TestClient(app) as http:
        table, seats, clients, tokens = play(http, app, players, bots, seed, rng, edition, mode)
        try:
            record = table.game.record
            assert table.game.over
            k = Knowledge(record, rules_for(edition, mode, ()))

            # the checker can fail: a message built for seat 1, delivered to seat 0, is caught
            caught = sum(1 for m in seats[1].messages if m["type"] == "state" and k.leaks(0, m))
            assert caught > 0

            checked = 0
            for c in clients:
                seat = next((s for s, x in seats.items() if x is c), None)
                for m in c.messages:
                    text = str(m)
                    assert str(record.seed) not in text and "seed" not in text
                    for token in tokens.values():
                        assert token not in text
                    assert "submissions" not in text and "token" not in text
                    if m["type"] != "state" or "view" not in m:
                        continue
                    assert m["you"] == seat
                    if seat is None:
                        assert "me" not in m["view"]
                    else:
                        assert m["view"]["seat"] == seat and m["view"]["me"] is not None
                    found = k.leaks(seat, m)
                    assert not found, f"seat {seat} got {found} at step {m['step']}"
                    checked += 1
            assert checked > 20 * players

            # the public API answers carry no secret either
            summary = http.get(f"/api/tables/{table.code}").json()
            assert not k.leaks(None, {**summary, "step": len(record.submissions)})
            for token in tokens.values():
                assert token not in str(summary)
            assert "seed" not in summary
            # the after-game replay: every frame public; the chat with it
            steps = len(record.submissions)
            for step in sorted(set(range(0, steps + 1, max(1, steps // 25))) | {steps}):
                frame = http.get(f"/api/tables/{table.code}/replay/{step}").json()
                assert frame["step"] == step and not k.leaks(None, frame) and "hands" not in frame
                assert all(c["step"] <= step for c in frame["chat"])
            assert [c.get("stamp") for c in frame["chat"]] == [None, "thinking", "gg"]
        finally:
            for c in clients:
                c.close()
