"""``KernelVecEnv`` (issue #46): finished games restart inside numba and the spaces are shared, with the same
games as before. The digests below were recorded with the code before that change (Python restarts through
``SingleSeatEnv.reset``): the same seed must keep giving the same trajectory, bit for bit. A rules change in one
of these games (with its env version bump) changes its games too: re-record its digest with ``_trajectory(*case)``
and say so in the commit."""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from tabletop_zoo.envs.wrappers import KernelVecEnv, SingleSeatEnv  # noqa: E402

# (game, players, skip_forced, steps) -> (sha256 of the whole trajectory, games ended), recorded before #46's change
PINNED = {
    ("irish_gauge", 3, True, 150): ("e958777f1f1fd8a9f2d20704ca238f2375feb2ee68cc5647bfac545068a84783", 16),
    ("veld_railroads", 4, False, 120): ("8081f53bc88e692a2b9dfc0d3d87946c1ca8aba837d4158bb5acba4a3a71e09d", 8),
    ("kremlin", 4, True, 120): ("7b5b73e1396d0848053d0a7e0ab5df67d6a22651519a7d6b36872d3bb03b9280", 4),
}


def _trajectory(game: str, n: int, skip_forced: bool, steps: int, num_envs: int = 4, seed: int = 11):
    """Every observation, mask, reward, done and info of a seeded run with random legal learner actions, a
    second ``reset()`` halfway (the generators go on) and ``get_attr("seat")`` on the way, in one digest."""
    vec = KernelVecEnv(game, num_envs=num_envs, num_players=n, seed=seed, skip_forced=skip_forced)
    h = hashlib.sha256()
    obs = vec.reset()
    h.update(obs.tobytes())
    rng = np.random.default_rng(seed)
    ends = 0
    for t in range(steps):
        masks = vec.action_masks()
        h.update(masks.tobytes())
        obs, rewards, dones, infos = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
        h.update(obs.tobytes() + rewards.tobytes() + dones.tobytes())
        for i in np.flatnonzero(dones):
            info = dict(infos[i])
            h.update(info.pop("terminal_observation").tobytes())
            h.update(repr((int(i), sorted(info.items()))).encode())
            ends += 1
        if t % 25 == 0:
            h.update(repr(vec.get_attr("seat")).encode())
        if t == steps // 2:
            h.update(vec.reset().tobytes())
    return h.hexdigest(), ends


@pytest.mark.parametrize("case", list(PINNED))
def test_same_seed_same_trajectory_as_before_the_numba_restarts(case):
    assert _trajectory(*case) == PINNED[case]


def test_the_numba_generator_draws_what_numpy_draws():
    """``_fast.pcg64_*`` is numpy's PCG64 (default_rng): the same integers(2**63) and integers(2**31) draws, the
    32-bit half kept between calls, and the same state after."""
    from tabletop_zoo.envs.wrappers._fast import pcg64_next32, pcg64_next64, pcg64_row, pcg64_state

    for seed in ([0, 0], [11, 1023], 12345):
        g = np.random.default_rng(seed)
        row = pcg64_row(g)
        for t in range(300):
            assert int(pcg64_next64(row) >> np.uint64(1)) == int(g.integers(2**63))
            for _ in range(t % 4):
                assert int(pcg64_next32(row) >> np.uint64(1)) == int(g.integers(2**31))
        assert pcg64_state(row) == g.bit_generator.state


def test_spaces_are_shared_per_game():
    a = KernelVecEnv("irish_gauge", num_envs=3, seed=0)
    b = KernelVecEnv("irish_gauge", num_envs=2, num_players=3, seed=1)
    assert all(v.observation_space is a.observation_space for v in a.views + b.views)
    assert all(v.action_space is a.action_space for v in a.views + b.views)
    assert b.observation_space is a.observation_space and b.action_space is a.action_space
    assert KernelVecEnv("kremlin", num_envs=1).observation_space is not a.observation_space


def test_views_reached_after_numba_restarts_are_the_single_seat_envs():
    """After games restarted inside numba, a view reached through get_attr/env_method holds what
    ``SingleSeatEnv(seed=[seed, i])`` holds after the same games: generator, episode, seat, opponents; a
    view's reset through env_method is then taken up by the batch."""
    vec = KernelVecEnv("irish_gauge", num_envs=2, num_players=3, seed=7)
    singles = [SingleSeatEnv("irish_gauge", 3, seed=[7, i]) for i in range(2)]
    vec.reset()
    for s in singles:
        s.reset()
    rng = np.random.default_rng(0)
    ends = 0
    while ends < 4:
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()])
        _, _, dones, _ = vec.step(actions)
        for i, s in enumerate(singles):
            assert s.step(int(actions[i]))[2] == dones[i]
            if dones[i]:
                s.reset()
                ends += 1
    assert vec.get_attr("seat") == [s.seat for s in singles]
    assert vec.get_attr("_episode") == [s._episode for s in singles]
    for view, s in zip(vec.views, singles):
        assert view._rng.bit_generator.state == s._rng.bit_generator.state
        assert [None if a is None else a._random.__self__.getstate() for a in view._agents] == [
            None if a is None else a._random.__self__.getstate() for a in s._agents
        ]
    vec.env_method("reset", indices=[0])
    singles[0].reset()
    assert vec.seats[0] == singles[0].seat
    # the batch goes on from the view's new game and generator
    vec.obs[0], vec.masks[0] = singles[0]._observation(), singles[0].action_masks()
    for _ in range(40):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()])
        obs, rewards, dones, _ = vec.step(actions)
        for i, s in enumerate(singles):
            o, r, d, _, _ = s.step(int(actions[i]))
            assert r == rewards[i] and d == dones[i]
            if d:
                o = s.reset()[0]
            assert np.array_equal(obs[i], o)
