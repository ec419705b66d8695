"""Notices for people whose page is closed: a seat's "your turn" by e-mail (a real local SMTP
server) and by webhook (a local HTTP receiver of the Discord JSON), once per decision, only
when opted in and the page is closed, bounded an hour, never to a private address unless the
server allows it, never with a token; a war's news to its GM, players and readers."""

from __future__ import annotations

import json
import threading
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from fastapi.testclient import TestClient

from fuyuki.web.app import create_app
from fuyuki.web.notify import NotifySettings, _address
from tests.web.conftest import fast_settings, free_port
from tests.web.helpers import Client, close_all, create, join

PUBLIC = "https://fuyuki.example"


class Mailbox:
    """An aiosmtpd handler keeping every message it receives."""

    def __init__(self) -> None:
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


@pytest.fixture
def smtp():
    from aiosmtpd.controller import Controller

    box = Mailbox()
    ctl = Controller(box, hostname="127.0.0.1", port=free_port())
    ctl.start()
    box.port = ctl.port
    try:
        yield box
    finally:
        ctl.stop()


class Hooks:
    def __init__(self) -> None:
        self.received: list[tuple[str, dict]] = []


@pytest.fixture
def hooks():
    got = Hooks()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - the http.server's name
            size = int(self.headers.get("content-length", "0"))
            got.received.append((self.path, json.loads(self.rfile.read(size))))
            if self.path == "/moved":
                self.send_response(302)
                self.send_header("Location", "/hook")
            else:
                self.send_response(204)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    got.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield got
    finally:
        server.shutdown()
        server.server_close()


def _app(tmp_path, smtp=None, **kw):
    notify = NotifySettings(public_url=PUBLIC, smtp_host="127.0.0.1" if smtp else "",
                            smtp_port=smtp.port if smtp else 25, smtp_from="fuyuki@example.org",
                            allow_private=True, **kw)
    return create_app(tmp_path / "data", settings=fast_settings(), notify=notify)


def _subscribe(http, code, token, kind, target, lang="ja"):
    r = http.post(f"/api/tables/{code}/notify", json={"kind": kind, "target": target, "lang": lang},
                  headers={"X-Seat-Token": token})
    assert r.status_code == 200, r.text
    return r.json()


def _three(http, subscribe=None):
    """A 3-person table whose host subscribes (``subscribe(code, token)``) before the others
    join, with every page closed, played (first options, no page) until the host decides."""
    made = create(http, players=3, bots=0, name="a")
    code = made["code"]
    if subscribe:
        subscribe(code, made["token"])
    tokens = [made["token"], join(http, code, "b")["token"], join(http, code, "c")["token"]]
    table = http.app.state.manager.get(code)
    while 0 not in table.game.pending():
        seat, d = sorted(table.game.pending().items())[0]
        http.portal.call(table.move, seat, d.options[0], table.asked_at[seat])
    return code, tokens


def _drain(http):
    http.app.state.notifier.drain()


def test_a_turn_notice_reaches_the_seats_mailbox_naming_the_table_and_without_any_token(tmp_path, smtp):
    with TestClient(_app(tmp_path, smtp)) as http:
        code, tokens = _three(http, lambda c, t: _subscribe(http, c, t, "email", "host@example.org"))
        _drain(http)
        assert (http.app.state.notifier.sent, http.app.state.notifier.failed) == (1, 0)
    assert len(smtp.messages) == 1
    mail = smtp.messages[0]
    assert mail["To"] == "host@example.org" and mail["From"] == "fuyuki@example.org"
    assert code in mail["Subject"] and "サーヴァント大戦" in mail["Subject"]
    body = mail.get_content()
    assert f"{PUBLIC}/t/{code}" in body and "あなたの番" in body
    raw = mail.as_string()
    assert not any(t in raw for t in tokens) and "#k=" not in raw


def test_a_webhook_receives_the_discord_json_in_the_seats_language(tmp_path, hooks):
    with TestClient(_app(tmp_path)) as http:
        code, tokens = _three(http, lambda c, t: _subscribe(http, c, t, "webhook", hooks.url + "/hook", "en"))
        _drain(http)
    assert len(hooks.received) == 1
    path, sent = hooks.received[0]
    assert path == "/hook" and set(sent) == {"content", "username"} and sent["username"] == "fuyuki"
    assert "your move" in sent["content"] and f"{PUBLIC}/t/{code}" in sent["content"]
    assert not any(t in sent["content"] for t in tokens)


def test_only_a_seat_that_opted_in_is_notified(tmp_path, smtp):
    with TestClient(_app(tmp_path, smtp)) as http:
        code, tokens = _three(http, lambda c, t: _subscribe(http, c, t, "email", "host@example.org"))
        table = http.app.state.manager.get(code)
        opened = set()
        for _ in range(8):                                      # every seat decides in turn
            seat, d = sorted(table.game.pending().items())[0]
            opened.add(seat)
            http.portal.call(table.move, seat, d.options[0], table.asked_at[seat])
        assert opened == {0, 1, 2}
        _drain(http)
    assert smtp.messages and {m["To"] for m in smtp.messages} == {"host@example.org"}


