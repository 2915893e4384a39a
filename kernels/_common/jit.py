"""How the kernels' code is compiled: each rules tree optimised and turned into machine code once, in the function
Python calls, and no wrappers for what only numba code calls.

numba compiles every function into an LLVM module of its own, links in the modules of everything it calls, runs
LLVM's whole optimisation pipeline over the result and emits machine code for it, and builds the function a
CPython and a C wrapper, whether or not anything but numba code will ever call it. A rules tree is optimised and
emitted again at every level of its call graph: the env's step, the room's ``step_and_mask``, its ``apply_action``,
and so on down. On a cold cache that is most of a first use (``benchmarks/COLD_START.md``).

Here a function numba code calls is compiled in two halves:

- **Its body, once** (``InternalDispatcher``, with a ``DeferredLibrary``): typed, lowered and given LLVM's
  per-function passes, without wrappers. Its module is kept for its callers to link and is neither optimised as a
  whole nor emitted on its own; the engine gets only its environment's global (numba writes the function's
  environment there). Its cache entry holds that module, so a later caller compiled in another process links it.
- **The entry Python calls, where Python calls one** (``njit`` functions of this package): a one-line function
  calling the body above, whose module links the whole tree and is the one that is optimised and emitted.

``internal`` marks a function only numba code calls: a Python call to it raises one line instead of reaching a
missing entry point (numba would crash the interpreter). Every plain ``njit`` function of this package (not
parallel, inlined or taking ``*args``) has an internal twin that numba callers use (``install``): the same code, compiled as above, with a name of its own in numba's
cache (``<qualname>.<internal>``), so that no entry without wrappers is ever loaded for a Python call.
"""

from __future__ import annotations

import contextlib
import gc
import types

import llvmlite.binding as ll
from numba import config
from numba.core import compiler
from numba.core import dispatcher as numba_dispatcher
from numba.core.caching import NullCache
from numba.core.codegen import JITCodeLibrary
from numba.core.compiler_lock import global_compiler_lock
from numba.core.compiler_lock import require_global_compiler_lock
from numba.core.registry import CPUDispatcher

_NO_WRAPPERS = {"nopython": True, "no_cpython_wrapper": True, "no_cfunc_wrapper": True}
_ENVIRONMENT = "_ZN08NumbaEnv"  # numba's name prefix for a function's environment global
_DYNAMIC = "numba.dynamic.globals"  # numba's name prefix for addresses fixed at run time (never cached)
_UNRESOLVED = "numba_unresolved$"  # numba's placeholder for a recursive call, resolved at run time
PACKAGE = __name__.split(".")[0] + "."  # this package's functions get internal twins (install)
# CPython's collector runs a young-generation pass every 700 net allocations (its default), and every hundredth of
# them may traverse the whole heap. numba's front end allocates millions of short-lived objects: at that pace the
# collector took 1.0-1.2 s of Kremlin's 13 s cold first use, 0.45 s at this threshold (benchmarks/COLD_START.md).
# While a compile runs, the young generation is allowed this many before a pass; the setting is restored after the
# outermost compile.
COMPILE_GC_THRESHOLD = 10_000
_compiling = 0  # depth of compiles in progress (under numba's compiler lock)


