"""End to end in a real headless Chromium: two browser contexts (two friends) and one bot play
a whole 3-player game through the pages. Screenshots go under the test's tmp dir.

Runs in its own pytest process (``-m browser``): Playwright's sync API leaves an event loop
running that would break the async tests of the main run.
"""

from __future__ import annotations

import re
import time
from contextlib import contextmanager

import pytest

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextmanager
def chromium(app, live_server):
    """The app on a live server and a headless Debian Chromium: ``(server, browser)``."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with live_server(app) as server, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield server, browser
        finally:
            browser.close()


def play_to_the_end(pages: dict, step, seconds: float, idle_ms: int) -> bool:
    """Until every page in ``pages`` (name → page) shows the end: call ``step(name, page)`` for
    each page with an open prompt (it answers and says whether it did), waiting ``idle_ms``
    when nobody could. False if the game did not end within ``seconds``."""
    deadline = time.monotonic() + seconds
    first = next(iter(pages.values()))
    while time.monotonic() < deadline:
        if all(p.locator("#end").is_visible() for p in pages.values()):
            return True
        acted = False
        for name, p in pages.items():
            if p.locator("#prompt").is_visible() and step(name, p):
                acted = True
        if not acted:
            first.wait_for_timeout(idle_ms)
    return False


def _act(page) -> bool:
    """Answer the open prompt of ``page`` if there is one (the first option, quickly)."""
    if not page.locator("#prompt").is_visible():
        return False
    options = page.locator("#prompt-options .option:not([disabled])")
    if options.count() == 0:
        return False
    try:
        if page.locator("#confirm").is_visible():
            # any card but 聖杯出現, which would end the game before it shows much
            cards = page.locator("#prompt-options .card.option:not([disabled]):not([data-option=grail])")
            if cards.count() == 0:
                cards = page.locator("#prompt-options .card.option:not([disabled])")
            if cards.count() == 0:
                return False
            cards.first.click(timeout=2000)
            page.locator("#confirm").click(timeout=2000)
        else:
            options.first.click(timeout=2000)
    except Exception:  # noqa: BLE001 - the prompt changed under the click; try again
        return False
    return True


def create_in_lobby(host, name: str, players: int, bots: int, shot) -> tuple[str, str]:
    """On the lobby page (its game already chosen): fill the form, screenshot it to ``shot``,
    create the table and go to it; the table's link and code."""
    host.fill("#c-name", name)
    host.select_option("#c-players", str(players))
    host.select_option("#c-bots", str(bots))
    host.screenshot(path=str(shot), full_page=True)
    host.click("#create-form button[type=submit]")
    host.wait_for_selector("#created:not(.hidden)")
    link = host.inner_text("#share-link").strip()
    code = re.search(r"/t/([A-Za-z0-9_-]+)$", link).group(1)
    host.click("#go-table button")
    host.wait_for_selector("#lobby:not(.hidden)")
    return link, code


