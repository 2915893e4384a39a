"""Exact probabilities for explicit chance nodes (OpenSpiel's chance-outcome idea).

Bag draws without replacement are multivariate hypergeometric: drawing ``take[i]`` items of each
colour from a bag holding ``counts[i]`` has probability prod C(counts[i], take[i]) / C(sum, sum(take)).
"""

from numba import njit


@njit(cache=True)
def comb(n, k):
    """Binomial coefficient C(n, k) as a float (exact for the small n of board games)."""
    if k < 0 or k > n:
        return 0.0
    k = min(k, n - k)
    out = 1.0
    for i in range(k):
        out = out * (n - i) / (i + 1)
    return out


@njit(cache=True)
def hypergeom_prob(counts, take):
    """P(drawing exactly ``take`` per colour) from a bag with ``counts`` per colour, no replacement."""
    total = 0
    n = 0
    p = 1.0
    for i in range(counts.shape[0]):
        total += counts[i]
        n += take[i]
        p *= comb(counts[i], take[i])
    denom = comb(total, n)
    if denom == 0.0:
        return 0.0
    return p / denom
