"""Observation spaces with finite bounds (issue #49), taken from the kernels' layout tables (issue #47).

Every entry of every observation of seeded random playouts (each seat's view and the table's, under the default
options and an option set that widens a range) lies between 0 and its piece's ``high()``, and so inside the
AEC env's observation and state spaces, the Gymnasium vector view's and the TorchRL spec's.
"""

from __future__ import annotations

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo import registry
from tabletop_zoo.kernels._common.layout import observation_bounds

from ..conftest import random_trajectory

# options that reach values the defaults do not (30 tax chips a nation, every optional rule on)
WIDER = {
    "french_revolution_1789": {"person_marks": True},
    "imperial": {"tax_chips_per_nation": 30, "hidden_cash": True, "ruleset": "published"},
    "irish_gauge": {"ruleset": "published"},
    "kremlin": {"traits": True, "random_placement": True},
    "veld_railroads": {"repeat_metropolis_pick": True},
}


def _piece_at(k, i: int) -> str:
    (piece,) = [p for p in k.OBS_PIECES if p.offset <= i < p.offset + p.size]
    return f"{piece.name}[{i - piece.offset}]"


@pytest.mark.parametrize("wider", [False, True], ids=["defaults", "wider"])
def test_every_observation_lies_in_the_space(game_n, wider):
    game, n = game_n
    k = registry.kernel(game)
    options = WIDER[game] if wider else {}
    env = tabletop_zoo.make_env(game, num_players=n, **options)
    space, state_space = env.observation_space(env.possible_agents[0])["observation"], env.state_space
    low, high = observation_bounds(k.OBS_PIECES)
    assert np.isfinite(high).all() and (high > 0).all() and not low.any()
    assert np.array_equal(space.low, low) and np.array_equal(space.high, high)
    assert np.array_equal(state_space.high, high)
    out = np.zeros(k.OBS_SIZE, np.float32)
    for i, (s, _) in enumerate(random_trajectory(k, n, seed=49 + wider, policy_seed=n, **options)):
        for seat in range(-1, n):
            k.observe(s, seat, out)
            outside = np.flatnonzero((out < low) | (out > high))
            assert not outside.size, f"{game} {n}p: {_piece_at(k, outside[0])} = {out[outside[0]]} is outside"
            if i % 10 == 0:
                assert (state_space if seat < 0 else space).contains(out)


def test_the_batched_views_declare_the_same_bounds(game_id):
    k = registry.kernel(game_id)
    low, high = observation_bounds(k.OBS_PIECES)
    vec = tabletop_zoo.make_vec(game_id, num_envs=2, seed=3)
    view = vec.gymnasium()
    assert np.array_equal(view.single_observation_space.low, low)
    assert np.array_equal(view.single_observation_space.high, high)
    obs, infos = view.reset(seed=3)
    for _ in range(30):
        assert view.observation_space.contains(obs)
        obs, _, _, _, infos = view.step(infos["action_mask"].argmax(1))


def test_the_torchrl_spec_is_bounded_by_the_layout(game_id):
    pytest.importorskip("torchrl")
    k = registry.kernel(game_id)
    low, high = observation_bounds(k.OBS_PIECES)
    env = tabletop_zoo.make_vec(game_id, num_envs=2, seed=3).torchrl()
    spec = env.observation_spec["observation"]
    assert np.array_equal(spec.space.low[0].numpy(), low) and np.array_equal(spec.space.high[1].numpy(), high)
    td = env.rollout(10)  # batch (lanes, steps)
    for t in range(td.shape[1]):
        assert spec.is_in(td["observation"][:, t]) and spec.is_in(td["next", "observation"][:, t])
