"""``MCTSAgent``: the numba search behind the ``Agent`` protocol, root-parallel over threads."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ...kernels._common import dispatch
from ...kernels._common.validate import check_seed
from .._params import check_float, check_int
from ..search_agent import SearchAgent
from .uct import search

DEFAULT_ROLLOUT_DEPTH = 20  # decisions of a truncated rollout in a game whose kernel sets no ROLLOUT_DEPTH


def search_root(
    record: np.ndarray, simulations: int, rollout_depth: int, c: float, seed: int, threads: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """Root-parallel search: ``threads`` independent trees (seeds seed+0, seed+1, ...) merged at the root.

    Returns (visits per action summed over trees, visit-weighted mean value of the root mover).
    The same record, seed and thread count always give the same result.
    """
    kernel = dispatch.kernel_for(record.dtype)
    if kernel.is_over(record):
        raise ValueError("the game is over: there is no move to search")
    n = kernel.NUM_ACTIONS
    per_tree = [max(1, simulations // threads + (t < simulations % threads)) for t in range(threads)]

    def run(t: int):
        visits = np.zeros(n, np.int64)
        value = np.zeros(n, np.float64)
        search(record, per_tree[t], rollout_depth, c, np.uint64((int(seed) + t) % 2**64), visits, value)
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
    measured choice, benchmarks/mcts_vs_heuristics/README.md), else 20.

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
        env=None,
    ):
        self.simulations = check_int("simulations", simulations, 1)
        self.rollout_depth = None if rollout_depth is None else check_int("rollout_depth", rollout_depth, 0)
        self.c = check_float("c", c, 0.0)
        self.threads = min(check_int("threads", threads, 1), os.cpu_count() or 1)
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
        return search_root(record, self.simulations, depth, self.c, seed, self.threads)
