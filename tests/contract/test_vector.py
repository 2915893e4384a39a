"""``make_vec`` (issue #46): every lane is the AEC env's game, for every game at every player count.

Each lane of a batch is shadowed by its own AEC env: reset with the seed the lane reports, stepped with the
same actions, and compared at every decision (observation, mask, seat to move) and at every end (rewards,
scores, length), through the autoresets the batch does inside its step.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo import registry
from tabletop_zoo.envs.vector import LANES_PER_THREAD
from tabletop_zoo.kernels._common import vector as lanes_mod

LANES = 3


def _shadows(vec, game, n, max_cycles=None) -> list:
    envs = []
    for seed in vec.seeds:
        env = registry.make_env(game, num_players=n, max_cycles=max_cycles)
        env.reset(seed=int(seed))
        envs.append(env)
    return envs


def _same_decision(env, out, i) -> None:
    agent = env.agent_selection
    assert out.current_player[i] == int(agent.split("_")[1])
    seen = env.observe(agent)
    np.testing.assert_array_equal(out.action_mask[i], seen["action_mask"])
    np.testing.assert_array_equal(out.observation[i], seen["observation"])


def _play_forced(env) -> int:
    """The AEC env's decisions with one legal action, applied as the batch applies them; returns how many."""
    applied = 0
    while env.agents and not env.terminations[env.agent_selection] and len(env.legal_actions()) == 1:
        env.step(env.legal_actions()[0])
        applied += 1
    return applied


def _check_lanes(game, n, steps, skip_forced=False, max_cycles=None, threads=1, seed=0):
    vec = tabletop_zoo.make_vec(
        game, LANES, n, seed=seed, skip_forced=skip_forced, max_cycles=max_cycles, threads=threads
    )
    out = vec.reset()
    envs = _shadows(vec, game, n, max_cycles)
    if skip_forced:
        assert [_play_forced(env) for env in envs] == vec.forced.tolist()
    for i, env in enumerate(envs):
        _same_decision(env, out, i)
    rng = np.random.default_rng(seed)
    ends = 0
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in out.action_mask])
        acting = [env.agent_selection for env in envs]
        out = vec.step(actions)
        for i, env in enumerate(envs):
            env.step(int(actions[i]))
            if skip_forced and vec.forced[i]:
                assert _play_forced(env) == vec.forced[i]
            if out.terminated[i] or out.truncated[i]:
                ends += 1
                _same_end(env, vec, out, i, acting[i])
                env.reset(seed=int(vec.seeds[i]))
                if skip_forced:
                    _play_forced(env)
            _same_decision(env, out, i)
    return ends


def _same_end(env, vec, out, i, acting) -> None:
    """The lane's finished game is the env's: over in the same way, same rewards, scores and length."""
    final = vec.final
    assert final.seed[i] == env.seed_used
    np.testing.assert_array_equal(final.observation[i], env.observe(acting)["observation"])
    assert final.length[i] == len(env.history)
    if out.terminated[i]:
        assert all(env.terminations.values()) and not any(env.truncations.values())
    else:
        assert all(env.truncations.values()) and not any(env.terminations.values())
    expected = [env.rewards[a] for a in env.possible_agents]
    np.testing.assert_allclose(out.rewards[i], expected, atol=1e-12)
    np.testing.assert_allclose(final.returns[i], expected, atol=1e-12)
    assert final.scores[i].tolist() == [env.infos[a]["score"] for a in env.possible_agents]


def test_each_lane_is_the_aec_game_through_autoresets(game_n):
    game, n = game_n
    k = registry.kernel(game)
    # enough steps for each lane to finish a game and start the next
    ends = _check_lanes(game, n, steps=min(k.MAX_GAME_LENGTH, 1500))
    assert ends >= 1


def test_skipped_forced_decisions_are_the_envs_single_legal_moves(game_n):
    game, n = game_n
    _check_lanes(game, n, steps=300, skip_forced=True, seed=1)


def test_max_cycles_truncates_as_the_env_does(game_id):
    k = registry.kernel(game_id)
    ends = _check_lanes(game_id, k.DEFAULT_PLAYERS, steps=120, max_cycles=10, seed=2)
    assert ends >= LANES  # every lane was cut (10 cycles) at least once


def _run(game, lanes, steps, seed, **kwargs):
    vec = tabletop_zoo.make_vec(game, lanes, seed=seed, **kwargs)
    out = vec.reset()
    rng = np.random.default_rng(seed)
    trace = []
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in out.action_mask])
        out = vec.step(actions)
        trace.append([a.copy() for a in out] + [vec.seeds.copy()])
    return trace


