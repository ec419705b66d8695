"""What players expect, proven in a real headless Chromium: whose turn (turn bar, tab title),
chat with stamps (escaped), the reconnect banner that disables the prompt, the desktop and
phone layouts, a whole game to the end, the replay with every hand, the rematch with the same
players, and the lobby's lists. Screenshots go under the test's tmp dir.

Runs in its own pytest process (``-m browser``), like test_browser.py.
"""

from __future__ import annotations

import time

import httpx
import pytest

from tests.web.test_browser import _act, chromium

pytestmark = pytest.mark.browser

XSS = '<img src=x id=injected onerror="document.title=1">hi'


def _state(page, expr: str):
    """The page expression's value; None while it throws or while the page is navigating."""
    try:
        return page.evaluate(f"(() => {{ try {{ return {expr}; }} catch (e) {{ return null; }} }})()")
    except Exception as exc:  # noqa: BLE001 - playwright's Error: the context went with a reload
        if "context was destroyed" in str(exc) or "navigat" in str(exc):
            return None
        raise


def _wait(page, expr: str, timeout: float = 10.0) -> None:
    """Wait until the page expression is true (the CSP forbids wait_for_function's eval)."""
    deadline = time.monotonic() + timeout
    while not _state(page, expr):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expr}")
        page.wait_for_timeout(50)


def _box(page, selector: str) -> dict:
    return page.locator(selector).bounding_box()


