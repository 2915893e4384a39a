"""Compile the numba code of chosen games into the on-disk cache before it is needed.

numba compiles a game's kernels, its search and its batch steppers on first use (minutes of CPU for a
large game) and caches the machine code on disk (``tabletop_zoo/_numba_cache.py``). Processes that start
at once on a cold cache (pytest-xdist workers, a Ray cluster, a tournament's worker pool) each compile
the same functions. ``precompile`` runs every compiled path of each game once, one game per process,
so that every later process loads machine code instead. ``tabletop-zoo precompile`` is the command;
the test suite calls it before its workers start.

A first use is never silent: ``compile_once`` (called by the env's constructor and by the arena before its
workers start) compiles what is missing of a game now, saying so once per process (a ``tabletop_zoo`` logging
WARNING, which a default Python session prints; a spinner in the CLI), and nothing on a warm cache. Whether the
cache is warm is a marker file per game and part in the cache folder (``numba.config.CACHE_DIR``, keyed by the
sources), written only after the part compiled: a process killed mid-compile leaves none, an edit of the sources
starts a new folder without any, and two processes starting at once on a cold cache both compile and both say so.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import importlib.util
import logging
import multiprocessing
import os
import pathlib
import sys
import threading
import time
from collections.abc import Callable

import numpy as np

from . import registry

MOVES = 12  # random moves played through each layer: enough to reach every compiled function's types
log = logging.getLogger("tabletop_zoo")
# CPU seconds of a cold first use per byte of the kernel's sources (benchmarks/COLD_START.md): the rough figure
# the first-use line gives.
SECONDS_PER_SOURCE_BYTE = 1 / 4200
LINEUP = ("random", "heuristic", "mcts")  # the agents precompile warms for a tournament (the README's line-up)


def source_bytes(game_id: str) -> int:
    """Bytes of a kernel's sources (found without importing it): a rough measure of its compile cost."""
    spec = importlib.util.find_spec(registry.KERNELS[game_id])
    return sum(p.stat().st_size for root in spec.submodule_search_locations for p in pathlib.Path(root).glob("*.py"))


def _random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


def compile_game(game_id: str) -> float:
    """Run every compiled path of one game once; returns the CPU seconds it took (mostly compiling)."""
    with announcing(_silent):  # the caller reports each game; no first-use line from inside
        return _compile_game(game_id)


def _compile_game(game_id: str) -> float:
    from .agents import make_agent
    from .agents.az.inline import warm_up
    from .agents.spec import AgentSpec
    from .envs.wrappers.vector import KernelVecEnv
    from .training.batch import LEARNER, BatchGames

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
    registry.make_vec(game_id, 2, n)  # make_vec's batch entry: its first use compiles it and marks it compiled
    # The arena's standard line-up acting (the heuristic's compiled helpers too), marked compiled for its parent.
    lineup_first_use(game_id, n, [AgentSpec(name) for name in LINEUP])
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


# --- first use: compile what a game is missing now, and say so --------------------------------------------------
_done: set[tuple[str, str]] = set()  # (game, part) compiled or found warm in this process
_announced: set[str] = set()  # games whose first use this process announced
_lock = threading.RLock()
_announcer: Callable[[str, str], contextlib.AbstractContextManager] | None = None  # None: the logging line


def expected_seconds(game_id: str) -> int:
    """A rough figure for the CPU seconds of a game's first use (a multiple of 5)."""
    return max(5, 5 * round(source_bytes(game_id) * SECONDS_PER_SOURCE_BYTE / 5))


def first_use_message(game_id: str) -> str:
    return (
        f"compiling {game_id}'s rules with numba (first use with this cache, about {expected_seconds(game_id)} s "
        f"of CPU; later runs load them at once); `tabletop-zoo precompile {game_id}` does it ahead of time"
    )


def _marker(game_id: str, part: str) -> pathlib.Path:
    import numba

    return pathlib.Path(numba.config.CACHE_DIR, "compiled", f"{game_id}.{part}")


def is_compiled(game_id: str, part: str = "env") -> bool:
    """Whether the cache folder holds ``part`` of ``game_id`` (its marker, written after the part compiled)."""
    return _marker(game_id, part).exists()


def _mark_compiled(game_id: str, part: str) -> None:
    path = _marker(game_id, part)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}")
        temporary.write_text(f"{time.strftime('%Y-%m-%d %H:%M:%S')} pid {os.getpid()}\n")
        os.replace(temporary, path)  # atomic: a reader sees no marker or a whole one
    except OSError:
        pass  # an unwritable cache: numba cannot cache either, so every process compiles and says so (true)


def _log_line(game_id: str, message: str) -> contextlib.AbstractContextManager:
    log.warning(message)
    return contextlib.nullcontext()


