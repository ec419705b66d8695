"""The fourth game (tests/fourth/engine.py): its rules, and every door of the contract working
for it with nothing but its one file — the registry, the generic simulator, replay."""

from __future__ import annotations

import pytest

from fuyuki.core import contract
from fuyuki.core.errors import DataError
from fuyuki.core.outcome import check_result
from fuyuki.sim import generic
from tests.fourth.engine import GAME, SealedBid


def _bid_all(g: SealedBid, cards: list[int]) -> None:
    for seat, card in enumerate(cards):
        g.submit(seat, card)


def test_the_highest_bid_nobody_matched_takes_the_prize():
    g = SealedBid(1, {"players": 3})
    prize = g.prizes[0]
    cards = [max(h) for h in g.hands]
    _bid_all(g, cards)
    top = max(cards)
    assert g.score[cards.index(top)] == prize and sum(g.score) == prize


def test_a_tie_at_the_top_loses_the_prize():
    g = SealedBid(1, {"players": 2})
    g.hands = [[5, 9], [9, 3]]
    g.submit(0, 9)
    g.submit(1, 9)
    assert g.score == [0, 0]
    assert g.events_for(None)[-2].data == {"bids": [9, 9], "winner": None, "prize": g.prizes[0]}


def test_a_bid_stays_sealed_until_every_seat_has_bid():
    g = SealedBid(2, {"players": 3})
    card = g.hands[0][0]
    g.submit(0, card)
    for role in (1, 2, None):
        assert not any(e.kind in ("bid", "reveal") for e in g.events_for(role))
        assert g.view(role)["locked"] == [0]
    assert g.view(0)["bid"] == card


def test_it_is_registered_from_outside_the_package_and_plays_through_every_door():
    assert GAME in contract.games()
    out = generic.simulate(GAME, {"players": 4}, games=5, seed=3)
    assert out["games"] == 5 and len(out["seats"]) == 4
    g = generic.play_out(contract.start(GAME, 9, {"players": 3}), generic.RandomBot, 9)
    check_result(g.result, 3)
    again = contract.replay(g.record)
    assert [again.view(r) for r in again.roles()] == [g.view(r) for r in g.roles()]


@pytest.mark.parametrize("config, key", [({"players": 5}, "config.players"),
                                         ({"hand": "5"}, "config.hand"),
                                         ({"colour": 1}, "config.colour")])
def test_its_config_is_checked_by_key(config, key):
    with pytest.raises(DataError) as e:
        contract.start(GAME, 1, config, "x.json")
    assert (e.value.file, e.value.key) == ("x.json", key)
