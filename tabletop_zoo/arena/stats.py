"""Intervals that stay inside their range at any sample size.

- Win shares: Wilson's score interval (95%). A share counts 1/k for a k-way tie for first, so the number of
  "successes" may be fractional; Wilson's formula takes it as it is (for whole counts it equals
  ``scipy.stats.binomtest(k, n).proportion_ci(method="wilson")``). At 0/n the interval is [0, x], at n/n
  [x, 1], never outside [0, 1].
- Strength claims: ``p_value_above_equal``, the one-sided exact binomial p-value of winning alone more often
  than the equal share 1/players (the test of every strength claim: tests, benchmarks, model cards).
- Mean ranks: percentile bootstrap of the mean over the seats played (inside [1, players] by construction);
  with a single seat played the interval is the whole range [1, players] -- one game says nothing of spread.
"""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054


def p_value_above_equal(wins: int, games: int, players: int) -> float:
    """One-sided exact binomial p-value of 'wins more often than the equal share 1/players'.

    A win is a game the candidate wins alone: an equal player does so with probability at most 1/players, so
    the test is conservative when ties happen."""
    from scipy.stats import binomtest

    if games < 1 or not 0 <= wins <= games or players < 2:
        raise ValueError(f"need games >= 1, 0 <= wins <= games and players >= 2; got {wins}/{games}, {players}")
    return binomtest(wins, games, 1.0 / players, alternative="greater").pvalue


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """(share, low, high); (nan, 0, 1) when n == 0."""
    if n == 0:
        return (math.nan, 0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0))
    low = 0.0 if p <= 0.0 else max(0.0, centre - half)  # exact at the ends (Wilson's bound is 0 or 1 there)
    high = 1.0 if p >= 1.0 else min(1.0, centre + half)
    return (p, low, high)


def bootstrap_mean(values, lo: float, hi: float, draws: int = 2000, seed: int = 0) -> tuple[float, float, float]:
    """(mean, low, high) with a 95% percentile-bootstrap interval; the whole [lo, hi] for fewer than 2 values."""
    a = np.asarray(values, np.float64)
    if a.size == 0:
        return (math.nan, lo, hi)
    if a.size == 1:
        return (float(a[0]), lo, hi)
    rng = np.random.default_rng(seed)
    means = a[rng.integers(0, a.size, (draws, a.size))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return (float(a.mean()), float(low), float(high))


def head_to_head(records: list[dict], labels: list[str]) -> dict[str, dict[str, dict]]:
    """``table[a][b]``: over every game where a and b both sat (each pair of their seats), how often a
    finished ahead of b (a tie counts half): ``{"share": [s, low, high], "n": pairs}``."""
    ahead = {a: {b: 0.0 for b in labels} for a in labels}
    pairs = {a: {b: 0 for b in labels} for a in labels}
    for rec in records:
        seats = list(zip(rec["agents"], rec["ranks"]))
        for i, (a, ra) in enumerate(seats):
            for j, (b, rb) in enumerate(seats):
                if i == j or a == b:
                    continue
                pairs[a][b] += 1
                ahead[a][b] += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
    return {
        a: {b: {"share": list(wilson(ahead[a][b], pairs[a][b])), "n": pairs[a][b]} for b in labels if b != a}
        for a in labels
    }
