"""Compile the numba code of chosen games into the on-disk cache before it is needed.

numba compiles a game's kernels, its search and its batch steppers on first use (minutes of CPU for a
large game) and caches the machine code on disk (``tabletop_zoo/_numba_cache.py``). Processes that start
at once on a cold cache (pytest-xdist workers, a Ray cluster, a tournament's worker pool) each compile
the same functions. ``precompile`` runs every compiled path of each game once, one game per process,
so that every later process loads machine code instead. ``tabletop-zoo precompile`` is the command;
the test suite calls it before its workers start.

A first use is never silent either: ``tabletop_zoo.envs.first_use`` compiles what a cold cache lacks of a game
at its first use and says so once; ``lineup_first_use`` (below) does it for a tournament's line-up before its
workers start.

At release time ``ship`` (``tabletop-zoo precompile --ship``) compiles what a first use compiles, for every game, for
a baseline CPU into the package (``tabletop_zoo/compiled/<digest>/``, package data of the wheel): a user who
installs the wheel loads it instead of compiling (``tabletop_zoo/_numba_cache.py``).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import logging
import multiprocessing
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

from . import _numba_cache, registry
from .envs.first_use import _silent, announcing, compile_once, is_compiled, play_random, random_legal, source_bytes

MOVES = 12  # random moves played through each layer: enough to reach every compiled function's types
log = logging.getLogger("tabletop_zoo")
LINEUP = ("random", "heuristic", "mcts")  # the agents precompile warms for a tournament (the README's line-up)


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
        k.step(s, random_legal(mask, rng))
    k.returns(s, out)
    k.validate(s)
    mcts = make_agent("mcts", game_id, seed=0, simulations=8)
    mcts.act_for_seat(s)  # determinize too, in hidden-information games
    warm_up(k, n)  # the az agent's search

    # The AEC env (its step path), the vector env's batch step and self-play's batch advance.
    env = registry.make_env(game_id)
    env.reset(seed=0)
    for _ in range(MOVES):
        env.step(random_legal(env.observe(env.agent_selection)["action_mask"], rng))
    vec = KernelVecEnv(game_id, num_envs=2, seed=0)
    vec.reset()
    for _ in range(MOVES):
        vec.step(np.array([random_legal(m, rng) for m in vec.action_masks()]))
    games = BatchGames(k, 2, n, {})
    for i in range(2):
        games.start(i, i, i, [LEARNER] * n)
    for _ in range(MOVES):
        rows = np.flatnonzero(games.seats >= 0)
        for i in rows:
            games.actions[i] = random_legal(games.masks[i], rng)
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


# --- release: the env path's machine code, shipped in the wheel --------------------------------------------------


def ship_game(game_id: str) -> float:
    """Compile what a first use of ``game_id`` compiles (the env to a game's end: ``envs.first_use``) into this
    process's cache folder; returns the CPU seconds. Run by ``ship`` in a process set to the baseline CPU."""
    import numba

    start = time.process_time()
    with announcing(_silent):
        registry.make_env(game_id)  # the constructor's first use compiles the env path and marks it compiled
    if not is_compiled(game_id, "env"):
        raise RuntimeError(f"{game_id}'s env path did not compile into {numba.config.CACHE_DIR}")
    return time.process_time() - start


def first_use_reads(game_id: str) -> list[str]:
    """The cache files a warm first use of ``game_id`` (the env to a game's end) loads machine code from, relative to
    this process's cache folder. Raises if it compiled anything: ``ship_game`` missed part of the env path."""
    import numba
    from numba.core import caching, event

    read, compiled = [], []
    load_data = caching.IndexDataCacheFile._load_data

    def recording(self, name):
        read.append(os.path.relpath(os.path.join(self._cache_path, name), numba.config.CACHE_DIR))
        return load_data(self, name)

    class Compiles(event.Listener):
        def on_start(self, ev):
            compiled.append(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev):
            pass

    caching.IndexDataCacheFile._load_data = recording
    try:
        with event.install_listener("numba:compile", Compiles()), announcing(_silent):
            play_random(registry.make_env(game_id), np.random.default_rng(0))
    finally:
        caching.IndexDataCacheFile._load_data = load_data
    if compiled:
        raise RuntimeError(f"{game_id}'s warm first use compiled {compiled}: the shipped code would miss them")
    return read


def _at_baseline(code: str, cache: str) -> str:
    """Run ``code`` in a fresh process compiling for ``BASELINE_CPU`` into the cache folder ``cache``; returns the
    last line it printed."""
    cpu = {"NUMBA_CPU_NAME": _numba_cache.BASELINE_CPU, "NUMBA_CPU_FEATURES": ""}
    env = {**os.environ, "NUMBA_CACHE_DIR": cache, **cpu}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"building the shipped code failed ({code}):\n{proc.stderr[-3000:]}")
    return proc.stdout.splitlines()[-1]


