"""The Grail War RPG in a real headless Chromium (issue 18 items 5 and 7).

* The page's dice check (WebCrypto, in the browser) and ``fuyuki war verify`` agree on the same
  published log, good or tampered.
* A GM, one player and two readers (four browser contexts) run a war of two turns through the
  pages, with one 安価 question and at least one battle; screenshots at desktop and phone size
  go under the test's tmp dir.

Runs in its own pytest process (``-m browser``), like the other browser tests.
"""

from __future__ import annotations

import re
import time

import pytest

from fuyuki.core.dice import verify_lines
from fuyuki.rpg.agents.simple import SimpleAgent
from fuyuki.rpg.hosted import HostedWar
from fuyuki.rpg.roster import load_roster
from fuyuki.rpg.rules import default_rules
from tests.rpg.test_forgeries import logs  # noqa: F401 - a fixture
from tests.web.test_browser_social import _wait
from tests.web.test_browser import chromium

pytestmark = pytest.mark.browser


def _played_log(lang: str) -> str:
    rules = default_rules()
    war = HostedWar(load_roster(None, rules), rules, "5e" * 32, max_turns=2)
    bots = {s: SimpleAgent(3, s) for s in range(war.gm)}
    while not war.over:
        if war.held:
            war.submit(war.gm, {"gm": "next"})
        for s, d in war.pending().items():
            war.submit(s, bots[s].choose(war.view(s), d))
            break
    return war.public_log(lang)


def _tampered(log: str) -> dict[str, str]:
    lines = log.split("\n")
    rolls = [i for i, x in enumerate(lines) if x.startswith("#DICE ROLL ")]
    reveal = next(i for i, x in enumerate(lines) if x.startswith("#DICE REVEAL "))
    out = {}

    def edit(name, i, new):
        changed = list(lines)
        changed[i] = new
        out[name] = "\n".join(changed)

    i = rolls[5]
    head, value = lines[i].rsplit(" ", 1)
    faces = int(head.rsplit("1D", 1)[1])
    edit("value", i, f"{head} {int(value) % faces + 1}")
    *rest, count = lines[reveal].split(" ")
    secret = rest[-1]
    edit("secret", reveal, " ".join(rest[:-1] + [("0" if secret[0] != "0" else "1") + secret[1:], count]))
    out["removed"] = "\n".join(lines[:rolls[3]] + lines[rolls[3] + 1:])
    parts = lines[rolls[7]].split(" ")
    edit("label", rolls[7], " ".join(parts[:3] + [parts[3] + "x"] + parts[4:]))
    shown = next(j for j in rolls if re.search(r"\(1D\d+[^)]*\)\s*(＞|>)\s*\d+", lines[j + 1]))
    edit("shown", shown + 1, re.sub(r"(＞|>)\s*(\d+)", lambda m: f"{m.group(1)} {int(m.group(2)) + 1}",
                                  lines[shown + 1], count=1))
    return out


def test_the_page_and_war_verify_agree_on_a_good_and_a_tampered_log(tmp_path, app_factory, live_server):
    log = _played_log("ja")
    cases = {"good": log, **_tampered(log), "en": _played_log("en")}
    with chromium(app_factory(), live_server) as (server, browser):
        page = browser.new_page()
        page.goto(server.url + "/new/rpg")
        page.wait_for_selector("#c-pairs select")          # the page's scripts have run
        for name, text in cases.items():
            lines = text.split("\n")
            py = verify_lines(lines)
            js = page.evaluate("lines => WarDice.verify(lines)", lines)
            assert js["ok"] == py.ok, name
            assert js["commits"] == py.commits and js["rolls"] == py.rolls, name
            assert [(p["code"], p["line"]) for p in js["problems"]] == \
                [(p.code, p.line) for p in py.problems], name
            if name in ("good", "en"):
                assert py.ok and py.rolls > 50
                # every roll line is marked verified
                rolls = [n for n, x in enumerate(lines, 1) if x.startswith("#DICE ROLL")]
                assert all(js["marks"][str(n)] == "ok" for n in rolls)
            else:
                assert not py.ok, name
                assert js["failed"] and js["failed"][0]["line"] == py.problems[0].line
                assert js["marks"][str(py.problems[0].line)] == "bad"