class DeferredLibrary(JITCodeLibrary):
    """The code of a function only numba code calls: its module (its own functions after LLVM's per-function passes,
    with its callees' modules linked in) is kept for its callers, which optimise it with theirs; no whole-module
    optimisation and no machine code of its own. Optimising each level of a call graph again, as numba does, cost a
    cold first use a fifth to two fifths of its CPU; the machine code without it plays within -4% to +3% of the
    speed per game (``benchmarks/COLD_START.md``).
    """

    def finalize(self):
        require_global_compiler_lock()
        self._raise_if_finalized()
        own = self._final_module
        if any(g.name.startswith(_UNRESOLVED) for g in own.global_variables):
            return super().finalize()  # a recursive function: numba resolves the call at run time
        reload_init = getattr(self, "_reload_init", None)  # none in numba 0.60
        for library in dict.fromkeys(self._linking_libraries):  # numba's CPUCodeLibrary.finalize, without the rest
            if reload_init is not None:
                reload_init.update(library._reload_init)
            own.link_in(library._get_module_for_linking(), preserve=True)
        own.verify()
        for fn in own.functions:  # as numba's _get_module_for_linking: each caller keeps one copy of what it uses
            if not fn.is_declaration and fn.linkage == ll.Linkage.external:
                fn.linkage = ll.Linkage.linkonce_odr
        self._shared_module = own
        globals_ = [g.name for g in own.global_variables]
        environments = [name for name in globals_ if name.startswith(_ENVIRONMENT)]
        # the engine gets only the environments' globals: numba writes each function's environment there
        stub = "\n".join(f'@"{name}" = common global i8* null' for name in environments)
        self._final_module = ll.parse_assembly(stub)
        self._final_module.name = own.name
        self._final_module.triple = own.triple
        self._final_module.data_layout = own.data_layout
        self._finalize_final_module()
        self._dynamic_globals += [name for name in globals_ if name.startswith(_DYNAMIC)]  # keeps it out of the cache

    def get_llvm_str(self):  # numba's inspect_llvm: the function's linked module
        return str(self._shared_module if self._shared_module is not None else self._final_module)


class InternalCompiler(compiler.Compiler):
    """numba's compiler, lowering into a ``DeferredLibrary``."""

    def compile_extra(self, func):
        if self.state.library is None:
            self.state.library = DeferredLibrary(self.state.targetctx.codegen(), func.__qualname__)
            self.state.library.enable_object_caching()  # numba's NativeLowering does this for the libraries it makes
        return super().compile_extra(func)


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
        dispatcher = InternalDispatcher(
            py_func=py_func, locals={}, targetoptions={**options, **_NO_WRAPPERS}, pipeline_class=InternalCompiler
        )
        if cache:
            dispatcher.enable_caching()
        return dispatcher

    return decorate if function is None else decorate(function)


# --- internal twins of this package's njit functions ----------------------------------------------------------------
# Entries by arity: ``_ENTRIES[n](body)`` is a function of n arguments returning ``body(*arguments)``.
_ENTRIES = (
    lambda body: lambda: body(),
    lambda body: lambda a: body(a),
    lambda body: lambda a, b: body(a, b),
    lambda body: lambda a, b, c: body(a, b, c),
    lambda body: lambda a, b, c, d: body(a, b, c, d),
    lambda body: lambda a, b, c, d, e: body(a, b, c, d, e),
    lambda body: lambda a, b, c, d, e, f: body(a, b, c, d, e, f),
    lambda body: lambda a, b, c, d, e, f, g: body(a, b, c, d, e, f, g),
    lambda body: lambda a, b, c, d, e, f, g, h: body(a, b, c, d, e, f, g, h),
    lambda body: lambda a, b, c, d, e, f, g, h, i: body(a, b, c, d, e, f, g, h, i),
    lambda body: lambda a, b, c, d, e, f, g, h, i, j: body(a, b, c, d, e, f, g, h, i, j),
    lambda body: lambda a, b, c, d, e, f, g, h, i, j, k: body(a, b, c, d, e, f, g, h, i, j, k),
    lambda body: lambda a, b, c, d, e, f, g, h, i, j, k, m: body(a, b, c, d, e, f, g, h, i, j, k, m),
    lambda body: lambda a, b, c, d, e, f, g, h, i, j, k, m, n: body(a, b, c, d, e, f, g, h, i, j, k, m, n),
    lambda body: lambda a, b, c, d, e, f, g, h, i, j, k, m, n, o: body(a, b, c, d, e, f, g, h, i, j, k, m, n, o),
    lambda body: lambda a, b, c, d, e, f, g, h, i, j, k, m, n, o, p: body(a, b, c, d, e, f, g, h, i, j, k, m, n, o, p),
)


def _has_twin(dispatcher) -> bool:
    """Whether ``dispatcher`` is a plain ``njit`` function of this package that numba callers reach through a twin
    (not one numba inlines, runs in parallel, or already builds without wrappers)."""
    if type(dispatcher) is not CPUDispatcher or not (dispatcher.py_func.__module__ or "").startswith(PACKAGE):
        return False
    options = dispatcher.targetoptions
    parameters = dispatcher._compiler.pysig.parameters.values()
    return (
        not options.get("parallel")
        and options.get("inline", "never") == "never"
        and not options.get("no_cpython_wrapper")
        and len(parameters) < len(_ENTRIES)
        and all(p.kind == p.POSITIONAL_OR_KEYWORD for p in parameters)
    )


