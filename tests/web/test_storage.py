"""The storage door: SQLite and memory stores keep the same thing, and a store that fails
never leaves the server's game ahead of what is stored."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from fuyuki.web.app import create_app
from fuyuki.web.storage import MemoryStorage, SeatRow, SQLiteStorage, TableRow
from tests.web.conftest import fast_settings
from tests.web.helpers import close_all, connect_all, create, join


@pytest.mark.parametrize("kind", ["sqlite", "memory"])
def test_a_table_round_trips_through_the_store(tmp_path, kind):
    store = SQLiteStorage(tmp_path) if kind == "sqlite" else MemoryStorage()
    row = TableRow("abcdefgh", 42, {"players": 3}, "waiting", 1.0,
                   [SeatRow(0, "human", "あ", "h0"), SeatRow(1, "human"), SeatRow(2, "bot", level="easy")])
    store.create_table(row)
    store.update_seat("abcdefgh", SeatRow(1, "human", "Bob", "h1"))
    store.append_submission("abcdefgh", 0, 0, "rin")
    store.append_submission("abcdefgh", 1, 1, 3)
    store.set_status("abcdefgh", "playing")
    back = store.load_table("abcdefgh")
    assert back.seed == 42 and back.status == "playing" and back.config == {"players": 3}
    assert [(s.name, s.token_hash) for s in back.seats] == [("あ", "h0"), ("Bob", "h1"), ("", "")]
    assert back.submissions == [(0, "rin"), (1, 3)]          # ints stay ints
    assert store.codes() == ["abcdefgh"] and store.codes("over") == []
    assert store.load_table("nothere") is None
    store.close()


class FlakyStorage(MemoryStorage):
    fail = False

    def append_submission(self, code, index, seat, choice):
        if self.fail:
            raise OSError("disk full")
        super().append_submission(code, index, seat, choice)


def test_a_move_the_store_refuses_is_not_played():
    store = FlakyStorage()
    app = create_app(storage=store, settings=fast_settings())
    with TestClient(app) as http:
        try:
            made = create(http, players=3, bots=0, name="a")
            code = made["code"]
            tokens = {0: made["token"], 1: join(http, code, "b")["token"], 2: join(http, code, "c")["token"]}
            seats, clients = connect_all(http, code, tokens, spectators=0)
            c = next(c for c in seats.values() if c.decision)
            step, turn, choice = c.last["step"], c.last["turn"], c.decision["options"][0]
            store.fail = True
            c.send({"type": "move", "choice": choice, "turn": turn})
            for x in clients:                  # everyone is sent the table as stored again
                m = x.read()
                assert m["type"] == "state" and m["step"] == step and m["from_start"]
            assert c.read()["code"] == "storage_error"
            table = app.state.manager.get(code)
            assert len(table.game.record.submissions) == step == len(store.load_table(code).submissions)
            store.fail = False
            c.send({"type": "move", "choice": choice, "turn": c.last["turn"]})
            for x in clients:
                assert x.read()["step"] == step + 1
        finally:
            close_all()


def test_a_stored_game_that_no_longer_replays_is_reported_not_crashed():
    store = MemoryStorage()
    app = create_app(storage=store, settings=fast_settings())
    with TestClient(app) as http:
        code = create(http, players=3, bots=0, name="a")["code"]
        app.state.manager.tables.clear()                      # as after a restart
        store.append_submission(code, 0, 2, "no-such-card")   # a record the rules refuse
        r = http.get(f"/api/tables/{code}")
        assert r.status_code == 500 and r.json()["error"] == "table_broken"
        assert code in r.json()["message"]
