"""Play-by-post: decision limits of hours or days (every game), timers that run with every
page closed and outlive a restart, the takeover bot at expiry, and the page of the tables
waiting for one browser (/mine)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from fuyuki.web import table as table_module
from fuyuki.web.app import create_app
from fuyuki.web.games import MAX_TIMER
from tests.web.conftest import fast_settings
from tests.web.helpers import create, join

DAY = 86400


@pytest.fixture
def clocks(monkeypatch):
    """The tables' two clocks, moved by the test: [monotonic, wall]."""
    now = [1000.0, 1.8e9]
    monkeypatch.setattr(table_module, "_now", lambda: now[0])
    monkeypatch.setattr(table_module, "_wall", lambda: now[1])
    return now


def _pbp(http, timer=DAY, game="sbb", **kw):
    """A 3-person table with every page closed; it starts when the last one joins."""
    made = create(http, game=game, players=3, bots=0, name="a", timer=timer, **kw)
    code = made["code"]
    tokens = [made["token"], join(http, code, "b")["token"], join(http, code, "c")["token"]]
    return code, tokens, http.app.state.manager.get(code)


def test_a_decision_limit_of_a_day_starts_with_every_page_closed_and_is_stored(http, clocks):
    code, _, table = _pbp(http)
    assert table.status == "playing" and table.pbp
    pending = set(table.game.pending())
    stored = http.app.state.storage.load_table(code)
    assert {s.seat: s.deadline for s in stored.seats if s.deadline} == {s: clocks[1] + DAY for s in pending}


def test_a_days_timer_survives_a_restart_and_resumes_without_a_page(tmp_path, clocks):
    data = tmp_path / "data"
    with TestClient(create_app(data, settings=fast_settings())) as http:
        code, _, table = _pbp(http)
        pending = set(table.game.pending())
    clocks[0] += 50.0
    clocks[1] += 3600.0                        # an hour later, a new process
    with TestClient(create_app(data, settings=fast_settings())) as http:
        manager = http.app.state.manager
        assert code in manager.tables           # loaded at start: its timers run
        table = manager.tables[code]
        assert {s: round(t - clocks[0]) for s, t in table.deadline.items()} == \
            {s: DAY - 3600 for s in pending}


def test_the_takeover_bot_answers_an_expired_decision_with_every_page_closed(http, clocks):
    code, _, table = _pbp(http)
    step = table.step
    clocks[0] += DAY - 1
    http.portal.call(table.refresh)
    assert table.step == step                   # a day not yet over
    clocks[0] += 2
    clocks[1] += DAY + 1
    http.portal.call(table.refresh)
    assert table.step > step                    # the bots answered for the late seats
    assert not any(table.away)                  # for that decision only
    assert set(table.deadline) == set(table.game.pending())   # the next decisions: new timers
    assert all(t == clocks[0] + DAY for t in table.deadline.values())


def test_a_closed_page_does_not_hand_a_play_by_post_seat_to_its_bot(http, clocks):
    code, _, table = _pbp(http)
    step = table.step
    clocks[0] += http.app.state.manager.settings.disconnect_grace + 60
    http.portal.call(table.refresh)
    assert table.step == step and not any(table.auto(s) for s in range(3))


def test_a_table_with_every_page_closed_sleeps_until_its_next_deadline(http, clocks):
    import asyncio

    code, _, table = _pbp(http)
    clocks[0] += 3600                            # every grace period long over
    http.portal.call(table.refresh)
    left = http.portal.call(lambda: table._timer.when() - asyncio.get_running_loop().time())
    assert DAY - 3600 - 5 < left < DAY - 3600 + 5
    live, _, live_table = _pbp(http, timer=0)
    clocks[0] += 3600
    http.portal.call(live_table.refresh)
    assert live_table._timer is None             # nobody seated: the next page wakes it


def test_a_live_timer_still_starts_only_when_the_seats_page_is_connected(http, clocks):
    code, _, table = _pbp(http, timer=60)
    assert not table.pbp and table.deadline == {}
    assert all(s.deadline is None for s in http.app.state.storage.load_table(code).seats)


@pytest.mark.parametrize("game", ["sbb", "board"])
def test_every_game_takes_a_decision_limit_up_to_14_days(http, game):
    for timer in (60, 3 * DAY, MAX_TIMER):
        r = http.post("/api/tables", json={"game": game, "name": "a", "timer": timer})
        assert r.status_code == 200, (timer, r.text)
    r = http.post("/api/tables", json={"game": game, "name": "a", "timer": MAX_TIMER + 1})
    answer = r.json()
    assert r.status_code == 400 and answer["error"] == "bad_config"
    assert "14 days" in answer["message"] and "14日" in answer["message_ja"]
    meta = http.get("/api/meta").json()["games"][game]
    assert meta["timer"] == [0, 10, MAX_TIMER]
    assert meta["timer_choices"] == [0, 60, 300, 3600, 43200, DAY, 3 * DAY]


