"""One result shape for every engine (fuyuki.core.outcome, docs/records.md)."""

from __future__ import annotations

import random

import pytest

from fuyuki.core.errors import DataError
from fuyuki.core.outcome import check_result, outcome


def _random_play(game, seed: int) -> None:
    rng = random.Random(seed)
    while not game.over:
        for seat, d in game.pending().items():
            game.submit(seat, rng.choice(d.options))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_servant_big_battle_results_have_the_shared_shape(seed):
    from fuyuki.sbb import new_game

    g = new_game(4, seed)
    _random_play(g, seed)
    check_result(g.result, 4)


@pytest.mark.parametrize("players,seed", [(2, 1), (4, 2), (5, 3)])
def test_board_results_have_the_shared_shape_and_rank_the_last_out_first(players, seed):
    from fuyuki.board import new_game
    from fuyuki.board.agents import make_bot

    g = new_game(players, seed)
    bots = [make_bot("heuristic", seed, s) for s in range(players)]
    while not g.over:
        for seat, d in g.pending().items():
            g.submit(seat, bots[seat].choose(g.view(seat), d))
    r = check_result(g.result, players)
    assert r["winners"] == ([r["winner"]] if r["winner"] is not None else [])
    gone = [e.data["seat"] for e in g.events if e.kind == "camp_out"]
    assert [p[0] for p in r["ranking"][-len(gone):]] == gone[::-1]


@pytest.mark.parametrize("seed", [1, 2])
def test_rpg_war_results_have_the_shared_shape(seed):
    from fuyuki.rpg.agents.simple import SimpleAgent
    from fuyuki.rpg.roster import load_roster
    from fuyuki.rpg.rules import default_rules
    from fuyuki.rpg.war import War

    rules = default_rules()
    w = War(load_roster(None, rules), rules, seed)
    agents = [SimpleAgent(seed, i) for i in range(len(w.pairs))]
    while not w.over:
        for seat, d in w.pending().items():
            w.submit(seat, agents[seat].choose(w.view(seat), d))
    r = check_result(w.result, len(w.pairs))
    assert sorted(r["winners"]) == sorted(p.seat for p in w.pairs if p.alive) or not r["winners"]


@pytest.mark.parametrize("change,key", [
    ({"winners": [7]}, "winners"), ({"draw": True}, "draw"), ({"reason": ""}, "reason"),
    ({"ranking": [[0], [1]]}, "ranking"), ({"ranking": [[1], [0, 2]]}, "ranking"),
    ({"rounds": -1}, "rounds"), ({"ranking": [[0], [], [1, 2]]}, "ranking"),
])
def test_a_result_out_of_shape_is_refused_naming_the_key(change, key):
    good = outcome([0], "last", [[0], [1, 2]], 3)
    assert check_result(good, 3) is good
    with pytest.raises(DataError) as e:
        check_result({**good, **change}, 3)
    assert key in str(e.value)
    bad = dict(good)
    del bad["reason"]
    with pytest.raises(DataError):
        check_result(bad, 3)
