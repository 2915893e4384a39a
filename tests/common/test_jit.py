"""``kernels/_common/jit.internal``: functions compiled without numba's wrappers work from numba code, refuse a
Python call in one line instead of crashing, also when loaded from numba's cache, and the contract's entries stay
callable from Python in every game."""

from __future__ import annotations

import contextlib
import gc
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from numba import njit, types
from numba.core import event

from tabletop_zoo import registry
from tabletop_zoo.kernels._common import rng
from tabletop_zoo.kernels._common.contract import CHANCE_FUNCTIONS, HIDDEN_INFO_FUNCTIONS, REQUIRED_FUNCTIONS
from tabletop_zoo.kernels._common.jit import (
    COMPILE_GC_THRESHOLD,
    DeferredLibrary,
    InternalDispatcher,
    internal,
    twin,
)


@internal
def _double(x):
    return 2 * x


@njit
def _call_double(x):
    return _double(x) + 1


def test_numba_code_calls_an_internal_function():
    assert _call_double(20) == 41
    assert isinstance(_double, InternalDispatcher)
    (compiled,) = _double.overloads.values()  # its module is kept for its callers: no machine code of its own
    assert isinstance(compiled.library, DeferredLibrary)
    assert not any(not f.is_declaration for f in compiled.library._final_module.functions)


def test_a_python_call_is_refused_in_one_line():
    _call_double(1)  # compiled, for numba callers
    with pytest.raises(TypeError, match=r"test_jit\._double is compiled for numba callers only") as e:
        _double(3)
    assert "\n" not in str(e.value)


MODULE = textwrap.dedent(
    """
    from numba import njit
    from tabletop_zoo.kernels._common.jit import internal

    @internal(cache=True)
    def inner(x):
        return x * 2 + 1

    @njit(cache=True)
    def outer(x):
        return inner(x) + 1
    """
)
CHILD = textwrap.dedent(
    """
    import importlib.util, sys
    from numba import njit
    spec = importlib.util.spec_from_file_location("cached_internal", sys.argv[1])
    module = importlib.util.module_from_spec(spec)
    sys.modules["cached_internal"] = module
    spec.loader.exec_module(module)
    assert module.outer(3) == 8
    inner = module.inner

    @njit
    def fresh(x):  # not cached: typing it compiles inner, or loads it from the cache
        return inner(x) - 1

    assert fresh(3) == 6
    print("inner from the cache:", sum(inner.stats.cache_hits.values()))
    try:
        inner(3)
    except TypeError as e:
        print("refused:", e)
    """
)


def test_a_cached_internal_function_still_refuses_python(tmp_path):
    """The second process loads the internal function from numba's cache; it still refuses Python."""
    path = tmp_path / "cached_internal.py"
    path.write_text(MODULE)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    for run, hits in (("compiles", 0), ("loads", 1)):
        out = subprocess.run([sys.executable, "-c", CHILD, str(path)], env=env, capture_output=True, text=True)
        assert out.returncode == 0, (run, out.stderr[-2000:])
        assert f"inner from the cache: {hits}" in out.stdout, (run, out.stdout)
        assert "refused: cached_internal.inner is compiled for numba callers only" in out.stdout, (run, out.stdout)


@pytest.mark.parametrize("game", sorted(registry.KERNELS))
def test_the_contract_entries_are_callable_from_python(game):
    k = registry.kernel(game)
    for name in (*REQUIRED_FUNCTIONS, *CHANCE_FUNCTIONS, *HIDDEN_INFO_FUNCTIONS, "rollout_action"):
        assert not isinstance(getattr(k, name, None), InternalDispatcher), (game, name)


# --- internal twins: numba callers of this package's njit functions use a wrapper-less copy ------------------------
def test_numba_callers_of_a_public_function_compile_its_internal_twin():
    public = rng.uniform_int
    body = twin(public)
    assert isinstance(body, InternalDispatcher) and body.py_func.__qualname__ == "uniform_int.<internal>"
    assert twin(body) is None and twin(_double) is None and twin(_call_double) is None  # not of this package

    @njit
    def draw(state, n):
        return rng.uniform_int(state, n)

    before = set(public.overloads)
    state = np.zeros(1, np.uint64)
    rng.seed_rng(state, 7)
    from_numba = draw(state.copy(), 1000)
    assert set(public.overloads) == before  # the numba caller compiled the twin, not the Python entry
    signature = (types.Array(types.uint64, 1, "C"), types.int64)
    assert signature in body.overloads
    from_python = public(state.copy(), 1000)
    assert from_python == from_numba
    # the twin's code is linked into its callers, never emitted on its own (compiled here, a DeferredLibrary; loaded
    # from numba's cache, numba's own library holding the same two modules); the Python entry is emitted whole
    deferred = body.overloads[signature].library
    assert not any(not f.is_declaration for f in deferred._final_module.functions)  # what the engine emits
    linked = {f.name for f in deferred._get_module_for_linking().functions if not f.is_declaration}
    assert any("uniform_int" in name for name in linked) and any("next_u64" in name for name in linked)
    entry = public.overloads[signature]
    assert not isinstance(entry.library, DeferredLibrary) and entry.entry_point is not None


