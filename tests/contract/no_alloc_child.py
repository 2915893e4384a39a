"""Child process of the no-allocation test (test_no_allocation.py): compiles per-step paths fresh and lists
the numba runtime allocations in their final LLVM IR.

Every function is compiled in memory, never loaded from numba's on-disk cache: a function loaded from the
cache carries machine code only, no LLVM IR to read. Compiled fresh, a function's final LLVM module holds
its own code and every callee's, linked in from the callee's code library and mostly inlined (``--selftest``
shows an allocation two calls down is found), so an allocation anywhere below shows up.

``python no_alloc_child.py [game ...]`` (default: every registered game) prints one JSON line per
(game, function) checked; ``python no_alloc_child.py --selftest`` the same for three tiny functions: one
that allocates itself, one whose callee's callee does, one that allocates nothing. Each line is
``{"game", "function", "allocators", "chains", "unlinked", "cached", "libraries"}``:

- allocators: the runtime allocators the final IR calls (empty: the function allocates nothing);
- chains: for each code library that calls an allocator itself, the calls from the function down to it
  (demangled qualified names), e.g. ``...rules.step -> ...investor.pay_interest -> numba...ol_np_empty...``;
- unlinked: our functions the IR only declares (their code is missing: the check would be blind to them);
- cached: code libraries in the tree loaded from a cache (no IR to read: same);
- libraries: how many code libraries the final IR was linked from.
"""

from __future__ import annotations

import json
import re
import sys

import numpy as np

# numba's runtime allocators (numba/core/runtime/nrt.cpp, NRT_MemInfo_* and NRT_Allocate*): np.empty,
# np.zeros, .copy(), array expressions, lists, dicts, strings and boxing all allocate through one of these.
# The test's self-check compiles np.zeros and np.empty and expects NRT_MemInfo_alloc_aligned among them.
ALLOCATOR = re.compile(
    r"\bcall\b[^\n]*@\"?(NRT_MemInfo_alloc\w*|NRT_MemInfo_new\w*|NRT_MemInfo_varsize_(?:alloc|realloc)\w*"
    r"|NRT_Allocate\w*|NRT_Reallocate\w*|NRT_meminfo_new_from_pyobject)\b"
)
_DECLARE = re.compile(r"^declare [^\n]*?@\"?([\w.$]+)", re.M)
OURS = "tabletop_zoo."


def allocators(ir: str) -> list[str]:
    """The numba runtime allocators an LLVM IR text calls, sorted."""
    return sorted(set(ALLOCATOR.findall(ir)))


def demangle(name: str) -> str:
    """numba's Itanium-style symbol ``_ZN12tabletop_zoo7kernels...B2v1B38...E<args>`` as
    ``tabletop_zoo.kernels...`` (ABI tags and argument types dropped; ``<locals>``, ``<lambda>`` restored)."""
    if not name.startswith("_ZN"):
        return name
    parts, i = [], 3
    while i < len(name) and name[i] != "E":
        tag = name[i] == "B"  # an ABI tag B<len><text>: skipped
        j = i = i + tag
        while j < len(name) and name[j].isdigit():
            j += 1
        if j == i:
            break
        n = int(name[i:j])
        if not tag:
            parts.append(name[j : j + n])
        i = j + n
    text = ".".join(parts)
    for code, char in (("_3c", "<"), ("_3e", ">"), ("_24", "$")):
        text = text.replace(code, char)
    return text


def own_names(library) -> str:
    """The functions a code library defines itself (not linked in from its callees), demangled."""
    import llvmlite.binding as ll

    names = [
        demangle(fn.name)
        for fn in library._final_module.functions
        if not fn.is_declaration
        and fn.linkage == ll.Linkage.external
        and fn.name.startswith("_ZN")
        and not fn.name.startswith("_ZN7cpython")  # the Python entry wrapper of the same function
    ]
    return "/".join(names) or library.name


