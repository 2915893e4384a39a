"""No allocation per step in any kernel (#18): the per-step paths call none of numba's runtime allocators.

The env and the search call ``step_and_mask`` (or ``step``) at every decision, and the search's rollouts
call the kernel's rollout policy too, from many threads at once (root-parallel MCTS): an array allocated
there is a malloc and a free per step, and a lock in the allocator. The check reads the final LLVM IR of
each path compiled fresh, in a child process with every function compiled in memory (``no_alloc_child.py``:
numba's on-disk cache keeps machine code, not IR); a path's final IR links in all its callees, so an
allocation anywhere below it is found. Paths checked for every registered game: ``step_and_mask``,
``step``, ``legal_mask``, ``observe`` (the env observes at every step), the optional ``rollout_action``,
and the search's rollout loop (``agents/mcts/uct._play_out``) over the game's record.

Slow (compiles every kernel from scratch, a few minutes): ``python -m pytest -p no:xdist -m slow
tests/contract/test_no_allocation.py``. ``test_detector_*`` show the check is not vacuous.

Not checked, because they run once per search simulation rather than per step, and allocate today:
``evaluate``/``estimate``/``returns`` (the score at a rollout's end) and ``determinize``.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile

import pytest

import tabletop_zoo

CHILD = pathlib.Path(__file__).with_name("no_alloc_child.py")
TIMEOUT = 3600  # seconds: compiling every kernel fresh on a busy two-core machine

pytestmark = pytest.mark.slow


def _run_child(*args: str) -> dict[tuple[str, str], dict]:
    """Run no_alloc_child.py with an empty numba cache folder; its reports by (game, function)."""
    with tempfile.TemporaryDirectory(prefix="tabletop_zoo_noalloc_") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        done = subprocess.run(
            [sys.executable, str(CHILD), *args], env=env, capture_output=True, text=True, timeout=TIMEOUT
        )
    assert done.returncode == 0, f"no_alloc_child.py {' '.join(args)} failed:\n{done.stderr[-4000:]}"
    reports = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {(r["game"], r["function"]): r for r in reports}


@pytest.fixture(scope="module")
def selftest() -> dict[str, dict]:
    return {name: r for (_, name), r in _run_child("--selftest").items()}


@pytest.fixture(scope="module")
def reports() -> dict[tuple[str, str], dict]:
    return _run_child(*sorted(tabletop_zoo.GAMES))


def _problems(report: dict) -> list[str]:
    """What is wrong with one function's report: its allocations, or a blind spot of the check."""
    where = f"{report['game']} {report['function']}"
    problems = []
    if report["allocators"]:
        problems.append(
            f"{where} calls numba's allocator {', '.join(report['allocators'])}; "
            "the call chains down to the functions that allocate:\n    " + "\n    ".join(report["chains"])
        )
    if report["unlinked"]:
        problems.append(f"{where}: the IR only declares {report['unlinked']} (their code was not linked in)")
    if report["cached"]:
        problems.append(f"{where}: {report['cached']} came from a cache (no IR to read)")
    return problems


def test_detector_finds_an_allocation_two_calls_down(selftest):
    """np.zeros in a callee's callee shows up in the caller's final IR: callees are linked in and read."""
    caller = selftest["zeros_caller"]
    assert "NRT_MemInfo_alloc_aligned" in caller["allocators"]
    assert caller["libraries"] > 3  # the caller's own code library and those of its callees
    (chain,) = caller["chains"]
    assert chain.index("zeros_caller") < chain.index("zeros_middle") < chain.index("zeros_leaf"), chain
    assert "np_zeros" in chain, chain


def test_detector_finds_np_empty_and_passes_clean_code(selftest):
    assert "NRT_MemInfo_alloc_aligned" in selftest["empty_scratch"]["allocators"]
    assert "empty_scratch" in selftest["empty_scratch"]["chains"][0]
    assert not _problems(selftest["no_allocation"])


def test_per_step_paths_allocate_nothing(game_id, reports):
    """step_and_mask, step, legal_mask, observe, rollout_action (where the kernel has one) and the search's
    rollout loop of every game call no numba runtime allocator."""
    mine = {fn: r for (game, fn), r in reports.items() if game == game_id}
    expected = {"step_and_mask", "step", "legal_mask", "observe", "mcts._play_out"}
    if hasattr(tabletop_zoo.kernel(game_id), "rollout_action"):
        expected.add("rollout_action")
    assert set(mine) == expected
    for fn in ("step_and_mask", "mcts._play_out"):
        assert mine[fn]["libraries"] > 10, f"{game_id} {fn}: too few code libraries linked: {mine[fn]}"
    problems = [p for r in mine.values() for p in _problems(r)]
    assert not problems, "\n".join(problems)
