"""``MCTSAgent``: the numba search behind the ``Agent`` protocol, root-parallel over threads."""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ...kernels._common import dispatch
from ...kernels._common.validate import check_seed
from .._params import check_float, check_int
from ..search_agent import SearchAgent
from .uct import grow, new_tree, root_statistics, search

DEFAULT_ROLLOUT_DEPTH = 20  # decisions of a truncated rollout in a game whose kernel sets no ROLLOUT_DEPTH
# The tree's arrays are sized by the budget: 24 bytes a simulation plus 8 per seat (72 at six seats), so the
# cap keeps one search's tree within 72 MB, whatever the thread count (the threads split the budget).
MAX_SIMULATIONS = 1_000_000
SECONDS_CHUNK = 32  # simulations between two looks at the clock under a time budget


def _grow_until(record, simulations, rollout_depth, c, seed, deadline, visits, value) -> None:
    """One tree grown in chunks until its budget or the wall clock (``deadline``) runs out; the first chunk
    always runs, so the root has children. Chunks grow the very tree one ``search`` call would."""
    tree = new_tree(record, simulations, seed)
    left = simulations
    while left > 0:
        chunk = min(left, SECONDS_CHUNK)
        grow(record, chunk, rollout_depth, c, *tree)
        left -= chunk
        if time.perf_counter() >= deadline:
            break
    action, first_child, next_sibling, tree_visits, _, tree_value = tree[:6]
    root_statistics(record, action, first_child, next_sibling, tree_visits, tree_value, visits, value)


def search_root(
    record: np.ndarray,
    simulations: int,
    rollout_depth: int,
    c: float,
    seed: int,
    threads: int = 1,
    seconds: float | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Root-parallel search: ``threads`` independent trees (seeds seed+0, seed+1, ...) merged at the root.

    Returns (visits per action summed over trees, visit-weighted mean value of the root mover).
    The same record, seed and thread count always give the same result, unless ``seconds`` (a wall-clock
    budget, looked at every ``SECONDS_CHUNK`` simulations of each tree) stops the search before its budget.
    """
    kernel = dispatch.kernel_for(record.dtype)
    if kernel.is_over(record):
        raise ValueError("the game is over: there is no move to search")
    n = kernel.NUM_ACTIONS
    per_tree = [max(1, simulations // threads + (t < simulations % threads)) for t in range(threads)]
    deadline = None if seconds is None else time.perf_counter() + seconds

    def run(t: int):
        visits = np.zeros(n, np.int64)
        value = np.zeros(n, np.float64)
        tree_seed = np.uint64((int(seed) + t) % 2**64)
        if deadline is None:
            search(record, per_tree[t], rollout_depth, c, tree_seed, visits, value)
        else:
            _grow_until(record, per_tree[t], rollout_depth, c, tree_seed, deadline, visits, value)
        return visits, value

    if threads == 1:
        results = [run(0)]
    else:
        with ThreadPoolExecutor(threads) as pool:  # the search releases the GIL
            results = list(pool.map(run, range(threads)))
    visits = sum(v for v, _ in results)
    weighted = sum(v * val for v, val in results)
    mean = np.divide(weighted, visits, out=np.zeros(n), where=visits > 0)
    return visits, mean


class MCTSAgent(SearchAgent):
    """UCT (IS-MCTS in hidden-information games) with truncated rollouts scored by ``evaluate``; rollouts
    follow the kernel's ``rollout_action`` policy where it has one, else they are uniformly random. A
    rollout lasts ``rollout_depth`` decisions: by default the game's own ``ROLLOUT_DEPTH`` (its kernel's
    measured choice, benchmarks/mcts_vs_heuristics/README.md), else 20. ``simulations`` is the budget per
    move (at most ``MAX_SIMULATIONS``); ``seconds`` (optional) stops the search earlier, at that wall time
    (then the same position can get a different move).

    Use it in any PettingZoo loop after ``bind(env)`` (``play_game`` and the CLI bind it for you): it
    reads the game record through ``env.get_state()`` — never the observation — and in hidden-information
    games hands the search only a record determinized for its own seat. ``act_state(record)`` searches
    a record directly.
    """

    name = "mcts"

    def __init__(
        self,
        simulations: int = 1000,
        rollout_depth: int | None = None,
        c: float = 1.0,
        seed: int | None = 0,
        threads: int = 1,
        seconds: float | None = None,
        env=None,
    ) -> None:
        self.simulations = check_int("simulations", simulations, 1)
        if self.simulations > MAX_SIMULATIONS:
            raise ValueError(
                f"simulations must be an integer >= 1 and <= {MAX_SIMULATIONS} (the tree takes memory for "
                f"each), got {self.simulations}"
            )
        self.rollout_depth = None if rollout_depth is None else check_int("rollout_depth", rollout_depth, 0)
        self.c = check_float("c", c, 0.0)
        self.threads = min(check_int("threads", threads, 1), os.cpu_count() or 1)
        self.seconds = None if seconds is None else check_float("seconds", seconds, 0.0)
        self.seed = 0 if seed is None else check_seed(seed)  # any seed in [0, 2**64)
        if env is not None:
            self.bind(env)

    def act_state(self, record: np.ndarray) -> int:
        """Search the given record as it is (for hidden-information games, use ``act_for_seat``)."""
        kernel = dispatch.kernel_for(record.dtype)
        return self._choose(record, self._move_seed(record, int(kernel.to_move(record))))

    def depth_for(self, kernel) -> int:
        """The rollout depth searched in ``kernel``'s game: the one given, else the game's ``ROLLOUT_DEPTH``."""
        if self.rollout_depth is not None:
            return self.rollout_depth
        return getattr(kernel, "ROLLOUT_DEPTH", DEFAULT_ROLLOUT_DEPTH)

    def _search(self, record: np.ndarray, seed: np.uint64) -> tuple[np.ndarray, np.ndarray]:
        depth = self.depth_for(dispatch.kernel_for(record.dtype))
        return search_root(record, self.simulations, depth, self.c, seed, self.threads, self.seconds)
