"""The gymnasium ids with their defaults (#49): ``check_env(gymnasium.make("tabletop_zoo/<game>-v0"))`` passes on
every game, warning-free, and an illegal action there ends the episode with -1 and ``info["illegal_move"]``
(gymnasium's contract: ``step`` takes any element of the action space). ``SingleSeatEnv`` built directly and
the AEC envs still raise."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import tabletop_zoo
from tabletop_zoo.envs.wrappers import SingleSeatEnv

# gymnasium's advice for any env made by gymnasium.make (its wrappers): check the unwrapped env too, done below.
WRAPPED = r".*is different from the unwrapped version"


def test_check_env_passes_on_every_gymnasium_id_with_its_defaults(game_id):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gymnasium.make(f"tabletop_zoo/{game_id}-v0")
        check_env(env.unwrapped)  # gymnasium's recommended form: every warning is an error
        warnings.filterwarnings("ignore", message=WRAPPED)
        check_env(env)  # the form, through gymnasium.make's wrappers


def test_an_illegal_action_ends_the_episode_with_a_clear_flag():
    env = gymnasium.make("tabletop_zoo/kremlin-v0", num_players=4)
    assert env.unwrapped.illegal_action == "penalize"
    env.reset(seed=3)
    illegal = int(np.flatnonzero(~env.unwrapped.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_move"] is True and info["action"] == illegal
    assert obs in env.observation_space and not env.unwrapped.action_masks().any()


def test_a_legal_action_carries_no_illegal_flag():
    env = gymnasium.make("tabletop_zoo/irish_gauge-v0")
    env.reset(seed=0)
    _, _, _, _, info = env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    assert "illegal_move" not in info


def test_raise_stays_available_and_stays_the_default_elsewhere():
    strict = gymnasium.make("tabletop_zoo/kremlin-v0", illegal_action="raise")
    strict.reset(seed=3)
    illegal = int(np.flatnonzero(~strict.unwrapped.action_masks())[0])
    with pytest.raises(ValueError, match=f"illegal action {illegal} for the learner"):
        strict.step(illegal)
    assert SingleSeatEnv("kremlin").illegal_action == "raise"  # the class, as the AEC envs
    aec = tabletop_zoo.make_env("kremlin")
    aec.reset(seed=3)
    with pytest.raises(ValueError, match="illegal action"):
        aec.step(int(np.flatnonzero(aec.action_mask() == 0)[0]))
