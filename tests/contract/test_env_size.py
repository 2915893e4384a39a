"""An AEC env is its record plus a few KiB: spaces are built once per game class (each env holds shallow copies that
share the bound arrays), and a pickle mid-game holds the record's bytes, the masks and the bookkeeping (not the
spaces). Both budgets hold at every player count (the bookkeeping grows with the seats)."""

from __future__ import annotations

import pickle
import tracemalloc

import numpy as np

import tabletop_zoo
from tabletop_zoo.agents import RandomAgent

ENV_BUDGET = 16 * 1024  # bytes an env may allocate besides its record
PICKLE_BUDGET = 8 * 1024


def _play(env, decisions: int, seed: int = 1) -> None:
    agent = RandomAgent(seed=seed)
    for i, name in enumerate(env.agent_iter()):
        if i == decisions:
            return
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else agent.act(obs["observation"], obs["action_mask"]))


def test_spaces_are_built_once_per_game_and_shared(game_id):
    """The bound arrays come from one template per game class; each env has its own space objects (shared by
    its seats), so seeding or sampling one env's spaces never moves another's."""
    a, b = tabletop_zoo.make_env(game_id), tabletop_zoo.make_env(game_id)
    oa, ob = a.observation_space("player_0"), b.observation_space("player_0")
    assert oa is a.observation_space(a.possible_agents[-1]) and oa is not ob
    assert oa["observation"].low is ob["observation"].low and oa["action_mask"].high is ob["action_mask"].high
    assert a.state_space.low is b.state_space.low
    k = tabletop_zoo.kernel(game_id)
    assert oa["observation"].shape == (k.OBS_SIZE,) and a.action_space("player_0").n == k.NUM_ACTIONS
    a.action_space("player_0").seed(7)
    b.action_space("player_0").seed(7)
    first = [int(a.action_space("player_0").sample()) for _ in range(5)]
    assert [int(b.action_space("player_0").sample()) for _ in range(5)] == first


def test_an_env_costs_at_most_16_kib_besides_its_record(game_n):
    game_id, n = game_n
    warm = tabletop_zoo.make_env(game_id, num_players=n)  # the class's spaces and compiled code exist before measuring
    warm.reset(seed=0)
    warm.last()
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        env = tabletop_zoo.make_env(game_id, num_players=n)
        env.reset(seed=3)
        env.last()  # the mover's observation and mask are part of the cost
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    # not tracemalloc's own bookkeeping (its snapshots allocate too): only what the env made
    own = [tracemalloc.Filter(False, tracemalloc.__file__)]
    cost = sum(stat.size_diff for stat in after.filter_traces(own).compare_to(before.filter_traces(own), "filename"))
    assert cost - env.kernel.STATE.itemsize <= ENV_BUDGET, f"{game_id} {n}p: {cost} bytes"


def test_a_pickled_env_mid_game_is_at_most_8_kib_and_plays_on_identically(game_n):
    game_id, n = game_n
    env = tabletop_zoo.make_env(game_id, num_players=n)
    env.reset(seed=5)
    _play(env, 60)
    data = pickle.dumps(env)
    assert len(data) <= PICKLE_BUDGET, f"{game_id} {n}p: {len(data)} bytes"
    twin = pickle.loads(data)
    assert twin.get_state().tobytes() == env.get_state().tobytes()
    assert twin.observation_space("player_0")["observation"].low is env.observation_space("player_0")["observation"].low
    agent = env.agent_selection
    assert twin.agent_selection == agent
    assert np.array_equal(twin.observe(agent)["observation"], env.observe(agent)["observation"])
    assert np.array_equal(twin.observe(agent)["action_mask"], env.observe(agent)["action_mask"])
    _play(env, 40, seed=9)
    _play(twin, 40, seed=9)
    assert twin.get_state().tobytes() == env.get_state().tobytes() and twin.history == env.history
