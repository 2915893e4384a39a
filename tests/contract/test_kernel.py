"""Kernel-level contract for every game x player count: determinism, mask soundness, chance,
bounded length, conservation, clone / pickle / set_state round trips."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo import registry
from tabletop_zoo.kernels._common.contract import CHANCE, TERMINAL
from tabletop_zoo.kernels._common.masks import sample_legal
from tabletop_zoo.kernels._common.rng import seed_rng

from ..conftest import random_trajectory


def _actions_of_game(k, n, seed, policy_seed):
    actions = []
    rng = np.random.default_rng(policy_seed)
    s = k.new_state(n, seed)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    while not k.is_over(s):
        k.legal_mask(s, mask)
        a = int(rng.choice(np.flatnonzero(mask)))
        actions.append(a)
        k.step(s, a)
    return actions, s


def test_same_seed_same_actions_identical_bytes(game_n):
    game, n = game_n
    k = registry.kernel(game)
    actions, final = _actions_of_game(k, n, seed=11, policy_seed=3)
    s = k.new_state(n, 11)
    for a in actions:
        k.step(s, a)
    assert s.tobytes() == final.tobytes()


def test_seed_changes_the_game(game_n):
    game, n = game_n
    k = registry.kernel(game)
    starts = {k.new_state(n, seed).tobytes() for seed in range(8)}
    assert len(starts) > 1


def _check_invariants(k, s):
    problems = k.check_invariants(s)
    assert problems == [], problems


@pytest.mark.parametrize("games", [6])
def test_mask_soundness_and_conservation(game_n, games):
    """Every masked action steps from fuzzed reachable states; a non-terminal state always has a
    legal action; a terminal state has none; invariants (conservation) hold after every step."""
    game, n = game_n
    k = registry.kernel(game)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    for g in range(games):
        length = 0
        for s, m in random_trajectory(k, n, seed=100 + g, policy_seed=g):
            _check_invariants(k, s)
            if m is None:
                assert k.is_over(s) and k.to_move(s) == TERMINAL
                k.legal_mask(s, mask)
                assert not mask.any(), "a finished game has no legal action"
                break
            assert m.any(), f"non-terminal state without a legal action (phase {s[0]['phase']})"
            assert 0 <= k.to_move(s) < n
            length += 1
            if length % 7 == 0:  # try every legal action from a sample of states
                for a in np.flatnonzero(m):
                    t = s.copy()
                    k.step(t, int(a))
                    _check_invariants(k, t)
        assert length <= k.MAX_GAME_LENGTH


def test_chance_nodes_are_explicit(stochastic_game_n):
    """chance_outcomes sum to 1; stepping with a sampled outcome equals the automatic step."""
    game, n = stochastic_game_n
    k = registry.kernel(game)
    ids = np.zeros(k.NUM_CHANCE_OUTCOMES, np.int64)
    probs = np.zeros(k.NUM_CHANCE_OUTCOMES, np.float64)
    seen = 0
    for s, m in random_trajectory(k, n, seed=7, policy_seed=7):
        if m is None:
            break
        assert k.chance_outcomes(s, ids, probs) == 0  # a decision node is not a chance node
        for a in np.flatnonzero(m):
            manual = s.copy()
            k.step_decision(manual, int(a))
            if not k.is_chance(manual):
                continue
            seen += 1
            assert k.to_move(manual) == CHANCE
            count = k.chance_outcomes(manual, ids, probs)
            assert count >= 1 and np.all(probs[:count] > 0)
            assert probs[:count].sum() == pytest.approx(1.0, abs=1e-12)
            auto = s.copy()
            k.step(auto, int(a))
            while k.is_chance(manual):
                o = k.sample_chance(manual)
                assert o in ids[: k.chance_outcomes(manual, ids, probs)]
                k.step_chance(manual, o)
            assert manual.tobytes() == auto.tobytes()
    assert seen > 0, "a random game should reach chance nodes"


@pytest.mark.slow
def test_long_fuzz(game_n):
    """Many random games (slow): mask soundness, invariants and the length bound."""
    game, n = game_n
    k = registry.kernel(game)
    decisions, finished = k.playouts(n, 20_000, seed=99)
    assert finished == 20_000
    test_mask_soundness_and_conservation(game_n, games=200)


def test_playouts_play_the_games_new_state_sets_up(game_n):
    """playouts' game g is new_state(n, seed + g) played by its policy generator (seeded seed ^ 0x5EED5EED) to
    the end: the same decisions as that game stepped here, one call at a time."""
    game, n = game_n
    k = registry.kernel(game)
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, np.uint64(7 ^ 0x5EED5EED))
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    decisions = 0
    for g in range(2):
        s = k.new_state(n, 7 + g)
        k.legal_mask(s, mask)
        while not k.is_over(s):
            k.step_and_mask(s, sample_legal(mask, rng), mask)
            decisions += 1
    assert k.playouts(n, 2, seed=7) == (decisions, 2)


# --- env round trips -------------------------------------------------------------------------------
def _advance(env, steps, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if not env.agents or env.terminations[env.agent_selection]:
            break
        env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))


def _continue_identically(a, b, steps=40):
    rng = np.random.default_rng(1)
    for _ in range(steps):
        if a.terminations.get(a.agent_selection, True):
            break
        assert a.agent_selection == b.agent_selection
        assert np.array_equal(a.action_mask(), b.action_mask())
        act = int(rng.choice(np.flatnonzero(a.action_mask())))
        a.step(act)
        b.step(act)
        assert a.get_state().tobytes() == b.get_state().tobytes()
        assert a._cumulative_rewards == b._cumulative_rewards


def test_clone_is_independent(game_n):
    game, n = game_n
    env = tabletop_zoo.make_env(game, num_players=n)
    env.reset(seed=3)
    _advance(env, 25)
    before = env.get_state().tobytes()
    obs_before = env.observe(env.agent_selection)["observation"].copy()
    twin = env.clone()
    _advance(twin, 30, seed=9)
    assert twin.get_state().tobytes() != before
    assert env.get_state().tobytes() == before
    assert np.array_equal(env.observe(env.agent_selection)["observation"], obs_before)
    _continue_identically(env, env.clone())


def test_pickle_round_trip_mid_game(game_n):
    game, n = game_n
    env = tabletop_zoo.make_env(game, num_players=n)
    env.reset(seed=4)
    _advance(env, 20)
    copy = pickle.loads(pickle.dumps(env))
    assert copy.get_state().tobytes() == env.get_state().tobytes()
    assert copy.agent_selection == env.agent_selection
    _continue_identically(env, copy)


def test_get_set_state_round_trip_mid_game(game_n):
    game, n = game_n
    env = tabletop_zoo.make_env(game, num_players=n)
    env.reset(seed=5)
    _advance(env, 20)
    saved = env.get_state()
    other = tabletop_zoo.make_env(game, num_players=n)
    other.reset(seed=999)
    other.set_state(saved.tobytes())
    assert other.get_state().tobytes() == saved.tobytes()
    _continue_identically(env, other)


def test_set_state_rejects_foreign_records(game_n):
    game, n = game_n
    env = tabletop_zoo.make_env(game, num_players=n)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="bytes"):
        env.set_state(b"\x00" * 3)
    with pytest.raises(ValueError, match="record"):
        env.set_state(np.zeros(4))
    k = registry.kernel(game)
    other_n = k.MIN_PLAYERS if n != k.MIN_PLAYERS else k.MAX_PLAYERS
    if other_n != n:
        with pytest.raises(ValueError, match=f"{other_n}-player game"):
            env.set_state(k.new_state(other_n, 0))


def test_every_exported_name_exists(game_id):
    """``__all__`` names only what the kernel defines, so ``from tabletop_zoo.kernels.<game> import *`` works."""
    k = registry.kernel(game_id)
    assert [name for name in k.__all__ if not hasattr(k, name)] == []
    namespace: dict = {}
    exec(f"from {k.__name__} import *", namespace)
    assert set(k.__all__) <= set(namespace)
