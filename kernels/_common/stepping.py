"""The steps every game takes the same way, written once over ``dispatch`` and compiled per record type.

A kernel binds them as its own (``from .._common.stepping import step_and_mask``); the record's dtype picks
the game's pieces at compile time, so each game still gets its own specialised, cached machine code.
"""

from __future__ import annotations

from numba import njit

from . import dispatch


@njit(cache=True)
def resolve_chance_step(s, action):
    """``step`` of an explicit-chance game: apply one legal decision, then every chance event it opens,
    each drawn from the record's RNG (the same seed and actions reproduce the same game)."""
    dispatch.step_decision(s, action)
    while dispatch.is_chance(s):
        dispatch.step_chance(s, dispatch.sample_chance(s))


@njit(cache=True)
def step_and_mask(s, action, mask):
    """step, then the next seat's legal mask, in one call (the env's per-step path); returns to_move."""
    dispatch.step(s, action)
    dispatch.legal_mask(s, mask)
    return dispatch.to_move(s)