def test_turn_chat_reconnect_layouts_replay_and_rematch_in_chromium(tmp_path, app_factory, live_server):
    shots = tmp_path / "screenshots"
    shots.mkdir()
    app = app_factory(bot_delay=0.05)
    with chromium(app, live_server) as (server, browser):
        made = httpx.post(server.url + "/api/tables", json={
            "players": 3, "bots": 1, "name": "あかね", "timer": 120, "public": True}).json()
        code = made["code"]
        errors: list[str] = []

        # the lobby lists the public table while it waits for players
        visitor = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        visitor.on("pageerror", lambda exc: errors.append(str(exc)))
        visitor.goto(server.url + "/")
        visitor.wait_for_selector(f"#open-tables a[href='/t/{code}']")
        assert "あかね" in visitor.inner_text("#open-tables")
        visitor.screenshot(path=str(shots / "01-lobby-open-tables.png"), full_page=True)

        joined = httpx.post(server.url + f"/api/tables/{code}/join", json={"name": "Bob"}).json()
        pages = {}
        for seat, token, viewport in ((0, made["token"], {"width": 1440, "height": 900}),
                                      (1, joined["token"], {"width": 390, "height": 844})):
            ctx = browser.new_context(viewport=viewport, has_touch=seat == 1)
            ctx.add_init_script(f"localStorage.setItem('fuyuki.token.{code}', '{token}')")
            p = ctx.new_page()
            p.on("pageerror", lambda exc: errors.append(str(exc)))
            p.goto(server.url + f"/t/{code}")
            pages[seat] = p
        desk, phone = pages[0], pages[1]
        for p in pages.values():
            p.wait_for_selector("#game:not(.hidden)", timeout=10000)

        # whose turn: the turn bar names the seats waited for; the seat to move sees its
        # turn in the bar and in the tab title
        _wait(desk, "last.waiting_for && last.waiting_for.length > 0")
        waiting = _state(desk, "last.waiting_for")
        for seat, p in pages.items():
            _wait(p, "last.waiting_for !== undefined")
            mine = seat in waiting and _state(p, "last.turn") is not None
            assert ("mine" in (p.get_attribute("#turnbar", "class") or "")) == mine
            assert p.title().startswith("●") == mine
            if not mine:
                others = [s for s in waiting if s != seat]
                assert all(f"P{s}" in p.inner_text("#turn-text") for s in others)
        desk.screenshot(path=str(shots / "02-turn-desktop.png"), full_page=True)

        # the layouts: on a desktop the board, the prompt and the log side by side; on a
        # phone one column, the decision first, nothing wider than the screen
        board, play, side = (_box(desk, s) for s in ("#col-board", "#col-play", "#col-side"))
        assert board["x"] < play["x"] < side["x"] and abs(board["y"] - play["y"]) < 5
        pboard, pplay = _box(phone, "#col-board"), _box(phone, "#col-play")
        assert pplay["y"] < pboard["y"] and abs(pplay["x"] - pboard["x"]) < 5
        assert _state(phone, "document.documentElement.scrollWidth") <= 390
        phone.screenshot(path=str(shots / "03-phone.png"), full_page=True)

        # chat: a line arrives as text (no markup runs), a stamp arrives as its word
        desk.fill("#chat-input", XSS)
        desk.click("#chat-form button[type=submit]")
        phone.wait_for_selector("#chat-log .chat-line")
        assert XSS in phone.inner_text("#chat-log")
        assert phone.locator("#chat-log img, #injected").count() == 0
        phone.click("#stamps [data-stamp=hello]")
        desk.wait_for_selector("#chat-log .chat-line.stamp")
        assert "よろしく" in desk.inner_text("#chat-log")
        phone.screenshot(path=str(shots / "04-chat-phone.png"), full_page=True)

        # the reconnect banner: loud, and the prompt cannot be used until the page is back
        deadline = time.monotonic() + 20            # until the desktop seat has a prompt
        while not desk.locator("#prompt").is_visible():
            assert time.monotonic() < deadline, "the desktop seat never had a decision"
            _act(phone) or desk.wait_for_timeout(50)
        desk.evaluate("reconnectDelay = 2500; ws.close()")
        desk.wait_for_selector("#reconnect:not(.hidden)")
        assert "offline" in desk.get_attribute("body", "class")
        assert desk.locator("#prompt").evaluate("e => getComputedStyle(e).pointerEvents") == "none"
        desk.screenshot(path=str(shots / "05-reconnecting.png"))
        desk.wait_for_selector("#reconnect.hidden", state="attached", timeout=10000)
        assert "offline" not in (desk.get_attribute("body", "class") or "")

        # English mode: every label of the turn bar and the chat in English
        phone.click("#lang")
        phone.wait_for_selector("#chat h2:has-text('Chat')")
        assert "Hello!" in phone.inner_text("#chat-log")
        phone.screenshot(path=str(shots / "06-english-phone.png"), full_page=True)

        # play the game out through the pages
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            if all(p.locator("#end").is_visible() for p in pages.values()):
                break
            if not any(_act(p) for p in pages.values()):
                desk.wait_for_timeout(40)
        else:
            pytest.fail("the game did not end in time")
        assert "●" not in desk.title()
        desk.screenshot(path=str(shots / "07-end-desktop.png"), full_page=True)
        phone.screenshot(path=str(shots / "08-end-phone.png"), full_page=True)

        # a tap on a card (touch screens have no hover) shows it with its text
        card = phone.locator("#my-hand .face").first
        card.tap()
        phone.wait_for_selector("#card-detail[open] .face.big .ftext, #card-detail[open] .face.action")
        assert phone.locator("#card-detail .face").get_attribute("data-card") == card.get_attribute("data-card")
        phone.click("#card-detail button[type=submit]")
        phone.wait_for_selector("#card-detail:not([open])", state="attached")

        # the replay may show every hand once the game is over
        desk.click("#replay-btn")
        desk.wait_for_selector("#replay:not(.hidden)")
        desk.check("#rp-hands")
        desk.wait_for_selector("#rp-hands-box:not(.hidden) .hand-row")
        desk.click("#rp-end")                   # the last step: everyone holds cards
        _wait(desk, "replayStep === replaySteps && replayStep > 0")
        desk.wait_for_selector("#rp-hands-box .face")
        assert desk.locator("#rp-hands-box .hand-row").count() == 3
        assert desk.locator("#rp-hands-box .face").count() >= 6
        assert XSS in desk.inner_text("#chat-log")            # the chat is part of it
        desk.screenshot(path=str(shots / "09-replay-hands.png"), full_page=True)

        # rematch: one player asks, both land at a new table, in their own seats
        phone.click("#rematch-btn")
        phone.wait_for_url(lambda url: f"/t/{code}" not in url, timeout=10000)
        desk.reload()
        desk.wait_for_selector("#rematch-note:not(.hidden)")
        desk.click("#rematch-go")
        desk.wait_for_url(lambda url: f"/t/{code}" not in url, timeout=10000)
        assert desk.url == phone.url
        for seat, p in pages.items():
            p.wait_for_selector("#game:not(.hidden)", timeout=10000)
            _wait(p, f"last.you === {seat} && last.step >= 0")
            assert _state(p, "last.seats.map(s => s.name)") == ["あかね", "Bob", ""]
        desk.screenshot(path=str(shots / "10-rematch.png"), full_page=True)

        # this browser's games, in the lobby
        desk.goto(server.url + "/")
        desk.wait_for_selector("#history li a")
        assert desk.locator("#history li a").count() == 2
        assert not errors, errors
    assert len(list(shots.glob("*.png"))) == 10
    print(f"screenshots: {shots}")
