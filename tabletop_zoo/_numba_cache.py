"""Point numba's on-disk cache at a folder keyed by a hash of everything our compiled code reads.

numba invalidates a cached function only when its own file changes, not when a function it calls in
another file does (kernels call across modules; the search calls every kernel), nor when a data file
whose values were frozen into the machine code as globals changes (``kernels/<game>/data/*.json``, loaded
by ``tables.py``). Keying the folder by the sources and the data makes any edit start a fresh cache
instead of silently running stale machine code. The base folder is ``$NUMBA_CACHE_DIR`` if set, else
``~/.cache/tabletop_zoo/numba``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pathlib
from collections.abc import Iterable

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
    """Set numba's cache folder (before any kernel is imported); returns it."""
    import numba

    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(pathlib.Path.home(), ".cache", "tabletop_zoo", "numba")
    folder = os.path.join(base, f"tabletop_zoo-{source_digest()}")
    numba.config.CACHE_DIR = folder
    compile_without_literals()
    name_damaged_cache()
    lock_cache_saves()
    return folder


class DamagedCacheError(RuntimeError):
    """numba's on-disk cache could not be read back (a file cut short by a full disk or a kill)."""


def name_damaged_cache() -> None:
    """Make a cache file that numba cannot read back a one-line error naming the folder to delete.

    numba unpickles its own index and data files; a damaged one fails deep inside the dispatcher with a bare
    ``UnpicklingError`` or ``EOFError`` that says nothing of the cache. Deleting the folder is always safe (it
    is only compiled code: the next use compiles again), so the error says which one. Loading is numba's
    ``Cache.load_overload``, whose only work is reading the cache: any failure there is the cache's.
    """
    from numba.core import caching

    original = caching.Cache.load_overload
    if getattr(original, "names_damaged_cache", False):
        return

    def load_overload(self, sig, target_context):
        try:
            return original(self, sig, target_context)
        except Exception as e:
            import numba

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

    from numba.core import caching

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