def spinner(game_id: str, message: str) -> contextlib.AbstractContextManager:
    """The CLI's announcer: a spinner on stderr while compiling, or one plain line when stderr is not a terminal."""
    from rich.console import Console

    console = Console(stderr=True)
    if console.is_terminal:
        return console.status(f"compiling {game_id}'s rules (first use; later runs start at once)")
    print(message, file=sys.stderr, flush=True)
    return contextlib.nullcontext()


def _silent(game_id: str, message: str) -> contextlib.AbstractContextManager:
    return contextlib.nullcontext()


@contextlib.contextmanager
def announcing(announcer: Callable[[str, str], contextlib.AbstractContextManager] | None):
    """Within the block, a first use is announced by ``announcer(game_id, message)`` (a context manager around
    the compile; ``spinner`` in the CLI, ``None`` for the logging line)."""
    global _announcer
    previous, _announcer = _announcer, announcer
    try:
        yield
    finally:
        _announcer = previous


def compile_once(game_id: str, parts: dict[str, Callable[[], object]]) -> bool:
    """Run each ``parts[name]()`` (code that compiles part of ``game_id``) whose marker the cache folder lacks,
    announcing it once beforehand, then write its marker; returns whether anything was compiled. A part already
    compiled or checked in this process costs a set look-up."""
    todo = {name: warm for name, warm in parts.items() if (game_id, name) not in _done}
    if not todo:
        return False
    import numba

    with _lock:
        todo = {name: warm for name, warm in todo.items() if (game_id, name) not in _done}
        _done.update((game_id, name) for name in todo)  # before warming: a warm-up that builds an env recurses
        if numba.config.DISABLE_JIT:
            return False
        cold = {name: warm for name, warm in todo.items() if not is_compiled(game_id, name)}
        if not cold:
            return False
        # once per game and process: a later part of a game already announced here compiles without a second line
        announce = _silent if game_id in _announced else (_announcer or _log_line)
        _announced.add(game_id)
        with announce(game_id, first_use_message(game_id)):
            for name, warm in cold.items():
                try:
                    compiled = warm()
                except BaseException:
                    _done.discard((game_id, name))
                    raise
                if compiled is not False:  # False: the warm-up could not run it all (no marker, no error)
                    _mark_compiled(game_id, name)
        return True


def _play_random(env, rng: np.random.Generator, limit: int = 5000) -> None:
    """One game of random legal moves to its end (or ``limit`` decisions): every compiled call the env makes,
    the game's end (returns, scores) included, and the observation of a seat that is not to move."""
    env.reset(seed=0)
    for agent in env.possible_agents:
        env.observe(agent)
    for _ in range(limit):
        if not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        obs, *_ = env.last()
        env.step(_random_legal(obs["action_mask"], rng))


def _play_agent(game_id: str, num_players: int, spec, decisions: int = 40, seconds: float = 1.0) -> None:
    """``spec``'s agent plays every seat of a game for ``decisions`` decisions (fewer once its decisions after the
    first took ``seconds`` of CPU: a search with a large budget needs only a few to compile its path). An agent
    that fails here is left to fail where it plays, with its own error (False: not marked compiled)."""
    env = registry.make_env(game_id, num_players=num_players)
    try:
        agent = spec.build(game_id, seed=0)
        env.reset(seed=0)
        if hasattr(agent, "bind"):
            agent.bind(env)
        start = None
        for _ in range(decisions):
            obs, _, term, trunc, _ = env.last()
            if term or trunc or (start is not None and time.process_time() - start > seconds):
                break
            env.step(agent.act(obs["observation"], obs["action_mask"]))
            start = time.process_time() if start is None else start
    except Exception as e:  # the worker reports it in context
        log.debug("warming %s for %s failed: %s", spec.label, game_id, e)
        return False


def lineup_first_use(game_id: str, num_players: int, specs) -> bool:
    """Before a tournament's workers start: compile (or find in the cache) everything a worker runs, the env to
    the game's end and each agent of the line-up acting, announced once; the workers then load machine code
    instead of each compiling the same functions side by side. Returns whether anything was compiled."""

    def warm_env():
        _play_random(registry.make_env(game_id, num_players=num_players), np.random.default_rng(0))

    parts = {"env": warm_env}
    for spec in specs:
        parts.setdefault(f"agent-{spec.name}", lambda spec=spec: _play_agent(game_id, num_players, spec))
    return compile_once(game_id, parts)


def env_first_use(env_class) -> None:
    """``KernelAECEnv.__init__``'s hook: on a cold cache, compile the env's path of the game now (one short game
    of random moves through a second env of the same class), saying so once."""
    game_id = env_class.kernel.GAME_ID
    if (game_id, "env") in _done:
        return

    def warm():
        env = registry.make_env(game_id) if game_id in registry.GAMES else env_class()
        _play_random(env, np.random.default_rng(0))

    compile_once(game_id, {"env": warm})
