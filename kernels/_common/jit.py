"""``internal``: numba's ``njit`` for the kernels' functions that only numba code calls.

numba builds every compiled function a CPython wrapper and a C wrapper, whether or not anything outside numba ever
calls it, and on a cold cache they are most of what a function costs before its body: 66-70 ms of CPU for a
one-line function of a game record, 25 ms without them (``benchmarks/COLD_START.md``). A first use compiles
60-149 functions, most of them helpers of the rules that Python never calls. ``internal`` compiles those without
the wrappers.

A function compiled without its CPython wrapper has no entry point Python can call: numba would jump to a missing
one and crash the interpreter. ``InternalDispatcher`` keeps such a function's compiled code where numba callers find
it (``overloads``) but out of the table Python calls look in, so a call from Python reaches ``_compile_for_args``,
which refuses it in one line. What Python calls (the contract's entries, and the helpers agents, envs and tests
call) keeps numba's own ``njit``.
"""

from __future__ import annotations

from numba import config
from numba.core.registry import CPUDispatcher

_NO_WRAPPERS = {"nopython": True, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}


class InternalDispatcher(CPUDispatcher):
    """A numba function callable only from numba code (see the module docstring)."""

    def add_overload(self, cres):
        # numba callers find the compiled code here; Python calls, which look in the dispatcher's C table, never do
        self.overloads[tuple(cres.signature.args)] = cres

    def _compile_for_args(self, *args, **kws):
        name = f"{self.py_func.__module__}.{self.py_func.__qualname__}"
        raise TypeError(
            f"{name} is compiled for numba callers only (no Python entry point); call it from numba code, "
            "or decorate it with numba.njit if Python needs it"
        )


def internal(function=None, *, cache: bool = False, **options):
    """``@internal(cache=True)``: ``numba.njit`` without the CPython and C wrappers, for a function only numba
    code calls (options as ``njit``'s). Calling it from Python raises TypeError."""

    def decorate(py_func):
        if config.DISABLE_JIT:  # as numba.njit does: the plain Python function, for debugging
            return py_func
        dispatcher = InternalDispatcher(py_func=py_func, locals={}, targetoptions={**options, **_NO_WRAPPERS})
        if cache:
            dispatcher.enable_caching()
        return dispatcher

    return decorate if function is None else decorate(function)
