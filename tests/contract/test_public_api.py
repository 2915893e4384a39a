"""The public API is typed and documented (#49): every public function, method and property of the API modules
has a return annotation and a docstring of its own (``py.typed`` promises the first; the API reference is built
from the second). A function added without either fails here, before a user or ``mkdocs --strict`` finds it."""

from __future__ import annotations

import importlib
import inspect
import sys
import types

import pytest

import tabletop_zoo

API_MODULES = [
    "tabletop_zoo.registry",
    "tabletop_zoo.envs.base",
    "tabletop_zoo.envs.vector",
    "tabletop_zoo.envs.torchrl_env",
    "tabletop_zoo.envs.wrappers.single_seat",
    "tabletop_zoo.envs.wrappers.vector",
    "tabletop_zoo.agents.base",
    "tabletop_zoo.agents.registry",
    "tabletop_zoo.agents.spec",
    "tabletop_zoo.agents.random_agent",
    "tabletop_zoo.agents.search_agent",
    "tabletop_zoo.agents.policy_agent",
    "tabletop_zoo.agents.mcts.agent",
    "tabletop_zoo.agents.mcts.uct",
    "tabletop_zoo.arena.files",
    "tabletop_zoo.arena.ladder",
    "tabletop_zoo.arena.ratings",
    "tabletop_zoo.arena.reaper",
    "tabletop_zoo.arena.report",
    "tabletop_zoo.arena.stats",
    "tabletop_zoo.arena.tournament",
    "tabletop_zoo.play",
    "tabletop_zoo.progress",
    "tabletop_zoo.replay",
    "tabletop_zoo.standings",
]
NEEDS = {"tabletop_zoo.envs.torchrl_env": "torchrl", "tabletop_zoo.envs.wrappers.vector": "stable_baselines3"}


def _functions(module) -> list[tuple[str, object]]:
    """(qualified name, function) for the module's public functions and its public classes' own methods and
    properties (``__init__`` included: it must say ``-> None``); numba functions by their Python source."""
    found = []
    for name, obj in vars(module).items():
        if name.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_") and attr != "__init__":
                    continue
                if isinstance(member, property):
                    member = member.fget
                member = getattr(member, "__func__", member)  # classmethod, staticmethod
                if inspect.isfunction(member) and member.__module__ == module.__name__:  # not typing.Protocol's
                    found.append((f"{name}.{attr}", member))
        elif inspect.isfunction(obj) or hasattr(obj, "py_func"):
            found.append((name, getattr(obj, "py_func", obj)))
    return found


def _problems(module_name: str) -> list[str]:
    if module_name in NEEDS:
        pytest.importorskip(NEEDS[module_name])
    module = importlib.import_module(module_name)
    problems = []
    for name, function in _functions(module):
        if inspect.signature(function).return_annotation is inspect.Signature.empty:
            problems.append(f"{module_name}.{name}: no return annotation")
        if not name.endswith("__init__") and not (function.__doc__ or "").strip():
            problems.append(f"{module_name}.{name}: no docstring")
    return problems


@pytest.mark.parametrize("module_name", API_MODULES)
def test_public_functions_have_return_types_and_docstrings(module_name):
    assert _problems(module_name) == []


def test_the_package_exports_are_typed_and_documented():
    for name in tabletop_zoo.__all__:
        obj = getattr(tabletop_zoo, name)
        if callable(obj):
            assert inspect.signature(obj).return_annotation is not inspect.Signature.empty, name
            assert (obj.__doc__ or "").strip(), name


def test_the_walk_finds_methods_properties_and_numba_functions():
    """An empty problem list above means something: the walk sees what it checks."""
    names = dict(_functions(importlib.import_module("tabletop_zoo.envs.base")))
    assert {"KernelAECEnv.__init__", "KernelAECEnv.step", "KernelAECEnv.record", "KernelAECEnv.make"} <= set(names)
    uct = dict(_functions(importlib.import_module("tabletop_zoo.agents.mcts.uct")))
    assert "search" in uct and inspect.isfunction(uct["search"])  # the Python source of a numba function


def test_an_undocumented_untyped_function_is_reported(monkeypatch):
    module = types.ModuleType("tabletop_zoo._probe")

    def bare(x):
        return x

    bare.__module__ = module.__name__
    module.bare = bare
    monkeypatch.setitem(sys.modules, module.__name__, module)
    assert _problems(module.__name__) == [
        "tabletop_zoo._probe.bare: no return annotation",
        "tabletop_zoo._probe.bare: no docstring",
    ]
