"""PettingZoo conformance for every game x player count: api_test, seed_test, rewards, errors."""

from __future__ import annotations

import types
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import tabletop_zoo
from tabletop_zoo import registry
from tabletop_zoo.agents import RandomAgent
from tabletop_zoo.kernels._common.contract import contract_problems


def test_kernel_honours_contract(game_id):
    assert contract_problems(registry.kernel(game_id)) == []


@pytest.mark.parametrize("depth", [-1, 2.5, True, "40"])
def test_a_bad_rollout_depth_breaks_the_contract(depth):
    fr = registry.kernel("french_revolution_1789")
    kernel = types.ModuleType("bad_kernel")
    kernel.__dict__.update({k: v for k, v in vars(fr).items() if not k.startswith("__")}, ROLLOUT_DEPTH=depth)
    assert contract_problems(kernel) == [f"ROLLOUT_DEPTH must be an int >= 0, got {depth!r}"]


@pytest.mark.parametrize("target", [0, 3e5, True, "300000"])
def test_a_bad_throughput_target_breaks_the_contract(target):
    imperial = registry.kernel("imperial")
    kernel = types.ModuleType("bad_kernel")
    kernel.__dict__.update({k: v for k, v in vars(imperial).items() if not k.startswith("__")})
    kernel.DECISIONS_PER_S_TARGET = target
    assert contract_problems(kernel) == [f"DECISIONS_PER_S_TARGET must be an int >= 1, got {target!r}"]


def test_pettingzoo_api_test(game_n):
    game, n = game_n
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(tabletop_zoo.make_env(game, num_players=n, render_mode="ansi"), num_cycles=300)


def test_pettingzoo_seed_test(game_n):
    game, n = game_n
    seed_test(lambda: tabletop_zoo.make_env(game, num_players=n), num_cycles=300)


def test_pettingzoo_registry_make(game_id):
    pettingzoo = pytest.importorskip("pettingzoo")
    if not hasattr(pettingzoo, "register"):
        pytest.skip("this PettingZoo has no registry")
    env = pettingzoo.make("aec", f"tabletop_zoo/{game_id}-v0")
    env.reset(seed=1)
    assert env.agent_selection in env.possible_agents


def test_spaces_fixed_across_player_counts(game_id):
    """One policy serves every player count: identical spaces (USERS #9)."""
    shapes = {
        (
            tabletop_zoo.make_env(game_id, num_players=n).observation_space("player_0")["observation"].shape,
            tabletop_zoo.make_env(game_id, num_players=n).action_space("player_0").n,
        )
        for n in registry.player_counts(game_id)
    }
    assert len(shapes) == 1


def _play(env, seed, agent_seed=0):
    env.reset(seed=seed)
    agent = RandomAgent(agent_seed)
    totals = {}
    for name in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            totals[name] = (reward, info["score"])
            env.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any(), "the seat to move must have a legal action"
        assert np.array_equal(info["action_mask"], mask)
        others = [a for a in env.agents if a != name]
        assert not any(env.observe(a)["action_mask"].any() for a in others), "only the mover has legal actions"
        env.step(agent.act(obs["observation"], mask))
    return totals


def test_terminal_rewards_match_kernel_returns(game_n):
    game, n = game_n
    env = tabletop_zoo.make_env(game, num_players=n)
    k = registry.kernel(game)
    for seed in range(3):
        totals = _play(env, seed)
        assert set(totals) == set(env.possible_agents)
        # replay the same game on the kernel: the env's cumulative rewards are the kernel's returns
        final = env.get_state()
        ret = np.zeros(k.MAX_PLAYERS)
        k.returns(final, ret)
        score = np.zeros(k.MAX_PLAYERS, np.int64)
        k.scores(final, score)
        for i, a in enumerate(env.possible_agents):
            assert totals[a] == (pytest.approx(ret[i]), score[i])
        assert sum(r for r, _ in totals.values()) == pytest.approx(1.0)  # the win is shared, never lost


# --- bad input gets a clear error -------------------------------------------------------------
def test_unknown_game_id():
    with pytest.raises(ValueError, match="unknown game 'chess'.*available games"):
        tabletop_zoo.make_env("chess")


