"""The rollout's numba forward (``RolloutPolicy``) plays as ``ActorCritic.act`` does: the same actions from the same
generator, the same log-probabilities and values up to float rounding, at every network shape the trainer builds."""

import functools

import numpy as np
import pytest
import torch

from tabletop_zoo import registry
from tabletop_zoo.agents.policy_network import ActorCritic
from tabletop_zoo.training.batch import random_positions
from tabletop_zoo.training.inference import RolloutPolicy


@functools.cache
def _positions(game: str, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Real inputs: decisions of random games, up to 60 moves in."""
    k = registry.kernel(game)
    return random_positions(k, k.DEFAULT_PLAYERS, count, 60)


def _perturbed(k, hidden) -> ActorCritic:
    net = ActorCritic(k.OBS_SIZE, k.NUM_ACTIONS, hidden)
    with torch.no_grad():  # non-zero biases and livelier logits than the initialisation's
        for p in net.parameters():
            p.add_(0.05 * torch.randn(p.shape, generator=torch.Generator().manual_seed(p.numel())))
        net.actor[-1].weight.mul_(50.0)
    return net


@pytest.mark.parametrize("game", registry.GAMES)
@pytest.mark.parametrize("hidden", [(64, 64), (256, 256), (32,), (16, 16, 16)])
def test_rollout_forward_equals_the_torch_forward(game, hidden):
    k = registry.kernel(game)
    obs, masks = _positions(game, 400)
    net = _perturbed(k, hidden)
    want = net.act(obs, masks, torch.Generator().manual_seed(5))
    got = RolloutPolicy(net).act(obs, masks, torch.Generator().manual_seed(5))
    assert (got[0] == want[0]).mean() > 0.995  # a draw on a CDF step's float edge may round either way
    same = got[0] == want[0]
    np.testing.assert_allclose(got[1][same], want[1][same], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got[2], want[2], rtol=1e-4, atol=1e-5)
    assert masks[np.arange(len(obs)), got[0]].all()


def test_seats_that_only_play_get_no_value_and_the_same_actions():
    k = registry.kernel("irish_gauge")
    obs, masks = _positions("irish_gauge", 64)
    policy = RolloutPolicy(_perturbed(k, (64, 64)))
    with_value = policy.act(obs, masks, torch.Generator().manual_seed(2))
    action, logp, value = policy.act(obs, masks, torch.Generator().manual_seed(2), with_value=False)
    assert value is None
    np.testing.assert_array_equal(action, with_value[0])
    np.testing.assert_array_equal(logp, with_value[1])


def test_a_single_legal_action_is_taken_with_log_probability_zero():
    k = registry.kernel("irish_gauge")
    obs, _ = _positions("irish_gauge", 8)
    masks = np.zeros((8, k.NUM_ACTIONS), np.uint8)
    masks[np.arange(8), np.arange(8) * 3] = 1
    action, logp, _ = RolloutPolicy(_perturbed(k, (64, 64))).act(obs, masks, torch.Generator().manual_seed(0))
    np.testing.assert_array_equal(action, np.arange(8) * 3)
    np.testing.assert_allclose(logp, 0.0, atol=1e-6)
