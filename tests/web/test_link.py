"""``fuyuki link``: the server's operator makes a new link for a seat whose link was lost —
the host's or the GM's too, which nobody else can remake — and a running server takes it up
at the seat's next connection; the old link stops working."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from fuyuki.cli.main import app as cli
from fuyuki.web.app import create_app
from fuyuki.web.manager import new_link
from fuyuki.web.storage import SQLiteStorage
from tests.web.conftest import fast_settings
from tests.web.helpers import Client, close_all, create
from tests.web.test_war import _war

LINK = re.compile(r"^(https?://\S+)/t/([\w-]+)#k=([\w-]+)$", re.M)


def _link(data, code: str, *args: str) -> tuple[str, str]:
    """``fuyuki link`` with the table's address (as a code may begin with "-")."""
    out = CliRunner().invoke(cli, ["link", f"http://example.org:8000/t/{code}", "--data",
                                   str(data), *args])
    assert out.exit_code == 0, out.output
    base, got, token = LINK.search(out.output).groups()
    assert base == "http://example.org:8000" and got == code
    return out.output, token


@pytest.fixture
def server(tmp_path):
    application = create_app(tmp_path / "data", settings=fast_settings(token_reload=0.0))
    with TestClient(application) as http:
        try:
            yield http, tmp_path / "data"
        finally:
            close_all()


def test_a_new_host_link_works_at_once_on_the_running_server_and_the_old_one_stops(server):
    http, data = server
    made = create(http, players=3, bots=2, name="あかね")
    host = Client(http, made["code"], made["token"])
    assert host.read()["type"] == "state"
    text, token = _link(data, made["code"])
    assert "席 0（あかね）" in text and "古いリンクはもう使えません" in text
    new = Client(http, made["code"], token)
    m = new.read()
    assert m["type"] == "state" and m["you"] == 0
    old = Client(http, made["code"], made["token"])
    assert old.read()["code"] == "bad_token"


def test_the_gm_gets_a_new_link_by_default_and_commands_the_war_with_it(server):
    http, data = server
    made = _war(http)
    text, token = _link(data, made["code"], "--lang", "en")
    assert f"seat {made['seat']} (" in text and "no longer works" in text
    gm = Client(http, made["code"], token)
    m = gm.read()
    assert m["you"] == made["seat"] and m["view"]["role"] == "gm"
    assert Client(http, made["code"], made["token"]).read()["code"] == "bad_token"


def test_a_player_seat_link_is_made_by_its_number_from_the_tables_code(server):
    http, data = server
    made = _war(http)
    seat = min(int(k) for k in made["invites"])
    out = CliRunner().invoke(cli, ["link", "--seat", str(seat), "--data", str(data), "--url",
                                   "https://grail.example/", "--", made["code"]])
    assert out.exit_code == 0, out.output
    assert f"https://grail.example/t/{made['code']}#k=" in out.output
    token = out.output.split("#k=")[1].split()[0]
    m = Client(http, made["code"], token).read()
    assert m["you"] == seat and m["view"]["role"] == "player"


def test_an_unknown_token_reads_the_stored_seats_at_most_once_a_reload_interval(tmp_path):
    application = create_app(tmp_path / "data", settings=fast_settings(token_reload=3600.0))
    with TestClient(application) as http:
        try:
            made = create(http, players=3, bots=2, name="a")
            table = application.state.manager.get(made["code"])
            table._tokens_read = -1e9                  # as if read long ago
            reads = []
            load = table.storage.load_table
            table.storage.load_table = lambda code: reads.append(code) or load(code)
            for _ in range(3):
                assert Client(http, made["code"], "x" * 20).read()["code"] == "bad_token"
            assert reads == [made["code"]]
        finally:
            close_all()


@pytest.mark.parametrize("lang,words", [("ja", "保存されていません"), ("en", "is not stored")])
def test_an_unknown_table_is_named_in_the_users_language(tmp_path, lang, words):
    SQLiteStorage(tmp_path).close()
    out = CliRunner().invoke(cli, ["link", "ZZZZ", "--data", str(tmp_path), "--lang", lang])
    assert out.exit_code == 2 and words in out.output and "ZZZZ" in out.output


def test_a_bot_seat_and_an_open_seat_have_no_link(tmp_path):
    application = create_app(tmp_path / "data", settings=fast_settings())
    with TestClient(application) as http:
        try:
            bots = create(http, players=3, bots=2, name="a")
            waiting = create(http, players=3, bots=0, name="b")
        finally:
            close_all()
    data = str(tmp_path / "data")
    out = CliRunner().invoke(cli, ["link", "--seat", "1", "--data", data, "--", bots["code"]])
    assert out.exit_code == 2 and "席 1 は人の席ではありません（人の席：[0]）" in out.output
    out = CliRunner().invoke(cli, ["link", "--seat", "2", "--data", data, "--lang", "en", "--",
                                   waiting["code"]])
    assert out.exit_code == 2 and "Seat 2 is still open" in out.output
    storage = SQLiteStorage(tmp_path / "data")
    with pytest.raises(Exception, match="not a person's seat"):
        new_link(storage, bots["code"], 2)
    assert storage.load_table(bots["code"]).seats[0].token_hash   # nothing changed
    storage.close()


def test_no_database_is_made_where_there_is_none(tmp_path):
    out = CliRunner().invoke(cli, ["link", "ABCD", "--data", str(tmp_path / "nothing")])
    assert out.exit_code == 2 and "卓のデータベースがありません" in out.output
    assert not (tmp_path / "nothing").exists()


def test_a_file_that_is_not_a_database_is_named_not_a_traceback(tmp_path):
    (tmp_path / SQLiteStorage.FILENAME).write_text("garbage")
    for command in (["link", "ABCD"], ["serve", "--port", "1"]):
        out = CliRunner().invoke(cli, [*command, "--data", str(tmp_path)])
        assert out.exit_code == 2 and "file is not a database" in out.output, out.output
        assert SQLiteStorage.FILENAME in out.output and "Traceback" not in out.output