def test_same_seed_same_results_and_threads_do_not_change_them():
    lanes = 2 * LANES_PER_THREAD  # the fewest that two threads share out
    one = _run("kremlin", lanes, 120, seed=5)
    again = _run("kremlin", lanes, 120, seed=5)
    spread = _run("kremlin", lanes, 120, seed=5, threads=2)
    for a, b, c in zip(one, again, spread):
        for x, y, z in zip(a, b, c):
            np.testing.assert_array_equal(x, y)
            np.testing.assert_array_equal(x, z)
    other = _run("kremlin", lanes, 5, seed=6)
    assert not np.array_equal(one[0][0], other[0][0])


def test_threads_share_out_only_batches_of_enough_lanes(monkeypatch):
    """Below ``LANES_PER_THREAD`` lanes a thread, ``threads=2`` steps on the calling thread, with the same results."""
    small = tabletop_zoo.make_vec("irish_gauge", 2 * LANES_PER_THREAD - 1, seed=2, threads=2)
    large = tabletop_zoo.make_vec("irish_gauge", 2 * LANES_PER_THREAD, seed=2, threads=2)
    assert (small.parallel, large.parallel) == (False, True)
    assert not tabletop_zoo.make_vec("irish_gauge", 4 * LANES_PER_THREAD, seed=2).parallel  # threads=1
    calls = []
    parallel_loop = lanes_mod.run_lanes_parallel

    def counted(*args):
        calls.append(len(args[1]))
        return parallel_loop(*args)

    monkeypatch.setattr(lanes_mod, "run_lanes_parallel", counted)
    small.reset()
    large.reset()
    assert calls == [2 * LANES_PER_THREAD]
    # and the small batch steps as one thread does
    one = tabletop_zoo.make_vec("irish_gauge", 2 * LANES_PER_THREAD - 1, seed=2)
    for out, ref in zip(_steps(small, 40), _steps(one, 40)):
        for x, y in zip(out, ref):
            np.testing.assert_array_equal(x, y)


def _steps(vec, steps):
    out = vec.reset()
    rng = np.random.default_rng(1)
    for _ in range(steps):
        out = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in out.action_mask]))
        yield [a.copy() for a in out]


def test_masks_are_sound_over_many_batched_steps(game_id):
    """10^5 lane decisions per game: every mask has a legal move and every legal move steps without error."""
    vec = tabletop_zoo.make_vec(game_id, 250, seed=3)
    out = vec.reset()
    rng = np.random.default_rng(3)
    for _ in range(400):
        assert (out.action_mask.sum(1) >= 1).all()
        # a uniformly random legal action per lane, drawn for the whole batch at once
        scores = rng.random(out.action_mask.shape) * out.action_mask
        out = vec.step(scores.argmax(1))


def test_autoreset_keeps_the_finished_games_rewards_and_starts_the_next():
    vec = tabletop_zoo.make_vec("irish_gauge", 8, 3, seed=4)
    out = vec.reset()
    first_seeds = vec.seeds.copy()
    rng = np.random.default_rng(4)
    while not out.terminated.any():
        out = vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in out.action_mask]))
    i = int(np.flatnonzero(out.terminated)[0])
    assert out.rewards[i].sum() == pytest.approx(1.0)  # win shares of the finished game
    assert vec.final.seed[i] == first_seeds[i] and vec.seeds[i] != first_seeds[i]
    assert vec.lengths[i] == 0  # the new game's first decision
    fresh = registry.make_env("irish_gauge", num_players=3)
    fresh.reset(seed=int(vec.seeds[i]))
    np.testing.assert_array_equal(out.observation[i], fresh.observe(fresh.agent_selection)["observation"])
    others = np.flatnonzero(~out.terminated)
    assert not out.rewards[others].any()


def _play_both(game, n, steps, seed):
    """The same batch made with and without observations, stepped with the same random legal actions for
    ``steps`` steps and on until some lane's game has ended; returns how many games ended."""
    seen = tabletop_zoo.make_vec(game, 8, n, seed=seed)
    blind = tabletop_zoo.make_vec(game, 8, n, seed=seed, observations=False)
    a, b = seen.reset(), blind.reset()
    rng = np.random.default_rng(seed)
    ends = 0
    for t in range(registry.kernel(game).MAX_GAME_LENGTH):
        if t >= steps and ends:
            break
        assert b.observation is None and blind.final.observation is None
        for x, y in zip(a[1:], b[1:]):  # masks, seats, rewards, terminated, truncated
            np.testing.assert_array_equal(x, y)
        assert blind.records.tobytes() == seen.records.tobytes()
        np.testing.assert_array_equal(blind.seeds, seen.seeds)
        done = np.flatnonzero(a.terminated | a.truncated)
        ends += done.size
        for name in ("seed", "length", "scores", "returns"):
            np.testing.assert_array_equal(getattr(blind.final, name)[done], getattr(seen.final, name)[done])
        actions = (rng.random(a.action_mask.shape) * a.action_mask).argmax(1)
        a, b = seen.step(actions), blind.step(actions)
    return ends


