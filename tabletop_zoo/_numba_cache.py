"""Point numba's on-disk cache at a folder keyed by a hash of everything our compiled code reads.

numba invalidates a cached function only when its own file changes, not when a function it calls in
another file does (kernels call across modules; the search calls every kernel), nor when a data file
whose values were frozen into the machine code as globals changes (``kernels/<game>/data/*.json``, loaded
by ``tables.py``). Keying the folder by the sources and the data makes any edit start a fresh cache
instead of silently running stale machine code. The base folder is ``$NUMBA_CACHE_DIR`` if set, else
``~/.cache/tabletop_zoo/numba``.

A released package carries the machine code of every game's env path, built at release time for a named baseline
CPU (``tabletop-zoo precompile --ship``, into ``compiled/<digest>/`` next to this file): when it matches this
process (same sources, numba, Python and platform; a host with the baseline's features; no CPU chosen by the user),
numba compiles for that baseline and an empty cache folder starts as a copy of it, so a first use loads machine code
instead of compiling it. Otherwise numba compiles for the host, as it always did.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import pathlib
import shutil
import sys
import tempfile
from collections.abc import Iterable

import numba
from numba.core import caching

from .kernels._common import jit

# Every folder holding numba code, as (package, sub-folder): tests/contract/test_layers.py checks that no
# other one does. Found without importing the packages (the envs would pull in PettingZoo).
FOLDERS = (
    ("tabletop_zoo.kernels", ""),
    ("tabletop_zoo.agents", ""),
    ("tabletop_zoo.envs", "wrappers"),
    ("tabletop_zoo", "training"),
    ("tabletop_zoo", "bench"),  # bench/vector.py's reference loop
)
# What compiled code can read: its sources and the package data that tables.py turns into constants.
SUFFIXES = (".py", ".json")
# Files outside FOLDERS that decide the machine code: this one (compile_without_literals, below).
FILES = (pathlib.Path(__file__).resolve(),)
PACKAGE = __name__.rpartition(".")[0]
# Machine code built at release time, one folder per source digest (gitignored; package data of the wheel). Only this
# folder and the user's own cache folder are ever loaded: numba's cache files are pickles.
SHIPPED = pathlib.Path(__file__).resolve().parent / "compiled"
MANIFEST = "shipped.json"  # in a shipped folder: what its machine code was built by and for
# The baseline the shipped code is built for: x86-64-v3 of the x86-64 psABI (AVX2, FMA, BMI2; any x86-64 CPU since
# about 2015), and its features in LLVM's names, which the host must all have to run it.
BASELINE_CPU = "x86-64-v3"
BASELINE_FEATURES = (
    *("64bit", "cmov", "cx8", "fxsr", "mmx", "sse", "sse2"),  # v1
    *("cx16", "sahf", "crc32", "popcnt", "sse3", "ssse3", "sse4.1", "sse4.2"),  # v2
    *("avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave"),  # v3
)


def package_roots(folders: Iterable[tuple[str, str]] = FOLDERS) -> list[pathlib.Path]:
    """The paths of the given (package, sub-folder) pairs."""
    roots = []
    for name, sub in folders:
        spec = importlib.util.find_spec(name)
        roots += [pathlib.Path(p, sub) for p in spec.submodule_search_locations or []]
    return roots


def digest_files(roots: Iterable[pathlib.Path]) -> str:
    """A hash of the relative path and bytes of every ``SUFFIXES`` file under ``roots`` (caches excluded)."""
    digest = hashlib.sha256()
    for root in roots:
        for path in sorted(p for p in root.rglob("*") if p.suffix in SUFFIXES and "__pycache__" not in p.parts):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def source_digest() -> str:
    digest = hashlib.sha256(digest_files(package_roots()).encode())
    for path in FILES:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def configure() -> str:
    """Set numba's cache folder (before any kernel is imported), and its CPU and first contents when shipped machine
    code fits this process; returns the folder."""
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(pathlib.Path.home(), ".cache", "tabletop_zoo", "numba")
    digest = source_digest()
    folder = os.path.join(base, f"tabletop_zoo-{digest}")
    numba.config.CACHE_DIR = folder
    if use_baseline_cpu(SHIPPED / digest):
        seed_cache(SHIPPED / digest, pathlib.Path(folder))
    relocatable_cache()
    compile_without_literals()
    jit.install()
    name_damaged_cache()
    lock_cache_saves()
    return folder


# --- shipped machine code ----------------------------------------------------------------------------------------


def build_manifest() -> dict:
    """What machine code built in this process is for: numba's cache key parts other than the sources."""
    import llvmlite.binding as ll

    python = f"{sys.version_info[0]}.{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    return {"numba": numba.__version__, "python": python, "triple": ll.get_process_triple(), "cpu": BASELINE_CPU}