def test_mine_lists_exactly_the_waiting_tables_of_the_tokens_given(http):
    code1, tokens1, t1 = _pbp(http)
    deciding = min(t1.game.pending())
    idle = next(s for s in range(3) if s not in t1.game.pending()) if len(t1.game.pending()) < 3 else None
    waiting = create(http, players=3, bots=0, name="w")        # not started yet
    pairs = [{"code": code1, "token": tokens1[deciding]}, {"code": waiting["code"], "token": waiting["token"]},
             {"code": code1, "token": "wrong"}, {"code": "nosuchcode", "token": tokens1[1]},
             {"code": waiting["code"], "token": tokens1[0]}, "junk"]
    r = http.post("/api/mine", json={"tables": pairs})
    got = r.json()["tables"]
    assert [(g["code"], g["seat"], g["status"]) for g in got] == \
        [(code1, deciding, "playing"), (waiting["code"], 0, "waiting")]
    first = got[0]
    assert first["game"] == "sbb" and first["decide"] is True
    assert first["deadline"] == t1.seats[deciding].deadline and first["deadline"] is not None
    assert got[1]["decide"] is False and got[1]["deadline"] is None
    assert not any(t in r.text for t in tokens1 + [waiting["token"]])
    if idle is not None:
        other = http.post("/api/mine", json={"tables": [{"code": code1, "token": tokens1[idle]}]}).json()
        assert other["tables"][0]["decide"] is False
    assert http.post("/api/mine", json={"tables": [{"code": code1, "token": "x"}]}).json() == {"tables": []}


def test_mine_takes_a_bounded_number_of_pairs(http):
    r = http.post("/api/mine", json={"tables": [{"code": "a", "token": "b"}] * 51})
    assert r.status_code == 400 and r.json()["error"] == "bad_request"
    assert http.get("/mine").status_code == 200 and "mine.js" in http.get("/mine").text


@pytest.mark.browser
def test_the_notice_panel_and_mine_page_in_chromium(tmp_path, live_server):
    """A seat saves its webhook from the panel under the chat; /mine lists the browser's
    tables, the one whose move it is first. Screenshots: notify-panel.png, mine.png."""
    import httpx

    from fuyuki.web.notify import NotifySettings
    from tests.web.test_browser import chromium
    from tests.web.test_browser_social import _state, _wait

    shots = tmp_path / "screenshots"
    shots.mkdir()
    app = create_app(tmp_path / "data", settings=fast_settings(bot_delay=0.05),
                     notify=NotifySettings(public_url="https://fuyuki.example", allow_private=True))
    with chromium(app, live_server) as (server, browser):
        made = httpx.post(server.url + "/api/tables", json={
            "players": 3, "bots": 0, "name": "あかね", "timer": DAY}).json()
        code = made["code"]
        tokens = [made["token"]] + [httpx.post(server.url + f"/api/tables/{code}/join",
                                               json={"name": name}).json()["token"] for name in ("b", "c")]
        held = httpx.post(server.url + "/api/mine", json={"tables": [
            {"code": code, "token": t} for t in tokens]}).json()["tables"]
        token = tokens[next(g["seat"] for g in held if g["decide"])]      # a seat whose move it is
        other = httpx.post(server.url + "/api/tables", json={"players": 3, "bots": 0, "name": "w"}).json()
        errors: list[str] = []
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx.add_init_script(f"localStorage.setItem('fuyuki.token.{code}', '{token}');"
                            f"localStorage.setItem('fuyuki.token.{other['code']}', '{other['token']}');"
                            "localStorage.setItem('fuyuki.token.zzzzzzzzzzzz', 'wrong');")
        page = ctx.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + f"/t/{code}")
        page.wait_for_selector("#notify-panel:not(.hidden)", timeout=10000)
        page.click("#notify-panel summary")
        page.fill("#notify-webhook", "http://127.0.0.1:9/hook")
        page.click("#notify-webhook-save")
        _wait(page, "document.getElementById('notify-msg').textContent.length > 0")
        assert _state(page, "document.getElementById('notify-msg').textContent") == "保存しました"
        page.locator("#notify-panel").scroll_into_view_if_needed()
        page.screenshot(path=str(shots / "notify-panel.png"), full_page=True)
        saved = httpx.get(server.url + f"/api/tables/{code}/notify",
                          headers={"X-Seat-Token": token}).json()
        assert saved["webhook"] == "http://127.0.0.1:9/hook"
        assert _state(page, "document.getElementById('timer').textContent").startswith("残り")

        page.goto(server.url + "/")
        page.click("#mine-link")
        page.wait_for_selector("#mine li[data-code]", timeout=10000)
        rows = page.locator("#mine li[data-code]")
        assert rows.count() == 2
        assert rows.nth(0).get_attribute("data-code") == code and "あなたの番" in rows.nth(0).inner_text()
        assert "期限" in rows.nth(0).inner_text()
        assert rows.nth(1).get_attribute("data-code") == other["code"]
        page.screenshot(path=str(shots / "mine.png"), full_page=True)

        # a reader of a war follows its news from the war's page (a key of its own)
        war = httpx.post(server.url + "/api/tables", json={"game": "rpg", "name": "GM",
                                                            "humans": ["red-saber"], "turns": 2}).json()
        reader = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        reader.on("pageerror", lambda exc: errors.append(str(exc)))
        reader.goto(server.url + f"/t/{war['code']}")
        reader.wait_for_selector("#notify-panel:not(.hidden)", timeout=10000)
        reader.click("#notify-panel summary")
        reader.fill("#notify-webhook", "http://127.0.0.1:9/reader")
        reader.click("#notify-webhook-save")
        _wait(reader, "document.getElementById('notify-msg').textContent.length > 0")
        assert _state(reader, "document.getElementById('notify-msg').textContent") == "購読中"
        assert _state(reader, f"JSON.parse(localStorage.getItem('fuyuki.follow.{war['code']}')).length") == 1
        reader.locator("#notify-panel").scroll_into_view_if_needed()
        reader.screenshot(path=str(shots / "war-reader.png"))
        assert [t.target for t in app.state.notifier.storage.targets(war["code"], -1)] == \
            ["http://127.0.0.1:9/reader"]
        assert errors == []
    print("screenshots:", shots)
