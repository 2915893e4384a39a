"""Point numba's on-disk cache at a folder keyed by a hash of our numba sources.

numba invalidates a cached function only when its own file changes, not when a function it calls in
another file does (kernels call across modules; the search calls every kernel). Keying the folder by
the sources makes any edit start a fresh cache instead of silently running stale machine code.
The base folder is ``$NUMBA_CACHE_DIR`` if set, else ``~/.cache/tabletop_zoo/numba``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pathlib

_PACKAGES = ("tabletop_zoo.kernels", "tabletop_zoo.agents")


def source_digest() -> str:
    digest = hashlib.sha256()
    for name in _PACKAGES:
        spec = importlib.util.find_spec(name)
        for root in spec.submodule_search_locations or []:
            for path in sorted(pathlib.Path(root).rglob("*.py")):
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def configure() -> str:
    """Set numba's cache folder (before any kernel is imported); returns it."""
    import numba

    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(pathlib.Path.home(), ".cache", "tabletop_zoo", "numba")
    folder = os.path.join(base, f"tabletop_zoo-{source_digest()}")
    numba.config.CACHE_DIR = folder
    return folder
