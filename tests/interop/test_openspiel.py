"""Our games inside OpenSpiel (tabletop_zoo.interop.openspiel): OpenSpiel's own random-simulation test,
its Python MCTSBot, chance nodes, no leaks, clone and serialization."""

from __future__ import annotations

import numpy as np
import pyspiel  # the bench/test extras install open_spiel
import pytest
from open_spiel.python.algorithms import mcts

from tabletop_zoo import registry
from tabletop_zoo.interop import openspiel as osp


def _counts(game_id):
    k = registry.kernel(game_id)
    return sorted({k.MIN_PLAYERS, k.MAX_PLAYERS})


def _decision_state(game, moves: int, seed: int = 0):
    """A state after ``moves`` uniformly random decisions (chance sampled by its probabilities)."""
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    done = 0
    while not state.is_terminal() and (done < moves or state.is_chance_node()):
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            done += 1
    return state


def test_every_game_is_registered():
    names = set(pyspiel.registered_names())
    assert {f"tabletop_zoo_{g}" for g in registry.GAMES} <= names
    assert osp.register() == [osp.short_name(g) for g in sorted(registry.GAMES)]  # idempotent


def test_game_type_and_info_follow_the_kernel(game_id):
    k = registry.kernel(game_id)
    game = osp.load_game(game_id)
    t, env_default = game.get_type(), k.DEFAULT_PLAYERS
    assert game.num_players() == env_default == t.parameter_specification["players"]
    assert (t.min_num_players, t.max_num_players) == (k.MIN_PLAYERS, k.MAX_PLAYERS)
    assert game.num_distinct_actions() == k.NUM_ACTIONS and game.max_game_length() == k.MAX_GAME_LENGTH
    assert game.max_chance_outcomes() == k.NUM_CHANCE_OUTCOMES
    stochastic = k.CHANCE_MODE == "explicit_stochastic"
    assert (t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC) == stochastic
    assert (t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION) == (k.INFORMATION == "imperfect")
    assert game.observation_tensor_shape() == [k.OBS_SIZE] == game.information_state_tensor_shape()
    if game_id == "kremlin":  # the turn-limit truncation has no winner: returns can sum to 0
        assert t.utility == pyspiel.GameType.Utility.GENERAL_SUM
    else:
        assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0


def test_bad_parameters_are_rejected_clearly(game_id):
    k = registry.kernel(game_id)
    with pytest.raises(Exception, match="player"):
        osp.load_game(game_id, k.MAX_PLAYERS + 1)
    with pytest.raises(Exception, match="(?i)unknown parameter"):
        pyspiel.load_game(osp.short_name(game_id), {"colour": "red"})


def test_random_sim_test(game_id):
    """OpenSpiel's RandomSimTest: clone, serialization, legal-action masks, chance probabilities,
    observation and information-state tensors and strings, returns within bounds, game length bound."""
    for n in _counts(game_id):
        game = osp.load_game(game_id, n, seed=n)
        pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_python_mcts_bot_completes_a_move(game_id):
    for n in _counts(game_id):
        game = osp.load_game(game_id, n)
        state = _decision_state(game, 3)
        for evaluator, sims in (
            (osp.TruncatedRolloutEvaluator(5, np.random.RandomState(0)), 20),
            (mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), 3),
        ):
            bot = mcts.MCTSBot(
                game, uct_c=1.0, max_simulations=sims, evaluator=evaluator, random_state=np.random.RandomState(0)
            )
            assert bot.step(state) in state.legal_actions()


def test_states_match_the_kernel(game_id):
    """current player, legal actions, returns and tensors are the kernel's, player by player."""
    k = registry.kernel(game_id)
    game = osp.load_game(game_id)
    state = _decision_state(game, 25, seed=1)
    s = state.record
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, mask)
    assert state.current_player() == k.to_move(s) and state.legal_actions() == np.flatnonzero(mask).tolist()
    view = np.zeros(k.OBS_SIZE, np.float32)
    for p in range(game.num_players()):
        k.observe(s, p, view)
        assert np.array_equal(state.observation_tensor(p), view)
        assert np.array_equal(state.information_state_tensor(p), view)
    assert state.returns() == [0.0] * game.num_players()


