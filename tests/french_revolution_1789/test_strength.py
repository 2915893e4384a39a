"""Strength (slow): the heuristic beats uniformly random play at 4 players, p < 0.01.

One heuristic seat against three RandomAgents, the heuristic's seat rotating 0..3 over fixed seeds. Under
the null "no better than random" it wins with probability at most 1/4 (a shared win counts as a win, which
only makes the test harder to pass); the one-sided binomial tail is computed with math.comb.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop_zoo.agents import RandomAgent
from tabletop_zoo.agents.heuristics.french_revolution_1789 import FrenchRevolution1789Heuristic
from tabletop_zoo.kernels import french_revolution_1789 as k

GAMES = 40


def _play(seed: int, hseat: int, n: int = 4) -> bool:
    s = k.new_state(n, seed)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    obs = np.zeros(k.OBS_SIZE, np.float32)
    agents = [FrenchRevolution1789Heuristic(seed) if p == hseat else RandomAgent(1000 * seed + p) for p in range(n)]
    while not k.is_over(s):
        p = k.to_move(s)
        k.legal_mask(s, mask)
        k.observe(s, p, obs)
        k.step(s, agents[p].act(obs, mask))
    out = np.zeros(k.MAX_PLAYERS)
    k.returns(s, out)
    return out[hseat] > 0


def binomial_tail(wins: int, n: int, p: float) -> float:
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(wins, n + 1))


def test_binomial_tail_by_hand():
    assert binomial_tail(0, 5, 0.25) == pytest.approx(1.0)
    assert binomial_tail(5, 5, 0.25) == pytest.approx(0.25**5)


@pytest.mark.slow
def test_heuristic_beats_random_4p():
    wins = sum(_play(seed, seed % 4) for seed in range(GAMES))
    p_value = binomial_tail(wins, GAMES, 0.25)
    assert p_value < 0.01, f"heuristic won {wins}/{GAMES}, p = {p_value:.4f}"


def _mcts_vs_heuristic(seed: int, hseat: int, n: int = 4) -> float:
    """IS-MCTS (1000 simulations) in seat hseat against heuristics; returns its terminal reward."""
    import tabletop_zoo
    from tabletop_zoo.agents import make_agent
    from tabletop_zoo.play import play_game

    env = tabletop_zoo.make_env("french_revolution_1789", num_players=n)
    agents = [FrenchRevolution1789Heuristic(100 * seed + p) for p in range(n)]
    agents[hseat] = make_agent("mcts", "french_revolution_1789", seed=seed, simulations=1000)
    result = play_game(env, agents, seed=seed)
    return result[f"player_{hseat}"]["reward"]


@pytest.mark.slow
def test_mcts_beats_heuristic_4p():
    """Mean reward of the MCTS seat > 1/4 (one-sided z-test on the sample mean, as tests/agents)."""
    rewards = np.array([_mcts_vs_heuristic(seed, seed % 4) for seed in range(60)])
    se = rewards.std(ddof=1) / math.sqrt(len(rewards))
    p = 0.0 if se == 0 and rewards.mean() > 0.25 else 0.5 * math.erfc((rewards.mean() - 0.25) / se / math.sqrt(2))
    assert p < 0.01, f"MCTS mean reward {rewards.mean():.3f}, p = {p:.4f}"
