"""Going round the table: the seats still in a round of bidding, who decides next, what a seat holds
(``owner[i]`` is the seat holding item i: cards in hands, flags of nations)."""

from __future__ import annotations

from .jit import internal


@internal(cache=True)
def count_in(passed, n):
    """How many of the n seats have not passed (``passed[p]`` is 0 for a seat still in)."""
    k = 0
    for p in range(n):
        k += passed[p] == 0
    return k


@internal(cache=True)
def next_in(passed, p, n, skip=-1):
    """The next seat clockwise after p that has not passed and is not ``skip`` (p itself if there is none)."""
    q = p
    for _ in range(n):
        q = (q + 1) % n
        if passed[q] == 0 and q != skip:
            return q
    return p


@internal(cache=True)
def count_held(owner, seat):
    """How many items ``seat`` holds."""
    k = 0
    for i in range(owner.shape[0]):
        k += owner[i] == seat
    return k


@internal(cache=True)
def nth_held(owner, seat, k):
    """The k-th (0-based) item ``seat`` holds, or -1 if it holds fewer than k + 1."""
    for i in range(owner.shape[0]):
        if owner[i] == seat:
            if k == 0:
                return i
            k -= 1
    return -1