def test_no_notice_is_sent_while_the_seats_page_is_connected(tmp_path, smtp):
    with TestClient(_app(tmp_path, smtp)) as http:
        pages = []

        def subscribe_and_open(code, token):
            _subscribe(http, code, token, "email", "host@example.org")
            pages.append(Client(http, code, token))

        code, _ = _three(http, subscribe_and_open)
        table = http.app.state.manager.get(code)
        assert table.connected(0) and 0 in table.game.pending()
        _drain(http)
        close_all()
    assert smtp.messages == []


def test_a_decision_is_notified_once_even_across_a_restart(tmp_path, smtp):
    with TestClient(_app(tmp_path, smtp)) as http:
        code, _ = _three(http, lambda c, t: _subscribe(http, c, t, "email", "host@example.org"))
        _drain(http)
    assert len(smtp.messages) == 1
    with TestClient(_app(tmp_path, smtp)) as http:              # the same table, a new process
        assert http.get(f"/api/tables/{code}").status_code == 200
        assert 0 in http.app.state.manager.get(code).game.pending()
        _drain(http)
    assert len(smtp.messages) == 1


def test_notices_to_one_target_are_bounded_an_hour(tmp_path, smtp):
    with TestClient(_app(tmp_path, smtp, per_hour=1)) as http:
        for _ in range(3):                                      # three tables, one address
            _three(http, lambda c, t: _subscribe(http, c, t, "email", "same@example.org"))
        _drain(http)
    assert len(smtp.messages) == 1


def test_a_webhook_redirect_is_not_followed_and_its_failure_is_logged_without_the_url(tmp_path, hooks, caplog):
    with TestClient(_app(tmp_path)) as http:
        _three(http, lambda c, t: _subscribe(http, c, t, "webhook", hooks.url + "/moved"))
        _drain(http)
        assert http.app.state.notifier.failed == 1
    assert [p for p, _ in hooks.received] == ["/moved"]
    failed = [r.getMessage() for r in caplog.records if r.name == "fuyuki.web.notify"]
    assert failed and "webhook notice" in failed[0]
    assert "127.0.0.1" not in caplog.text and "/moved" not in caplog.text


def test_webhooks_to_private_or_plain_http_addresses_are_refused(tmp_path):
    app = create_app(tmp_path / "data", settings=fast_settings(),
                     notify=NotifySettings(public_url=PUBLIC))
    with TestClient(app) as http:
        made = create(http, players=3, bots=0, name="a")
        for url, code in [("https://127.0.0.1/hook", "private_webhook"),
                          ("https://10.1.2.3/hook", "private_webhook"),
                          ("https://[::1]/hook", "private_webhook"),
                          ("http://example.com/hook", "bad_webhook"),
                          ("https://user:pw@example.com/hook", "bad_webhook"),
                          ("file:///etc/passwd", "bad_webhook")]:
            r = http.post(f"/api/tables/{made['code']}/notify", json={"kind": "webhook", "target": url},
                          headers={"X-Seat-Token": made["token"]})
            assert r.status_code == 400 and r.json()["error"] == code, url
            assert r.json()["message_ja"]
        # e-mail is not offered without a mail server
        r = http.post(f"/api/tables/{made['code']}/notify", json={"kind": "email", "target": "a@b.org"},
                      headers={"X-Seat-Token": made["token"]})
        assert r.json()["error"] == "notify_off"
    # a name that resolves to a private address is refused when sending
    with pytest.raises(PermissionError):
        _address("localhost", 443, allow_private=False)


def test_a_seats_targets_are_shown_only_to_that_seat_and_can_be_removed(tmp_path, smtp):
    with TestClient(_app(tmp_path, smtp)) as http:
        made = create(http, players=3, bots=0, name="a")
        code = made["code"]
        other = join(http, code, "b")["token"]
        _subscribe(http, code, made["token"], "email", "host@example.org")
        mine = http.get(f"/api/tables/{code}/notify", headers={"X-Seat-Token": made["token"]}).json()
        assert mine["email"] == "host@example.org" and mine["offered"] == {"email": True, "webhook": True}
        theirs = http.get(f"/api/tables/{code}/notify", headers={"X-Seat-Token": other}).json()
        assert theirs["email"] is None
        assert http.get(f"/api/tables/{code}/notify").json()["error"] == "bad_token"
        assert http.get(f"/api/tables/{code}/notify",
                        headers={"X-Seat-Token": "nope"}).json()["error"] == "bad_token"
        gone = _subscribe(http, code, made["token"], "email", "")
        assert gone["email"] is None