TWIN_CHILD = textwrap.dedent(
    """
    import sys
    import numpy as np
    from numba import njit
    from tabletop_zoo.kernels._common import rng
    from tabletop_zoo.kernels._common.jit import twin

    state = np.zeros(1, np.uint64)
    if sys.argv[1] == "numba":
        @njit
        def draw(state, n):
            return rng.uniform_int(state, n)
        print("value", draw(state, 1000))
    else:
        print("value", rng.uniform_int(state, 1000))
    print("twin hits", sum(twin(rng.uniform_int).stats.cache_hits.values()))
    print("entry hits", sum(rng.uniform_int.stats.cache_hits.values()))
    """
)


def test_a_cached_twin_is_never_loaded_for_a_python_call(tmp_path):
    """A twin has no entry point for Python. Cached by a numba caller in one process, it is linked into the Python
    entry compiled in the next, and a third process loads that entry from the cache, not the twin."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    outputs = []
    for caller in ("numba", "python", "python"):
        out = subprocess.run([sys.executable, "-c", TWIN_CHILD, caller], env=env, capture_output=True, text=True)
        assert out.returncode == 0, (caller, out.stderr[-2000:])
        outputs.append(out.stdout)
    values = {line for out in outputs for line in out.splitlines() if line.startswith("value")}
    assert len(values) == 1, outputs
    assert "twin hits 0" in outputs[0] and "entry hits 0" in outputs[0], outputs[0]
    assert "twin hits 1" in outputs[1] and "entry hits 0" in outputs[1], outputs[1]  # the twin from the cache
    assert "twin hits 0" in outputs[2] and "entry hits 1" in outputs[2], outputs[2]  # the whole entry from it


@contextlib.contextmanager
def _thresholds_at_each_compile():
    """The collector's thresholds when each numba compile starts, in order."""
    seen = []

    class Listener(event.Listener):
        def on_start(self, ev):
            seen.append(gc.get_threshold())

        def on_end(self, ev):
            pass

    listener = Listener()
    event.register("numba:compile", listener)
    try:
        yield seen
    finally:
        event.unregister("numba:compile", listener)


@contextlib.contextmanager
def _collector_at(*thresholds):
    before = gc.get_threshold()
    gc.set_threshold(*thresholds)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _fresh_pair():
    """A new numba function calling another new one: two compiles, the callee's inside the caller's."""

    @internal
    def inner(x):
        return x + 3

    @njit
    def outer(x):
        return inner(x) * 2

    return outer


def test_compiles_run_with_fewer_collections_and_give_the_setting_back():
    with _collector_at(700, 10, 10), _thresholds_at_each_compile() as seen:
        assert _fresh_pair()(1) == 8
        assert gc.get_threshold() == (700, 10, 10)  # given back as soon as the outermost compile is done
    assert len(seen) >= 2  # the caller's compile and, inside it, the callee's
    assert set(seen) == {(COMPILE_GC_THRESHOLD, 10, 10)}


@pytest.mark.parametrize("thresholds", [(0, 10, 10), (COMPILE_GC_THRESHOLD * 5, 3, 4)])
def test_a_caller_that_disabled_or_raised_the_threshold_keeps_its_setting(thresholds):
    with _collector_at(*thresholds), _thresholds_at_each_compile() as seen:
        assert _fresh_pair()(2) == 10
        assert gc.get_threshold() == thresholds
    assert seen and set(seen) == {thresholds}


def test_a_failed_compile_gives_the_setting_back():
    @njit
    def broken(x):
        return x.no_such_attribute

    with _collector_at(700, 10, 10):
        with pytest.raises(Exception, match="no_such_attribute"):
            broken(1)
        assert gc.get_threshold() == (700, 10, 10)
