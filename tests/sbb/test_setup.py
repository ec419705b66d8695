"""§3 setup (final edition): decks, drafts, lands, opening hands."""

from fuyuki.sbb import new_game
from fuyuki.sbb.agents.random_bot import RandomBot


def _draft(game):
    bot = RandomBot(1)
    picks = []
    while game.s.phase.startswith("draft") or game.s.phase == "setup":
        (seat, d), = game.pending().items()
        picks.append((d.kind, seat, len(d.options)))
        game.submit(seat, bot.choose(None, d))
    return picks


def test_master_draft_from_parent_passes_left_six_cards():
    g = new_game(4, seed=5)
    parent = g.s.parent
    picks = [p for p in _draft(g) if p[0] == "draft_master"]
    assert [seat for _, seat, _ in picks] == [(parent + i) % 4 for i in range(4)]
    assert [size for *_, size in picks] == [6, 5, 4, 3]


def test_servant_draft_from_parents_right_passes_right():
    g = new_game(5, seed=6)
    parent = g.s.parent
    picks = [p for p in _draft(g) if p[0] == "draft_servant"]
    assert [seat for _, seat, _ in picks] == [(parent - 1 - i) % 5 for i in range(5)]
    assert [size for *_, size in picks] == [6, 5, 4, 3, 2]


def test_draft_leftovers_return_to_decks():
    g = new_game(4, seed=7)
    _draft(g)
    s = g.s
    assert len(s.mdeck) + 4 == 10
    assert len(s.sdeck) + 4 == 10
    assert len(set(s.master)) == 4 and len(set(s.servant)) == 4


def test_draft_pick_is_private_and_seen_cards_remembered():
    g = new_game(4, seed=8)
    (seat, d), = g.pending().items()
    pack = set(d.options)
    g.submit(seat, d.options[0])
    assert set(g.view(seat)["me"]["seen"]) == pack
    other = (seat + 2) % 4   # the pack has not reached this seat yet
    assert g.view(other)["me"]["seen"] == []
    kept = [e for e in g.events if e.kind == "draft_kept"]
    assert kept and all(e.to == (e.data["seat"],) for e in kept)


def test_opening_hand_three_cards_and_deck_size():
    g = new_game(4, seed=9)
    _draft(g)
    assert all(len(h) == 3 for h in g.s.hand)
    assert len(g.s.adeck) == 53 - 12


def test_three_players_remove_one_colour():
    g = new_game(3, seed=10)
    assert len(g.s.lands) == 4
    removed = [e.data["land"] for e in g.events if e.kind == "land_removed"]
    lands = g.t.names_of(g.s.lands)
    assert len(removed) == 1 and removed[0] not in lands
    colours = {g.rules.cards.lands[l].colour for l in lands}
    assert all(c.split("-")[0] in colours for c in g.t.names_of(g.s.adeck) if "-" in c)
    assert len(g.s.adeck) == 40 + 3


def test_parent_places_one_per_land_then_extra():
    g = new_game(4, seed=11)
    _draft(g)
    (seat, d), = g.pending().items()
    assert d.kind == "place_gem" and seat == g.s.parent
    assert g.s.gems_on == [1] * 5 and g.s.pool == 50 - 5
    g.submit(seat, "church")
    assert g.s.gems_on == [1, 1, 1, 2, 1] and g.s.pool == 44


def test_three_players_place_one_gem_fewer():
    g = new_game(3, seed=12)
    _draft(g)
    (seat, d), = g.pending().items()
    g.submit(seat, d.options[0])
    assert sum(g.s.gems_on) == 5
