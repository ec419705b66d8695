"""The compact view door (fuyuki.sbb.view.Seen): what the heuristic bot reads of a seat's view,
built from the state by ``build_seen`` in ``Game.play_bots``. It must be exactly what
``seen_of_view`` reads from ``view(seat)`` — so it never holds more than the view — for every
seat at every decision, and the bots must play the same games from it as from the views."""

from __future__ import annotations

import dataclasses

import pytest

from fuyuki.sbb import new_game
from fuyuki.sbb.agents import make_bot, play_out
from fuyuki.sbb.agents.heuristic import HeuristicBot
from fuyuki.sbb.game import default_rules
from fuyuki.sbb.rules import Rules
from fuyuki.sbb.view import SEEN_FIELDS, build_seen, seen_of_view

PRESETS = [("final", None, (), 4), ("final", None, ("land_modifiers",), 5), ("v1.0", None, (), 3),
           ("v1.1", None, (), 4), ("final", "hf", (), 4), ("final", "ubw", (), 3),
           ("final", "big_battle", (), 7)]


@pytest.mark.parametrize("edition,mode,options,players", PRESETS)
def test_seen_is_what_the_view_shows_for_every_seat_at_every_decision(edition, mode, options,
                                                                      players):
    rules = Rules.preset(edition, mode, options)
    checked = 0
    for seed in range(6):
        g = new_game(players, seed, rules=rules)
        bots = [make_bot("random" if (seat + seed) % 2 else "heuristic", seed * 10 + seat, rules)
                for seat in range(players)]
        while not g.over:
            for seat in range(players):
                seen = build_seen(g, seat)
                assert seen == seen_of_view(g.view(seat)), (seed, seat, g.s.phase)
                # its ints are the same cards, numbered by the game's card table
                names = g.t.names
                assert seen.table is g.t
                assert [names[c] for c in seen.hand_ids] == seen.hand
                assert [names[c] for c in seen.disc_action_ids] == seen.disc_action
                assert [names[c] for c in seen.land_ids] == seen.lands
                checked += 1
            for seat, d in g.pending().items():
                b = bots[seat]
                g.submit(seat, b.choose(g.view(seat) if b.needs_view else None, d))
    assert checked > 100


def test_seen_differs_when_any_field_differs():
    g = new_game(4, 1)
    seen = build_seen(g, 0)
    for name in SEEN_FIELDS:
        other = build_seen(g, 0)
        value = getattr(other, name)
        if isinstance(value, list):
            changed: object = [*value, value[0] if value else 1]
        elif isinstance(value, bool):
            changed = not value
        else:
            changed = value + (1 if isinstance(value, int) else "x")
        setattr(other, name, changed)
        assert other != seen, name


@pytest.mark.parametrize("edition,mode,options,players", PRESETS)
def test_heuristic_bots_play_the_same_games_from_seen_as_from_views(edition, mode, options,
                                                                   players):
    rules = Rules.preset(edition, mode, options)
    for seed in range(40 if mode is None and not options and edition == "final" else 8):
        fast, slow = (new_game(players, seed, rules=rules) for _ in range(2))
        play_out(fast, [make_bot("heuristic", seed * 8 + k, rules)
                        for k in range(players)])                    # Seen (its card ints)
        play_out(slow, [make_bot("heuristic", seed * 8 + k, rules) for k in range(players)],
                 visit=lambda *_: None)                              # views
        assert fast.record.submissions == slow.record.submissions, seed


def test_heuristic_bots_of_another_card_table_play_the_same_games_from_seen():
    # an equal card set that is another object has another card table: the bots read the
    # Seen's names, not the game's ints
    cards = dataclasses.replace(default_rules().cards)
    for seed in range(20):
        games = [new_game(4, seed) for _ in range(3)]
        play_out(games[0], [HeuristicBot(seed * 4 + k, cards=cards) for k in range(4)])
        play_out(games[1], [HeuristicBot(seed * 4 + k) for k in range(4)])
        play_out(games[2], [HeuristicBot(seed * 4 + k) for k in range(4)],
                 visit=lambda *_: None)                                          # views
        assert games[0].record.submissions == games[1].record.submissions \
            == games[2].record.submissions, seed


def test_play_bots_builds_no_seen_for_a_decision_the_heuristic_bot_answers_blind():
    # a single option, or a kind of blind_kinds (the drafts): None instead of a Seen
    from fuyuki.sbb.view import Seen

    class Recording(HeuristicBot):
        def choose(self, view, decision):
            got.append((decision.kind, len(decision.options), view))
            return super().choose(view, decision)

    got: list = []
    for seed in range(10):
        play_out(new_game(4, seed), [Recording(seed * 4 + k) for k in range(4)])
    blind = [(kind, view) for kind, n, view in got if n == 1 or kind in HeuristicBot.blind_kinds]
    read = [(kind, view) for kind, n, view in got
            if n > 1 and kind not in HeuristicBot.blind_kinds]
    assert all(view is None for _, view in blind)
    assert all(type(view) is Seen for _, view in read)
    assert {kind for kind, _ in blind} >= {"draft_master", "draft_servant"}
    assert {kind for kind, _ in read} >= {"bid", "place_gem"}
