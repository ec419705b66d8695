"""A restart loses nothing: play some rounds, stop the server, start a new one over the same
data directory, and every seat sees exactly the same table; then finish the game."""

from __future__ import annotations

import random
import sqlite3

from fastapi.testclient import TestClient

from fuyuki.sbb import new_game
from fuyuki.sbb.game import rng_version
from fuyuki.web.app import create_app
from fuyuki.web.storage import SQLiteStorage
from tests.web.conftest import fast_settings
from tests.web.helpers import close_all, connect_all, drive, join

SEED = 20261129


def test_unfinished_game_resumes_exactly_after_a_restart(tmp_path):
    data = tmp_path / "data"
    rng = random.Random(7)
    app = create_app(data, settings=fast_settings())
    with TestClient(app) as http:
        try:
            # a fixed seed (the lobby draws one at random): this game runs past round 3
            table, _, host_token = app.state.manager.create({"players": 4, "bots": 1}, "あかね",
                                                            seed=SEED)
            code = table.code
            tokens = {0: host_token, 1: join(http, code, "Bob")["token"],
                      2: join(http, code, "Cleo")["token"]}
            seats, clients = connect_all(http, code, tokens, spectators=1)
            drive(seats, clients, rng, until=lambda m: m["view"]["round"] >= 3)
            before = {seat: c.last["view"] for seat, c in seats.items()}
            before_spec = clients[-1].last["view"]
            step = clients[0].last["step"]
            assert not before_spec["over"] and step > 10
            for c in clients:
                c.close()
        finally:
            close_all()
    app.state.storage.close()

    # the store is SQLite in WAL mode and holds the seed and the submissions, nothing more
    db = sqlite3.connect(data / SQLiteStorage.FILENAME)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT COUNT(*) FROM submissions WHERE code=?", (code,)).fetchone()[0] == step
    assert sorted(r[1] for r in db.execute("PRAGMA table_info(tables)")) == \
        ["code", "config", "created", "seed", "status"]
    hashes = [r[0] for r in db.execute("SELECT token_hash FROM seats WHERE code=?", (code,))]
    assert all(t not in hashes for t in tokens.values())        # tokens are stored hashed
    db.close()

    app2 = create_app(data, settings=fast_settings())             # a new process, in effect
    with TestClient(app2) as http:
        try:
            seats, clients = connect_all(http, code, tokens, spectators=1)
            for seat, c in seats.items():
                after = dict(c.last["view"])
                assert after == before[seat], f"seat {seat} sees another table after the restart"
            assert clients[-1].last["view"] == before_spec
            assert clients[0].last["step"] == step
            drive(seats, clients, rng)
            final = clients[-1].last["view"]
            assert final["over"] and final["result"]["winners"]
            table = app2.state.manager.get(code)
            record = table.game.record
            for c in clients:
                c.close()
        finally:
            close_all()
    # the stored record replays to the same end
    assert record.config["rng"] == 2                        # a new table's RNG version
    again = new_game(4, record.seed, rng=rng_version(record.config))
    for s, choice in record.submissions:
        again.submit(s, choice)
    assert again.over and again.result == table.game.result
    row = SQLiteStorage(data).load_table(code)
    assert row.status == "over" and len(row.submissions) == len(record.submissions)
