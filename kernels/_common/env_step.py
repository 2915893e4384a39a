"""The AEC env's per-step call: one numba call per decision instead of two.

``KernelAECEnv.step`` needs the next mover's mask, and the PettingZoo loop asks for that mover's
observation right after (``last()``). Each crossing from Python into numba costs about as much as a
small kernel (argument typing of the record), so both are produced by one call.

``env_step(kernel)`` is that call for one room, closed over the room's module (as ``stepping``'s loops are) and
calling the room's own functions directly: numba compiles every function into a module of its own with every
function it calls linked in and optimised again, so each wrapper between the env and the rules costs another
pass over the whole rules tree on a cold cache. ``step_mask_observe`` below, written once over the dispatch,
goes through four such layers (itself, the dispatch's ``step_and_mask`` and ``observe`` wrappers, the room's
``step_and_mask``, its chance-resolving ``step``); ``env_step`` through one, by doing what the room's
``step_and_mask`` and ``step`` do (when they are ``stepping``'s, which it checks) in its own body: less to
compile on a cold first use, the same machine code per step.
"""

from numba import njit

from . import stepping
from .dispatch import observe
from .dispatch import step_and_mask
from .jit import internal

# The code of stepping's loops: a room's function running it does exactly what the loop's body says.
_PLAIN_STEP_AND_MASK = stepping.make_step_and_mask(None).py_func.__code__
_CHANCE_STEP = stepping.make_chance_step(None).py_func.__code__
# Compiled without reference counting, as the dispatch's per-step wrappers it replaces were (tests/contract/
# test_no_allocation.py): a room function first compiled here is compiled the same way as through them.
_PER_STEP = {"cache": True, "_nrt": False}


@internal(cache=True)
def step_mask_observe(s, action, mask, obs):
    """Apply ``action``; write the next mover's legal mask and observation; return ``to_move``."""
    seat = step_and_mask(s, action, mask)
    if seat >= 0:
        observe(s, seat, obs)
    return seat


def _rules_of(fn, code):
    """The room module a ``stepping`` closure ``fn`` runs with, if ``fn`` is the loop whose code is ``code``."""
    py_func = getattr(fn, "py_func", None)
    if py_func is None or py_func.__code__ is not code:
        return None
    return py_func.__closure__[0].cell_contents


_ENTRIES: dict = {}


def env_step(kernel):
    """``f(s, action, mask, obs) -> seat``: ``step_mask_observe`` for the room ``kernel``, compiled once per room
    (and cached on disk) with the room's functions called directly."""
    entry = _ENTRIES.get(kernel)
    if entry is None:
        entry = _ENTRIES[kernel] = _make_env_step(kernel)
    return entry


def _make_env_step(kernel):
    rules = _rules_of(kernel.step_and_mask, _PLAIN_STEP_AND_MASK)
    if rules is None:  # the room's own step_and_mask (Imperial settles forced decisions with the mask)

        @njit(**_PER_STEP)
        def own_step_and_mask(s, action, mask, obs):
            seat = kernel.step_and_mask(s, action, mask)
            if seat >= 0:
                kernel.observe(s, seat, obs)
            return seat

        return own_step_and_mask
    chance = _rules_of(rules.step, _CHANCE_STEP)
    if chance is None:  # a deterministic room: step, legal_mask, to_move as its step_and_mask

        @njit(**_PER_STEP)
        def plain_step(s, action, mask, obs):
            rules.step(s, action)
            rules.legal_mask(s, mask)
            seat = rules.to_move(s)
            if seat >= 0:
                kernel.observe(s, seat, obs)
            return seat

        return plain_step

    @njit(**_PER_STEP)
    def chance_step(s, action, mask, obs):
        # stepping.make_chance_step's step, then make_step_and_mask's mask and seat
        chance.step_decision(s, action)
        while chance.is_chance(s):
            chance.step_chance(s, chance.sample_chance(s))
        rules.legal_mask(s, mask)
        seat = rules.to_move(s)
        if seat >= 0:
            kernel.observe(s, seat, obs)
        return seat

    return chance_step
