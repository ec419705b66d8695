"""The move and ダッシュ decisions name where each character lands (``info["lands"]``), by the
movement rule: one area the chosen way, none past the map's edge, none for a 門番 (山門)."""

from __future__ import annotations

import random

from fuyuki import board

BASE = {"start_hand": 0, "clear_deck": True}


def _to(g: board.Game, kind: str, answers: dict[str, str]):
    """Answer every decision before the first of ``kind`` (``answers`` by kind, else the
    first option) and return that one."""
    while True:
        (seat, d), = g.pending().items()
        if d.kind == kind:
            return seat, d
        g.submit(seat, answers.get(d.kind, d.options[0]))


def test_rule_a_move_lands_one_area_on_but_not_past_the_edge_nor_a_gatekeeper() -> None:
    # キャスター陣営 starts at 柳洞寺 (0, 0), the map's corner; アサシン is its 門番
    g = board.new_game(players=2, camps=["caster", "saber"], setup=dict(BASE))
    seat, d = _to(g, "move", {"part": "move"})
    assert d.info["lands"] == {"move:down": {"kuzuki": [1, 0], "caster": [1, 0]},
                               "move:right": {"kuzuki": [0, 1], "caster": [0, 1]}}
    assert [o for o in d.options if o.startswith("move:")] == list(d.info["lands"])
    g.submit(seat, "move:down")
    assert {c: list(g.chars[c].pos) for c in ("kuzuki", "caster", "assassin")} == \
        {"kuzuki": [1, 0], "caster": [1, 0], "assassin": [0, 0]}


def test_rule_a_dash_lands_its_one_character_one_area_on() -> None:
    g = board.new_game(players=2, camps=["caster", "saber"],
                       setup={**BASE, "camps": {"0": {"hand": ["dash"]}}})
    (kid,) = g.camps[0].hand
    seat, d = _to(g, "dash", {"part": "action", "action": f"card:{kid}"})
    assert d.info["lands"] == {"kuzuki:down": {"kuzuki": [1, 0]},
                               "kuzuki:right": {"kuzuki": [0, 1]},
                               "caster:down": {"caster": [1, 0]},
                               "caster:right": {"caster": [0, 1]}}
    assert list(d.options) == list(d.info["lands"])


def test_every_landing_named_is_where_the_characters_land() -> None:
    for seed in range(6):
        g = board.new_game(players=4, seed=seed)
        pick = random.Random(seed)
        checked = 0
        while not g.over:
            (seat, d), = g.pending().items()
            choice = pick.choice(d.options)
            g.submit(seat, choice)
            if d.kind in ("move", "dash") and choice in d.info["lands"]:
                for cid, area in d.info["lands"][choice].items():
                    assert list(g.chars[cid].pos) == area or not g.chars[cid].alive
                checked += 1
        assert checked