def twin(dispatcher) -> InternalDispatcher | None:
    """The internal twin numba callers use for ``dispatcher`` (made on first need), or None if it has none."""
    found = dispatcher.__dict__.get("_internal_twin", False)
    if found is False:
        with global_compiler_lock:  # one twin per function, also when threads compile at once
            found = dispatcher.__dict__.get("_internal_twin", False)
            if found is False:
                found = dispatcher._internal_twin = _make_twin(dispatcher) if _has_twin(dispatcher) else None
    return found


def _make_twin(dispatcher) -> InternalDispatcher:
    f = dispatcher.py_func
    body = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
    body.__qualname__ = f"{f.__qualname__}.<internal>"  # its own entries in numba's cache and its own symbols
    body.__module__, body.__doc__, body.__kwdefaults__ = f.__module__, f.__doc__, f.__kwdefaults__
    internal_twin = InternalDispatcher(
        py_func=body,
        locals=dict(dispatcher.locals),
        targetoptions={**dispatcher.targetoptions, **_NO_WRAPPERS},
        pipeline_class=InternalCompiler,
    )
    if not isinstance(dispatcher._cache, NullCache):
        internal_twin.enable_caching()
    # the Python entry numba compiles for dispatcher (its _compiler's implementation, below): a call of the twin
    entry = _ENTRIES[len(dispatcher._compiler.pysig.parameters)](internal_twin)
    entry.__qualname__, entry.__module__, entry.__name__ = f.__qualname__, f.__module__, f.__name__
    dispatcher._compiler.entry = entry
    return internal_twin


@contextlib.contextmanager
def _fewer_collections():
    """Within the outermost compile, the collector's young generation holds ``COMPILE_GC_THRESHOLD`` allocations
    before a pass (the older generations' thresholds are kept, and the caller's setting comes back after). Called
    under numba's compiler lock, which serialises compiles."""
    global _compiling
    if _compiling:
        _compiling += 1
        try:
            yield
        finally:
            _compiling -= 1
        return
    thresholds = gc.get_threshold()
    _compiling = 1
    if 0 < thresholds[0] < COMPILE_GC_THRESHOLD:  # 0: the caller disabled collections by threshold; leave it
        gc.set_threshold(COMPILE_GC_THRESHOLD, *thresholds[1:])
    try:
        yield
    finally:
        _compiling = 0
        gc.set_threshold(*thresholds)


def install() -> None:
    """Route numba callers of this package's ``njit`` functions to their internal twins, and compile what Python
    calls as an entry calling the twin (once per process; before any of them compiles)."""
    Dispatcher, FunctionCompiler = numba_dispatcher.Dispatcher, numba_dispatcher._FunctionCompiler
    if getattr(Dispatcher.get_call_template, "uses_twins", False):
        return
    get_call_template, get_overload = Dispatcher.get_call_template, Dispatcher.get_overload
    compile_, get_implementation = Dispatcher.compile, FunctionCompiler._get_implementation

    def twin_get_call_template(self, args, kws):  # typing a call from numba code
        found = twin(self)
        return found.get_call_template(args, kws) if found is not None else get_call_template(self, args, kws)

    def twin_get_overload(self, sig):  # lowering a call from numba code
        found = twin(self)
        return found.get_overload(sig) if found is not None else get_overload(self, sig)

    def compile_with_twin(self, sig):  # a compile for Python (a call, or compile(sig)), or a callee's
        twin(self)
        with global_compiler_lock, _fewer_collections():
            return compile_(self, sig)

    def entry_implementation(self, args, kws):
        entry = getattr(self, "entry", None)
        return entry if entry is not None else get_implementation(self, args, kws)

    twin_get_call_template.uses_twins = True
    Dispatcher.get_call_template, Dispatcher.get_overload = twin_get_call_template, twin_get_overload
    Dispatcher.compile, FunctionCompiler._get_implementation = compile_with_twin, entry_implementation