def library_report(library) -> dict:
    """Allocators in a code library's final IR, and the call chains down to the libraries that allocate.

    A library "allocates itself" when its IR calls an allocator and none of the libraries linked into it
    does (a function that allocates and also calls an allocating callee shows up once the callee is fixed).
    """
    dirty: dict[int, bool] = {}
    children: dict[int, list] = {}
    cached: set[str] = set()
    stack, seen = [library], set()
    while stack:
        lib = stack.pop()
        if id(lib) in seen:
            continue
        seen.add(id(lib))
        if getattr(lib, "_disable_inspection", False):
            cached.add(lib.name)
        children[id(lib)] = list(dict.fromkeys(lib._linking_libraries))
        dirty[id(lib)] = bool(allocators(lib.get_llvm_str()))
        stack += children[id(lib)]
    chains: set[str] = set()

    def walk(lib, path):
        label = own_names(lib)
        below = [c for c in children[id(lib)] if dirty[id(c)]]
        if not below:
            chains.add(" -> ".join([*path, f"{label} [{', '.join(allocators(lib.get_llvm_str()))}]"]))
        for c in below:
            if label not in path:
                walk(c, [*path, label])

    ir = library.get_llvm_str()
    if dirty[id(library)]:
        walk(library, [])
    unlinked = sorted({demangle(n) for n in _DECLARE.findall(ir) if demangle(n).startswith(OURS)})
    return {
        "allocators": allocators(ir),
        "chains": sorted(chains),
        "unlinked": unlinked,
        "cached": sorted(cached),
        "libraries": len(seen),
    }


def disable_disk_cache() -> None:
    """Compile everything in memory: no function is loaded from (or saved to) numba's on-disk cache.

    An empty ``NUMBA_CACHE_DIR`` is not enough on its own: the search dispatch's ``@overload`` stubs
    (kernels/_common/dispatch.py) get a new dispatcher per call site, which would load the machine code
    that another call site saved a moment earlier, with no IR to read."""
    from numba.core.dispatcher import Dispatcher

    Dispatcher.enable_caching = lambda self: None


def compiled_library(dispatcher, *args):
    """Compile ``dispatcher`` for the numba types of ``args`` (those a call from Python would give) and
    return the code library of that compilation."""
    from numba import typeof

    sig = tuple(typeof(a) for a in args)
    dispatcher.compile(sig)
    return dispatcher.overloads[sig].library


def checks(game: str) -> list[tuple]:
    """(name, dispatcher, args) of every per-step path of one game: the kernel's step_and_mask, step,
    legal_mask and observe, its rollout policy if it has one, and the search's rollout loop over the game
    (agents/mcts/uct.py, which also covers is_over and the dispatch stubs)."""
    from tabletop_zoo import registry
    from tabletop_zoo.agents.mcts import uct

    k = registry.kernel(game)
    s = k.new_state(k.DEFAULT_PLAYERS, 0)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    rng = np.zeros(1, np.uint64)
    out = [
        ("step_and_mask", k.step_and_mask, (s, 0, mask)),
        ("step", k.step, (s, 0)),
        ("legal_mask", k.legal_mask, (s, mask)),
        ("observe", k.observe, (s, 0, np.zeros(k.OBS_SIZE, np.float32))),
    ]
    if hasattr(k, "rollout_action"):
        out.append(("rollout_action", k.rollout_action, (s, mask, rng)))
    out.append(("mcts._play_out", uct._play_out, (s, 20, mask, rng)))
    return out


def selftest_checks() -> list[tuple]:
    """Three tiny functions the detector must judge right: np.zeros two calls down, np.empty, nothing."""
    from numba import njit

    @njit
    def zeros_leaf(x):
        t = np.zeros(3)
        t[1] = x
        return t.sum()

    @njit
    def zeros_middle(x):
        return zeros_leaf(x) * 2.0

    @njit
    def zeros_caller(x):
        return zeros_middle(x) + 1.0

    @njit
    def empty_scratch(x):
        t = np.empty(3)
        t[0] = x
        return t[0]

    @njit
    def no_allocation(x):
        return x + 1.0

    return [(f.__name__, f, (1.0,)) for f in (zeros_caller, empty_scratch, no_allocation)]


def main(argv: list[str]) -> None:
    disable_disk_cache()
    if argv == ["--selftest"]:
        todo = [("selftest", *c) for c in selftest_checks()]
    else:
        from tabletop_zoo import registry

        todo = [(game, *c) for game in argv or sorted(registry.KERNELS) for c in checks(game)]
    for game, name, dispatcher, args in todo:
        report = library_report(compiled_library(dispatcher, *args))
        print(json.dumps({"game": game, "function": name, **report}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
