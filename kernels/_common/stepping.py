"""The step every explicit-chance game takes the same way, written once over ``dispatch`` and compiled per
record type.

A kernel binds it as its own (``step = resolve_chance_step``); the record's dtype picks the game's pieces at
compile time, so each game still gets its own specialised, cached machine code. ``step_and_mask`` is not
here: each kernel defines its own four lines, because the shared one (``dispatch.step`` then
``dispatch.legal_mask``) made the searches of Irish Gauge, Kremlin, French Revolution and Veld 7-14% slower
(benchmarks/MCTS_SPEED.md).
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
