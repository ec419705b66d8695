"""The table server hosts any game through its adapter: the lobby API, settings checked per
game, each table's page, and what a board option points at on the map."""

from __future__ import annotations

import pytest

from fuyuki.core.errors import IllegalAction
from fuyuki.web.games import adapter, games
from fuyuki.web.games.board import option_ref
from fuyuki.web.manager import check_config
from tests.web.helpers import Client, create, join


def test_the_server_knows_both_games_and_says_what_each_offers(http):
    assert games() == ["sbb", "board", "rpg"]
    meta = http.get("/api/meta").json()
    assert set(meta["games"]) == {"sbb", "board", "rpg"} and meta["default"] == "sbb"
    assert meta["games"]["rpg"]["create"] == "/new/rpg"      # the war has its own form
    assert meta["games"]["board"]["players"] == [2, 3, 4, 5]
    assert meta["games"]["board"]["levels"] == ["easy", "normal", "hard"]
    assert meta["games"]["board"]["title"]["ja"] == "聖杯戦争ボード"
    data = http.get("/api/games/board/data").json()
    assert data["map"]["width"] == 5 and data["cards"]["healing"]["text"]["en"]
    assert http.get("/api/games/chess/data").status_code == 404


def test_each_table_is_served_its_own_games_page(http):
    sbb = create(http, players=3, bots=2, name="a")
    board = create(http, game="board", players=2, bots=1, name="a")
    assert "/static/table.js" in http.get(f"/t/{sbb['code']}").text
    page = http.get(f"/t/{board['code']}").text
    assert "/static/board.js" in page and "/static/client.js" in page
    assert http.get(f"/api/tables/{board['code']}").json()["config"]["game"] == "board"


@pytest.mark.parametrize("config,field", [
    ({"game": "chess"}, "game"), ({"game": 3}, "game"),
    ({"game": "board", "players": 6}, "players"), ({"game": "board", "players": 1}, "players"),
    ({"game": "board", "bots": 5, "players": 4}, "bots"),
    ({"game": "board", "bot_level": "expert"}, "bot_level"),
    ({"game": "board", "edition": "final"}, "edition"),
    ({"game": "board", "players": 2, "camps": ["saber", "saber"]}, "camps"),
    ({"game": "board", "players": 2, "camps": ["saber", "lancer"]}, "camps"),
    ({"game": "board", "timer": 3}, "timer"),
])
def test_every_board_setting_is_checked(http, config, field):
    r = http.post("/api/tables", json={"name": "a", **config})
    assert r.status_code == 400 and r.json()["error"] == "bad_config"
    assert r.json()["message"].startswith(field)


def test_a_board_config_names_its_game_and_camps():
    cfg = check_config({"game": "board", "players": 2, "camps": ["caster", "rider"]})
    assert cfg == {"game": "board", "players": 2, "camps": ["caster", "rider"], "bots": 0,
                   "bot_level": "normal", "timer": 0, "public": False}
    with pytest.raises(IllegalAction):
        check_config([])
    assert check_config({})["game"] == "sbb"


def test_a_new_sbb_table_deals_with_rng_version_2_and_an_older_one_replays_with_1():
    sbb = adapter("sbb")
    cfg = check_config({"players": 4})
    assert cfg["rng"] == 2 and sbb.new_game(cfg, 5).record.config["rng"] == 2
    with pytest.raises(IllegalAction):            # a client does not choose it
        check_config({"players": 4, "rng": 1})
    old = {k: v for k, v in cfg.items() if k != "rng"}      # stored before the key existed
    from fuyuki.sbb import new_game

    def first_pack(g):
        return {seat: d.options for seat, d in g.pending().items()}

    for version, config in ((1, old), (2, cfg)):
        assert first_pack(sbb.new_game(config, 5)) == first_pack(new_game(4, 5, rng=version))
    assert first_pack(sbb.new_game(old, 5)) != first_pack(sbb.new_game(cfg, 5))


def test_a_board_seat_gets_its_decision_with_texts_and_map_references(http):
    # seat 0 starts with plotted cards [R-7]: 遠坂凛's CH 3 leaves room to plot one from the hand
    made = create(http, game="board", players=2, bots=0, name="a", camps=["archer", "saber"])
    other = join(http, made["code"], "b")
    c = Client(http, made["code"], made["token"])
    c.read()
    d = Client(http, made["code"], other["token"])
    c.read()
    m = d.read()
    view = m["view"]
    assert m["you"] == 1 and "decision" not in view and "hand" in view     # seat 0 plays first
    mine = c.last["view"]
    dec = mine["decision"]
    assert dec["kind"] == "plot" and len(mine["labels"]["ja"]) == len(dec["options"])
    assert mine["prompt"]["en"] and mine["prompt"]["ja"] != mine["prompt"]["en"]
    hand = {h["id"] for h in mine["hand"]}
    assert {r["card"] for r in mine["refs"] if r} == hand          # every card of the hand
    c.close()
    d.close()


def _view(chars):
    return {"seat": 0, "map": {"width": 5, "height": 5}, "chars": chars}


def _char(cid, pos, camp=0):
    return {"id": cid, "pos": pos, "camp": camp, "alive": True, "alone": False, "skills": {}}


def test_a_move_points_at_the_areas_its_decision_says_the_group_lands_on():
    v = _view([_char("m", [0, 0]), _char("s", [2, 2]), _char("s2", [2, 2]), _char("foe", [3, 3], camp=1)])
    lands = {"move:down": {"m": [1, 0], "s": [3, 2], "s2": [3, 2]}, "move:up": {"s": [1, 2]}}
    d = {"kind": "move", "options": [], "info": {"group": "together", "lands": lands}}
    assert option_ref(v, d, "move:down") == {"areas": [[1, 0], [3, 2]]}   # each area once
    assert option_ref(v, d, "move:up") == {"areas": [[1, 2]]}
    assert option_ref(v, d, "build:s") == {"char": "s"}
    assert option_ref(v, d, "skip") is None
    dash = {"kind": "dash", "options": [], "info": {"card": "k01", "lands": {"s:right": {"s": [2, 3]}}}}
    assert option_ref(v, dash, "s:right") == {"areas": [[2, 3]], "char": "s"}
    assert option_ref(v, {"kind": "target", "options": [], "info": {}}, "foe") == {"char": "foe"}
    assert option_ref(v, {"kind": "plot", "options": [], "info": {}}, "k07") == {"card": "k07"}
    assert option_ref(v, {"kind": "action", "options": [], "info": {}}, "card:k03") == {"card": "k03"}
    defence = {"kind": "defence", "options": [], "info": {}}
    assert option_ref(v, defence, "evade+k21") == {"card": "k21"}
    assert option_ref(v, defence, "guard") is None
    assert adapter("board").pace < adapter("sbb").pace