def test_without_observations_the_lanes_play_the_same_games(game_n):
    """observations=False changes what a step returns (no observation), never the games: masks, seats, rewards,
    ends, records and the finished games' seeds, lengths, scores and returns are the observing batch's."""
    game, n = game_n
    assert _play_both(game, n, steps=200, seed=9) >= 1


def test_without_observations_the_views_and_all_observations_are_refused():
    vec = tabletop_zoo.make_vec("irish_gauge", 2, seed=0, observations=False)
    assert "observations=False" in repr(vec)
    with pytest.raises(ValueError, match="the Gymnasium view needs observations; this batch was made with"):
        vec.gymnasium()
    pytest.importorskip("torchrl")
    with pytest.raises(ValueError, match="the TorchRL env needs observations"):
        vec.torchrl()


def test_all_observations_are_each_seats_own_view():
    vec = tabletop_zoo.make_vec("kremlin", 2, 4, seed=8, all_observations=True)
    out = vec.reset()
    for _ in range(30):
        out = vec.step(np.array([np.flatnonzero(m)[0] for m in out.action_mask]))
    obs = np.zeros(vec.kernel.OBS_SIZE, np.float32)
    for i in range(2):
        for p in range(4):
            vec.kernel.observe(vec.records[i : i + 1], p, obs)
            np.testing.assert_array_equal(vec.observations[i, p], obs)
        np.testing.assert_array_equal(vec.observations[i, out.current_player[i]], out.observation[i])


@pytest.mark.parametrize(
    "make, message",
    [
        (dict(num_envs=0), "num_envs must be an int >= 1, got 0"),
        (dict(num_envs=2, num_players=9), "players"),
        (dict(num_envs=2, threads=0), "threads must be an int >= 1, got 0"),
        (dict(num_envs=2, max_cycles=0), "max_cycles must be an int >= 1, got 0"),
        (dict(num_envs=2, seed=-1), "seed"),
        (dict(num_envs=2, ruleset="chess"), "ruleset"),
        (dict(num_envs=2, skip_forced="yes"), r"skip_forced, observations and all_observations must be True or Fa"),
        (dict(num_envs=2, observations=1), r"must be True or False, got \(False, 1, False\)"),
        (dict(num_envs=2, observations=False, all_observations=True), "all_observations=True needs observations=True"),
    ],
)
def test_bad_arguments_are_one_clear_line(make, message):
    with pytest.raises(ValueError, match=message):
        tabletop_zoo.make_vec("irish_gauge", **make)


def test_bad_actions_are_refused_before_any_lane_moves():
    vec = tabletop_zoo.make_vec("irish_gauge", 3, seed=0)
    with pytest.raises(RuntimeError, match=r"reset\(\) must be called before step\(\)"):
        vec.step(np.zeros(3, np.int64))
    out = vec.reset()
    before = vec.records.copy()
    legal = [int(np.flatnonzero(m)[0]) for m in out.action_mask]
    illegal = int(np.flatnonzero(out.action_mask[1] == 0)[0])
    for actions, message in (
        ([0, 0], r"actions must be 3 integers \(one per lane\), got shape \(2,\)"),
        ([0.5, 0, 0], "got shape .* of float64"),
        ([legal[0], 10**6, legal[2]], r"lane 1: action 1000000 is out of range 0\.\.221"),
        ([legal[0], illegal, legal[2]], rf"lane 1: action {illegal} is illegal for seat \d; legal: \["),
        ([legal[0], legal[1], -1], r"lane 2: action -1 is out of range 0\.\.221"),
        ([legal[0], illegal, 10**6], rf"lane 1: action {illegal} is illegal"),  # the first bad lane is named
    ):
        with pytest.raises(ValueError, match=message):
            vec.step(np.array(actions))
    assert vec.records.tobytes() == before.tobytes()


def test_a_lane_left_without_a_seat_stops_the_step_with_its_number(monkeypatch):
    """The entries return the first lane whose new games all ended in their forced openings (a kernel bug)."""
    first_without_seat = numba.njit(lambda seats: lanes_mod._without_seat(seats))
    assert first_without_seat(np.array([0, 2, 1], np.int64)) == -1
    assert first_without_seat(np.array([0, lanes_mod.NO_SEAT, 1, lanes_mod.NO_SEAT], np.int64)) == 1
    vec = tabletop_zoo.make_vec("irish_gauge", 4, seed=1)
    monkeypatch.setattr(lanes_mod, "run_lanes", lambda *args: 2)
    with pytest.raises(RuntimeError, match="lane 2: its new game ended before any decision"):
        vec.reset()
