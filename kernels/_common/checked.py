"""Debug mode for code written against the raw kernel API: ``checked(kernel)``.

numba does no bounds checking, so a wrong record or action handed to a kernel reads and writes out of
bounds silently. ``checked(kernel)`` is the same kernel with every record validated (``kernel.validate``)
before each call, and again after each call that changes it, and every decision checked against the
legal mask (chance outcomes against ``chance_outcomes``): a ValueError naming the function, what is
wrong and what is allowed, instead of memory corruption. It is slow (validation is Python); use it while
developing, together with ``NUMBA_BOUNDSCHECK=1`` (numba then checks every index inside the kernels;
set it before the first import, with a fresh ``NUMBA_CACHE_DIR``, as the cached machine code has no
checks)::

    from tabletop_zoo.kernels import irish_gauge
    from tabletop_zoo.kernels._common.checked import checked
    k = checked(irish_gauge)
    s = k.new_state(3, seed=1)
    k.step(s, 999)          # ValueError: step: action 999 is out of range 0..221
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from .validate import record_from

# kernel functions that take a record first: (changes the record, takes a decision, takes a chance outcome)
_RECORD_FUNCTIONS = {
    "to_move": (False, False, False),
    "legal_mask": (False, False, False),
    "is_over": (False, False, False),
    "returns": (False, False, False),
    "evaluate": (False, False, False),
    "scores": (False, False, False),
    "observe": (False, False, False),
    "action_name": (False, False, False),
    "is_chance": (False, False, False),
    "chance_outcomes": (False, False, False),
    "sample_chance": (False, False, False),
    "step": (True, True, False),
    "step_decision": (True, True, False),
    "step_and_mask": (True, True, False),
    "step_chance": (True, False, True),
    "determinize": (True, False, False),
}


class CheckedKernel:
    """A kernel module whose record functions validate their inputs (see the module docstring); every
    other name (constants, new_state, check_invariants, ...) is the kernel's own."""

    def __init__(self, kernel: ModuleType):
        self.kernel = kernel

    def __getattr__(self, name: str):
        value = getattr(self.kernel, name)
        if name not in _RECORD_FUNCTIONS or not callable(value):
            return value
        changes, decision, chance = _RECORD_FUNCTIONS[name]

        def call(s, *args):
            self._check_record(s, name, "before")
            if decision:
                self._check_action(s, args[0], name)
            if chance:
                self._check_outcome(s, args[0], name)
            result = value(s, *args)
            if changes:
                self._check_record(s, name, "after")
            return result

        call.__name__ = call.__qualname__ = name
        call.__doc__ = value.__doc__
        return call

    def _check_record(self, s, name: str, when: str) -> None:
        record_from(self.kernel, s, source=f"{name} ({when} the call)")

    def _check_action(self, s, action, name: str) -> None:
        k = self.kernel
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"{name}: action must be an int in 0..{k.NUM_ACTIONS - 1}, got {action!r}")
        if not 0 <= action < k.NUM_ACTIONS:
            raise ValueError(f"{name}: action {action} is out of range 0..{k.NUM_ACTIONS - 1}")
        if int(k.to_move(s)) < 0:
            raise ValueError(f"{name}: no seat is to move (to_move = {int(k.to_move(s))}: chance or game over)")
        mask = np.zeros(k.NUM_ACTIONS, np.uint8)
        k.legal_mask(s, mask)
        if not mask[action]:
            raise ValueError(
                f"{name}: action {action} ({k.action_name(s, int(action))}) is illegal; legal now: "
                f"{np.flatnonzero(mask).tolist()[:40]}"
            )

    def _check_outcome(self, s, outcome, name: str) -> None:
        k = self.kernel
        if not k.is_chance(s):
            raise ValueError(f"{name}: no chance event is pending")
        ids = np.zeros(k.NUM_CHANCE_OUTCOMES, np.int64)
        probs = np.zeros(k.NUM_CHANCE_OUTCOMES, np.float64)
        n = k.chance_outcomes(s, ids, probs)
        if outcome not in ids[:n].tolist():
            raise ValueError(f"{name}: chance outcome {outcome!r} is not pending; pending: {ids[:n].tolist()}")


def checked(kernel: ModuleType) -> CheckedKernel:
    """The kernel with validated records, actions and chance outcomes (debug mode, see the module doc)."""
    return CheckedKernel(kernel)
