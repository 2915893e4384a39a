"""numba's on-disk cache stays right when processes save entries of one function at once
(``tabletop_zoo._numba_cache.lock_cache_saves``): every entry is kept and loads its own code."""

from __future__ import annotations

import multiprocessing

from numba.core.caching import IndexDataCacheFile

import tabletop_zoo  # noqa: F401  (configures numba's cache, the save lock included)

SAVES = 40  # entries per process: without the lock two processes lose some of them to each other


def _save_many(folder: str, who: int) -> None:
    """One process's saves (a spawned process imports this module, so tabletop_zoo configured its cache)."""
    cache = IndexDataCacheFile(folder, "shared_function", (0.0, 0))
    for i in range(SAVES):
        cache.save(("signature", who, i), f"code of {who}/{i}")


def test_the_save_is_locked():
    assert getattr(IndexDataCacheFile.save, "locks_saves", False)


def test_processes_saving_one_function_at_once_keep_every_entry(tmp_path):
    context = multiprocessing.get_context("spawn")
    workers = [context.Process(target=_save_many, args=(str(tmp_path), who)) for who in range(3)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=120)
        assert w.exitcode == 0
    cache = IndexDataCacheFile(str(tmp_path), "shared_function", (0.0, 0))
    for who in range(3):
        for i in range(SAVES):
            assert cache.load(("signature", who, i)) == f"code of {who}/{i}"
