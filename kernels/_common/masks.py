"""Action-mask helpers: masks are ``uint8[NUM_ACTIONS]`` arrays, 1 = legal."""

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
    n = 0
    for i in range(mask.shape[0]):
        n += mask[i]
    return n


@njit(cache=True)
def nth_legal(mask, k):
    """Id of the k-th (0-based) legal action, or -1 if there are fewer than k + 1."""
    for i in range(mask.shape[0]):
        if mask[i]:
            if k == 0:
                return i
            k -= 1
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