def host_has_baseline() -> bool:
    """Whether this CPU has every feature of ``BASELINE_CPU`` (and numba may use AVX on it)."""
    import llvmlite.binding as ll

    try:
        features = ll.get_host_cpu_features()
    except RuntimeError:  # LLVM cannot tell on this platform
        return False
    return bool(numba.config.ENABLE_AVX) and all(features.get(name, False) for name in BASELINE_FEATURES)


def shipped_code_fits(shipped: pathlib.Path) -> bool:
    """Whether ``shipped`` (a folder of this package) holds machine code this process can load: built for these
    sources (its name is their digest), by this numba and Python, for this platform, and the host runs it."""
    try:
        manifest = json.loads((shipped / MANIFEST).read_text())
    except (OSError, ValueError):
        return False
    return manifest == build_manifest() and host_has_baseline()


def codegen_built() -> bool:
    """Whether numba has built its CPU code generator in this process (its CPU is fixed from then on)."""
    from numba.core import registry

    return "_toplevel_target_context" in vars(registry.cpu_target)


def use_baseline_cpu(shipped: pathlib.Path) -> bool:
    """Make numba compile for ``BASELINE_CPU`` if the shipped machine code fits; returns whether it does.

    A CPU the user chose (``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES``) wins, and once numba has built its code
    generator (something compiled before this package was imported) its CPU is fixed: both keep the host's.
    """
    if numba.config.CPU_NAME is not None or numba.config.CPU_FEATURES is not None:
        return False
    if codegen_built() or not shipped_code_fits(shipped):
        return False
    # features "": exactly the named CPU's (the cache key is then the same on every host that runs it)
    numba.config.CPU_NAME, numba.config.CPU_FEATURES = BASELINE_CPU, ""
    return True


def seed_cache(shipped: pathlib.Path, folder: pathlib.Path) -> bool:
    """Start the user's cache ``folder`` as a copy of ``shipped`` if it does not exist yet; returns whether it did.

    Atomic: the copy is made in a temporary folder beside it and renamed, so a process never sees a half-copied
    cache, and of two processes seeding at once one rename wins. An unwritable cache folder is left to numba (it
    compiles without caching, as before).
    """
    if folder.exists():
        return False
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        temporary = tempfile.mkdtemp(prefix=f"{folder.name}.seeding-", dir=folder.parent)
    except OSError:
        return False
    try:
        shutil.copytree(shipped, temporary, dirs_exist_ok=True)
        os.rename(temporary, folder)  # fails if another process's copy is already there
        return True
    except OSError:
        shutil.rmtree(temporary, ignore_errors=True)
        return False


# --- numba's cache, made relocatable, safe to share and clear when damaged ---------------------------------------


def package_of(py_func) -> str | None:
    """The package (``tabletop_zoo.kernels.kremlin``) of the module defining ``py_func`` if it is one of ours, else
    None."""
    module = sys.modules.get(getattr(py_func, "__module__", None) or "")
    spec = getattr(module, "__spec__", None)
    if spec is None or not spec.name.startswith(PACKAGE + ".") or not spec.origin:
        return None
    if os.path.realpath(spec.origin) != os.path.realpath(py_func.__code__.co_filename):
        return None  # defined in another file (exec'd code): numba's own locators
    return spec.parent


@functools.cache
def _file_hash(path: str) -> str:
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


# numba before 0.61 named them with a leading underscore (pyproject allows 0.60)
_UserProvidedCacheLocator = getattr(caching, "UserProvidedCacheLocator", None) or caching._UserProvidedCacheLocator
_CacheImpl = getattr(caching, "CacheImpl", None) or caching._CacheImpl


class PackageCacheLocator(_UserProvidedCacheLocator):
    """Where numba caches a function of this package: a sub-folder of the cache folder named after the function's
    package (``tabletop_zoo.kernels.kremlin``) instead of a hash of its file's absolute folder, and a source stamp
    hashed from the file's bytes instead of its modification time. Machine code built in a checkout then loads
    where a wheel installed the same files; the cache folder itself is keyed by the digest of every source."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._cache_path = os.path.join(numba.config.CACHE_DIR, package_of(py_func))

    def get_source_stamp(self) -> str:
        """A hash of the source file's bytes."""
        return _file_hash(os.path.realpath(self._py_file))

    @classmethod
    def from_function(cls, py_func, py_file):
        """This locator for our own functions (None for anyone else's: numba's locators)."""
        if package_of(py_func) is None:
            return None
        return super().from_function(py_func, py_file)


