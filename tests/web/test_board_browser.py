"""The Grail War Board in a real headless Chromium: two friends (two browser contexts, a
desktop and a phone) and two bots play a whole game by clicking the page — moves on the map,
targets on their pieces, cards in the hand. Screenshots at desktop (1280x800) and phone
(390x844) size go to ``$FUYUKI_ARTIFACTS/board-screenshots`` (default: the test's tmp dir).

Runs in its own pytest process (``-m browser``), as the other browser test.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.web.test_browser import chromium, create_in_lobby, play_to_the_end

pytestmark = pytest.mark.browser

# what a test player prefers at each kind of decision (the rest: the first option)
PREFER = {"part": ["battle", "move", "end"], "unit": ["together"], "spell_window": ["pass"],
          "preempt": ["counter"], "means": [], "boost": ["none"], "cover": ["none"]}


def _act(page) -> str | None:
    """Answer the open prompt of ``page`` by clicking the page; return how (map, card,
    button) or None if there was nothing to answer."""
    prompt = page.locator("#prompt")
    if not prompt.is_visible() or page.locator("#prompt-options .option:not([disabled])").count() == 0:
        return None
    kind = prompt.get_attribute("data-kind") or ""
    try:
        order = [("#map .piece.target", "piece"), ("#map .area.target", "area"),
                 ("#mine .bcard.mapped:not([disabled])", "card")]
        if kind == "move":                    # step somewhere rather than build
            order = order[1:2]
        for sel, how in order:
            targets = page.locator(sel)
            if targets.count():
                if how == "area":     # an area's free corner (its bottom edge: its pieces take their own clicks)
                    rect = targets.first.locator("rect")
                    rect.scroll_into_view_if_needed(timeout=2000)
                    box = rect.bounding_box()
                    rect.click(position={"x": box["width"] / 2, "y": box["height"] - 3}, timeout=2000)
                else:
                    targets.first.click(timeout=2000)
                if page.locator("#prompt-options .option.focus").count():   # several choices there
                    page.locator("#prompt-options .option.focus").first.click(timeout=2000)
                return how
        for want in PREFER.get(kind, []):
            b = page.locator(f"#prompt-options .option[data-option='{want}']:not([disabled])")
            if b.count():
                b.first.click(timeout=2000)
                return "button"
        page.locator("#prompt-options .option:not([disabled])").first.click(timeout=2000)
        return "button"
    except Exception:  # noqa: BLE001 - the prompt changed under the click; try again
        return None


def test_two_friends_and_two_bots_play_a_whole_board_game_in_chromium(tmp_path, app_factory,
                                                                      live_server):
    shots = Path(os.environ.get("FUYUKI_ARTIFACTS") or tmp_path) / "board-screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    app = app_factory(bot_delay=0.02)
    with chromium(app, live_server) as (server, browser):
        host = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        friend = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        errors: list[str] = []
        for p in (host, friend):
            p.on("pageerror", lambda exc: errors.append(str(exc)))

        # the lobby: the host picks the board game, 4 camps, 2 of them bots
        host.goto(server.url + "/")
        host.select_option("#c-game", "board")
        assert host.locator("#c-edition").is_hidden()          # Servant Big Battle's settings
        link, code = create_in_lobby(host, "あかね", 4, 2, shots / "01-lobby-desktop.png")

        friend.goto(link)
        friend.wait_for_selector("#join:not(.hidden)")
        friend.fill("#join-name", "Bob")
        friend.click("#join-form button[type=submit]")
        for p in (host, friend):
            p.wait_for_selector("#game:not(.hidden)", timeout=10000)
            p.wait_for_selector("#map svg .piece", timeout=10000)
        assert host.locator("#map svg .area").count() == 25
        assert "Bob" in host.inner_text("#camps") and "あかね" in friend.inner_text("#camps")

        spec = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        spec.goto(server.url + f"/t/{code}?watch=1")
        spec.wait_for_selector("#map svg .piece")
        assert spec.locator("#mine").is_hidden()

        seen: dict[str, int] = {}
        shot_kinds = {"plot": "02-plot", "target": "03-target", "move": "04-move",
                      "defence": "05-defence"}
        english = False
        dice = False       # the log keeps its last 400 lines: a long game's battles scroll out

        def step(name: str, p) -> bool:
            nonlocal english, dice
            kind = p.locator("#prompt").get_attribute("data-kind") or ""
            if kind in shot_kinds and p.locator("#prompt-options .option").count():
                p.screenshot(path=str(shots / f"{shot_kinds.pop(kind)}-{name}.png"),
                             full_page=True)
            if not english and name == "phone" and kind == "plot":
                p.click("#lang")                       # the English switch
                p.wait_for_selector("#prompt-title:has-text('Your move')", timeout=3000)
                p.screenshot(path=str(shots / "06-english-phone.png"), full_page=True)
                english = True
            how = _act(p)
            if how:
                seen[how] = seen.get(how, 0) + 1
            dice = dice or "🎲" in p.inner_text("#log")
            return bool(how)

        if not play_to_the_end({"desktop": host, "phone": friend}, step, 480, 30):
            pytest.fail(f"the game did not end in time (clicks: {seen})")

        host.screenshot(path=str(shots / "07-end-desktop.png"), full_page=True)
        friend.screenshot(path=str(shots / "08-end-phone.png"), full_page=True)
        assert host.locator("#ranking li").count() == 4
        spec.wait_for_selector("#end:not(.hidden)", timeout=5000)
        spec.screenshot(path=str(shots / "09-spectator-phone.png"), full_page=True)
        # the humans chose on the map and by clicking cards, not only with buttons
        assert seen.get("area", 0) + seen.get("piece", 0) >= 3 and seen.get("card", 0) >= 1, seen
        assert dice                                          # dice with their breakdown

        friend.click("#replay-btn")
        friend.wait_for_selector("#replay:not(.hidden)")
        friend.click("#rp-end")
        friend.wait_for_selector("#map svg .piece")
        friend.screenshot(path=str(shots / "10-replay-phone.png"), full_page=True)
        assert not errors, errors
    print(f"screenshots: {shots} clicks: {seen}")


def test_the_map_and_the_camps_show_a_barrier(tmp_path, app_factory, live_server):
    """結界 (seed 003 「陣地・結界」): a camp's barrier is drawn on its area of the map and named
    in the camp's line, like its 陣地 (the page draws it from the view's ``camps[i].barrier``)."""
    import httpx

    app = app_factory(bot_delay=0.02)
    with chromium(app, live_server) as (server, browser):
        made = httpx.post(server.url + "/api/tables", json={"game": "board", "name": "あかね",
                                                            "players": 3, "bots": 2}).json()
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.add_init_script(f"localStorage.setItem('fuyuki.token.{made['code']}', "
                             f"'{made['token']}')")
        page.goto(server.url + f"/t/{made['code']}")
        page.wait_for_selector("#map svg .piece", timeout=10000)
        assert page.locator("#map svg .barrier").count() == 0
        area = page.evaluate("""() => {
            const v = structuredClone(last.view);
            const pos = v.chars.find(c => c.camp === 1).pos;
            v.camps[1].barrier = {pos, ability: "blood_fort"};
            drawMap(v); drawCamps(v);
            return v.map.areas[pos[0]][pos[1]];
        }""")
        marker = page.locator("#map svg .barrier[data-camp='1']")
        assert marker.count() == 1 and "結界" in marker.locator("title").text_content()
        assert f"結界 {area}" in page.inner_text("#camps [data-seat='1']")
        page.screenshot(path=str(tmp_path / "barrier.png"), full_page=True)
