"""Observations never depend on another seat's hidden cards.

For many positions of random games, each seat's observation (encoding tensor and mask,
PettingZoo observation, OpenSpiel observation and information-state strings and tensors) is
computed in the real game and in a copy where everything that seat may not see is
scrambled: the other seats' hands, face-down masters and servants, sealed bids, draft
memories and open decisions, the three decks' content and order, the random stream, and
the data of every event private to other seats. They must be equal.
And a change to the seat's own hand must show (so the test can fail)."""

import pytest

pytest.importorskip("numpy")   # the rl extra
pytest.importorskip("pettingzoo")   # the rl extra
pytest.importorskip("pyspiel")   # the rl extra

import random

import numpy as np
import pyspiel
import fuyuki.adapters.openspiel as sbb_os
from fuyuki import sbb
from fuyuki.adapters.encoding import Encoding
from fuyuki.adapters.pettingzoo import parallel_env
from fuyuki.core.events import Event
from fuyuki.core.protocol import Decision
from fuyuki.sbb.sampling import redeal_hidden


def scramble(game, seat, rng):
    """A copy of ``game`` with every card ``seat`` cannot see moved at random."""
    w = game.clone()
    s = w.s
    redeal_hidden(s, seat, rng)
    others = [q for q in range(s.n) if q != seat]
    for q in others:
        s.seen[q] = rng.sample(s.seen[q], len(s.seen[q]))[: max(len(s.seen[q]) - 1, 0)]
        if q in s.answers and s.hand[q]:          # a sealed bid not yet revealed
            s.answers[q] = w.t.names[rng.choice(s.hand[q])]
        if q in s.asking:                         # another seat's open decision
            d = s.asking[q]
            s.asking[q] = Decision(d.kind, tuple(rng.sample(d.options, len(d.options))), {})
    s.rng = random.Random(rng.random())
    s.events = [e if e.to is None or seat in e.to else Event(e.kind, {"x": rng.random()}, e.to)
                for e in s.events]
    return w


def positions(players, games, every=3):
    for k in range(games):
        g = sbb.new_game(players, 100 + k)
        rng = random.Random(k)
        step = 0
        while not g.over:
            for seat, d in list(g.pending().items()):
                if step % every == 0:
                    yield g, seat
                g.submit(seat, rng.choice(d.options))
                step += 1
                if g.over:
                    break


@pytest.mark.parametrize("players", [3, 4, 5])
def test_observations_ignore_other_seats_hidden_cards(players):
    enc = Encoding(sbb.Rules.preset())
    penv = parallel_env(players=players)
    penv.reset(seed=0)
    osgame = pyspiel.load_game(sbb_os.SEQ_NAME, {"players": players})
    rng = random.Random(players)
    checked = changed = 0
    for g, _seat in positions(players, 4):
        for p in range(players):
            w = scramble(g, p, rng)
            changed += w.s.hand != g.s.hand or w.s.adeck != g.s.adeck
            d, dw = g.pending().get(p), w.pending().get(p)
            assert np.array_equal(enc.observe(g.view(p)), enc.observe(w.view(p)))
            assert np.array_equal(enc.mask(p, players, d), enc.mask(p, players, dw))
            penv.game = g
            a = penv.observe(f"player_{p}")
            penv.game = w
            b = penv.observe(f"player_{p}")
            assert all(np.array_equal(a[k], b[k]) for k in a)
            sa, sb = osgame.new_initial_state(), osgame.new_initial_state()
            sa._e.g, sb._e.g = g, w
            assert sa.information_state_string(p) == sb.information_state_string(p)
            assert sa.observation_string(p) == sb.observation_string(p)
            assert sa.information_state_tensor(p) == sb.information_state_tensor(p)
            assert sa.observation_tensor(p) == sb.observation_tensor(p)
            checked += 1
    assert checked > 50 and changed > checked // 2


def test_the_seat_sees_its_own_hand_change():
    enc = Encoding(sbb.Rules.preset())
    g = sbb.new_game(4, 3)
    rng = random.Random(0)
    while "bid" not in {d.kind for d in g.pending().values()}:
        for seat, d in list(g.pending().items()):
            g.submit(seat, rng.choice(d.options))
    w = g.clone()
    w.s.hand[0], w.s.adeck = w.s.adeck[:len(w.s.hand[0])], w.s.hand[0] + w.s.adeck[len(w.s.hand[0]):]
    assert sorted(w.s.hand[0]) != sorted(g.s.hand[0])
    assert not np.array_equal(enc.observe(g.view(0)), enc.observe(w.view(0)))
    osgame = pyspiel.load_game(sbb_os.SEQ_NAME, {"players": 4})
    sa, sb = osgame.new_initial_state(), osgame.new_initial_state()
    sa._e.g, sb._e.g = g, w
    assert sa.information_state_string(0) != sb.information_state_string(0)
