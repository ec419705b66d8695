"""The engine state (fuyuki.sbb.state): its clone and its event log."""

from __future__ import annotations

import random

from fuyuki.core.events import Event, logged_get
from fuyuki.sbb import new_game
from fuyuki.sbb.agents import make_bot, play_out
from fuyuki.sbb.state import SLOTS

SHARED = {"orders", "_rng"}   # orders: never changed; the stream: copied when first drawn


def _mid_game():
    g = new_game(4, 7)
    bots = [make_bot("random", k) for k in range(4)]
    while g.s.round < 2:   # into the second round: hands, decks, discards and a log to copy
        for seat, d in g.pending().items():
            g.submit(seat, bots[seat].choose(None, d))
    assert not g.over
    return g


def test_a_clone_copies_every_slot_of_the_state():
    s = _mid_game().s
    c = s.clone()
    for name in SLOTS:
        a, b = getattr(s, name), getattr(c, name)
        if name == "_rng_shared":
            assert a is b is True
            continue
        assert a == b, name
        if isinstance(a, (list, dict)) and name not in SHARED:
            assert a is not b, f"{name} is shared with the clone"
    c.hand[0].append(99)
    assert s.hand[0] != c.hand[0]


def test_the_event_log_is_made_into_events_once_and_on_demand():
    g = _mid_game()
    s = g.s
    assert s._events == []                     # nothing read yet: no Event made
    events = g.events
    assert len(events) == len(s.log) and all(isinstance(e, Event) for e in events)
    assert g.events[0] is events[0]            # the same objects at every read
    for e, logged in zip(events, s.log):
        assert e.kind == logged[0]
        for key in e.data:
            assert logged_get(logged, key) == e.data[key]
    before = len(events)
    play_out(g, [make_bot("random", k) for k in range(4)])
    assert len(g.events) == len(s.log) > before   # the rest made when read again
    assert g.events[0] is events[0]


def test_an_event_log_set_from_events_reads_back_the_same():
    s = _mid_game().s
    mine = [Event("a", {"x": 1}), Event("b", {"y": 2}, (1,))]
    s.events = mine
    assert s.events == mine and [logged_get(e, k) for e, k in zip(s.log, "xy")] == [1, 2]
    assert len(s.clone().events) == 2


def test_a_clone_and_its_original_draw_the_same_numbers_independently():
    s = _mid_game().s
    ref = s.clone().rng.getstate()
    clones = [s.clone() for _ in range(3)]
    first = [c.rng.random() for c in clones[:2]]      # clones draw first ...
    assert first[0] == first[1]
    assert s.rng.getstate() == ref                      # ... the original has not moved
    mine = s.rng.random()
    assert mine == first[0]
    assert clones[2].rng.random() == mine               # nor has the third clone
    s.rng = random.Random(5)                             # a stream set is the state's own
    assert not s._rng_shared


def test_an_answer_to_one_seat_leaves_a_clone_asked_as_it_was():
    """The answer to a question asked of one seat takes its decision's place in the state's
    own asking dict (Game._answer): a clone made before it still has the decision open, and
    answering there gives the same game as answering in the original."""
    g = new_game(4, 7)
    while len(g.pending()) != 1:   # the master draft: one seat asked at a time
        for seat, d in g.pending().items():
            g.submit(seat, d.options[0])
    ((seat, d),) = g.pending().items()
    c = g.clone()
    g.submit(seat, d.options[-1])
    assert c.pending() == {seat: d} and c.s.asking[seat] is d
    c.submit(seat, d.options[-1])
    assert c.view(None) == g.view(None) and c.record.submissions == g.record.submissions


def test_the_first_answer_of_several_seats_makes_the_answers_dict_of_that_state():
    """A question to several seats (the bids): the answers are the state's own from the first
    one — a clone's answers are not the original's, nor the shared empty dict."""
    from fuyuki.sbb.game import NOBODY

    g = new_game(4, 7)
    while len(g.pending()) < 2:
        for seat, d in g.pending().items():
            g.submit(seat, d.options[0])
    assert g.s.answers is NOBODY
    c = g.clone()
    first = min(g.pending())
    g.submit(first, g.pending()[first].options[0])
    assert g.s.answers == {first: g.s.answers[first]} and NOBODY == {}
    assert c.s.answers == {} and first in c.pending()
