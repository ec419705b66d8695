"""The Grail War RPG on the table server (issue 18): creating a war, seats and links, 安価,
the GM's powers, what each page may see, the published log and a restart."""

from __future__ import annotations

import json
import random
import re

import pytest
from fastapi.testclient import TestClient

import hashlib
import os

from fuyuki.core import contract
from fuyuki.web.app import create_app
from tests.web.conftest import fast_settings
from tests.web.helpers import Client, close_all, connect_all
from tests.web.war_driver import create_war, read_all, step

PLAYER, ANKA = "red-saber", "black-saber"


def _war(http, **kw):
    return create_war(http, humans=[PLAYER], anka=[ANKA], turns=2, **kw)


def _connect(http, made):
    gm_seat = made["seat"]
    seat = min(int(k) for k in made["invites"])
    tokens = {gm_seat: made["token"], seat: made["invites"][str(seat)]}
    seats, clients = connect_all(http, made["code"], tokens, spectators=2)
    return seats[gm_seat], {seat: seats[seat]}, clients[-2:], clients


def test_creating_a_war_gives_a_gm_link_a_seat_link_per_player_pair_and_a_public_summary(http):
    made = _war(http)
    assert made["status"] == "playing" and made["seat"] == 14
    assert list(made["invites"]) == ["0"]                  # red-saber: the only player pair
    summary = http.get(f"/api/tables/{made['code']}").json()
    kinds = [s["kind"] for s in summary["seats"]]
    assert kinds[0] == "human" and kinds[7] == "crowd" and kinds[14] == "human"
    assert kinds.count("bot") == 12
    # the secret and the roster stay private
    assert "secret" not in summary["config"] and "roster" not in summary["config"]
    # the page of the war and the creation page
    assert http.get(f"/t/{made['code']}").status_code == 200
    assert "war.js" in http.get("/new/rpg").text


def test_an_uploaded_roster_is_checked_with_the_clis_clear_errors(http):
    r = http.post("/api/tables", json={"game": "rpg", "name": "GM", "roster": "[[pair]]\nid = 3\n"})
    assert r.status_code == 400
    body = r.json()
    assert body["error"] == "bad_config" and "roster" in body["message"] and "id" in body["message"]
    r = http.post("/api/tables", json={"game": "rpg", "name": "GM", "roster": "not = = toml"})
    assert "not valid TOML" in r.json()["message"]
    r = http.post("/api/tables", json={"game": "rpg", "name": "GM", "humans": ["nobody"]})
    assert r.json()["error"] == "bad_config" and "humans" in r.json()["message"]


def test_the_dice_commitment_is_published_from_the_first_moment(http):
    made = _war(http)
    gm, players, readers, clients = _connect(http, made)
    first = readers[0].messages[0]
    texts = [e["text"]["ja"] for e in first["events"]]
    assert not any("texts" in e["data"] for e in first["events"])   # the war's text goes once
    assert texts[0].startswith("【ダイス公約】") and "SHA-256" in texts[0]
    assert not any("#DICE ROLL" in t for t in texts)       # no roll before the GM opens turn 1
    gm.send({"type": "gm", "gm": "next"})
    read_all(clients)
    lines = "\n".join(e["text"]["ja"] for e in readers[0].last["events"]).split("\n")
    commit = next(i for i, x in enumerate(lines) if x.startswith("#DICE COMMIT t1 "))
    assert all(not x.startswith("#DICE ROLL") for x in lines[:commit])
    assert any(x.startswith("#DICE ROLL 1 t1/") for x in lines[commit:])
    close_all()


def test_only_the_gm_link_commands_the_war(http):
    made = _war(http)
    gm, players, readers, clients = _connect(http, made)
    for c in list(players.values()) + readers:
        c.send({"type": "gm", "gm": "next"})
        assert c.read()["code"] == "not_gm"
    gm.send({"type": "gm", "gm": "next"})
    read_all(clients)
    assert not gm.last["view"]["held"]
    close_all()