def test_two_friends_and_a_bot_play_a_whole_game_in_chromium(tmp_path, app_factory, live_server):
    shots = tmp_path / "screenshots"
    shots.mkdir()
    app = app_factory(bot_delay=0.05)
    with chromium(app, live_server) as (server, browser):
        host_ctx = browser.new_context(viewport={"width": 390, "height": 844})   # a phone
        friend_ctx = browser.new_context(viewport={"width": 1100, "height": 900})
        host = host_ctx.new_page()
        friend = friend_ctx.new_page()
        errors: list[str] = []
        for p in (host, friend):
            p.on("pageerror", lambda exc: errors.append(str(exc)))

        # the lobby: the host creates a 3-player table with one bot
        host.goto(server.url + "/")
        link, code = create_in_lobby(host, "あかね", 3, 1, shots / "01-lobby.png")
        host.screenshot(path=str(shots / "02-waiting.png"), full_page=True)

        # the friend opens the link and joins; the game starts by itself
        friend.goto(link)
        friend.wait_for_selector("#join:not(.hidden)")
        friend.fill("#join-name", "Bob")
        friend.click("#join-form button[type=submit]")
        for p in (host, friend):
            p.wait_for_selector("#game:not(.hidden)", timeout=10000)
        assert "P0" in host.inner_text("#players") and "Bob" in host.inner_text("#players")

        # a spectator sees the public table only
        spec = browser.new_context().new_page()
        spec.goto(server.url + f"/t/{code}?watch=1")
        spec.wait_for_selector("#game:not(.hidden)")
        assert spec.locator("#mine").is_hidden()

        shot_moments = {"draft_master": "03-draft.png", "bid": "04-bid.png"}
        moves = 0
        english_done = False

        def step(name: str, p) -> bool:
            nonlocal moves, english_done
            title = p.inner_text("#prompt-title")
            for kind, fname in list(shot_moments.items()):
                if p.locator("#prompt-options .option").count() and _kind_of(p) == kind:
                    p.screenshot(path=str(shots / f"{fname[:-4]}-{name}.png"), full_page=True)
                    del shot_moments[kind]
            if not english_done and name == "friend" and _kind_of(p) == "bid":
                p.click("#lang")          # the English switch
                p.wait_for_selector("#confirm:has-text('Lock this card')", timeout=3000)
                assert "Your move" in p.inner_text("#prompt-title"), title
                p.screenshot(path=str(shots / "05-english.png"), full_page=True)
                english_done = True
            if not _act(p):
                return False
            moves += 1
            return True

        if not play_to_the_end({"host": host, "friend": friend}, step, 100, 40):
            pytest.fail(f"the game did not end in time ({moves} moves by the humans)")

        host.screenshot(path=str(shots / "06-end-phone.png"), full_page=True)
        friend.screenshot(path=str(shots / "07-end.png"), full_page=True)
        ranking = host.inner_text("#ranking")
        assert "◆" in ranking and len(host.locator("#ranking li").all()) == 3
        spec.wait_for_selector("#end:not(.hidden)", timeout=5000)
        assert len(spec.locator("#ranking li").all()) == 3
        assert moves >= 8          # drafts, bids...: the humans really played

        # the finished game as a replay, step by step
        friend.click("#replay-btn")
        friend.wait_for_selector("#replay:not(.hidden)")
        friend.click("#rp-next")
        for _ in range(100):                      # (the page's CSP forbids eval)
            if friend.inner_text("#rp-step") == "1":
                break
            friend.wait_for_timeout(30)
        assert friend.inner_text("#rp-step") == "1"
        friend.click("#rp-end")
        friend.screenshot(path=str(shots / "08-replay.png"), full_page=True)

        # the rules page lists every card with its text
        friend.goto(server.url + "/rules")
        friend.wait_for_selector("#masters .rule-card")
        assert friend.locator("#masters .rule-card").count() == 10
        assert friend.locator("#servants .rule-card").count() == 10
        assert "セイバー" in friend.inner_text("#servants")
        friend.screenshot(path=str(shots / "09-rules.png"), full_page=True)
        assert not errors, errors
    assert len(list(shots.glob("*.png"))) >= 8
    print(f"screenshots: {shots}")


def _kind_of(page) -> str:
    return page.evaluate("last && last.view && last.view.me && last.view.me.decision ? "
                         "last.view.me.decision.kind : ''")


def test_a_link_from_fuyuki_link_gives_a_new_browser_the_hosts_seat(tmp_path, app_factory,
                                                                    live_server):
    """The host lost their browser's storage; the operator's ``fuyuki link`` makes a new link
    (/t/CODE#k=TOKEN): a fresh browser opening it plays the host's seat, and the token leaves
    the address bar."""
    from fuyuki.web.manager import new_link

    app = app_factory(bot_delay=0.05, token_reload=0.0)
    with chromium(app, live_server) as (server, browser):
        table, seat, _ = app.state.manager.create({"players": 3, "bots": 2}, "あかね")
        _, token = new_link(app.state.storage, table.code)  # the host's seat
        page = browser.new_context().new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/t/{table.code}#k={token}")
        page.wait_for_selector("#mine:not(.hidden)", timeout=10000)
        assert "#k=" not in page.url and "あかね" in page.inner_text("#players")
        page.screenshot(path=str(tmp_path / "link.png"), full_page=True)
        _, newer = new_link(app.state.storage, table.code)      # pasted over the same page
        page.goto(f"{server.url}/t/{table.code}#k={newer}")
        from tests.web.test_browser_social import _wait     # (wait_for_function's eval: CSP)
        _wait(page, f"localStorage.getItem('fuyuki.token.{table.code}') === '{newer}'")
        page.wait_for_selector("#mine:not(.hidden)", timeout=10000)
        assert not errors, errors