def test_a_wars_new_turn_reaches_the_gm_a_player_and_a_reader_who_can_unsubscribe(tmp_path, smtp, hooks):
    with TestClient(_app(tmp_path, smtp)) as http:
        made = create(http, game="rpg", name="GM", humans=["red-saber"], anka=["black-saber"], turns=2)
        code, gm = made["code"], made["seat"]
        player = made["invites"]["0"]
        _subscribe(http, code, made["token"], "email", "gm@example.org")
        _subscribe(http, code, player, "email", "player@example.org", "en")
        r = http.post(f"/api/tables/{code}/follow",
                      json={"kind": "webhook", "target": hooks.url + "/hook", "lang": "ja"})
        key = r.json()["key"]
        table = http.app.state.manager.get(code)
        http.portal.call(table.message, gm, {"type": "gm", "gm": "next"})   # the GM opens turn 1
        _drain(http)
        news = {m["To"]: m.get_content() for m in smtp.messages if "ターン1" in m.get_content()
                or "turn 1" in m.get_content()}                 # (and a "your move" if it is)
        assert set(news) == {"gm@example.org", "player@example.org"}
        assert "turn 1" in news["player@example.org"] and "ターン1" in news["gm@example.org"]
        assert len(hooks.received) == 1
        said = hooks.received[0][1]["content"]
        assert "ターン1" in said and f"{PUBLIC}/unfollow/{code}/{key}" in said
        assert made["token"] not in said and player not in said
        assert 'method="post"' in http.get(f"/unfollow/{code}/{key}").text   # opening it stops nothing
        assert len(http.app.state.notifier.storage.targets(code, -1)) == 1
        assert "配信を停止" in http.post(f"/unfollow/{code}/{key}").text
        assert http.app.state.notifier.storage.targets(code, -1) == []


def test_a_tables_reader_subscriptions_are_bounded(tmp_path, hooks):
    with TestClient(_app(tmp_path, readers_per_table=2)) as http:
        made = create(http, game="rpg", name="GM", humans=["red-saber"], turns=2)
        answers = [http.post(f"/api/tables/{made['code']}/follow",
                             json={"kind": "webhook", "target": f"{hooks.url}/r{i}"}).json()
                   for i in range(3)]
        assert "key" in answers[0] and "key" in answers[1]
        assert answers[2]["error"] == "readers_full"
        sbb = create(http, players=3, bots=2, name="solo")
        r = http.post(f"/api/tables/{sbb['code']}/follow", json={"kind": "webhook", "target": hooks.url})
        assert r.json()["error"] == "no_news"


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def store(request, tmp_path):
    from fuyuki.web.storage import MemoryStorage, SeatRow, SQLiteStorage, TableRow

    if request.param == "memory":
        s = MemoryStorage()
    elif request.param == "sqlite":
        s = SQLiteStorage(tmp_path)
    else:
        from fuyuki.web.pgstorage import PostgresStorage

        s = PostgresStorage(request.getfixturevalue("postgres_url"))
    s.create_table(TableRow("abcdefgh", 1, {"game": "sbb"}, "playing", 1.0,
                            [SeatRow(0, "human"), SeatRow(1, "human")]))
    yield s
    s.close()


def test_every_store_keeps_targets_per_seat_and_claims_each_notice_once(store):
    from fuyuki.web.storage import Target

    store.set_target(Target("abcdefgh", 0, "email", "a@example.org", "ja"))
    store.set_target(Target("abcdefgh", 0, "email", "b@example.org", "en"))   # replaces it
    store.set_target(Target("abcdefgh", 1, "webhook", "https://example.org/h"))
    store.set_target(Target("abcdefgh", -1, "webhook", "https://example.org/r1", key="k1"))
    store.set_target(Target("abcdefgh", -1, "webhook", "https://example.org/r2", key="k2"))
    assert [(t.kind, t.target, t.lang) for t in store.targets("abcdefgh", 0)] == \
        [("email", "b@example.org", "en")]
    assert [t.seat for t in store.targets("abcdefgh")] == [-1, -1, 0, 1]
    assert store.remove_target("abcdefgh", -1, None, "k1") == 1
    assert [t.key for t in store.targets("abcdefgh", -1)] == ["k2"]
    assert store.remove_target("abcdefgh", 0, "webhook") == 0
    assert store.remove_target("abcdefgh", 0, "email") == 1
    assert store.claim_notice("abcdefgh", 0, "turn:3") is True
    assert store.claim_notice("abcdefgh", 0, "turn:3") is False
    assert store.claim_notice("abcdefgh", 1, "turn:3") is True
    store.set_deadline("abcdefgh", 1, 1.9e9)
    assert store.timed_codes() == ["abcdefgh"]


def test_a_seats_new_link_ends_the_old_links_notices(tmp_path, smtp):
    from fuyuki.web.manager import new_link

    with TestClient(_app(tmp_path, smtp)) as http:
        made = create(http, game="rpg", name="GM", humans=["red-saber"], turns=2)
        code, player = made["code"], made["invites"]["0"]
        _subscribe(http, code, player, "email", "old@example.org")
        table = http.app.state.manager.get(code)
        token = table.reissue(0)                        # the GM's "new link" for the pair
        mine = http.get(f"/api/tables/{code}/notify", headers={"X-Seat-Token": token}).json()
        assert mine["email"] is None
        _subscribe(http, code, made["token"], "email", "gm@example.org")
        storage = http.app.state.storage
        new_link(storage, code)                         # fuyuki link: the GM's seat
        assert storage.targets(code) == []