def test_a_war_with_a_player_a_gm_and_readers_plays_out_and_nothing_leaks(http, tmp_path):
    made = _war(http)
    gm, players, readers, clients = _connect(http, made)
    rng = random.Random(5)
    asked: list[int] = []
    gm.send({"type": "gm", "gm": "narrate", "text": "夜の冬木。\n聖杯戦争が始まる。"})
    read_all(clients)
    n = 0
    while step(gm, players, readers, clients, rng, asked) and n < 3000:
        n += 1
    assert gm.last["view"]["over"] and asked
    table = http.app.state.manager.get(made["code"])
    game = table.game
    # the answers and the decision are in the public log
    log = game.public_log("ja")
    assert "【安価1】" in log and "＞＞安価1-2" in log and "【安価1決定】" in log
    assert "【GM】夜の冬木。" in log
    # the readers' page got exactly the public log, event by event
    reader_text = "\n".join(e["text"]["ja"] for m in readers[0].messages if m["type"] == "state"
                            for e in m.get("events", []) if e["text"]["ja"]) + "\n"
    assert reader_text == log
    _no_leaks(made, game, gm, players, readers)
    key = table.row.config["secret"]              # the table's private key: never sent at all
    for c in [gm] + list(players.values()) + readers:
        assert all(key not in json.dumps(m) for m in c.messages)
    close_all()


def _no_leaks(made, game, gm, players, readers):
    """No page shows a secret its viewer has not earned."""
    secret = game.secret                           # the GM's master secret: never published
    turn_secrets = {t: game.dice.chain[t].hex() for t in range(1, game.war.turn + 1)}
    tokens = [made["token"]] + list(made["invites"].values())
    for c in [gm] + list(players.values()) + readers:
        seat = c.last["you"]
        revealed: set[int] = set()
        for m in c.messages:
            text = json.dumps(m, ensure_ascii=False)
            for tok in tokens:                   # no token ever travels back to a client
                assert tok not in text
            if m["type"] != "state":
                continue
            # a turn's secret only after its reveal; the war's secret only at the end
            for t, s in turn_secrets.items():
                if s in text:
                    assert t in revealed or any(e["kind"] == "dice_reveal" and e["data"]["turn"] == t
                                                for e in m.get("events", [])), (seat, t)
            for e in m.get("events", []):
                if e["kind"] == "dice_reveal":
                    revealed.add(e["data"]["turn"])
                if e.get("private"):
                    assert seat is not None, e       # readers see only public events
            assert secret not in text
            view = m.get("view", {})
            assert "secret" not in m["config"] and "roster" not in m["config"]
            if seat != made["seat"]:
                assert "sheets" not in view and "decisions" not in view
                for p in view.get("pairs", []):     # a sheet: one's own or one learned
                    if "sheet" in p:
                        assert seat is not None and (p["seat"] == seat or p["id"] in view["me"]["known"])
    # a pair's sheet (its servant's stats and abilities) reaches only that pair, the pairs that
    # learned it by 情報収集, the readers when they drive it, and the GM
    for p in game.war.pairs:
        servant = json.dumps(p.sheet()["servant"], ensure_ascii=False)
        for c in list(players.values()) + readers:
            seat = c.last["you"]
            earned = p.seat == seat or p.seat in game.anka or \
                (seat is not None and p.id in game.war.pairs[seat].known)
            if not earned:
                assert all(servant not in json.dumps(m, ensure_ascii=False) for m in c.messages), \
                    (p.id, seat)
            elif p.seat == seat:                 # (the search finds a sheet where it is)
                assert any(servant in json.dumps(m, ensure_ascii=False) for m in c.messages)
    # private events reached only their pair (and the GM)
    for seat, c in players.items():
        for m in c.messages:
            for e in m.get("events", []) if m["type"] == "state" else []:
                if e.get("private"):          # (events of one kind may carry the same data)
                    assert any(seat in x.to for x in game.events if x.to is not None and
                               x.kind == e["kind"] and e["text"] == contract.event_text(x) and
                               json.loads(json.dumps(x.data)) == {**e["data"], contract.TEXTS: e["text"]})


def test_a_restart_mid_war_resumes_it_exactly(tmp_path):
    data = tmp_path / "data"
    app = create_app(data, settings=fast_settings())
    rng = random.Random(11)
    asked: list[int] = []
    with TestClient(app) as http:
        try:
            made = _war(http)
            gm, players, readers, clients = _connect(http, made)
            for _ in range(60):
                step(gm, players, readers, clients, rng, asked)
            before = {c.last["you"]: c.last["view"] for c in [gm] + list(players.values())}
            before_reader = readers[0].last["view"]
            log = app.state.manager.get(made["code"]).game.public_log("ja")
        finally:
            close_all()
    app.state.storage.close()
    app2 = create_app(data, settings=fast_settings())
    with TestClient(app2) as http:
        try:
            gm_seat = made["seat"]
            seat = min(int(k) for k in made["invites"])
            tokens = {gm_seat: made["token"], seat: made["invites"][str(seat)]}
            seats, clients = connect_all(http, made["code"], tokens, spectators=1)
            for s, c in seats.items():
                assert c.last["view"] == before[s]
            assert clients[-1].last["view"] == before_reader
            assert app2.state.manager.get(made["code"]).game.public_log("ja") == log
            # and it goes on to the end
            gm2, players2 = seats[gm_seat], {seat: seats[seat]}
            n = 0
            while step(gm2, players2, [clients[-1]], clients, rng, asked) and n < 3000:
                n += 1
            assert gm2.last["view"]["over"]
        finally:
            close_all()