def test_chance_nodes_carry_the_kernel_probabilities(game_id):
    k = registry.kernel(game_id)
    game = osp.load_game(game_id)
    if k.CHANCE_MODE == "deterministic":
        assert game.max_chance_outcomes() == 0
        return
    rng = np.random.default_rng(3)
    state, seen = game.new_initial_state(), 0
    while not state.is_terminal() and seen < 5:
        if state.is_chance_node():
            seen += 1
            assert state.current_player() == pyspiel.PlayerId.CHANCE
            outcomes = state.chance_outcomes()
            ids = [a for a, _ in outcomes]
            assert ids == sorted(ids) and sum(p for _, p in outcomes) == pytest.approx(1.0)
            for a, _ in outcomes:  # each outcome is the kernel's step_chance
                child, s = state.child(a), state.record
                k.step_chance(s, a)
                assert child.record.tobytes() == s.tobytes()
            state.apply_action(int(rng.choice(ids, p=[p for _, p in outcomes])))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert seen > 0, "a random game should reach chance nodes"


def test_hidden_information_does_not_leak(game_id):
    """A seat's observation and information state are unchanged when everything it cannot see is
    resampled (determinize), so OpenSpiel players read no secrets through the adapter."""
    k = registry.kernel(game_id)
    if k.INFORMATION != "imperfect":
        return
    game = osp.load_game(game_id)
    state = _decision_state(game, 15, seed=2)
    for p in range(game.num_players()):
        for seed in range(3):
            other = state.record
            k.determinize(other, p, seed)
            a, b = game.state_from_record(state.record), game.state_from_record(other)
            assert np.array_equal(a.observation_tensor(p), b.observation_tensor(p))
            assert a.observation_string(p) == b.observation_string(p)
            assert a.information_state_string(p) == b.information_state_string(p)


def test_clone_serialize_and_illegal_actions(game_id):
    game = osp.load_game(game_id)
    state = _decision_state(game, 10, seed=4)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history() and str(clone) != str(state)
    assert state.record.tobytes() == _decision_state(game, 10, seed=4).record.tobytes()  # untouched
    again_game, again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(again_game) == str(game) and again.record.tobytes() == state.record.tobytes()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(Exception, match="illegal action"):
        state.apply_action(illegal)


HIDDEN_GAMES = [g for g in sorted(registry.GAMES) if registry.kernel(g).INFORMATION == "imperfect"]


def _choice_state(game, moves: int, seed: int):
    """A decision with at least two legal actions, after about ``moves`` random decisions."""
    state = _decision_state(game, moves, seed)
    rng = np.random.default_rng(seed)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            ids, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(ids, p=probs)))
        else:
            state.apply_action(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("hidden_game", HIDDEN_GAMES)
def test_resample_from_infostate_keeps_what_the_player_knows(hidden_game):
    """determinize behind OpenSpiel's API: the same information state and observation for the player,
    other worlds for what it cannot see, and the original state untouched."""
    game = osp.load_game(hidden_game)
    state = _choice_state(game, 30, seed=3)
    player = state.current_player()
    before = state.record.tobytes()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(player, sampler) for _ in range(4)]
    assert state.record.tobytes() == before
    for sample in samples:
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        assert sample.current_player() == player and sample.legal_actions() == state.legal_actions()
    assert len({s.record.tobytes() for s in samples} | {before}) > 1, "nothing hidden was resampled"
    with pytest.raises(ValueError, match="player must be a seat"):
        state.resample_from_infostate(game.num_players(), sampler)


@pytest.mark.parametrize("hidden_game", HIDDEN_GAMES)
def test_ismcts_bot_moves_on_hidden_information_games(hidden_game):
    """OpenSpiel's ISMCTSBot searches our games through resample_from_infostate.

    OpenSpiel's Python bot, not its C++ ``pyspiel.ISMCTSBot``: the C++ bot segfaults inside pyspiel on
    games written in Python (before it calls any method of ours), so it is not offered."""
    from open_spiel.python.algorithms import ismcts

    game = osp.load_game(hidden_game)
    state = _choice_state(game, 20, seed=1)
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 8, random_state=np.random.RandomState(0))
    before = state.record.tobytes()
    assert bot.step(state) in state.legal_actions()
    assert state.record.tobytes() == before, "the search changed the state it was asked about"
