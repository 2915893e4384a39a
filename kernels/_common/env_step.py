"""The AEC env's per-step call: one numba call per decision instead of two.

``KernelAECEnv.step`` needs the next mover's mask, and the PettingZoo loop asks for that mover's
observation right after (``last()``). Each crossing from Python into numba costs about as much as a
small kernel (argument typing of the record), so both are produced by one call. ``reset`` uses the same call with
no action (``NO_ACTION``): the mover's mask and observation of the game as it stands, so that a first use compiles
one entry over the rules tree, not also ``legal_mask`` and ``to_move`` each as an entry of its own.

``env_step(kernel)`` is that call for one room, closed over the room's module (as ``stepping``'s loops are) and
calling the room's own functions directly, doing what the room's ``step_and_mask`` and ``step`` do (when they are
``stepping``'s, which it checks) in its own body: the same machine code per step as through them.
"""

from numba import njit

from . import stepping

# The code of stepping's loops: a room's function running it does exactly what the loop's body says.
_PLAIN_STEP_AND_MASK = stepping.make_step_and_mask(None).py_func.__code__
_CHANCE_STEP = stepping.make_chance_step(None).py_func.__code__
# Compiled without reference counting, as the dispatch's per-step wrappers it replaces were (tests/contract/
# test_no_allocation.py): a room function first compiled here is compiled the same way as through them.
_PER_STEP = {"cache": True, "_nrt": False}
NO_ACTION = -1  # the action that applies nothing: the mover's mask and observation of the game as it stands


def _rules_of(fn, code):
    """The room module a ``stepping`` closure ``fn`` runs with, if ``fn`` is the loop whose code is ``code``."""
    py_func = getattr(fn, "py_func", None)
    if py_func is None or py_func.__code__ is not code:
        return None
    return py_func.__closure__[0].cell_contents


_ENTRIES: dict = {}


def env_step(kernel):
    """``f(s, action, mask, obs) -> seat``: apply ``action`` (none for ``NO_ACTION``), write the mover's legal mask
    into ``mask`` and its observation into ``obs``; return the mover (``to_move``: negative when the game is over).
    Compiled once per room (and cached on disk) with the room's functions called directly."""
    entry = _ENTRIES.get(kernel)
    if entry is None:
        entry = _ENTRIES[kernel] = _make_env_step(kernel)
    return entry


def _make_env_step(kernel):
    rules = _rules_of(kernel.step_and_mask, _PLAIN_STEP_AND_MASK)
    if rules is None:  # the room's own step_and_mask (Imperial settles forced decisions with the mask)

        @njit(**_PER_STEP)
        def own_step_and_mask(s, action, mask, obs):
            if action >= 0:
                seat = kernel.step_and_mask(s, action, mask)
            else:
                kernel.legal_mask(s, mask)
                seat = kernel.to_move(s)
            if seat >= 0:
                kernel.observe(s, seat, obs)
            return seat

        return own_step_and_mask
    chance = _rules_of(rules.step, _CHANCE_STEP)
    if chance is None:  # a deterministic room: step, legal_mask, to_move as its step_and_mask

        @njit(**_PER_STEP)
        def plain_step(s, action, mask, obs):
            if action >= 0:
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
        if action >= 0:
            chance.step_decision(s, action)
            while chance.is_chance(s):
                chance.step_chance(s, chance.sample_chance(s))
        rules.legal_mask(s, mask)
        seat = rules.to_move(s)
        if seat >= 0:
            kernel.observe(s, seat, obs)
        return seat

    return chance_step