def _at_anka_decision(http):
    """A new war played (the GM holding no question) until the 安価 pair has a decision."""
    made = _war(http)
    gm, players, readers, clients = _connect(http, made)
    rng = random.Random(3)
    while not any(d["anka"] for d in gm.last["view"]["decisions"].values()):
        assert step(gm, players, readers, clients, rng, [0])
    seat = next(int(s) for s, d in gm.last["view"]["decisions"].items() if d["anka"])
    opts = [o["value"] for o in gm.last["view"]["decisions"][str(seat)]["options"]]
    return made, gm, readers, clients, seat, opts


def test_a_vote_closes_at_its_time_and_answers_are_limited(http, monkeypatch):
    from fuyuki.web import table as _table
    from fuyuki.web.games import rpg

    made, gm, readers, clients, seat, opts = _at_anka_decision(http)
    gm.send({"type": "gm", "gm": "ask", "seat": seat, "options": opts[:2], "mode": "vote",
             "seconds": 60})
    read_all(clients)
    q = gm.last["view"]["questions"][0]
    table = http.app.state.manager.get(made["code"])
    # the table's timer is set for the vote's closing time
    assert table._timer is not None and 55 < table._wake - _table._now() <= 60
    readers[0].send({"type": "answer", "q": q["q"], "option": opts[1], "text": "x" * 141})
    assert readers[0].read()["code"] == "too_long"
    readers[0].send({"type": "answer", "q": q["q"], "option": "nonsense"})
    assert readers[0].read()["code"] == "not_an_option"
    readers[0].send({"type": "answer", "q": q["q"], "option": opts[1], "name": "A"})
    read_all(clients)
    readers[0].send({"type": "answer", "q": q["q"], "option": opts[1], "name": "A"})
    assert readers[0].read()["code"] == "rate_limited"        # one answer every few seconds
    readers[1].send({"type": "answer", "q": q["q"], "option": opts[0], "name": "B"})
    read_all(clients)
    # time passes: the vote closes by itself at its time (a tie goes to the first answered)
    real = _table._wall
    monkeypatch.setattr(_table, "_wall", lambda: real() + 61)
    readers[1].send({"type": "answer", "q": q["q"], "option": opts[0]})
    read_all(clients)                                          # the close, told to everyone
    assert readers[1].read()["code"] == "closed"
    log = http.app.state.manager.get(made["code"]).game.public_log("ja")
    assert f"【安価{q['q']}決定】" in log and "締切時の投票 1票" in log
    assert rpg.ANSWER_GAP > 0
    close_all()


def test_the_gm_closes_a_question_early(http):
    made, gm, readers, clients, seat, opts = _at_anka_decision(http)
    gm.send({"type": "gm", "gm": "ask", "seat": seat, "options": opts[:2], "mode": "count", "n": 5})
    read_all(clients)
    readers[0].send({"type": "answer", "q": 1, "option": opts[1]})
    read_all(clients)
    gm.send({"type": "gm", "gm": "close", "q": 1})
    read_all(clients)
    assert not gm.last["view"]["questions"]
    assert "GMが締切・1票" in http.app.state.manager.get(made["code"]).game.public_log("ja")
    close_all()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_published_log_passes_war_verify_and_a_tampered_one_fails(http, tmp_path, lang):
    from typer.testing import CliRunner

    from fuyuki.cli.main import app as cli

    made = _war(http)
    gm, players, readers, clients = _connect(http, made)
    rng = random.Random(2)
    asked: list[int] = []
    while step(gm, players, readers, clients, rng, asked):
        pass
    log = http.app.state.manager.get(made["code"]).game.public_log(lang)
    good, bad = tmp_path / "good.log", tmp_path / "bad.log"
    good.write_text(log, "utf-8")
    roll = re.search(r"^#DICE ROLL (\d+) (\S+) 1D(\d+) (\d+)$", log, re.M)
    faces, value = int(roll.group(3)), int(roll.group(4))
    bad.write_text(log.replace(roll.group(0), roll.group(0)[: -len(roll.group(4))]
                               + str(value % faces + 1), 1), "utf-8")
    assert CliRunner().invoke(cli, ["war", "verify", str(good)]).exit_code == 0
    assert CliRunner().invoke(cli, ["war", "verify", str(bad)]).exit_code == 1
    close_all()


