"""Strength (slow): the heuristic beats uniformly random play at 4 players, p < 0.01.

One heuristic seat against three RandomAgents, the heuristic's seat rotating 0..3 over fixed seeds. Under
the null hypothesis "no better than random" the heuristic wins a game with probability at most 1/4 (a
shared win counts as a fraction, so counting it as a full win only makes the test harder to pass); the
one-sided binomial tail P(X >= wins) is computed by hand with math.comb.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop_zoo.agents import RandomAgent
from tabletop_zoo.agents.heuristics.veld_railroads import VeldRailroadsHeuristic
from tabletop_zoo.kernels import veld_railroads as k

GAMES = 40


def _play(seed: int, hseat: int, n: int = 4) -> bool:
    s = k.new_state(n, seed)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    obs = np.zeros(k.OBS_SIZE, np.float32)
    agents = [VeldRailroadsHeuristic(seed) if p == hseat else RandomAgent(1000 * seed + p) for p in range(n)]
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
    assert binomial_tail(4, 4, 0.5) == pytest.approx(1 / 16)


@pytest.mark.slow
def test_heuristic_beats_random_4p():
    wins = sum(_play(seed, seed % 4) for seed in range(GAMES))
    p_value = binomial_tail(wins, GAMES, 0.25)
    assert p_value < 0.01, f"heuristic won {wins}/{GAMES}, p = {p_value:.4f}"
