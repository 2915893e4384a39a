"""Action-mask helpers: masks are ``uint8[NUM_ACTIONS]`` arrays, 1 = legal."""

import numpy as np
from numba import njit

from .rng import uniform_int


@njit(cache=True)
def clear(mask):
    for i in range(mask.shape[0]):
        mask[i] = 0


@njit(cache=True)
def set_range(mask, start, count):
    for i in range(start, start + count):
        mask[i] = 1


@njit(cache=True)
def count_legal(mask):
    """How many ids of ``mask`` are legal. Counted in 16 bits where they fit (LLVM then adds sixteen ids an instruction
    instead of four: 801 ids in about half the time)."""
    m = mask.shape[0]
    if m > 0xFFFF:
        n = 0
        for i in range(m):
            n += mask[i]
        return n
    c = np.uint16(0)
    for i in range(m):
        c = np.uint16(c + np.uint16(mask[i]))
    return np.int64(c)


_BYTES = np.uint64(0x0101010101010101)  # times a word of 0/1 bytes: their count in the top byte


@njit(cache=True)
def _eight(mask, i):
    """mask[i .. i + 7] as the bytes of one uint64 (0/1 each; LLVM loads it at once)."""
    w = np.uint64(0)
    for j in range(8):
        w |= np.uint64(mask[i + j]) << np.uint64(8 * j)
    return w


@njit(cache=True)
def nth_legal(mask, k):
    """Id of the k-th (0-based) legal action, or -1 if there are fewer than k + 1. Eight ids at a time up to the
    word holding it: Imperial's and Veld Railroads' masks are 630-801 ids, the legal ones often far from 0."""
    m = mask.shape[0]
    i = 0
    while i + 8 <= m:
        w = _eight(mask, i)
        if w != 0:
            legal = np.int64((w * _BYTES) >> np.uint64(56))
            if k < legal:
                break
            k -= legal
        i += 8
    while i < m:
        if mask[i]:
            if k == 0:
                return i
            k -= 1
        i += 1
    return -1


@njit(cache=True)
def sample_legal(mask, rng):
    """A uniformly random legal action id drawn with the record RNG, or -1 if none is legal."""
    n = count_legal(mask)
    if n == 0:
        return -1
    return nth_legal(mask, uniform_int(rng, n))


@njit(cache=True)
def pick_legal(mask, u):
    """The int(u * n)-th of the n legal actions for u uniform in [0, 1) (a uniform choice driven by any
    generator), or -1 if none is legal."""
    n = count_legal(mask)
    if n == 0:
        return -1
    return nth_legal(mask, int(u * n))
