"""The single-file PPO example on ``make_vec`` (issue #46) runs in its quick mode, and its per-seat GAE is right."""

from __future__ import annotations

import importlib.util
import pathlib

import numpy as np
import pytest

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "ppo_make_vec.py"


@pytest.fixture(scope="module")
def example():
    pytest.importorskip("torch")
    spec = importlib.util.spec_from_file_location("ppo_make_vec", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_seat_advantages_follow_each_seats_own_decisions(example):
    """Decisions 0 and 2 are one seat's (its game ends at 2 and pays it 1), 1 and 3 the other's (3 is cut by
    the rollout's end): values 0.5, 0.2, 0.6, 0.4."""
    values = np.array([0.5, 0.2, 0.6, 0.4], np.float32)
    rewards = np.array([0.0, 0.0, 1.0, 0.0], np.float32)
    next_index = np.array([2, 3, -1, -1])
    ended = np.array([False, False, True, False])
    adv = example.seat_advantages(values, rewards, next_index, ended, gae_lambda=0.5)
    np.testing.assert_allclose(adv[2], 1.0 - 0.6)  # the end: its reward minus its value
    np.testing.assert_allclose(adv[0], (0.6 - 0.5) + 0.5 * 0.4)  # one step on, then lambda times the next
    np.testing.assert_allclose(adv[3], 0.0)  # cut: bootstrapped with its own value
    np.testing.assert_allclose(adv[1], 0.4 - 0.2)


def test_the_example_trains_and_evaluates_in_its_quick_mode(example, capsys):
    result = example.main(["--quick"])
    assert result["games"] >= 6 and result["players"] == 3
    assert 0.0 <= result["wins"] <= result["games"] and 0.0 <= result["p"] <= 1.0
    printed = capsys.readouterr().out
    assert "512 decisions" in printed and "greedy policy vs 2 random seats" in printed
