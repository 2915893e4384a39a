"""The ecosystem's own checkers on the single-seat view (#19): gymnasium's and SB3's check_env with
illegal_action="penalize", the gymnasium ids, RecordVideo, and skip_forced (which changes no game)."""

from __future__ import annotations

import gymnasium
import imageio.v2
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from tabletop_zoo import registry
from tabletop_zoo.envs.wrappers import KernelVecEnv, SingleSeatEnv


def test_gymnasium_and_sb3_check_env_pass_with_penalize(game_id):
    """Both checkers step unmasked random actions; with "penalize" an illegal one ends the episode."""
    env = gymnasium.make(f"tabletop_zoo/{game_id}-v0", illegal_action="penalize")
    gymnasium_check_env(env.unwrapped, skip_render_check=True)  # with a spec: same seed, same observation
    sb3_check_env(SingleSeatEnv(game_id, illegal_action="penalize", seed=0), warn=True, skip_render_check=True)


def test_penalize_ends_the_episode_with_minus_one_and_raise_names_the_action():
    env = SingleSeatEnv("kremlin", 4, illegal_action="penalize", seed=1)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info["illegal_move"] and info["action"] == illegal and obs in env.observation_space
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="the episode is over; call reset"):
        env.step(illegal)
    env.reset()  # a new episode plays normally
    assert env.action_masks().any()
    strict = SingleSeatEnv("kremlin", 4, seed=1)
    strict.reset(seed=1)
    with pytest.raises(ValueError, match=f"illegal action {illegal} for the learner"):
        strict.step(illegal)
    with pytest.raises(ValueError, match=r"illegal_action must be one of \('raise', 'penalize'\), got 'ignore'"):
        SingleSeatEnv("kremlin", illegal_action="ignore")
    with pytest.raises(ValueError, match=r"render_mode must be None or one of \['ansi', 'rgb_array'\]"):
        SingleSeatEnv("kremlin", render_mode="human")


def test_gymnasium_make_passes_the_options_and_record_video_films(tmp_path):
    env = gymnasium.make("tabletop_zoo/irish_gauge-v0", num_players=3, opponents="heuristic", render_mode="rgb_array")
    assert isinstance(env.unwrapped, SingleSeatEnv) and env.unwrapped.num_players == 3
    assert env.metadata["render_fps"] == env.unwrapped.metadata["render_fps"]
    env = gymnasium.wrappers.RecordVideo(
        env, str(tmp_path), episode_trigger=lambda e: e == 0, video_length=3, disable_logger=True
    )
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(3):
        env.step(int(rng.choice(np.flatnonzero(env.unwrapped.action_masks()))))
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1
    with imageio.v2.get_reader(videos[0], format="FFMPEG") as video:
        assert video.count_frames() == 4  # the reset frame, then one per step until video_length is exceeded
        assert video.get_data(0).shape == (800, 1280, 3)


def test_gymnasium_ansi_render_is_the_text_table():
    env = gymnasium.make("tabletop_zoo/veld_railroads-v0", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str) and text == registry.env_module("veld_railroads").render_ansi(
        env.unwrapped.get_state()
    )


def _learner_game(game: str, skip_forced: bool, opponents="random", seed: int = 5):
    """Play one episode with a learner that picks by a hash of its observation; returns the final record,
    the learner's steps and the sizes of the masks it was asked with."""
    env = SingleSeatEnv(game, opponents=opponents, learner_seat=0, skip_forced=skip_forced, seed=seed)
    obs, _ = env.reset(seed=seed)
    asked = []
    while True:
        legal = np.flatnonzero(env.action_masks())
        asked.append(legal.size)
        obs, reward, terminated, truncated, _ = env.step(int(legal[int(obs.sum() * 7919) % legal.size]))
        if terminated or truncated:
            return env.get_state(), asked, reward


def test_skip_forced_changes_no_game_only_who_is_asked(game_id):
    """The same seed and the same (non-forced) choices give the same final record byte for byte; with
    skip_forced the learner is never asked to choose among one action. Random opponents: the numba path."""
    _same_game_fewer_questions(game_id, "random")


def test_skip_forced_with_python_opponents():
    """The Python opponent loop (any agent but random) skips the same way; it is game-agnostic."""
    asked_all, asked_skip = _same_game_fewer_questions("veld_railroads", "heuristic")
    assert asked_skip < asked_all  # Veld Railroads' learner meets lone PASSes (issue #19: 28% of its steps)


def _same_game_fewer_questions(game: str, opponents: str) -> tuple[int, int]:
    end_asked, asked_all, r_all = _learner_game(game, False, opponents)
    end_skip, asked_skip, r_skip = _learner_game(game, True, opponents)
    assert end_skip.tobytes() == end_asked.tobytes() and r_skip == r_all
    assert min(asked_skip) >= 2
    assert len(asked_skip) == sum(n >= 2 for n in asked_all)
    return len(asked_all), len(asked_skip)


def test_vector_env_skips_forced_moves_by_default_and_matches_its_views():
    vec = KernelVecEnv("french_revolution_1789", num_envs=3, seed=4)
    assert vec.skip_forced
    vec.reset()
    rng = np.random.default_rng(4)
    for _ in range(60):
        masks = vec.action_masks()
        assert (masks.sum(axis=1) >= 2).all(), "a learner was asked a decision with one legal action"
        vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    off = KernelVecEnv("french_revolution_1789", num_envs=2, seed=4, skip_forced=False)
    off.reset()
    ones = 0
    for _ in range(60):
        masks = off.action_masks()
        ones += int((masks.sum(axis=1) == 1).sum())
        off.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    assert ones > 0, "without skip_forced the learner is asked its forced moves"
