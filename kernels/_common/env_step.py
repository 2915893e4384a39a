"""The AEC env's per-step call: one numba call per decision instead of two.

``KernelAECEnv.step`` needs the next mover's mask, and the PettingZoo loop asks for that mover's
observation right after (``last()``). Each crossing from Python into numba costs about as much as a
small kernel (argument typing of the record), so both are produced by one call, compiled per game
through the record-type dispatch.
"""

from numba import njit

from .dispatch import observe
from .dispatch import step_and_mask


@njit(cache=True)
def step_mask_observe(s, action, mask, obs):
    """Apply ``action``; write the next mover's legal mask and observation; return ``to_move``."""
    seat = step_and_mask(s, action, mask)
    if seat >= 0:
        observe(s, seat, obs)
    return seat
