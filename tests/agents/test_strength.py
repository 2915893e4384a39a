"""Strength (slow) in Irish Gauge under both rulesets, on the shared helper tests/_strength.py (the other
games' strength tests live in their own tests/<game>/test_strength.py), plus the helper's own checks.

- the heuristic wins at least half the games against random opponents at 3, 4 and 5 players under
  ``ruleset="seed"`` (free all-pass certificates, IG-INIT-3 / IG-AUC-2) and ``"published"``, p < 0.01;
- MCTS (1000 simulations) beats three heuristics, p < 0.01.
"""

import math

import pytest

from .._strength import SEEDS, assert_beats, heuristic_vs_random, mcts_vs_heuristics, p_value_above_equal


def test_p_value_is_the_exact_binomial_tail():
    for wins, games, n in ((0, 5, 4), (5, 5, 4), (7, 20, 3), (120, 200, 5)):
        tail = sum(math.comb(games, i) * (1 / n) ** i * (1 - 1 / n) ** (games - i) for i in range(wins, games + 1))
        assert p_value_above_equal(wins, games, n) == pytest.approx(tail, rel=1e-9)
    with pytest.raises(ValueError, match="wins <= games"):
        p_value_above_equal(6, 5, 4)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ruleset", ["seed", "published"])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_heuristic_beats_random(n, ruleset, seed):
    assert_beats(heuristic_vs_random("irish_gauge", n, 200, seed, ruleset=ruleset), at_least_half=True)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_mcts_beats_three_heuristics(seed):
    assert_beats(mcts_vs_heuristics("irish_gauge", 4, 60, seed))
