"""Counter-based RNG kept inside the state record.

Every game record has a field ``rng`` of dtype ``uint64`` and shape ``(1,)``; the helpers below take
that one-element array and advance it in place (SplitMix64: the state is a Weyl counter, each output
is a bijective mix of it). Same seed + same calls => same numbers, in numba and in Python alike, and
a record copy carries its generator with it.

Every draw goes through one helper (dice, uniform ints, weighted/bag draws, shuffles), each with a
distribution test in ``tests/common/test_rng.py``.
"""

import numpy as np
from numba import njit

from .jit import internal

GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_ZERO = np.uint64(0)
_TWO_POW_M53 = 1.0 / 9007199254740992.0


@internal(cache=True)
def _mix(z):
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit(cache=True)
def seed_rng(rng, seed):
    """Set the generator from a non-negative integer seed (< 2**64)."""
    rng[0] = _mix(np.uint64(seed) + GOLDEN_GAMMA)


@njit(cache=True)
def next_u64(rng):
    """Next 64-bit output; advances the counter by one step."""
    rng[0] += GOLDEN_GAMMA
    return _mix(rng[0])


@njit(cache=True)
def uniform_int(rng, n):
    """Unbiased integer in [0, n) for n >= 1 (rejection of the short top range)."""
    un = np.uint64(n)
    limit = (_ZERO - un) % un  # == 2**64 mod n: outputs below it would bias the modulo
    while True:
        x = next_u64(rng)
        if x >= limit:
            return np.int64(x % un)


@njit(cache=True)
def uniform_float(rng):
    """Float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(rng) >> _S11) * _TWO_POW_M53


@njit(cache=True)
def roll_die(rng, sides):
    """One die with faces 1..sides."""
    return uniform_int(rng, sides) + 1


@njit(cache=True)
def weighted_index(rng, weights):
    """Index i with probability weights[i] / sum(weights); integer weights >= 0, sum > 0."""
    total = 0
    for w in weights:
        total += w
    r = uniform_int(rng, total)
    for i in range(weights.shape[0]):
        r -= weights[i]
        if r < 0:
            return i
    return weights.shape[0] - 1  # unreachable when sum > 0


@njit(cache=True)
def bag_draw(rng, counts):
    """Draw one item from a bag of coloured items (counts per colour), removing it from the bag."""
    k = weighted_index(rng, counts)
    counts[k] -= 1
    return k


@njit(cache=True)
def shuffle(rng, arr):
    """Fisher-Yates shuffle of a 1-d array in place; all n! orders equally likely."""
    for i in range(arr.shape[0] - 1, 0, -1):
        j = uniform_int(rng, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
