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
    ("tabletop_zoo", "selfplay"),
)
# What compiled code can read: its sources and the package data that tables.py turns into constants.
SUFFIXES = (".py", ".json")


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
    return digest_files(package_roots())


def configure() -> str:
    """Set numba's cache folder (before any kernel is imported); returns it."""
    import numba

    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(pathlib.Path.home(), ".cache", "tabletop_zoo", "numba")
    folder = os.path.join(base, f"tabletop_zoo-{source_digest()}")
    numba.config.CACHE_DIR = folder
    return folder
