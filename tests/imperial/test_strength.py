"""Strength (slow) of the imperial heuristic and of MCTS, on the shared helper tests/_strength.py: seat-rotated,
outright wins only, one-sided exact binomial test against the equal share 1/n, at two seeds nobody tuned.

- the heuristic wins at least half the games against random opponents at every player count, p < 0.01;
- MCTS (1000 simulations) beats three heuristics, p < 0.01.
"""

import numpy as np
import pytest

from tabletop_zoo import registry
from tabletop_zoo.kernels import imperial as k

from .._strength import SEEDS, assert_beats, heuristic_vs_random, mcts_vs_heuristics

GAME = "imperial"


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n", list(registry.player_counts(GAME)))
def test_heuristic_beats_random(n, seed):
    assert_beats(heuristic_vs_random(GAME, n, 200, seed), at_least_half=True)


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_mcts_beats_three_heuristics(seed):
    assert_beats(mcts_vs_heuristics(GAME, 4, 60, seed))


def test_evaluate_is_a_win_share_and_matches_returns_at_the_end():
    s = k.new_state(4, 3)
    out = np.zeros(6)
    k.evaluate(s, out)
    assert out[:4].sum() == pytest.approx(1.0) and (out[4:] == 0).all() and (out >= 0).all()
    rng = np.random.default_rng(0)
    m = np.zeros(k.NUM_ACTIONS, np.uint8)
    while not k.is_over(s):
        k.legal_mask(s, m)
        k.step(s, int(rng.choice(np.flatnonzero(m))))
    ret = np.zeros(6)
    k.evaluate(s, out)
    k.returns(s, ret)
    assert np.array_equal(out, ret)
