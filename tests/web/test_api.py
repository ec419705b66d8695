"""The HTTP side: pages, lobby API, validation, limits, replays, card data."""

from __future__ import annotations

import random

import pytest
from fastapi.testclient import TestClient

from fuyuki.web import security
from fuyuki.web.manager import check_config
from fuyuki.core.errors import IllegalAction
from tests.web.helpers import connect_all, create, drive, join


def test_pages_are_served_with_a_strict_content_security_policy(http):
    for path in ("/", "/t/abcdefgh12", "/rules"):
        r = http.get(path)
        assert r.status_code == 200 and "<html" in r.text
        assert "script-src 'self'" in r.headers["content-security-policy"]
    assert http.get("/static/table.js").status_code == 200
    assert 'lang="ja"' in http.get("/").text          # Japanese by default


def test_meta_and_card_data_list_every_card_of_the_edition(http):
    meta = http.get("/api/meta").json()
    assert "final" in meta["editions"] and "normal" in meta["levels"]
    cards = http.get("/api/cards").json()
    assert len(cards["masters"]) == 10 and len(cards["servants"]) == 10
    assert len(cards["lands"]) == 5 and {e["id"] for e in cards["events"]} == {"luck", "swap", "grail"}
    assert all(m["text"]["ja"] and m["text"]["en"] for m in cards["masters"] + cards["servants"])
    assert sum(a["count_per_colour"] for a in cards["actions"]) == 10
    assert http.get("/api/cards?edition=nope").status_code == 400


def test_create_and_join_fill_the_seats_then_the_table_is_full(http):
    made = create(http, players=3, bots=1, name="あかね")
    assert made["seat"] == 0 and made["status"] == "waiting"
    assert security.valid_code(made["code"]) and len(made["token"]) >= 32
    summary = http.get(f"/api/tables/{made['code']}").json()
    assert [s["kind"] for s in summary["seats"]] == ["human", "human", "bot"]
    assert summary["seats"][1]["open"] and summary["status"] == "waiting"
    joined = join(http, made["code"], "  Bob   the  builder ")
    assert joined["seat"] == 1 and joined["token"] != made["token"]
    summary = http.get(f"/api/tables/{made['code']}").json()
    assert summary["status"] == "playing" and summary["seats"][1]["name"] == "Bob the builder"
    r = http.post(f"/api/tables/{made['code']}/join", json={"name": "Late"})
    assert r.status_code == 409 and r.json()["error"] == "table_started"
    assert made["token"] not in str(summary) and "seed" not in summary


@pytest.mark.parametrize("config,field", [
    ({"players": 6}, "players"), ({"players": "4"}, "players"), ({"bots": 5, "players": 4}, "bots"),
    ({"options": ["fly"]}, "options"), ({"edition": "v9"}, "edition"), ({"mode": "nope"}, "mode"),
    ({"timer": 5}, "timer"), ({"bot_level": "godlike"}, "bot_level"), ({"colour": "red"}, "colour"),
])
def test_every_config_field_is_checked(http, config, field):
    r = http.post("/api/tables", json={"name": "a", **config})
    assert r.status_code == 400
    assert r.json()["error"] == "bad_config" and r.json()["message"].startswith(field)


@pytest.mark.parametrize("name", ["", "   ", "x" * 25, "a\u0000b", 7, None])
def test_names_are_checked(http, name):
    made = create(http, players=3, bots=0, name="host")
    r = http.post(f"/api/tables/{made['code']}/join", json={"name": name})
    assert r.status_code == 400 and r.json()["error"] == "bad_name"


def test_bad_bodies_and_unknown_tables_are_refused(http):
    assert http.post("/api/tables", content=b"not json").json()["error"] == "bad_json"
    assert http.post("/api/tables", content=b"[1]").json()["error"] == "bad_json"
    assert http.post("/api/tables", content=b"{" + b" " * 70000 + b"}").json()["error"] == "too_large"
    assert http.get("/api/tables/doesnotexist").status_code == 404
    assert http.get("/api/tables/../../etc").status_code == 404
    assert http.post("/api/tables/zzzzzzzzzzzz/join", json={"name": "a"}).status_code == 404


def test_table_creation_is_rate_limited_per_address(app_factory):
    with TestClient(app_factory(http_rate=0.001, http_burst=3)) as http:
        codes = [http.post("/api/tables", json={"players": 3, "name": "a"}).status_code for _ in range(5)]
    assert codes[:3] == [200, 200, 200] and codes[3:] == [429, 429]


def test_config_check_names_the_field():
    with pytest.raises(IllegalAction) as e:
        check_config({"players": 4, "bots": -1})
    assert e.value.code == "bad_config" and e.value.params["field"] == "bots"
    assert check_config({})["players"] == 4


def test_replays_open_when_the_game_is_over_step_by_step(http):
    made = create(http, players=3, bots=0, name="a")
    code = made["code"]
    tokens = {0: made["token"], 1: join(http, code, "b")["token"], 2: join(http, code, "c")["token"]}
    r = http.get(f"/api/tables/{code}/replay/0")
    assert r.status_code == 409 and r.json()["error"] == "not_over"
    seats, clients = connect_all(http, code, tokens, spectators=0)
    try:
        drive(seats, clients, random.Random(3))
        end = clients[0].last
    finally:
        for c in clients:
            c.close()
    steps = end["step"]
    first = http.get(f"/api/tables/{code}/replay/0").json()
    assert first["steps"] == steps and first["view"]["round"] == 0 and "me" not in first["view"]
    kinds = [e["kind"] for e in first["events"]]
    assert "setup" in kinds and "draft_pack" not in kinds          # public events only
    last = http.get(f"/api/tables/{code}/replay/{steps}").json()
    assert last["view"]["over"] and last["view"]["result"] == end["view"]["result"]
    assert http.get(f"/api/tables/{code}/replay/{steps + 1}").json()["error"] == "bad_step"
    assert http.get(f"/api/tables/{code}/replay/-1").status_code == 400


def test_the_favicon_every_browser_asks_for_is_served(http):
    r = http.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg")
