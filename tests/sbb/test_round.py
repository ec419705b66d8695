"""§4 and §5 clauses that need a whole game rather than one judged round."""

import pytest

from fuyuki.core.errors import IllegalAction
from fuyuki.sbb import new_game
from tests.sbb.conftest import play_out


def _to_bids(g):
    while True:
        p = g.pending()
        if p and all(d.kind == "bid" for d in p.values()):
            return p
        for seat, d in p.items():
            g.submit(seat, d.options[0])


def test_bids_are_simultaneous_every_player_with_cards():
    g = new_game(4, seed=1)
    p = _to_bids(g)
    assert set(p) == {0, 1, 2, 3}
    seat = 0
    g.submit(seat, p[seat].options[0])
    assert seat not in g.pending()
    # nobody else can see the locked bid, only that it is locked
    v = g.view(1)
    assert v["seats"][0]["locked"] is True and v["seats"][0]["bid"] is None


def test_illegal_submission_changes_nothing():
    g = new_game(4, seed=2)
    p = _to_bids(g)
    before = g.view(0)
    with pytest.raises(IllegalAction) as exc:
        g.submit(0, "no-such-card")
    assert exc.value.code == "not_an_option"
    for seat in (9, -1, "0", None, 0.0, True):  # compiled too: never a TypeError
        with pytest.raises(IllegalAction) as exc:
            g.submit(seat, p[0].options[0])
        assert exc.value.code == "no_such_seat", seat
    assert g.view(0) == before
    g.submit(0, p[0].options[0])
    with pytest.raises(IllegalAction) as exc:
        g.submit(0, p[0].options[0])
    assert exc.value.code in ("already_submitted", "not_your_turn")


def test_pool_empty_at_placement_ends_with_most_gems():
    from fuyuki.sbb.steps import STEPS
    g = new_game(4, seed=4)
    _to_bids(g)
    g.s.asking, g.s.answers, g.s.cont = {}, {}, ()
    g.s.pool = 0
    g.s.gems = [3, 7, 7, 1]
    STEPS["round_start"](g)
    assert g.over and g.result["reason"] == "pool_empty" and g.result["winners"] == [1, 2]
    assert g.result["draw"] is True


def test_action_deck_reshuffles_discard():
    g = new_game(4, seed=5)
    _to_bids(g)
    s = g.s
    s.adisc.extend(s.adeck)
    s.adeck.clear()
    size = len(s.adisc)
    assert g.draw_action(0)
    assert len(s.adeck) == size - 1 and not s.adisc
    assert any(e.kind == "reshuffle" for e in g.events)


def test_round_cap_ends_as_draw_among_leaders():
    from fuyuki.sbb.steps import STEPS
    g = new_game(4, seed=6)
    _to_bids(g)
    g.s.asking = {}
    g.s.round = g.rules.round_cap
    g.s.gems = [4, 4, 2, 1]
    STEPS["round_start"](g)
    assert g.over and g.result["reason"] == "round_cap" and g.result["winners"] == [0, 1]


def test_bid_cards_go_to_discard_after_round():
    g = new_game(4, seed=7)
    p = _to_bids(g)
    bids = {seat: d.options[0] for seat, d in p.items()}
    g.pause_at_round_end = True
    for seat, c in bids.items():
        g.submit(seat, c)
    while g.pending():
        for seat, d in g.pending().items():
            g.submit(seat, d.options[-1] if d.kind == "luck" else d.options[0])
    for c in bids.values():
        assert g.t.ids[c] in g.s.adisc


def test_luck_offered_to_every_player_at_once():
    """§5.1: so that nobody learns who holds 強運, every seat gets the offer."""
    for seed in range(200):
        g = new_game(4, seed=seed)
        while not g.over:
            p = g.pending()
            if any(d.kind == "luck" for d in p.values()):
                assert set(p) == {0, 1, 2, 3}
                holders = [s for s, d in p.items() if "use" in d.options]
                assert all(g.holds_luck(s) for s in holders)
                return
            for seat, d in p.items():
                g.submit(seat, d.options[0])
    pytest.fail("no luck offer in 200 games")


def test_luck_not_offered_while_face_up_in_discard():
    g = new_game(4, seed=8)
    _to_bids(g)
    s = g.s
    luck = g.t.ids["luck"]
    for pile in (s.adeck, *s.hand):
        if luck in pile:
            pile.remove(luck)
    s.adisc.append(luck)
    assert not g.luck_possible()


def test_same_seed_same_submissions_identical_events():
    a = play_out(new_game(4, seed=42), rng_seed=3)
    b = new_game(4, seed=42)
    for seat, choice in a.record.submissions:
        b.submit(seat, choice)
    assert b.over
    assert [(e.kind, e.data, e.to) for e in a.events] == [(e.kind, e.data, e.to) for e in b.events]


def test_record_json_roundtrip_replays(tmp_path):
    from fuyuki.cli.files import sbb_save
    a = play_out(new_game(5, seed=43), rng_seed=4)
    a.record.save(tmp_path / "g.json")
    b = sbb_save(tmp_path / "g.json")
    assert b.result == a.result and len(b.events) == len(a.events)


def test_clone_is_independent():
    g = new_game(4, seed=44)
    p = _to_bids(g)
    c = g.clone()
    for seat, d in p.items():
        c.submit(seat, d.options[0])
    assert g.pending() == p and g.s.round == 1
    play_out(c)
    assert not g.over