WATCH_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective));
"""


def test_a_pasted_log_shows_the_pages_dice_check_and_the_servers_replay_as_war_verify(
        tmp_path, app_factory, live_server, logs):  # noqa: F811 - the imported fixture
    """Three pastes: a good log; a forgery the page's dice check catches (the faces of a roll);
    one only the server's replay catches (a generated line edited). Each shows both verdicts
    and the stricter overall, as `war verify` says."""
    from fuyuki.core.dice import verify_text

    from tests.rpg.test_forgeries import forgeries
    from tests.web.test_war_verify import war_verify

    forged = forgeries(logs["5"], logs["6"])
    cases = {"good": (logs["5"], 0, None), "dice": forged["faces_1D100_to_1D229"],
             "replay_only": forged["generated_line_edited"]}
    with chromium(app_factory(), live_server) as (server, browser):
        page = browser.new_page()
        page.add_init_script(WATCH_CSP)
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        code = page.request.post(server.url + "/api/tables",
                                 data={"game": "rpg", "name": "GM"}).json()["code"]
        page.goto(server.url + f"/t/{code}")             # a reader's page
        page.wait_for_selector("#paste summary")
        page.click("#paste summary")
        for name, (text, *_rest) in cases.items():
            cli = war_verify(text, tmp_path)
            dice = verify_text(text)                     # the dice check alone, as the page runs it
            page.evaluate("() => { document.getElementById('paste-result').textContent = ''; }")
            page.fill("#paste-log", text)
            page.click("#paste-btn")
            page.wait_for_selector("#paste-overall")
            shown = page.evaluate("""() => Object.fromEntries(["paste-dice", "paste-replay", "paste-result"]
                .map(id => [id, [document.getElementById(id).dataset.exit,
                                 document.getElementById(id).innerText]]))""")
            assert shown["paste-replay"][0] == str(cli[0]), name
            assert shown["paste-dice"][0] == ("0" if dice.ok else "1"), name
            assert shown["paste-result"][0] == str(cli[0]), name      # the stricter of the two
            if cli[1] is not None:
                assert f"{cli[1]}行目" in shown["paste-replay"][1], name
            if name == "good":
                assert cli == (0, None) and page.locator("#paste-result.ok").count() == 1
            else:
                assert cli[0] == 1 and page.locator("#paste-result.bad").count() == 1, name
            if name == "dice":
                assert f"{dice.problems[0].line}行目" in shown["paste-dice"][1]
            if name == "replay_only":                    # the page's dice check passes it
                assert dice.ok and "一致 ✓" not in shown["paste-result"][1]
        assert page.evaluate("window.__csp") == [] and not errors, errors


def _click_if(page, selector: str) -> bool:
    loc = page.locator(selector)
    try:
        if loc.count() and loc.first.is_visible():
            loc.first.click(timeout=1500)
            return True
    except Exception:  # noqa: BLE001 - the page changed under the click
        pass
    return False


def test_a_gm_a_player_and_two_readers_run_a_war_inchromium(tmp_path, app_factory, live_server):
    shots = tmp_path / "screenshots"
    shots.mkdir()
    app = app_factory(bot_delay=0.02)
    with chromium(app, live_server) as (server, browser):
        desktop, phone = {"width": 1200, "height": 900}, {"width": 390, "height": 844}
        ctx = {n: browser.new_context(viewport=v) for n, v in
               (("gm", desktop), ("player", phone), ("reader1", desktop), ("reader2", phone))}
        ctx["reader1"].grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
        pages = {n: c.new_page() for n, c in ctx.items()}
        errors: list[str] = []
        for p in pages.values():
            p.on("pageerror", lambda exc: errors.append(str(exc)))
        gm, player, r1, r2 = pages["gm"], pages["player"], pages["reader1"], pages["reader2"]

        # the GM creates the war: red-saber by 安価 (the default), black-saber by a player
        gm.goto(server.url + "/")                       # the lobby sends a GM to the war's form
        gm.wait_for_selector("#c-game option[value=rpg]", state="attached")
        gm.select_option("#c-game", "rpg")
        gm.wait_for_url(re.compile(r"/new/rpg$"))
        gm.wait_for_selector("#c-pairs select")
        # an uploaded roster with a mistake: the CLI's clear error, nothing created
        bad = tmp_path / "bad.toml"
        bad.write_text("[[pair]]\nid = 3\n", "utf-8")
        gm.select_option("#c-roster", "file")
        gm.set_input_files("#c-file", str(bad))
        gm.click("#create-form button[type=submit]")
        gm.wait_for_selector("#create-err:has-text('roster')")
        assert "id" in gm.inner_text("#create-err")
        gm.select_option("#c-roster", "sample")
        gm.fill("#c-turns", "2")
        gm.select_option('select[data-pair="black-saber"]', "player")
        gm.screenshot(path=str(shots / "create-desktop.png"), full_page=True)
        gm.click("#create-form button[type=submit]")
        gm.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        gm.wait_for_selector("#links-list .share")
        code = gm.url.rsplit("/", 1)[1]
        links = gm.locator("#links-list .link-row").all_inner_texts()
        seat_link = next(x for x in links if "黒のセイバー" in x).split("\n")[-1]
        public = f"{server.url}/t/{code}"
        gm_link = next(x for x in links if "GM" in x).split("\n")[-1]
        assert "#k=" in seat_link and "#k=" in gm_link
        player.goto(seat_link)
        r1.goto(public)
        r2.goto(public)
        for p in pages.values():
            p.wait_for_selector("#commit:not(:empty)")
        sha = gm.inner_text("#commit")
        assert re.fullmatch(r"[0-9a-f]{64}", sha)
        assert all(p.inner_text("#commit") == sha for p in pages.values())
        assert r1.inner_text("#role") == "読者" and player.inner_text("#role") == "プレイヤー"
        # the readers' pages never hold the GM link's token nor a seat token
        gm_token, seat_token = gm_link.split("#k=")[1], seat_link.split("#k=")[1]
        for p in (r1, r2):
            html = p.content()
            assert gm_token not in html and seat_token not in html
            assert p.locator("#gm").is_hidden() and p.locator("#links").is_hidden()

        # the player's page has committed to its contribution to turn 1's dice on its own
        _wait(player, "last && last.view.dice && last.view.dice.committed")
        gm.fill("#narration", "冬木の夜、二つの陣営が動き出す。")
        gm.click("#narrate-btn")
        asked = answered = battled = False
        deadline = time.monotonic() + 240
        shot_mid = shot_decision = False
        while time.monotonic() < deadline:
            if gm.locator("#end").is_visible():
                break
            acted = _click_if(gm, "#next-btn")
            # the player: attack in the action (a battle), the first option otherwise
            if player.locator("#decision-options .opt").count():
                if _click_if(player, '#decision-options details[data-kind="attack"] summary'):
                    if not shot_decision:
                        player.screenshot(path=str(shots / "action-player.png"), full_page=False)
                        shot_decision = True
                    acted = _click_if(player, '#decision-options .opt[data-value^="attack:"]')
                else:
                    acted |= _click_if(player, "#decision-options .opt:visible")
            # the 安価 pair: one question for the readers, then the program decides
            dec = gm.locator('#gm-decisions .gm-dec:has(button.ask)')
            if dec.count():
                if not asked:
                    for group in dec.first.locator(".checks details").all()[:1]:
                        group.locator("summary").click()      # the options of one kind
                    boxes = dec.first.locator(".checks input:visible")
                    boxes.nth(0).check()
                    boxes.nth(1).check()
                    dec.first.locator("input.n").fill("2")
                    dec.first.locator("button.ask").click()
                    asked = True
                else:
                    dec.first.locator("button.auto").click()
                acted = True
            if asked and not answered and r1.locator("#questions .opt").count():
                r1.fill("#questions .a-name", "通りすがり")
                r1.fill("#questions .a-text", "ここは慎重に")
                if not shot_mid:
                    for n, p in pages.items():
                        p.screenshot(path=str(shots / f"question-{n}.png"), full_page=True)
                    shot_mid = True
                r1.locator("#questions .opt").nth(1).click()
                r2.wait_for_selector("#questions .answers:has-text('1')")
                r2.locator("#questions .opt").nth(0).click()
                answered = True
            if "■3 先制判定" in gm.inner_text("#log") and not battled:
                battled = True
                for n, p in pages.items():
                    p.screenshot(path=str(shots / f"battle-{n}.png"), full_page=False)
            if not acted:
                time.sleep(0.25)
        assert gm.locator("#end").is_visible(), "the war did not end in time"
        assert asked and answered and battled
        for p in pages.values():
            p.wait_for_selector("#verify-result.ok", timeout=20000)
        table = app.state.manager.get(code)
        log = table.game.public_log("ja")
        assert "【安価1決定】" in log and "【GM】冬木の夜" in log and "＞＞安価1-1 通りすがり" in log
        for p in (r1, r2):
            assert p.evaluate("warLogText()") == log
            assert "一致" in p.inner_text("#war-check")
        # the player's page contributed to every turn's dice from its own crypto.getRandomValues
        for turn in (1, 2):
            assert re.search(rf"^#DICE OPEN t{turn} black-saber [0-9a-f]{{64}}$", log, re.M), turn
        # a pasted log is checked by the same code: the good one, then one with a forged value
        from fuyuki.rpg.war_log import verify
        assert verify(log).ok
        r1.click("#paste summary")
        r1.fill("#paste-log", log)
        r1.click("#paste-btn")
        r1.wait_for_selector("#paste-result.ok")
        lines = log.split("\n")
        k = next(i for i, x in enumerate(lines) if x.startswith("#DICE ROLL 1 t2/"))
        *head, value = lines[k].split(" ")
        lines[k] = " ".join(head + [str(int(value) % int(head[-1][2:]) + 1)])
        forged = "\n".join(lines)
        assert verify(forged).problems[0].line == k + 1
        r1.fill("#paste-log", forged)
        r1.click("#paste-btn")
        r1.wait_for_selector("#paste-result.bad")
        assert f"{k + 1}行目" in r1.inner_text("#paste-result")
        # a turn's text, copied for a forum post: from its commitment to its reveal
        r1.locator('.turn-block[data-turn="1"] .turn-head button').click()
        copied = r1.evaluate("navigator.clipboard.readText()")
        assert copied.split("\n")[0].startswith("【ダイス公約】ターン1") and "#DICE REVEAL t1 " in copied
        assert copied in log and "#DICE COMMIT t2" not in copied
        for n, p in pages.items():
            p.screenshot(path=str(shots / f"end-{n}.png"), full_page=False)
        r2.click("#lang")
        r2.wait_for_selector("#log:has-text('[Dice commitment]')")
        assert "Turn 2/2" in r2.inner_text("#status-line")
        r2.screenshot(path=str(shots / "end-reader2-en.png"), full_page=False)
        for n in ("gm", "reader1"):
            pages[n].set_viewport_size({"width": 390, "height": 844})
            pages[n].screenshot(path=str(shots / f"end-{n}-phone.png"), full_page=False)
        assert not errors, errors


def test_a_new_gm_link_replaces_the_old_token_this_browser_held(tmp_path, app_factory,
                                                               live_server):
    """The GM's link was lost or leaked: ``fuyuki link`` makes a new one. Opened in the browser
    that still holds the old token, it commands the war and stays this browser's (a new tab
    without the link is the GM's page too), not only that tab's."""
    from fuyuki.web.manager import new_link

    app = app_factory(bot_delay=0.02, token_reload=0.0)
    with chromium(app, live_server) as (server, browser):
        table, _, old = app.state.manager.create({"game": "rpg", "turns": 1}, "GM")
        ctx = browser.new_context()
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{server.url}/t/{table.code}#k={old}")
        page.wait_for_selector("#links:not(.hidden)", timeout=10000)
        _, new = new_link(app.state.storage, table.code)
        page.goto(f"{server.url}/t/{table.code}#k={new}")
        page.wait_for_selector("#links:not(.hidden)", timeout=10000)
        held = page.evaluate(f"localStorage.getItem('fuyuki.token.{table.code}')")
        assert held == new
        other = ctx.new_page()
        other.goto(f"{server.url}/t/{table.code}")
        other.wait_for_selector("#links:not(.hidden)", timeout=10000)
        assert f"#k={new}" in other.inner_text("#links")
        assert not errors, errors


def test_the_creation_form_sets_who_answers_the_anka_pairs_small_decisions(tmp_path, app_factory,
                                                                           live_server):
    app = app_factory()
    with chromium(app, live_server) as (server, browser):
        page = browser.new_page()
        page.goto(server.url + "/new/rpg")
        page.wait_for_selector("#c-pairs select")
        assert page.input_value("#c-minor") == "program"                  # the adapter's default
        ja = page.inner_text("label:has(#c-minor)") + page.inner_text("p:has-text('布陣')")
        assert "小さな決定" in ja and "読者（最初の回答で決定）" in ja
        page.click("#lang")
        en = page.inner_text("label:has(#c-minor)") + page.inner_text("p:has-text('line-up')")
        assert "small decisions" in en and "the readers (the first answer decides)" in en
        assert "program" in page.inner_text("#c-pairs select >> nth=0")    # the pairs' drivers too
        page.select_option("#c-minor", "readers")
        page.screenshot(path=str(tmp_path / "create-minor-en.png"), full_page=True)
        page.click("#create-form button[type=submit]")
        page.wait_for_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
        code = page.url.rsplit("/", 1)[1]
        assert app.state.manager.get(code).config["anka_minor"] == "readers"
