"""The adapters play every edition and the modes, not only the default game."""

import pytest

pytest.importorskip("numpy")   # the rl extra
pytest.importorskip("pettingzoo")   # the rl extra
pytest.importorskip("pyspiel")   # the rl extra

import random

import numpy as np
import pyspiel
import fuyuki.adapters.openspiel as sbb_os
from fuyuki.adapters.pettingzoo import parallel_env


@pytest.mark.parametrize("edition,mode", [("v1.0", "standard"), ("v1.1", "ubw"),
                                          ("final", "hollow"), ("final", "fate")])
def test_random_sim_test_in_other_editions_and_modes(edition, mode):
    game = pyspiel.load_game(sbb_os.SIM_NAME, {"players": 3, "edition": edition, "mode": mode})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("edition,mode", [("v1.0", "hf"), ("final", "hollow")])
def test_resample_keeps_the_information_state_in_other_editions_and_modes(edition, mode):
    game = pyspiel.load_game(sbb_os.SEQ_NAME, {"players": 4, "edition": edition, "mode": mode})
    rng = random.Random(0)
    for k in range(2):
        state = game.new_initial_state()
        state.apply_action(k)
        while not state.is_terminal():
            p = state.current_player()
            world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0., 1.))
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.legal_actions() == state.legal_actions()
            state.apply_action(rng.choice(state.legal_actions()))


def test_pettingzoo_env_in_an_edition_without_a_gem_victory():
    e = parallel_env(players=3, edition="v1.1")
    obs, _ = e.reset(seed=2)
    while e.agents:
        for a, o in obs.items():
            assert e.observation_space(a).contains(o)
        obs, *_ = e.step({a: int(np.flatnonzero(o["action_mask"])[-1]) for a, o in obs.items()})
    assert e.game.over
