"""Turning per-seat scores into rewards and estimates, the same way in every game, and the contract's ``evaluate``.

Arrays are sized ``MAX_PLAYERS``; only the first ``n`` seats are at the table and empty seats get 0.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
from numba import njit

from .jit import internal


@internal(cache=True)
def seat_values(values, n, out):
    """out[p] = values[p] for the n seats at the table, 0 for empty seats (a game's ``scores``)."""
    for p in range(out.shape[0]):
        out[p] = values[p] if p < n else 0


@internal(cache=True)
def win_shares(worth, n, out):
    """1/k to each of the k seats tied for the highest worth, 0 to every other seat. ``worth`` may be ``out``
    itself: a seat's worth is read before its share is written."""
    best = worth[0]
    for p in range(n):
        best = max(best, worth[p])
    k = 0
    for p in range(n):
        k += worth[p] == best
    for p in range(out.shape[0]):
        out[p] = 1.0 / k if p < n and worth[p] == best else 0.0


@internal(cache=True)
def final_shares(worth, n, over, out):
    """A game's ``returns``: ``win_shares`` of the final worth once the game is over, 0 to every seat before."""
    if over:
        win_shares(worth, n, out)
    else:
        out[:] = 0.0


@internal(cache=True)
def margins_from_mean(values, n, out):
    """out[p] = values[p] - mean(values[:n]) for the n seats at the table, 0 for empty seats."""
    mean = 0.0
    for p in range(n):
        mean += values[p]
    mean /= n
    for p in range(out.shape[0]):
        out[p] = values[p] - mean if p < n else 0.0


@internal(cache=True)
def softmax_shares(worth, n, temperature, out):
    """Win-share estimate from an expected worth: out[p] proportional to exp((worth[p] - best) / temperature),
    so a seat ``temperature`` ahead is e times likelier to win; sums to 1 over the n seats (``evaluate``)."""
    best = worth[0]
    for p in range(n):
        best = max(best, worth[p])
    total = 0.0
    for p in range(out.shape[0]):
        out[p] = np.exp((worth[p] - best) / temperature) if p < n else 0.0
        total += out[p]
    for p in range(n):
        out[p] /= total


def softmax_estimate(room: ModuleType):
    """The contract's ``estimate`` of the room whose ``estimate`` module ``room`` defines ``strengths(s, worth)``
    (each seat's expected final score, or another strength, into a zeroed float64[MAX_PLAYERS]) and
    ``TEMPERATURE`` (how far ahead makes a seat e times likelier to win): ``softmax_shares`` of the strengths.
    It closes over the module, not its functions, for the reason ``stepping.make_step_and_mask`` gives."""

    @njit(cache=True)
    def estimate(s, out):
        worth = np.zeros(out.shape[0], np.float64)
        room.strengths(s, worth)
        softmax_shares(worth, s[0].num_players, room.TEMPERATURE, out)

    return estimate


def make_evaluate(kernel: ModuleType):
    """The contract's ``evaluate`` of the room ``kernel``: ``returns()`` itself once the game is over, otherwise
    the room's ``estimate`` of them. It calls the room's functions directly, closed over the module as
    ``stepping.make_step_and_mask`` is (the search calls it at the end of every truncated rollout)."""

    @njit(cache=True)
    def evaluate(s, out):
        if kernel.is_over(s):
            kernel.returns(s, out)
        else:
            kernel.estimate(s, out)

    return evaluate
