"""RLlib smoke path (issue #9): the AEC env through RLlib's own PettingZoo wrapper trains with masked PPO.

Every seat maps to one shared policy; the env raises on any illegal action, so finishing the sampled
games proves the module's masking; the terminal win shares of a game sum to 1 over the seats.
"""

import math

import numpy as np
import pytest
import ray  # the rllib extra (part of the test extra)

from tabletop_zoo.rllib import MaskedPPOModule, ppo_config, rllib_env


def test_rllib_wrapper_plays_turn_based_games_to_the_end():
    env = rllib_env("irish_gauge", num_players=3)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    total = {}
    while True:
        ((agent, o),) = obs.items()  # turn-based: exactly the seat to move
        obs, rew, term, trunc, _ = env.step({agent: int(rng.choice(np.flatnonzero(o["action_mask"])))})
        for a, r in rew.items():
            total[a] = total.get(a, 0.0) + r
        if term["__all__"] or trunc["__all__"]:
            break
    assert set(total) == {"player_0", "player_1", "player_2"}
    assert sum(total.values()) == pytest.approx(1.0)


def test_masked_ppo_trains_one_iteration_with_a_shared_policy():
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        algo = ppo_config(
            "irish_gauge", num_players=3, hidden=(32,), train_batch_size=400, minibatch_size=100, num_epochs=1
        ).build_algo()
        try:
            assert isinstance(algo.get_module("shared"), MaskedPPOModule)
            result = algo.train()
        finally:
            algo.stop()
    finally:
        ray.shutdown()
    runners = result["env_runners"]
    assert runners["num_env_steps_sampled"] >= 400
    assert runners["num_episodes"] >= 1  # a random 3-player game lasts about 140 decisions
    assert runners["episode_return_mean"] == pytest.approx(1.0)  # win shares of a game sum to 1
    assert set(runners["num_agent_steps_sampled"]) == {"player_0", "player_1", "player_2"}
    assert math.isfinite(result["learners"]["shared"]["total_loss"])


def test_bad_options_fail_before_ray_starts():
    with pytest.raises(ValueError, match="player"):
        ppo_config("irish_gauge", num_players=9)
