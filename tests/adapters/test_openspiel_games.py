"""The OpenSpiel door: OpenSpiel's own random simulation test, the game's facts,
resampling for ISMCTS."""

import pytest

pytest.importorskip("numpy")   # the rl extra
pytest.importorskip("pyspiel")   # the rl extra

import random

import numpy as np
import pyspiel

import fuyuki.adapters.openspiel as sbb_os


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_sim_test_simultaneous(players):
    game = pyspiel.load_game(sbb_os.SIM_NAME, {"players": players})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [3, 5])
def test_random_sim_test_convert_to_turn_based(players):
    game = pyspiel.convert_to_turn_based(pyspiel.load_game(sbb_os.SIM_NAME,
                                                           {"players": players}))
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_random_sim_test_sequential_variant():
    game = pyspiel.load_game(sbb_os.SEQ_NAME, {"players": 4})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_game_type_and_defaults():
    game = pyspiel.load_game(sbb_os.SIM_NAME)
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (3, 7)   # 7: big_battle
    assert game.num_players() == 4
    assert game.get_parameters()["edition"] == "final"
    assert game.get_parameters()["mode"] == "standard"
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1000


def test_chance_outcome_is_the_seed_and_fixes_the_game():
    game = pyspiel.load_game(sbb_os.SIM_NAME, {"players": 3, "seed": 40})
    a, b = game.new_initial_state(), game.new_initial_state()
    a.apply_action(2)
    b.apply_action(2)
    assert a.engine.record.seed == 42
    assert str(a) == str(b)
    assert a.information_state_string(0) == b.information_state_string(0)


def test_a_seat_with_nothing_to_decide_has_only_the_noop():
    game = pyspiel.load_game(sbb_os.SIM_NAME, {"players": 4})
    state = game.new_initial_state()
    state.apply_action(0)
    pending = state.engine.pending()    # the master draft: one seat at a time
    assert len(pending) == 1
    for p in range(4):
        if p not in pending:
            assert state.legal_actions(p) == [0]
        else:
            assert 0 not in state.legal_actions(p)


def test_returns_share_the_win():
    game = pyspiel.load_game(sbb_os.SIM_NAME, {"players": 3})
    state = game.new_initial_state()
    state.apply_action(1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(3)])
    winners = state.engine.result["winners"]
    assert sum(state.returns()) == pytest.approx(1.0)
    assert [r > 0 for r in state.returns()] == [p in winners for p in range(3)]


def test_information_state_differs_between_seats_and_tensor_has_the_right_size():
    game = pyspiel.load_game(sbb_os.SEQ_NAME, {"players": 4})
    state = game.new_initial_state()
    state.apply_action(3)
    assert state.information_state_string(0) != state.information_state_string(1)
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
    assert len(state.observation_tensor(2)) == game.observation_tensor_size()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_resample_keeps_the_information_state_and_plays_on(players):
    """Every resampled world shows the seat to move the same information state and legal
    actions, and plays to the end; across many games every decision kind is met."""
    game = pyspiel.load_game(sbb_os.SEQ_NAME, {"players": players})
    kinds = set()
    for k in range(6):
        rng = random.Random(k)
        state = game.new_initial_state()
        state.apply_action(k)
        while not state.is_terminal():
            p = state.current_player()
            kinds.add(state.engine.pending()[p].kind)
            world = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0., 1.))
            assert world.current_player() == p
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.observation_tensor(p) == state.observation_tensor(p)
            assert world.legal_actions() == state.legal_actions()
            while not world.is_terminal():
                world.apply_action(rng.choice(world.legal_actions()))
            state.apply_action(rng.choice(state.legal_actions()))
    assert {"draft_master", "draft_servant", "place_gem", "bid"} <= kinds


def test_resample_changes_what_the_seat_cannot_see():
    game = pyspiel.load_game(sbb_os.SEQ_NAME, {"players": 4})
    state = game.new_initial_state()
    state.apply_action(5)
    rng = random.Random(0)
    while state.engine.pending()[state.current_player()].kind != "bid":
        state.apply_action(rng.choice(state.legal_actions()))
    p = state.current_player()
    real = state.engine.s
    others = [q for q in range(4) if q != p]
    changed = 0
    for i in range(10):
        w = sbb_os.resample_world(state.engine, p, random.Random(i)).s
        assert sorted(w.hand[p]) == sorted(real.hand[p]) and w.master[p] == real.master[p]
        changed += any(sorted(w.hand[q]) != sorted(real.hand[q]) for q in others)
    assert changed >= 8


def test_python_ismcts_bot_plays_the_sequential_game():
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(sbb_os.SEQ_NAME, {"players": 3})
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 8, random_state=rs)
    state = game.new_initial_state()
    state.apply_action(0)
    rng = random.Random(0)
    searched = 0
    while not state.is_terminal() and searched < 12:
        if state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            searched += 1
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(int(action))
    assert searched > 0


def test_resample_in_the_middle_of_an_effect():
    """強運, 身代わり and つばめ返し cannot be rebuilt from the view: the world is a copy with the
    hidden cards shuffled; the information state must still be the same."""
    game = pyspiel.load_game(sbb_os.SEQ_NAME, {"players": 4})
    found = 0
    for k in range(200):
        rng = random.Random(k)
        state = game.new_initial_state()
        state.apply_action(k)
        while not state.is_terminal():
            p = state.current_player()
            if state.engine.pending()[p].kind in ("luck", "substitute", "tsubame"):
                for i in range(3):
                    world = state.resample_from_infostate(p, None, rng=random.Random(i))
                    assert world.information_state_string(p) == state.information_state_string(p)
                    assert world.legal_actions() == state.legal_actions()
                    while not world.is_terminal():
                        world.apply_action(rng.choice(world.legal_actions()))
                found += 1
            state.apply_action(rng.choice(state.legal_actions()))
        if found >= 5:
            break
    assert found >= 5
