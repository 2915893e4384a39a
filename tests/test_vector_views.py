"""The views of ``make_vec`` where researchers already are (issue #46): Gymnasium's ``VectorEnv`` of the acting
seat and TorchRL's ``EnvBase``, each checked against the batch it wraps, stepped with the same actions."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import tabletop_zoo


def _legal(masks, rng) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def test_gymnasium_view_is_the_acting_seat_of_the_batch():
    view = tabletop_zoo.make_vec("irish_gauge", 4, 3, seed=7).gymnasium()
    twin = tabletop_zoo.make_vec("irish_gauge", 4, 3, seed=7)
    assert view.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.SAME_STEP
    assert view.action_space == gymnasium.spaces.MultiDiscrete([222] * 4)
    obs, infos = view.reset()
    ref = twin.reset()
    np.testing.assert_array_equal(obs, ref.observation)
    assert obs in view.observation_space
    rng, ends = np.random.default_rng(7), 0
    for _ in range(700):
        actions = _legal(infos["action_mask"], rng)
        acting = infos["current_player"].copy()
        obs, reward, terminated, truncated, infos = view.step(actions)
        ref = twin.step(actions)
        np.testing.assert_array_equal(obs, ref.observation)
        np.testing.assert_array_equal(infos["action_mask"], ref.action_mask.astype(bool))
        np.testing.assert_array_equal(infos["rewards"], ref.rewards)
        np.testing.assert_array_equal(reward, ref.rewards[np.arange(4), acting])
        assert reward.dtype == np.float32 and terminated.dtype == bool
        done = terminated | truncated
        if done.any():
            ends += done.sum()
            np.testing.assert_array_equal(infos["_final_obs"], done)
            for i in np.flatnonzero(done):
                np.testing.assert_array_equal(infos["final_obs"][i], twin.final.observation[i])
                final_info = infos["final_info"]  # batched as Gymnasium batches infos: key -> array
                assert final_info["seed"][i] == twin.final.seed[i] and final_info["_seed"][i]
                assert sum(final_info["returns"][i]) == pytest.approx(1.0)
    assert ends >= 4


def test_gymnasium_view_copies_unless_asked_not_to():
    view = tabletop_zoo.make_vec("irish_gauge", 2, 3, seed=1).gymnasium()
    obs, infos = view.reset()
    kept = obs.copy()
    view.step(np.array([np.flatnonzero(m)[0] for m in infos["action_mask"]]))
    np.testing.assert_array_equal(obs, kept)  # the caller's array did not change under it
    with pytest.raises(ValueError, match="takes no options"):
        view.reset(options={"ruleset": "published"})


@pytest.mark.parametrize("game", sorted(tabletop_zoo.GAMES))
def test_torchrl_env_passes_check_env_specs(game):
    torch = pytest.importorskip("torch")
    pytest.importorskip("torchrl")
    from torchrl.envs.utils import check_env_specs

    torch.set_num_threads(1)
    env = tabletop_zoo.make_vec(game, 3, seed=2).torchrl()
    check_env_specs(env, seed=2)


def test_torchrl_rollout_is_the_batch_through_its_resets():
    torch = pytest.importorskip("torch")
    pytest.importorskip("torchrl")
    torch.set_num_threads(1)
    env = tabletop_zoo.make_vec("irish_gauge", 3, 3, seed=4).torchrl()
    env.set_seed(4)
    td = env.rollout(600, break_when_any_done=False)  # random legal actions from each step's mask
    twin = tabletop_zoo.make_vec("irish_gauge", 3, 3, seed=4)
    out = twin.reset()
    actions = td["action"].numpy()
    assert td["action_mask"].gather(-1, td["action"].unsqueeze(-1)).all()  # every action was legal
    done_steps = 0
    for t in range(actions.shape[1]):
        np.testing.assert_array_equal(td["observation"][:, t].numpy(), out.observation)
        np.testing.assert_array_equal(td["current_player"][:, t].numpy(), out.current_player)
        out = twin.step(actions[:, t])
        nxt = td["next"][:, t]
        np.testing.assert_array_equal(nxt["reward"].numpy(), out.rewards.astype(np.float32))
        ended = out.terminated | out.truncated
        np.testing.assert_array_equal(nxt["done"].squeeze(-1).numpy(), ended)
        for i in np.flatnonzero(ended):  # the finished game's last position, then no move until the reset
            np.testing.assert_array_equal(nxt["observation"][i].numpy(), twin.final.observation[i])
            assert not nxt["action_mask"][i].any()
            done_steps += 1
    assert done_steps >= 3