def test_player_count_out_of_range(game_id):
    k = registry.kernel(game_id)
    for n in (k.MIN_PLAYERS - 1, k.MAX_PLAYERS + 1):
        with pytest.raises(ValueError, match=f"{k.MIN_PLAYERS} to {k.MAX_PLAYERS} players, got {n}"):
            tabletop_zoo.make_env(game_id, num_players=n)
    with pytest.raises(TypeError, match="num_players must be an int"):
        tabletop_zoo.make_env(game_id, num_players=3.5)


@pytest.mark.parametrize("seed", [1.5, "7", 2.0, True])
def test_non_integer_seed(game_id, seed):
    env = tabletop_zoo.make_env(game_id)
    with pytest.raises(TypeError, match="seed must be an int"):
        env.reset(seed=seed)


def test_negative_seed(game_id):
    with pytest.raises(ValueError, match="seed must be an int in"):
        tabletop_zoo.make_env(game_id).reset(seed=-1)


def test_unknown_option(game_id):
    with pytest.raises(ValueError, match="unknown option"):
        tabletop_zoo.make_env(game_id, colour_blind=True)


def test_step_before_reset(game_id):
    with pytest.raises(RuntimeError, match="reset"):
        tabletop_zoo.make_env(game_id).step(0)


def test_illegal_and_out_of_range_actions(game_id):
    env = tabletop_zoo.make_env(game_id)
    env.reset(seed=0)
    mask = env.action_mask()
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.get_state().tobytes()
    with pytest.raises(ValueError, match=rf"illegal action {illegal} .*legal now: \["):
        env.step(illegal)
    with pytest.raises(ValueError, match="out of range"):
        env.step(env.action_space(env.agent_selection).n)
    with pytest.raises(ValueError, match="out of range"):
        env.step(-1)
    with pytest.raises(TypeError, match="action must be an int"):
        env.step(1.0)
    with pytest.raises(ValueError, match="must choose an action"):
        env.step(None)
    assert env.get_state().tobytes() == before, "a rejected action must not change the game"
    env.step(np.int64(np.flatnonzero(mask)[0]))  # numpy integers are fine


def test_illegal_action_penalize(game_id):
    env = tabletop_zoo.make_env(game_id, illegal_action="penalize")
    env.reset(seed=0)
    offender = env.agent_selection
    env.step(int(np.flatnonzero(env.action_mask() == 0)[0]))
    assert all(env.terminations.values())
    assert env._cumulative_rewards[offender] == -1.0
    assert env.infos[offender]["illegal_move"] is True
    assert all(env._cumulative_rewards[a] == 0.0 for a in env.agents if a != offender)


def test_stepping_a_finished_game(game_id):
    env = tabletop_zoo.make_env(game_id)
    _play(env, seed=5)
    assert env.agents == []
    with pytest.raises(RuntimeError, match="game is over"):
        env.step(0)


def test_dead_agent_must_pass_none(game_id):
    env = tabletop_zoo.make_env(game_id, illegal_action="penalize")
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_mask() == 0)[0]))
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)


def test_bad_render_mode(game_id):
    with pytest.raises(ValueError, match="render_mode"):
        tabletop_zoo.make_env(game_id, render_mode="human-in-the-loop")


def test_ansi_render(game_id):
    env = tabletop_zoo.make_env(game_id, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "player_0" in text


@pytest.mark.parametrize("game, option", [("kremlin", {"turn_limit": 1}), ("imperial", {"max_nation_turns": 3})])
def test_a_turn_cap_is_reported_as_truncation(game, option):
    """KRM-END-3 / IMP-END-2: a game stopped by its turn cap ends with truncations, not terminations."""
    env = tabletop_zoo.make_env(game, **option)
    truncated = 0
    for seed in range(4):
        env.reset(seed=seed)
        agent = RandomAgent(seed)
        for name in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                assert term != trunc
                truncated += trunc
                env.step(None)
            else:
                env.step(agent.act(obs["observation"], obs["action_mask"]))
    assert truncated > 0
