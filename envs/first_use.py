"""A game's first use says so: the env and ``make_vec`` compile what a cold numba cache lacks of a game now,
announced once per process, instead of stalling in silence at the first step.

``compile_once`` (called by the env's constructor, by ``make_vec`` and, through ``tabletop_zoo.precompile``, by the
arena before its workers start) compiles what is missing of a game, saying so once per process (a ``tabletop_zoo``
logging WARNING, which a default Python session prints; the CLI installs a spinner with ``announcing``), and
nothing on a warm cache. Whether the cache is warm is a marker file per game and part in the cache folder
(``numba.config.CACHE_DIR``, keyed by the sources), written only after the part compiled: a process killed
mid-compile leaves none, an edit of the sources starts a new folder without any, and two processes starting at once
on a cold cache both compile and both say so.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import pathlib
import threading
import time
from collections.abc import Callable

import numpy as np

from .. import registry

log = logging.getLogger("tabletop_zoo")
# CPU seconds of a cold first use per byte of the kernel's sources: the rough figure the first-use line gives
# (7,200-9,700 bytes a second over the five games, 2026-12-07, benchmarks/COLD_START.md).
SECONDS_PER_SOURCE_BYTE = 1 / 8500


def source_bytes(game_id: str) -> int:
    """Bytes of a kernel's sources (found without importing it): a rough measure of its compile cost."""
    spec = importlib.util.find_spec(registry.KERNELS[game_id])
    return sum(p.stat().st_size for root in spec.submodule_search_locations for p in pathlib.Path(root).glob("*.py"))


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniformly random legal action of ``mask``."""
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


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


def play_random(env, rng: np.random.Generator, limit: int = 5000) -> None:
    """One game of random legal moves to its end (or ``limit`` decisions): every compiled call the env makes,
    the game's end (returns, scores) included, and the observation of a seat that is not to move."""
    env.reset(seed=0)
    for agent in env.possible_agents:
        env.observe(agent)
    for _ in range(limit):
        if not env.agents or env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        obs, *_ = env.last()
        env.step(random_legal(obs["action_mask"], rng))


def env_first_use(env_class) -> None:
    """``KernelAECEnv.__init__``'s hook: on a cold cache, compile the env's path of the game now (one short game
    of random moves through a second env of the same class), saying so once."""
    game_id = env_class.kernel.GAME_ID
    if (game_id, "env") in _done:
        return

    def warm():
        env = registry.make_env(game_id) if game_id in registry.GAMES else env_class()
        play_random(env, np.random.default_rng(0))

    compile_once(game_id, {"env": warm})
