"""Compile the numba code of chosen games into the on-disk cache before it is needed.

numba compiles a game's kernels, its search and its batch steppers on first use (minutes of CPU for a
large game) and caches the machine code on disk (``tabletop_zoo/_numba_cache.py``). Processes that start
at once on a cold cache (pytest-xdist workers, a Ray cluster, a tournament's worker pool) each compile
the same functions. ``precompile`` runs every compiled path of each game once, one game per process,
so that every later process loads machine code instead. ``tabletop-zoo precompile`` is the command;
the test suite calls it before its workers start.
"""

from __future__ import annotations

import concurrent.futures
import importlib.util
import multiprocessing
import pathlib
import time

import numpy as np

from . import registry

MOVES = 12  # random moves played through each layer: enough to reach every compiled function's types


def source_bytes(game_id: str) -> int:
    """Bytes of a kernel's sources (found without importing it): a rough measure of its compile cost."""
    spec = importlib.util.find_spec(registry.KERNELS[game_id])
    return sum(p.stat().st_size for root in spec.submodule_search_locations for p in pathlib.Path(root).glob("*.py"))


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


def compile_game(game_id: str) -> float:
    """Run every compiled path of one game once; returns the CPU seconds it took (mostly compiling)."""
    from .agents import make_agent
    from .agents.az.inline import warm_up
    from .envs.wrappers.vector import KernelVecEnv
    from .selfplay.batch import LEARNER, BatchGames

    start = time.process_time()
    k = registry.kernel(game_id)
    n, rng = k.DEFAULT_PLAYERS, np.random.default_rng(0)
    k.playouts(n, 1, seed=0)  # the rules on their own, inside numba

    # The kernel's Python-facing functions and the MCTS search, on a position a few moves in.
    s = k.new_state(n, 0)
    mask, obs, out = np.zeros(k.NUM_ACTIONS, np.uint8), np.zeros(k.OBS_SIZE, np.float32), np.zeros(k.MAX_PLAYERS)
    for _ in range(MOVES):
        k.legal_mask(s, mask)
        k.observe(s, int(k.to_move(s)), obs)
        k.evaluate(s, out)
        k.step(s, _random_legal(mask, rng))
    k.returns(s, out)
    k.validate(s)
    mcts = make_agent("mcts", game_id, seed=0, simulations=8)
    mcts.act_for_seat(s)  # determinize too, in hidden-information games
    warm_up(k, n)  # the az agent's search

    # The AEC env (its step path), the vector env's batch step and self-play's batch advance.
    env = registry.make_env(game_id)
    env.reset(seed=0)
    for _ in range(MOVES):
        env.step(_random_legal(env.observe(env.agent_selection)["action_mask"], rng))
    vec = KernelVecEnv(game_id, num_envs=2, seed=0)
    vec.reset()
    for _ in range(MOVES):
        vec.step(np.array([_random_legal(m, rng) for m in vec.action_masks()]))
    games = BatchGames(k, 2, n, {})
    for i in range(2):
        games.start(i, i, i, [LEARNER] * n)
    for _ in range(MOVES):
        rows = np.flatnonzero(games.seats >= 0)
        for i in rows:
            games.actions[i] = _random_legal(games.masks[i], rng)
        games.step(rows)
    return time.process_time() - start


def precompile(game_ids: list[str] | None = None, jobs: int = 1, report=None) -> dict[str, float]:
    """Compile the given games (all by default) with ``jobs`` processes; returns CPU seconds per game.

    ``report(game_id, seconds)`` is called as each game finishes. Each game runs in a fresh process (spawned,
    so nothing compiled here is shared by accident) and writes the shared on-disk cache.
    """
    # the largest kernels first: the pool starts the slowest compiles first (the least idle tail)
    games = sorted(game_ids or registry.GAMES, key=source_bytes, reverse=True)
    context = multiprocessing.get_context("spawn")
    seconds = {}
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=context) as pool:
        futures = {pool.submit(compile_game, g): g for g in games}
        for future in concurrent.futures.as_completed(futures):
            game = futures[future]
            seconds[game] = future.result()
            if report is not None:
                report(game, seconds[game])
    return seconds
