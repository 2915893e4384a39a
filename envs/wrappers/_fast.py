"""numba helpers shared by the training views: play random opponents until the learner must act."""

from numba import njit

from ...kernels._common.dispatch import is_over, legal_mask, step, to_move
from ...kernels._common.masks import count_legal, nth_legal, sample_legal


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