def test_the_gm_makes_a_new_seat_link_and_the_old_one_stops_working(http):
    made = _war(http)
    gm, players, readers, clients = _connect(http, made)
    seat, player = next(iter(players.items()))
    readers[0].send({"type": "relink", "seat": seat})
    assert readers[0].read()["code"] == "not_gm"
    gm.send({"type": "relink", "seat": seat})
    got = gm.read()
    assert got["type"] == "invite" and got["seat"] == seat and got["token"] != made["invites"][str(seat)]
    old = Client(http, made["code"], made["invites"][str(seat)])
    assert old.read()["code"] == "bad_token"
    new = Client(http, made["code"], got["token"])
    for c in [gm] + readers + [new]:
        m = c.read()
        assert m["type"] == "state"
    assert new.last["you"] == seat and new.last["view"]["role"] == "player"
    close_all()


def test_the_war_secret_depends_on_the_tables_seed_so_a_table_made_again_never_replays_it():
    from fuyuki.web.games.rpg import RpgAdapter

    a = RpgAdapter()
    cfg = a.check_config({"turns": 1})
    one, two = a.new_game(cfg, 1), a.new_game(cfg, 2)
    assert one.secret != two.secret and cfg["secret"] not in (one.secret, two.secret)
    assert one.events[0].data["sha"] != two.events[0].data["sha"]


def test_a_war_offers_no_rematch(http):
    """A war's seat links and dice belong to that war alone: a rematch is refused."""
    made = _war(http)
    gm, players, readers, clients = _connect(http, made)
    gm.send({"type": "rematch"})
    m = gm.read()
    assert m["type"] == "error" and m["code"] == "no_rematch"
    close_all()


def test_a_player_page_commits_then_reveals_its_dice_contribution_and_it_counts(http):
    made = _war(http)
    gm, players, readers, clients = _connect(http, made)
    seat, page = next(iter(players.items()))
    assert page.last["view"]["dice"] == {"turn": 1, "held": True, "opening": False,
                                         "committed": False, "revealed": False}
    r = os.urandom(32)
    page.send({"type": "dice", "dice": "commit", "turn": 1, "c": hashlib.sha256(r).hexdigest()})
    read_all(clients)
    readers[0].send({"type": "dice", "dice": "commit", "turn": 1, "c": "0" * 64})
    assert readers[0].read()["code"] == "not_a_player"        # a reader's page is no party
    gm.send({"type": "gm", "gm": "next"})
    read_all(clients)
    assert page.last["view"]["dice"]["opening"] and gm.last["view"]["held"]   # waits for the reveal
    page.send({"type": "dice", "dice": "reveal", "turn": 1, "r": os.urandom(32).hex()})
    assert page.read()["code"] == "bad_dice"                  # not what it committed to
    page.send({"type": "dice", "dice": "reveal", "turn": 1, "r": r.hex()})
    read_all(clients)
    assert not gm.last["view"]["held"]                        # every reveal in: the turn began
    log = http.app.state.manager.get(made["code"]).game.public_log("ja")
    assert f"#DICE OPEN t1 {PLAYER} {r.hex()}" in log and "#DICE OPEN t1 server " in log
    assert "【ダイス寄与の公約】ターン1：赤のセイバー" in log
    close_all()


def test_a_contribution_never_revealed_is_dropped_when_the_gm_opens_the_turn_again(http):
    made = _war(http)
    gm, players, readers, clients = _connect(http, made)
    seat, page = next(iter(players.items()))
    page.send({"type": "dice", "dice": "commit", "turn": 1, "c": "ab" * 32})
    read_all(clients)
    gm.send({"type": "gm", "gm": "next"})
    read_all(clients)
    assert gm.last["view"]["held"]
    gm.send({"type": "gm", "gm": "next"})
    read_all(clients)
    assert not gm.last["view"]["held"]
    log = http.app.state.manager.get(made["code"]).game.public_log("ja")
    assert f"#DICE OPEN t1 {PLAYER} -" in log
    close_all()
