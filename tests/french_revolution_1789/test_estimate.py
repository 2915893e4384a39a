"""The search's position estimate (``estimate.py``): persons score under the regime the vote markers on the boxes
would set (FR-REG-1), so a vote counts as soon as it is cast, at every player count."""

import importlib

import numpy as np
import pytest

from ._helpers import AM, CM, EMP, RA, REGIME, REP, SELECT, VOTE, action_state, give, k, pass_all, play

estimate_module = importlib.import_module("tabletop_zoo.kernels.french_revolution_1789.estimate")


def _strengths(s) -> np.ndarray:
    out = np.zeros(k.MAX_PLAYERS, np.float64)
    estimate_module.strengths(s, out)
    return out[: s[0]["num_players"]]


def _last_turn(n: int) -> tuple:
    """Turn V's action phase, seat 0 to act: seat 0 holds Louis XVI (AM 5) and Napoleon (EMP 5), the last seat
    Barnave (CM 4) and Brissot (REP 4)."""
    s = action_state(n, regime=AM, turn=4)
    cards = give(s, "louis_xvi", 0), give(s, "napoleon", 0), give(s, "barnave", n - 1), give(s, "brissot", n - 1)
    return s, cards


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_FR_REG_1_a_vote_counts_in_the_estimate_as_soon_as_it_is_cast(n):
    """Under Absolute Monarchy seat 0 leads (Louis XVI, 5 VP a scoring); once Louis XVI has voted for
    Constitutional Monarchy (3 markers), the estimate scores the last seat's Barnave instead."""
    s, (lxvi, *_) = _last_turn(n)
    before = _strengths(s)
    assert before[0] == 5 and before[n - 1] == 0
    play(s, 0, SELECT + lxvi, RA + VOTE, REGIME + CM)
    after = _strengths(s)
    assert after[0] == 0 and after[n - 1] == 4
    shares = np.zeros(k.MAX_PLAYERS, np.float64)
    k.evaluate(s, shares)
    assert shares[n - 1] > shares[0]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize(
    "votes,expected",
    [
        ({}, AM),  # no votes: the regime stays (FR-REG-1)
        ({CM: 4, REP: 4}, AM),  # a tie for the most keeps the regime in force
        ({CM: 3, REP: 5}, REP),
        ({AM: 2, CM: 2, EMP: 3}, EMP),
    ],
)
def test_FR_REG_1_FR_SCO_1_estimate_in_the_last_action_phase_is_the_final_score(n, votes, expected):
    """In turn V's action phase the estimate (VP + the one scoring left under the voted regime + RP / 20) is
    exactly what every seat ends with once all pass: the regime and scoring phases (FR-REG-1, FR-SCO-1) and
    the end (FR-END-1)."""
    s, _ = _last_turn(n)
    s[0]["rp"][:n] = np.arange(n) * 3
    for g, v in votes.items():
        s[0]["votes"][g] = v
    predicted = _strengths(s)
    pass_all(s, range(n))
    r = s[0]
    assert k.is_over(s) and r["regime"] == expected
    assert np.allclose(predicted, r["vp"][:n] + r["rp"][:n] / 20.0)
