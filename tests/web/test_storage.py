"""The storage door: SQLite and memory stores keep the same thing, and a store that fails
never leaves the server's game ahead of what is stored."""

from __future__ import annotations

import random
import sqlite3

import pytest
from fastapi.testclient import TestClient

from fuyuki.web.app import create_app
from fuyuki.web.storage import MemoryStorage, SeatRow, SQLiteStorage, TableRow
from tests.web.conftest import fast_settings
from tests.web.helpers import close_all, connect_all, create, drive, join


def open_store(kind: str, tmp_path, request):
    if kind == "postgres":
        from fuyuki.web.pgstorage import PostgresStorage

        return PostgresStorage(request.getfixturevalue("postgres_url"))
    return SQLiteStorage(tmp_path) if kind == "sqlite" else MemoryStorage()


STORES = ["sqlite", "memory", "postgres"]


@pytest.mark.parametrize("kind", STORES)
def test_a_table_round_trips_through_the_store(tmp_path, kind, request):
    store = open_store(kind, tmp_path, request)
    row = TableRow("abcdefgh", 42, {"players": 3}, "waiting", 1.0,
                   [SeatRow(0, "human", "あ", "h0"), SeatRow(1, "human"), SeatRow(2, "bot", level="easy")])
    store.create_table(row)
    store.update_seat("abcdefgh", SeatRow(1, "human", "Bob", "h1"))
    store.append_submission("abcdefgh", 0, 0, "rin")
    store.append_submission("abcdefgh", 1, 1, 3)
    store.set_status("abcdefgh", "playing")
    store.set_deadline("abcdefgh", 1, 1.7e9 + 0.25)
    back = store.load_table("abcdefgh")
    assert back.seed == 42 and back.status == "playing" and back.config == {"players": 3}
    assert [(s.name, s.token_hash) for s in back.seats] == [("あ", "h0"), ("Bob", "h1"), ("", "")]
    assert [s.deadline for s in back.seats] == [None, 1.7e9 + 0.25, None]
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


@pytest.mark.parametrize("kind", STORES)
def test_a_second_writer_of_the_same_step_is_refused(tmp_path, kind, request):
    """The (code, idx) key: two processes that both think they own a table cannot both
    store a step; the loser's move is refused and it rebuilds from the store."""
    store = open_store(kind, tmp_path, request)
    store.create_table(TableRow("abcdefgh", 1, {"players": 3}, "playing", 1.0,
                                [SeatRow(i, "human") for i in range(3)], []))
    store.append_submission("abcdefgh", 0, 0, "rin")
    refused: tuple[type[BaseException], ...] = (sqlite3.IntegrityError, AssertionError)
    if kind == "postgres":                     # the cluster's own refusal (fuyuki.web.cluster)
        from fuyuki.web.storage import StepTaken

        refused = (StepTaken,)
    with pytest.raises(refused):
        store.append_submission("abcdefgh", 0, 1, "sakura")
    assert store.load_table("abcdefgh").submissions == [(0, "rin")]
    store.close()


def test_a_game_is_played_and_resumed_through_postgresql(postgres_url):
    """The whole server over PostgreSQL: play, stop, a new process over the same database
    resumes every seat exactly, and the game finishes."""
    from fuyuki.web.pgstorage import PostgresStorage

    rng = random.Random(3)
    app = create_app(storage=PostgresStorage(postgres_url), settings=fast_settings())
    with TestClient(app) as http:
        try:
            made = create(http, players=3, bots=1, name="a", timer=60)
            code = made["code"]
            tokens = {0: made["token"], 1: join(http, code, "b")["token"]}
            seats, clients = connect_all(http, code, tokens, spectators=1)
            drive(seats, clients, rng, until=lambda m: m["step"] >= 12)
            before = {seat: c.last["view"] for seat, c in seats.items()}
            step = clients[0].last["step"]
        finally:
            close_all()
    app.state.storage.close()
    app2 = create_app(storage=PostgresStorage(postgres_url), settings=fast_settings())
    with TestClient(app2) as http:
        try:
            seats, clients = connect_all(http, code, tokens, spectators=1)
            assert {seat: c.last["view"] for seat, c in seats.items()} == before
            assert clients[0].last["step"] == step
            drive(seats, clients, rng)
            assert clients[-1].last["view"]["over"]
        finally:
            close_all()
    row = PostgresStorage(postgres_url).load_table(code)
    assert row.status == "over" and row.submissions == app2.state.manager.get(code).submissions


def test_serve_refuses_a_db_url_it_cannot_use(tmp_path):
    from fuyuki.cli.web_commands import open_storage
    from fuyuki.core.errors import FuyukiError

    with pytest.raises(FuyukiError, match="postgresql://"):
        open_storage("mysql://x")
    with pytest.raises(FuyukiError, match="PostgreSQL"):
        open_storage("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")
