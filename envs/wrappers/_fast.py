"""numba helpers shared by the training views: play random opponents until the learner must act."""

from numba import njit

from ...kernels._common.dispatch import is_over, legal_mask, step, to_move
from ...kernels._common.masks import sample_legal


@njit(cache=True, nogil=True)
def advance_random(s, learner, rng, mask):
    """Step uniformly random opponents until ``learner`` is to move or the game is over."""
    while not is_over(s) and to_move(s) != learner:
        legal_mask(s, mask)
        step(s, sample_legal(mask, rng))
