"""The PettingZoo door: PettingZoo's own test suites, determinism, masks, illegal actions."""

import pytest

pytest.importorskip("numpy")   # the rl extra
pytest.importorskip("pettingzoo")   # the rl extra

import random

import numpy as np
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from fuyuki.adapters.encoding import NOOP
from fuyuki.adapters.pettingzoo import env, parallel_env
from fuyuki.core.errors import IllegalAction

# PettingZoo warns "Observation is not a NumPy array" for every Dict observation of an env
# not on its own list of classic games; the Dict(observation, action_mask) is what the issue
# asks for, so that warning is expected.
pytestmark = pytest.mark.filterwarnings("ignore:Observation")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_parallel_api_test(players):
    parallel_api_test(parallel_env(players=players, seed=players), num_cycles=1000)


def test_parallel_seed_test():
    parallel_seed_test(lambda: parallel_env(players=4))


@pytest.mark.parametrize("players", [3, 5])
def test_api_test_on_parallel_to_aec(players):
    api_test(parallel_to_aec(parallel_env(players=players, seed=1)), num_cycles=1000)


def test_seed_test_on_aec_env():
    seed_test(lambda: env(players=4))


def _play(e, seed, rng_seed):
    """A whole game with masked random actions; every observation and reward."""
    rng = random.Random(rng_seed)
    obs, _ = e.reset(seed=seed)
    trace = []
    while e.agents:
        actions = {a: rng.choice(np.flatnonzero(o["action_mask"]).tolist())
                   for a, o in obs.items()}
        obs, rew, term, trunc, info = e.step(actions)
        trace.append((actions, {a: o["observation"].tobytes() for a, o in obs.items()},
                      rew, term))
    return trace, e.game.result


def test_reset_seed_fully_determines_the_game():
    a, b = parallel_env(players=4), parallel_env(players=4, seed=99)
    ta, ra = _play(a, 7, 1)
    tb, rb = _play(b, 7, 1)
    assert ta == tb and ra == rb
    tc, _ = _play(b, 8, 1)
    assert tc != ta


def test_every_step_is_a_decision_point_and_pending_seats_act_together():
    e = parallel_env(players=4, seed=3)
    obs, _ = e.reset()
    saw_several = False
    while e.agents:
        pending = e.game.pending()
        assert pending, "a step is only ever offered at a decision point"
        saw_several |= len(pending) > 1
        for a, o in obs.items():
            seat = int(a.split("_")[1])
            if seat not in pending:
                assert o["action_mask"].tolist() == [1] + [0] * (len(o["action_mask"]) - 1)
            else:
                assert o["action_mask"][NOOP] == 0
                assert o["action_mask"].sum() == len(set(pending[seat].options))
        actions = {a: int(np.flatnonzero(o["action_mask"])[-1]) for a, o in obs.items()}
        obs, *_ = e.step(actions)
    assert saw_several   # the sealed bids


def test_rewards_go_to_the_winners_at_the_end():
    e = parallel_env(players=3, seed=5)
    obs, _ = e.reset()
    total = {a: 0.0 for a in e.possible_agents}
    while e.agents:
        actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
        obs, rew, term, trunc, info = e.step(actions)
        for a, r in rew.items():
            total[a] += r
    winners = e.game.result["winners"]
    assert sum(total.values()) == pytest.approx(1.0)
    for a, r in total.items():
        assert r == pytest.approx(1 / len(winners) if int(a[-1]) in winners else 0.0)


def test_illegal_action_falls_back_to_the_first_option_and_is_flagged():
    e = parallel_env(players=4, seed=2)
    obs, _ = e.reset()
    agent, o = next((a, o) for a, o in obs.items() if o["action_mask"][NOOP] == 0)
    d = e.game.pending()[int(agent[-1])]
    _, _, _, _, info = e.step({agent: NOOP})
    assert info[agent]["illegal_action"] is True
    assert e.game.record.submissions[-1] == (int(agent[-1]), d.options[0])


def test_illegal_action_raises_when_asked():
    e = parallel_env(players=4, seed=2, on_illegal="raise")
    obs, _ = e.reset()
    agent = next(a for a, o in obs.items() if o["action_mask"][NOOP] == 0)
    with pytest.raises(IllegalAction):
        e.step({agent: NOOP})


def test_spaces_are_memoised_and_observations_inside_them():
    e = parallel_env(players=5, seed=4)
    obs, _ = e.reset()
    for a in e.possible_agents:
        assert e.observation_space(a) is e.observation_space(a)
        assert e.action_space(a) is e.action_space(a)
    while e.agents:
        for a, o in obs.items():
            assert e.observation_space(a).contains(o)
        actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
        obs, *_ = e.step(actions)


def test_bad_player_count_is_a_clear_error():
    with pytest.raises(IllegalAction):
        parallel_env(players=9)


def test_max_steps_truncates():
    e = parallel_env(players=4, seed=1, max_steps=3)
    obs, _ = e.reset()
    for _ in range(3):
        actions = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()}
        obs, rew, term, trunc, info = e.step(actions)
    assert all(trunc.values()) and not any(term.values()) and e.agents == []
