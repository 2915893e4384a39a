"""``kernels/_common/jit.internal``: functions compiled without numba's wrappers work from numba code, refuse a
Python call in one line instead of crashing, also when loaded from numba's cache, and the contract's entries stay
callable from Python in every game."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from numba import njit

from tabletop_zoo import registry
from tabletop_zoo.kernels._common.contract import CHANCE_FUNCTIONS, HIDDEN_INFO_FUNCTIONS, REQUIRED_FUNCTIONS
from tabletop_zoo.kernels._common.jit import InternalDispatcher, internal


@internal
def _double(x):
    return 2 * x


@njit
def _call_double(x):
    return _double(x) + 1


def test_numba_code_calls_an_internal_function():
    assert _call_double(20) == 41
    assert isinstance(_double, InternalDispatcher)


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