def relocatable_cache() -> None:
    """Put ``PackageCacheLocator`` first in numba's locators (its documented extension point)."""
    if PackageCacheLocator not in _CacheImpl._locator_classes:
        _CacheImpl._locator_classes.insert(0, PackageCacheLocator)


class DamagedCacheError(RuntimeError):
    """numba's on-disk cache could not be read back (a file cut short by a full disk or a kill)."""


def name_damaged_cache() -> None:
    """Make a cache file that numba cannot read back a one-line error naming the folder to delete.

    numba unpickles its own index and data files; a damaged one fails deep inside the dispatcher with a bare
    ``UnpicklingError`` or ``EOFError`` that says nothing of the cache. Deleting the folder is always safe (it
    is only compiled code: the next use compiles again), so the error says which one. Loading is numba's
    ``Cache.load_overload``, whose only work is reading the cache: any failure there is the cache's.
    """
    original = caching.Cache.load_overload
    if getattr(original, "names_damaged_cache", False):
        return

    def load_overload(self, sig, target_context):
        try:
            return original(self, sig, target_context)
        except Exception as e:
            ours = str(numba.config.CACHE_DIR)  # the whole folder of this source version: one delete fixes all
            folder = ours if self.cache_path.startswith(ours) else self.cache_path
            raise DamagedCacheError(
                f"numba's compiled-code cache is damaged ({type(e).__name__}: {e}, in {self.cache_path}); "
                f"delete {folder} and run again (it holds only compiled code)"
            ) from None

    load_overload.names_damaged_cache = True
    caching.Cache.load_overload = load_overload


def lock_cache_saves() -> None:
    """Make numba's cache safe for processes compiling at once (precompile's pool, xdist workers, two users).

    numba saves an entry by reading a function's index, naming a data file after the entries it found, and writing
    both back: two processes saving the same function at once (the search and the dispatch wrappers are one
    function per record type, so every game adds entries to the same index) pick the same data file name, and the
    index one keeps can point at the code the other wrote, a function compiled for another game. An exclusive
    lock on the index's own lock file around the whole save makes each save see the one before it.
    """
    import fcntl

    original = caching.IndexDataCacheFile.save
    if getattr(original, "locks_saves", False):
        return

    def save(self, key, data):
        with open(self._index_path + ".lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
            return original(self, key, data)

    save.locks_saves = True
    caching.IndexDataCacheFile.save = save


def compile_without_literals() -> None:
    """Compile our njit functions once per argument type, not once per constant value passed to them.

    Inside compiled code numba types a constant argument as ``Literal[int](3)`` and, for a plain ``@njit``
    callee, compiles (and caches) a separate specialisation of the callee and everything it calls for every
    distinct constant: Kremlin's ``flow.advance`` was compiled 17 times, and the cold compile of the suite
    was mostly such copies. Here a call from compiled code to one of our functions is first typed with the
    constants widened to their plain types (``int64``); only a callee that cannot be typed that way (one that
    needs a literal, e.g. a record field name) gets the literal. This is what numba already does for
    ``@overload`` templates (``prefer_literal=False``). Integer scalars are widened the same way (an int8
    record field, an int32 action and an int64 loop index share one copy of the callee): numba does integer
    arithmetic in int64 whatever the argument's width. Functions outside this package are not affected.
    """
    from numba.core import dispatcher, errors, types

    original = dispatcher.Dispatcher.get_call_template
    if getattr(original, "widens_literals", False):
        return
    ours = __name__.rpartition(".")[0] + "."

    def plain(t):
        t = types.unliteral(t)
        if isinstance(t, types.Integer) and (t.signed or t.bitwidth < 64):
            return types.int64  # numba computes in int64 anyway; one copy for int8, int16, int32 and int64
        return t

    def get_call_template(self, args, kws):
        if (self.py_func.__module__ or "").startswith(ours):
            plain_args = tuple(plain(a) for a in args)
            plain_kws = {k: plain(v) for k, v in kws.items()}
            if plain_args != tuple(args) or plain_kws != kws:
                try:
                    return original(self, plain_args, plain_kws)
                except errors.TypingError:
                    pass  # the callee needs the constant itself (e.g. a field name): numba's default below
        return original(self, args, kws)

    get_call_template.widens_literals = True
    dispatcher.Dispatcher.get_call_template = get_call_template
