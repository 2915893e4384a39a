"""Strength (slow) of the Imperial heuristic and of MCTS: what each must win, and how it is judged, is in
``tests/_strength.strength_tests``."""

import numpy as np
import pytest

from tabletop_zoo.kernels import imperial as k

from .._strength import strength_tests

test_heuristic_beats_random, test_mcts_beats_three_heuristics = strength_tests("imperial")


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
