"""What every room's ``observe`` writes the same way: seats as the observer sees them, the opening every
observation shares (phase, seats at the table, seat to move), one-hots of an index that may be absent, and
rows of counts scaled by a reciprocal (``reciprocal``, ``scaled``: a multiply where a division would be the
slowest part of an encoder, with the same float32 results)."""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

from .jit import internal

# The integers ``reciprocal`` checks: every value of an 8- or 16-bit record field (signed or not), and sums or
# differences of such values with the tables' small constants.
EXACT_RANGE = 1 << 16


@internal(cache=True)
def relative_seat(r, seat, p):
    """Seat p as ``seat`` sees it in its observation: 0 is the observer, 1 the next seat clockwise, ... of the
    record's ``num_players``; seat -1 (a spectator) sees absolute seats. ``(p - seat) % n`` for seats of the
    table, without the division: observe asks this for every seat of every piece."""
    if seat < 0:
        return p
    i = p - seat
    return i + r.num_players if i < 0 else i


@njit(cache=True, inline="always")
def start_observation(r, seat, mover, out, phase_at, present_at, to_move_at):
    """Clear ``out`` and write what every game's observation starts with, at the room's offsets: the phase
    one-hot, the seats at the table and the seat to move (``mover``; none when it is negative: a chance event
    or the end), seats as ``seat`` sees them. Inlined: the offsets fold into the caller's code as constants."""
    out[:] = 0.0
    out[phase_at + r.phase] = 1.0
    for p in range(r.num_players):
        out[present_at + relative_seat(r, seat, p)] = 1.0
    if mover >= 0:
        out[to_move_at + relative_seat(r, seat, mover)] = 1.0


@njit(cache=True, inline="always")
def mark(out, at, i):
    """Set item i of the one-hot piece at ``at``, if there is one (i = -1, the record's "none", marks nothing)."""
    if i >= 0:
        out[at + i] = 1.0


@cache
def reciprocal(divisor: float) -> float:
    """``1 / divisor``, for an encoder that writes ``value * (1 / divisor)`` instead of ``value / divisor`` (a
    float64 multiply instead of a division, which is several times slower and does not vectorise as well).
    Checked here for every integer ``value`` within ``EXACT_RANGE`` of 0: the product and the quotient round
    to the same float32, so the observation is bit-identical. Raises ValueError for a divisor where they differ."""
    inverse = 1.0 / float(divisor)
    values = np.arange(-EXACT_RANGE, EXACT_RANGE + 1, dtype=np.float64)
    with np.errstate(all="ignore"):  # a divisor so small that its inverse overflows fails the check below
        quotient = (values / float(divisor)).astype(np.float32)
        product = (values * inverse).astype(np.float32)
    if not np.array_equal(quotient.view(np.uint32), product.view(np.uint32)):
        raise ValueError(f"divisor {divisor}: value * (1 / divisor) is not value / divisor in float32 for some integer")
    return inverse


@njit(cache=True, inline="always")
def scaled(out, at, values, inverse):
    """``out[at + i] = values[i] * inverse`` for a 1-D row of integers (``inverse`` from ``reciprocal``): a loop
    over contiguous views that LLVM turns into vector instructions."""
    dst = out[at : at + values.shape[0]]
    for i in range(values.shape[0]):
        dst[i] = values[i] * inverse


@njit(cache=True, inline="always")
def copied(out, at, values):
    """``out[at + i] = values[i]`` for a 1-D row of 0/1 flags or small counts. Unlike ``scaled``, LLVM vectorises
    this loop only when it is long (324 items, not a row of 30 or 54); a row of 54 costs about 20 ns."""
    dst = out[at : at + values.shape[0]]
    for i in range(values.shape[0]):
        dst[i] = values[i]
