"""numba helpers shared by the training views: play random opponents until the learner must act, and start
a single-seat episode inside numba exactly as ``SingleSeatEnv.reset`` does in Python.

``SingleSeatEnv.reset`` draws, from the view's ``numpy.random.default_rng`` (PCG64): the game seed
(``integers(2**63)``), one seed per opponent (``integers(2**31)``, for its ``RandomAgent``) and the seed of the
opponents' numba generator (``integers(2**63)``). ``restart_seat`` draws the same numbers from the same PCG64
state held in a ``uint64[6]`` row (``pcg64_row``/``pcg64_state``), so a batch restarts its finished games in
its step call with the games Python would have started. For these bounds numpy's integer sampler (Lemire's
method, never rejecting at a power of two) returns ``next64 >> 1`` and ``next32 >> 1``; ``next32`` halves one
64-bit output and keeps the other half for the next call (``has_uint32``), as numpy's PCG64 does.
"""

import numpy as np
from numba import njit

from ...kernels._common.dispatch import init_state, is_over, legal_mask, observe, step, to_move
from ...kernels._common.masks import count_legal, nth_legal, sample_legal

# PCG64 (numpy's default bit generator): a 128-bit LCG with the XSL-RR output; one row holds its state.
_MULT_HI, _MULT_LO = np.uint64(0x2360ED051FC65DA4), np.uint64(0x4385DF649FCCF645)
_LOW32, _ONE = np.uint64(0xFFFFFFFF), np.uint64(1)
STATE_HI, STATE_LO, INC_HI, INC_LO, HAS_UINT32, UINTEGER = range(6)  # the columns of a PCG64 row
RANDOM_SEAT = -1  # learner[i]: the seat rotates over episodes (``learner_seat="rotate"``)


def pcg64_row(generator: np.random.Generator) -> np.ndarray:
    """``uint64[6]``: the PCG64 state of ``generator`` (its bit generator must be PCG64)."""
    st = generator.bit_generator.state
    if st["bit_generator"] != "PCG64":
        raise ValueError(f"need a PCG64 generator, got {st['bit_generator']}")
    s, inc = st["state"]["state"], st["state"]["inc"]
    mask = (1 << 64) - 1
    return np.array([s >> 64, s & mask, inc >> 64, inc & mask, st["has_uint32"], st["uinteger"]], np.uint64)


def pcg64_state(row: np.ndarray) -> dict:
    """The ``bit_generator.state`` dict of a row (to set a Python generator to where numba left it)."""
    r = [int(x) for x in row]
    return {
        "bit_generator": "PCG64",
        "state": {"state": (r[STATE_HI] << 64) | r[STATE_LO], "inc": (r[INC_HI] << 64) | r[INC_LO]},
        "has_uint32": r[HAS_UINT32],
        "uinteger": r[UINTEGER],
    }


@njit(cache=True, nogil=True)
def _mul_hi64(a, b):
    """The high 64 bits of the 128-bit product of two uint64."""
    a_lo, a_hi, b_lo, b_hi = a & _LOW32, a >> np.uint64(32), b & _LOW32, b >> np.uint64(32)
    lo_lo, hi_lo, lo_hi, hi_hi = a_lo * b_lo, a_hi * b_lo, a_lo * b_hi, a_hi * b_hi
    cross = (lo_lo >> np.uint64(32)) + (hi_lo & _LOW32) + lo_hi
    return hi_hi + (hi_lo >> np.uint64(32)) + (cross >> np.uint64(32))


@njit(cache=True, nogil=True)
def pcg64_next64(g):
    """numpy's ``pcg64_next64``: step the LCG (state * MULT + inc, mod 2**128), then XSL-RR of the new state."""
    s_hi, s_lo = g[STATE_HI], g[STATE_LO]
    hi = s_hi * _MULT_LO + s_lo * _MULT_HI + _mul_hi64(s_lo, _MULT_LO)
    lo = s_lo * _MULT_LO
    new_lo = lo + g[INC_LO]
    hi = hi + g[INC_HI] + (_ONE if new_lo < lo else np.uint64(0))
    g[STATE_HI], g[STATE_LO] = hi, new_lo
    v = hi ^ new_lo
    rot = hi >> np.uint64(58)
    return (v >> rot) | (v << ((np.uint64(64) - rot) & np.uint64(63)))


@njit(cache=True, nogil=True)
def pcg64_next32(g):
    """numpy's ``pcg64_next32``: the low half of a 64-bit output, the high half kept for the next call."""
    if g[HAS_UINT32] != 0:
        g[HAS_UINT32] = 0
        return g[UINTEGER]
    x = pcg64_next64(g)
    g[HAS_UINT32] = 1
    g[UINTEGER] = x >> np.uint64(32)
    return x & _LOW32


@njit(cache=True, nogil=True)
def advance_random(s, learner, rng, mask, skip_forced):
    """Step uniformly random opponents until ``learner`` is to move or the game is over; with
    ``skip_forced`` the learner's decisions with one legal action are applied on the way (it has no
    choice there), so the learner is only asked when it has one."""
    while not is_over(s):
        legal_mask(s, mask)
        if to_move(s) != learner:
            step(s, sample_legal(mask, rng))
        elif skip_forced and count_legal(mask) == 1:
            step(s, nth_legal(mask, 0))
        else:
            return


@njit(cache=True, nogil=True)
def restart_seat(i, records, blank, num_players, args, gens, episodes, learner, opponent_seeds, policy_rngs, mask,
                 skip_forced):  # fmt: skip
    """``SingleSeatEnv.reset()`` (no seed, random opponents) of env ``i`` inside numba: the learner's seat (rotating
    by episode unless fixed), the draws of its generator ``gens[i]`` in the same order (game seed, one seed per
    opponent, the opponents' generator), a fresh record and the opponents' moves up to the learner's first
    decision. Returns the learner's seat."""
    seat = episodes[i] % num_players if learner[i] == RANDOM_SEAT else learner[i]
    episodes[i] += 1
    g = gens[i]
    game_seed = pcg64_next64(g) >> _ONE  # integers(2**63)
    for j in range(num_players - 1):
        opponent_seeds[i, j] = pcg64_next32(g) >> _ONE  # integers(2**31): RandomAgent seeds (kept for the views)
    policy_rngs[i, 0] = pcg64_next64(g) >> _ONE  # integers(2**63)
    s = records[i : i + 1]
    s[:] = blank
    init_state(s, num_players, game_seed, args)
    advance_random(s, seat, policy_rngs[i], mask, skip_forced)
    return seat


@njit(cache=True, nogil=True)
def seat_view(s, seat, obs, mask):
    """The learner's observation and mask (no legal action once the game is over, as ``action_masks()``)."""
    observe(s, seat, obs)
    if is_over(s):
        mask[:] = 0
    else:
        legal_mask(s, mask)
