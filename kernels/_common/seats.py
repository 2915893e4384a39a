"""Going round the table: the seats still in a round of bidding, and who decides next."""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def count_in(passed, n):
    """How many of the n seats have not passed (``passed[p]`` is 0 for a seat still in)."""
    k = 0
    for p in range(n):
        k += passed[p] == 0
    return k


@njit(cache=True)
def next_in(passed, p, n, skip=-1):
    """The next seat clockwise after p that has not passed and is not ``skip`` (p itself if there is none)."""
    q = p
    for _ in range(n):
        q = (q + 1) % n
        if passed[q] == 0 and q != skip:
            return q
    return p