def _keep_only(built: pathlib.Path, read: set[str]) -> None:
    """Delete the machine code no first use loads (callees compiled into their callers, entries of other
    signatures) and the indexes left without any: an index entry whose file is gone is a miss for numba."""
    for data in built.rglob("*.nbc"):
        if str(data.relative_to(built)) not in read:
            data.unlink()
    kept = {str(p.relative_to(built)).rsplit(".", 2)[0] for p in built.rglob("*.nbc")}  # <base>.<n>.nbc
    for index in built.rglob("*.nbi"):
        if str(index.relative_to(built)).removesuffix(".nbi") not in kept:
            index.unlink()
    for lock in built.rglob("*.lock"):  # the save locks of _numba_cache.lock_cache_saves: not code
        lock.unlink()


def ship(game_ids: list[str] | None = None, jobs: int = 1, report=None) -> pathlib.Path:
    """Build the machine code the wheel carries: every game's env path (all games by default) compiled for
    ``BASELINE_CPU`` in fresh processes, ``jobs`` at a time, then only what a warm first use loads of it kept, into
    ``tabletop_zoo/compiled/<digest>/`` with its manifest (the folders of other digests removed); returns the
    folder. ``report(game_id, seconds)`` as each game compiled."""
    games = sorted(game_ids or registry.GAMES, key=source_bytes, reverse=True)  # the slowest compiles first
    digest = _numba_cache.source_digest()

    def compile_and_read(game: str) -> tuple[float, list[str]]:
        seconds = float(
            _at_baseline(f"from tabletop_zoo.precompile import ship_game; print(ship_game({game!r}))", cache)
        )
        code = f"import json; from tabletop_zoo.precompile import first_use_reads as r; print(json.dumps(r({game!r})))"
        return seconds, json.loads(_at_baseline(code, cache))

    with tempfile.TemporaryDirectory(prefix="tabletop_zoo_ship_") as cache:
        read = set()
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(compile_and_read, g): g for g in games}
            for future in concurrent.futures.as_completed(futures):
                seconds, files = future.result()
                read.update(files)
                if report is not None:
                    report(futures[future], seconds)
        built = pathlib.Path(cache, f"tabletop_zoo-{digest}")
        if not built.is_dir():
            raise RuntimeError(f"the compiling processes saw other sources than this one (no {built.name} in {cache})")
        _keep_only(built, read)
        (built / _numba_cache.MANIFEST).write_text(json.dumps(_numba_cache.build_manifest(), indent=1) + "\n")
        shutil.rmtree(_numba_cache.SHIPPED, ignore_errors=True)
        _numba_cache.SHIPPED.mkdir(parents=True)
        return pathlib.Path(shutil.move(built, _numba_cache.SHIPPED / digest))


# --- first use: compile what a game is missing now, and say so --------------------------------------------------


def spinner(game_id: str, message: str) -> contextlib.AbstractContextManager:
    """The CLI's announcer: a spinner on stderr while compiling, or one plain line when stderr is not a terminal."""
    from rich.console import Console

    console = Console(stderr=True)
    if console.is_terminal:
        return console.status(f"compiling {game_id}'s rules (first use; later runs start at once)")
    print(message, file=sys.stderr, flush=True)
    return contextlib.nullcontext()


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
        play_random(registry.make_env(game_id, num_players=num_players), np.random.default_rng(0))

    parts = {"env": warm_env}
    for spec in specs:
        parts.setdefault(f"agent-{spec.name}", lambda spec=spec: _play_agent(game_id, num_players, spec))
    return compile_once(game_id, parts)
