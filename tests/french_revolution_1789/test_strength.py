"""Strength (slow) of the french_revolution_1789 heuristic and of MCTS, on the shared helper tests/_strength.py: seat-rotated,
outright wins only, one-sided exact binomial test against the equal share 1/n, at two seeds nobody tuned.

- the heuristic wins at least half the games against random opponents at every player count, p < 0.01;
- MCTS (1000 simulations) beats three heuristics, p < 0.01.
"""

import pytest

from tabletop_zoo import registry

from .._strength import SEEDS, assert_beats, heuristic_vs_random, mcts_vs_heuristics

GAME = "french_revolution_1789"


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", list(registry.player_counts(GAME)))
def test_heuristic_beats_random(n, seed):
    assert_beats(heuristic_vs_random(GAME, n, 200, seed), at_least_half=True)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_mcts_beats_three_heuristics(seed):
    assert_beats(mcts_vs_heuristics(GAME, 4, 60, seed))
