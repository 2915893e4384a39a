"""Call any game's kernel from generic numba code: the record's dtype picks the kernel.

``legal_mask(s, mask)``, ``step(s, a)``, ... below are plain Python functions that look the kernel up by
``s.dtype``; inside numba they are resolved at compile time through ``numba.extending.overload``, so a
search written once against these names compiles into a specialised, cacheable function per game
(the record type is part of the signature, hence of the cache key). Each kernel registers itself on
import (``register(sys.modules[__name__])`` in its ``__init__``), so a record's kernel is known as soon
as the record can exist, and this module imports nothing above ``kernels/``.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np
from numba import from_dtype
from numba.extending import overload

from .masks import sample_legal

_BY_DTYPE: dict[np.dtype, ModuleType] = {}


def register(kernel: ModuleType) -> None:
    """Make a kernel module (anything honouring the kernel contract) callable from generic code."""
    _BY_DTYPE[np.dtype(kernel.STATE)] = kernel


def kernel_for(dtype) -> ModuleType:
    """The kernel whose STATE is ``dtype`` (a numpy dtype or a numba array-of-records type)."""
    if not isinstance(dtype, np.dtype):  # numba type of the record array
        for known, kernel in _BY_DTYPE.items():
            if from_dtype(known) == dtype.dtype:
                return kernel
        raise TypeError(f"no registered kernel has the record type {dtype}")
    try:
        return _BY_DTYPE[dtype]
    except KeyError:
        raise TypeError(f"no registered kernel has the state dtype {dtype}") from None


# Python versions (also what runs under NUMBA_DISABLE_JIT) ------------------------------------------
def init_state(s, num_players, seed, setup):
    """The kernel's ``init_state(s, num_players, seed, *setup)``: its game arguments come as one tuple."""
    return kernel_for(s.dtype).init_state(s, num_players, seed, *setup)


def rollout_action(s, mask, rng):
    """The kernel's rollout policy (optional hook); a uniformly random legal action for kernels without one."""
    kernel = kernel_for(s.dtype)
    if hasattr(kernel, "rollout_action"):
        return kernel.rollout_action(s, mask, rng)
    return sample_legal(mask, rng)


def determinize(s, seat, seed):
    """Resample what ``seat`` cannot see; nothing to do in perfect-information games."""
    kernel = kernel_for(s.dtype)
    if kernel.INFORMATION == "imperfect":
        kernel.determinize(s, seat, seed)


def num_actions(s):
    return kernel_for(s.dtype).NUM_ACTIONS


def max_players(s):
    return kernel_for(s.dtype).MAX_PLAYERS


# numba versions: resolved once per record type at compile time ---------------------------------
# The per-step functions (what a rollout calls at every decision, which the contract says allocate nothing:
# tests/contract/test_no_allocation.py) are wrapped without reference counting. With it, each call through a
# wrapper adds an atomic incref and decref of every array it passes (inline="always" keeps them: inlined
# arguments are new references), a cost on every step of every rollout that nothing needs.
# A kernel function first compiled through such a wrapper is compiled without it too (numba passes the flag
# down; one compiled before keeps its own), so it must not allocate, as the contract already says. What runs
# once per search simulation (evaluate, estimate, returns, determinize) may allocate and keeps it.
_PER_STEP = {"cache": True, "_nrt": False}
_WRAPPER = {"cache": True}


def _forward(name: str, jit_options: dict) -> Callable:
    """The generic ``name(s, ...)``: the record's kernel's own ``name``, found by the record's dtype, in Python (and
    under NUMBA_DISABLE_JIT) at every call and in numba once per record type, where it compiles to a direct call."""

    def generic(s, *args):
        return getattr(kernel_for(s.dtype), name)(s, *args)

    @overload(generic, jit_options=jit_options)
    def _ov_generic(s, *args):
        fn = getattr(kernel_for(s), name)
        return lambda s, *args: fn(s, *args)

    generic.__name__ = generic.__qualname__ = name
    generic.__doc__ = f"The record's kernel's ``{name}``."
    return generic


legal_mask = _forward("legal_mask", _PER_STEP)
step = _forward("step", _PER_STEP)
to_move = _forward("to_move", _PER_STEP)
step_and_mask = _forward("step_and_mask", _PER_STEP)
is_over = _forward("is_over", _PER_STEP)
step_decision = _forward("step_decision", _PER_STEP)
is_chance = _forward("is_chance", _PER_STEP)
step_chance = _forward("step_chance", _PER_STEP)
sample_chance = _forward("sample_chance", _PER_STEP)
observe = _forward("observe", _PER_STEP)
returns = _forward("returns", _WRAPPER)
scores = _forward("scores", _WRAPPER)
evaluate = _forward("evaluate", _WRAPPER)
estimate = _forward("estimate", _WRAPPER)


@overload(init_state, jit_options=_WRAPPER)
def _ov_init_state(s, num_players, seed, setup):
    fn = kernel_for(s).init_state
    return lambda s, num_players, seed, setup: fn(s, num_players, seed, *setup)


@overload(rollout_action, jit_options=_PER_STEP)
def _ov_rollout_action(s, mask, rng):
    kernel = kernel_for(s)
    if not hasattr(kernel, "rollout_action"):
        return lambda s, mask, rng: sample_legal(mask, rng)
    fn = kernel.rollout_action
    return lambda s, mask, rng: fn(s, mask, rng)


@overload(determinize, jit_options=_WRAPPER)
def _ov_determinize(s, seat, seed):
    kernel = kernel_for(s)
    if kernel.INFORMATION != "imperfect":
        return lambda s, seat, seed: None
    fn = kernel.determinize
    return lambda s, seat, seed: fn(s, seat, seed)


@overload(num_actions, jit_options=_WRAPPER)
def _ov_num_actions(s):
    n = kernel_for(s).NUM_ACTIONS
    return lambda s: n


@overload(max_players, jit_options=_WRAPPER)
def _ov_max_players(s):
    n = kernel_for(s).MAX_PLAYERS
    return lambda s: n
