"""Whole-run ratings and intervals that stay inside their range (constructed records, no games played)."""

import math

import numpy as np
import pytest
from scipy.stats import binomtest

from tabletop_zoo.arena import seating, summarize
from tabletop_zoo.arena.ratings import fit_ratings
from tabletop_zoo.arena.stats import bootstrap_mean, head_to_head, wilson

LINEUP = ["heuristic", "mcts", "random"]


def _records(outcomes, lineup=LINEUP, players=3):
    """One record per game: seats rotated as the arena does; ``outcomes[g]`` maps agent -> rank."""
    recs = []
    for g, ranks in enumerate(outcomes):
        agents = [lineup[j] for j in seating(lineup, players, g)]
        recs.append({"game": g, "agents": agents, "ranks": [ranks[a] for a in agents], "length": 1})
    return recs


@pytest.mark.parametrize("games", [10, 30, 300])
def test_equal_placements_give_equal_ratings_at_any_length(games):
    """heuristic and mcts each win half the games against each other, the wins bunched at the start for one
    and at the end for the other: a sequential update would rate them apart, a whole-run fit does not."""
    half = games // 2
    outcomes = [{"heuristic": 1, "mcts": 2, "random": 3}] * half + [{"heuristic": 2, "mcts": 1, "random": 3}] * (
        games - half
    )
    rated = fit_ratings(_records(outcomes), LINEUP, bootstrap=20)
    h, m = rated["heuristic"][0], rated["mcts"][0]
    assert h == pytest.approx(m, rel=0.01) and h > 100  # both well above the anchor
    assert rated["random"] == (0.0, 0.0, 0.0) and rated["_anchor"] == "random"


def test_identical_placements_with_the_anchor_rate_equal():
    """The README's default run: heuristic and random place identically -> both at the anchor's 0."""
    outcomes = [{"heuristic": 1, "random": 2, "mcts": 3}, {"heuristic": 2, "random": 1, "mcts": 3}] * 15
    rated = fit_ratings(_records(outcomes), LINEUP, bootstrap=0)
    assert abs(rated["heuristic"][0]) < 1e-3 and rated["mcts"][0] < -300


def test_ratings_follow_strength_and_intervals_contain_the_fit():
    rng = np.random.default_rng(0)
    outcomes = []
    for _ in range(60):  # mcts usually first, random usually last
        order = sorted(LINEUP, key=lambda a: {"mcts": 0, "heuristic": 1, "random": 2}[a] + rng.normal(0, 0.8))
        outcomes.append({a: i + 1 for i, a in enumerate(order)})
    rated = fit_ratings(_records(outcomes), LINEUP, bootstrap=50)
    assert rated["mcts"][0] > rated["heuristic"][0] > rated["random"][0] == 0
    for lab in LINEUP:
        assert rated[lab][1] <= rated[lab][0] <= rated[lab][2]


def test_an_unbeaten_agent_gets_a_finite_rating():
    outcomes = [{"mcts": 1, "heuristic": 2, "random": 3}] * 10
    rated = fit_ratings(_records(outcomes), LINEUP, bootstrap=10)
    assert all(math.isfinite(v) for lab in LINEUP for v in rated[lab])


def test_ties_share_credit():
    outcomes = [{"mcts": 1, "heuristic": 1, "random": 3}] * 8
    rated = fit_ratings(_records(outcomes), LINEUP, bootstrap=0)
    assert rated["mcts"][0] == pytest.approx(rated["heuristic"][0], rel=1e-6)


@pytest.mark.parametrize("k, n", [(0, 10), (10, 10), (0, 1), (1, 1), (3, 7), (50, 200)])
def test_wilson_stays_in_range_and_matches_scipy(k, n):
    share, low, high = wilson(k, n)
    assert 0.0 <= low <= share <= high <= 1.0
    ref = binomtest(k, n).proportion_ci(method="wilson")
    assert (low, high) == pytest.approx((ref.low, ref.high), abs=1e-9)
    assert (low == 0.0) == (k == 0) and (high == 1.0) == (k == n)


def test_wilson_with_fractional_successes_and_no_games():
    share, low, high = wilson(2.5, 6)  # a tie for first counts 1/k
    assert share == pytest.approx(2.5 / 6) and 0 < low < share < high < 1
    assert wilson(0, 0)[1:] == (0.0, 1.0) and math.isnan(wilson(0, 0)[0])


def test_mean_rank_interval_stays_in_range():
    assert bootstrap_mean([2], 1, 4) == (2.0, 1, 4)  # one game: the whole range
    mean, low, high = bootstrap_mean([1, 1, 1, 1], 1, 4)
    assert (mean, low, high) == (1.0, 1.0, 1.0)
    mean, low, high = bootstrap_mean([1, 4, 2, 3, 4, 1], 1, 4)
    assert 1 <= low < mean < high <= 4


def test_head_to_head_counts_seat_pairs():
    outcomes = [{"mcts": 1, "heuristic": 2, "random": 3}] * 3 + [{"mcts": 2, "heuristic": 1, "random": 2}]
    table = head_to_head(_records(outcomes), LINEUP)
    assert table["mcts"]["heuristic"]["n"] == 4
    assert table["mcts"]["heuristic"]["share"][0] == pytest.approx(3 / 4)
    assert table["mcts"]["random"]["share"][0] == pytest.approx((3 + 0.5) / 4)  # a tie counts half
    assert table["random"]["mcts"]["share"][0] == pytest.approx(0.5 / 4)


def test_same_agent_in_two_seats_is_one_agent():
    lineup = ["heuristic", "random"]
    outcomes = [{"heuristic": 1, "random": 2}] * 6
    recs = _records(outcomes, lineup)  # 3 seats, 2 agents: one of them sits twice
    summary = summarize(recs, lineup, 3, bootstrap=10)
    assert summary["agents"]["heuristic"]["seats_played"] + summary["agents"]["random"]["seats_played"] == 18
    # 3 games with heuristic in two seats tied first (1/2 each), 3 with it alone first: 6 wins over 9 seats
    assert summary["agents"]["heuristic"]["win_rate"][0] == pytest.approx(6 / 9)
    assert summary["agents"]["heuristic"]["rating"][0] > summary["agents"]["random"]["rating"][0] == 0.0
    for label in lineup:
        for share, low, high, n in summary["by_seat"][label]:
            assert n == 0 or 0 <= low <= share <= high <= 1
