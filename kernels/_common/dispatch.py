"""Call any game's kernel from generic numba code: the record's dtype picks the kernel.

``legal_mask(s, mask)``, ``step(s, a)``, ... below are plain Python functions that look the kernel up by
``s.dtype``; inside numba they are resolved at compile time through ``numba.extending.overload``, so a
search written once against these names compiles into a specialised, cacheable function per game
(the record type is part of the signature, hence of the cache key). Each kernel registers itself on
import (``register(sys.modules[__name__])`` in its ``__init__``), so a record's kernel is known as soon
as the record can exist, and this module imports nothing above ``kernels/``.
"""

from __future__ import annotations

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


def legal_mask(s, mask):
    return kernel_for(s.dtype).legal_mask(s, mask)


def step(s, action):
    return kernel_for(s.dtype).step(s, action)


def to_move(s):
    return kernel_for(s.dtype).to_move(s)


def step_and_mask(s, action, mask):
    return kernel_for(s.dtype).step_and_mask(s, action, mask)


def is_over(s):
    return kernel_for(s.dtype).is_over(s)


def returns(s, out):
    return kernel_for(s.dtype).returns(s, out)


def scores(s, out):
    return kernel_for(s.dtype).scores(s, out)


def evaluate(s, out):
    return kernel_for(s.dtype).evaluate(s, out)


def estimate(s, out):
    return kernel_for(s.dtype).estimate(s, out)


def step_decision(s, action):
    return kernel_for(s.dtype).step_decision(s, action)


def is_chance(s):
    return kernel_for(s.dtype).is_chance(s)


def step_chance(s, outcome):
    return kernel_for(s.dtype).step_chance(s, outcome)


def sample_chance(s):
    return kernel_for(s.dtype).sample_chance(s)


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


def observe(s, seat, out):
    return kernel_for(s.dtype).observe(s, seat, out)


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


@overload(init_state, jit_options=_WRAPPER)
def _ov_init_state(s, num_players, seed, setup):
    fn = kernel_for(s).init_state
    return lambda s, num_players, seed, setup: fn(s, num_players, seed, *setup)


@overload(legal_mask, jit_options=_PER_STEP)
def _ov_legal_mask(s, mask):
    fn = kernel_for(s).legal_mask
    return lambda s, mask: fn(s, mask)


@overload(step, jit_options=_PER_STEP)
def _ov_step(s, action):
    fn = kernel_for(s).step
    return lambda s, action: fn(s, action)


@overload(step_and_mask, jit_options=_PER_STEP)
def _ov_step_and_mask(s, action, mask):
    fn = kernel_for(s).step_and_mask
    return lambda s, action, mask: fn(s, action, mask)


@overload(to_move, jit_options=_PER_STEP)
def _ov_to_move(s):
    fn = kernel_for(s).to_move
    return lambda s: fn(s)


@overload(is_over, jit_options=_PER_STEP)
def _ov_is_over(s):
    fn = kernel_for(s).is_over
    return lambda s: fn(s)


@overload(returns, jit_options=_WRAPPER)
def _ov_returns(s, out):
    fn = kernel_for(s).returns
    return lambda s, out: fn(s, out)


@overload(scores, jit_options=_WRAPPER)
def _ov_scores(s, out):
    fn = kernel_for(s).scores
    return lambda s, out: fn(s, out)


@overload(evaluate, jit_options=_WRAPPER)
def _ov_evaluate(s, out):
    fn = kernel_for(s).evaluate
    return lambda s, out: fn(s, out)


@overload(estimate, jit_options=_WRAPPER)
def _ov_estimate(s, out):
    fn = kernel_for(s).estimate
    return lambda s, out: fn(s, out)


@overload(step_decision, jit_options=_PER_STEP)
def _ov_step_decision(s, action):
    fn = kernel_for(s).step_decision
    return lambda s, action: fn(s, action)


@overload(is_chance, jit_options=_PER_STEP)
def _ov_is_chance(s):
    fn = kernel_for(s).is_chance
    return lambda s: fn(s)


@overload(step_chance, jit_options=_PER_STEP)
def _ov_step_chance(s, outcome):
    fn = kernel_for(s).step_chance
    return lambda s, outcome: fn(s, outcome)


@overload(sample_chance, jit_options=_PER_STEP)
def _ov_sample_chance(s):
    fn = kernel_for(s).sample_chance
    return lambda s: fn(s)


@overload(observe, jit_options=_PER_STEP)
def _ov_observe(s, seat, out):
    fn = kernel_for(s).observe
    return lambda s, seat, out: fn(s, seat, out)


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
