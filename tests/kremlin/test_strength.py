"""Strength (slow), 4 players: the heuristic beats random, and IS-MCTS (1000 simulations) beats the
heuristic, at p < 0.01. One candidate seat against three copies of the opponent, the candidate's seat
rotated game by game, fixed seeds. One-sided exact binomial test on the candidate's wins against the
1/4 win rate of an equal player (draws count as non-wins; math.comb, no scipy)."""

import math

import pytest

import tabletop_zoo
from tabletop_zoo.agents import RandomAgent, make_agent
from tabletop_zoo.agents.heuristics.kremlin import KremlinHeuristic
from tabletop_zoo.play import play_game

N = 4


def binom_p_value(wins: int, games: int, p0: float) -> float:
    """P(X >= wins) for X ~ Binomial(games, p0)."""
    return sum(math.comb(games, k) * p0**k * (1 - p0) ** (games - k) for k in range(wins, games + 1))


def wins_of(candidate, opponent, games, seed=0):
    wins = 0
    for g in range(games):
        env = tabletop_zoo.make_env("kremlin", num_players=N)
        seat = g % N
        agents = [opponent(seed + 100 * g + i) for i in range(N)]
        agents[seat] = candidate(seed + 100 * g + seat)
        result = play_game(env, agents, seed=seed + g)
        wins += result[f"player_{seat}"]["reward"] == 1.0
    return wins


def test_binom_p_value_by_hand():
    assert binom_p_value(0, 10, 0.25) == pytest.approx(1.0)
    assert binom_p_value(10, 10, 0.25) == pytest.approx(0.25**10)


@pytest.mark.slow
def test_heuristic_beats_random():
    games = 80
    wins = wins_of(lambda s: KremlinHeuristic(s), lambda s: RandomAgent(s), games)
    assert binom_p_value(wins, games, 1 / N) < 0.01, wins


@pytest.mark.slow
def test_mcts_beats_heuristic():
    games = 60
    wins = wins_of(lambda s: make_agent("mcts", "kremlin", seed=s, simulations=1000), lambda s: KremlinHeuristic(s), games)
    assert binom_p_value(wins, games, 1 / N) < 0.01, wins
