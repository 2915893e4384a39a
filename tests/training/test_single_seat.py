"""Training views: reward attribution, legal masks, seat rotation, vector env == single env."""

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo.agents import make_agent
from tabletop_zoo.envs.wrappers import SingleSeatEnv

GAME = "irish_gauge"


def play_episode(env, pick):
    obs, info = env.reset()
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.any() and mask.dtype == bool
        obs, reward, terminated, truncated, info = env.step(pick(mask))
        total += reward
        steps += 1
        if terminated:
            assert not env.action_masks().any()
            return total, info, steps


@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_learner_reward_is_its_own_final_return_whoever_moves_last(opponents):
    k = tabletop_zoo.kernel(GAME)
    env = SingleSeatEnv(GAME, 3, opponents=opponents, seed=3)
    rng = np.random.default_rng(0)
    ended_on_opponent = ended_on_learner = 0
    for _ in range(24):
        total, info, _ = play_episode(env, lambda m: int(rng.choice(np.flatnonzero(m))))
        ret = np.zeros(k.MAX_PLAYERS)
        k.returns(env.get_state(), ret)
        assert total == pytest.approx(ret[env.seat])
        # Irish Gauge ends on the main turn of seat `active` (IG-END-1): the learner's or an opponent's
        if int(env.get_state()[0]["active"]) == env.seat:
            ended_on_learner += 1
        else:
            ended_on_opponent += 1
    assert ended_on_learner and ended_on_opponent, "both endings must be covered"


def test_masks_are_exactly_the_legal_actions():
    k = tabletop_zoo.kernel(GAME)
    env = SingleSeatEnv(GAME, 4, seed=1)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    rng = np.random.default_rng(1)
    for _ in range(5):
        env.reset()
        while not k.is_over(env.get_state()):
            s = env.get_state()
            assert k.to_move(s) == env.seat, "the learner is only asked when it is to move"
            k.legal_mask(s, mask)
            assert np.array_equal(env.action_masks(), mask.astype(bool))
            env.step(int(rng.choice(np.flatnonzero(mask))))
    env.reset()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(ValueError, match=f"illegal action {illegal}"):
        env.step(illegal)


def test_seat_rotates_over_episodes_and_can_be_fixed():
    env = SingleSeatEnv(GAME, 5, seed=2)
    assert [env.reset()[1]["seat"] for _ in range(10)] == [0, 1, 2, 3, 4] * 2
    fixed = SingleSeatEnv(GAME, 3, learner_seat=2, seed=2)
    assert {fixed.reset()[1]["seat"] for _ in range(4)} == {2}
    with pytest.raises(ValueError, match="learner_seat"):
        SingleSeatEnv(GAME, 3, learner_seat=3)


def test_opponent_pools_and_search_opponents():
    calls = []

    def pool(rng):
        calls.append(1)
        return make_agent("random", GAME, seed=int(rng.integers(100)))

    env = SingleSeatEnv(GAME, 3, opponents=pool, seed=4)
    play_episode(env, lambda m: int(np.flatnonzero(m)[0]))
    play_episode(env, lambda m: int(np.flatnonzero(m)[0]))
    assert len(calls) == 2  # sampled anew each episode
    mcts = SingleSeatEnv(
        GAME,
        3,
        opponents=[
            make_agent("mcts", GAME, seed=1, simulations=20, rollout_depth=4),
            make_agent("heuristic", GAME, seed=2),
        ],
        seed=5,
    )
    total, info, _ = play_episode(mcts, lambda m: int(np.flatnonzero(m)[-1]))
    assert "score" in info
    with pytest.raises(ValueError, match="need 2 opponents"):
        SingleSeatEnv(GAME, 3, opponents=[make_agent("random", GAME)], seed=1).reset()


@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_vector_env_matches_single_envs_step_for_step(opponents):
    pytest.importorskip("stable_baselines3")
    from tabletop_zoo.envs.wrappers import KernelVecEnv

    vec = KernelVecEnv(GAME, num_envs=3, num_players=4, opponents=opponents, seed=7)
    singles = [SingleSeatEnv(GAME, 4, opponents=opponents, seed=[7, i]) for i in range(3)]
    obs = vec.reset()
    ref = [s.reset()[0] for s in singles]
    assert np.array_equal(obs, np.stack(ref))
    rng = np.random.default_rng(3)
    episodes = 0
    for _ in range(400):
        masks = vec.action_masks()
        assert np.array_equal(masks, np.stack([s.action_masks() for s in singles]))
        assert np.array_equal(np.stack(vec.env_method("action_masks")), masks)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = vec.step(actions)
        for i, single in enumerate(singles):
            o, r, d, _, info = single.step(int(actions[i]))
            assert r == rewards[i] and d == dones[i]
            if d:
                episodes += 1
                assert np.array_equal(infos[i]["terminal_observation"], o)
                o = single.reset()[0]
            assert np.array_equal(obs[i], o)
    assert episodes >= 3
