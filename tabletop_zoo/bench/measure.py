"""Measuring: the machine, its load, and every figure of one game at one player count.

Kernel random playouts on 1 thread and on all cores, the PettingZoo AEC random-agent loop, the
observation encoder, clone and serialize round trips, our MCTS (1 thread and all cores) and memory per
state record and per MCTS node. Every figure is ``{"median", "min", "max", "runs"}`` over repeated runs;
compilation and cache loading happen before the timed region. Timings are reported, never asserted in tests.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import os
import pathlib
import platform
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .. import registry
from ..agents import RandomAgent

# Targets from issue #10 (reported, not asserted).
TARGET_KERNEL_DECISIONS_PER_S = 1_000_000  # a kernel's DECISIONS_PER_S_TARGET overrides it
TARGET_TWO_CORE_SCALING = 1.8
TARGET_AEC_VS_PETTINGZOO = 7.0
TARGET_CLONE_US = 1.0
TARGET_MCTS_VS_OPENSPIEL_PYTHON = 20.0


@dataclasses.dataclass(frozen=True)
class Config:
    """How long and how often to measure. ``Config.quick()`` makes every measurement tiny."""

    seconds: float = 1.0  # per timed run of a throughput loop
    repeats: int = 5  # runs per figure (median, min, max)
    mcts_simulations: int = 1000
    mcts_positions: int = 3  # positions searched per game and player count (one run each, per repeat)
    rollout_depth: int = 20  # fixed across games (MCTSAgent takes a game's ROLLOUT_DEPTH): rollouts, then evaluate()
    headline_positions: int = 3
    headline_simulations: int = 1000
    threads: int = dataclasses.field(default_factory=lambda: os.cpu_count() or 1)
    quick: bool = False

    @classmethod
    def quick_mode(cls) -> Config:
        return cls(
            seconds=0.01,
            repeats=3,
            mcts_simulations=20,
            mcts_positions=1,
            headline_positions=1,
            headline_simulations=10,
            quick=True,
        )


def _stat(values: list[float]) -> dict:
    v = np.asarray(values, np.float64)
    return {"median": float(np.median(v)), "min": float(v.min()), "max": float(v.max()), "runs": int(v.size)}


def _repeat(run_once: Callable[[], dict], repeats: int) -> dict:
    """Call ``run_once`` ``repeats`` times; every numeric key becomes a median/min/max figure."""
    runs = [run_once() for _ in range(repeats)]
    return {key: _stat([r[key] for r in runs]) for key in runs[0]}


def _version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _cpu_model() -> str:
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict:
    """Where the figures were measured."""
    return {
        "platform": platform.platform(),
        "cpu": _cpu_model(),
        "cores": os.cpu_count() or 1,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": _version("numba"),
        "pettingzoo": _version("pettingzoo"),
        "open_spiel": _version("open_spiel"),
    }


# A machine whose 1-minute load average is at least this fraction of its cores is busy: other work
# competes for the cores being timed (the all-cores figures most), so the figures are not the machine's.
BUSY_LOAD_PER_CORE = 0.5


def load() -> dict:
    """The machine's load now: ``os.getloadavg()`` (1, 5, 15 minutes; None where the OS has none), the
    cores, and whether it is busy (1-minute load >= ``BUSY_LOAD_PER_CORE`` per core)."""
    cores = os.cpu_count() or 1
    try:
        avg = [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):  # Windows has no load average
        return {"loadavg": None, "cpu_count": cores, "busy": None}
    return {"loadavg": avg, "cpu_count": cores, "busy": avg[0] >= BUSY_LOAD_PER_CORE * cores}


def busy_warning(state: dict, when: str) -> str | None:
    """A one-line warning if ``state`` (from ``load()``) says the machine was busy, else None."""
    if not state["busy"]:
        return None
    return (
        f"warning: the machine is busy {when}: load average {state['loadavg'][0]:g} (1 min) on "
        f"{state['cpu_count']} cores (busy from {BUSY_LOAD_PER_CORE:g} per core); other work competes "
        "for the cores, so these figures understate the machine"
    )


# --- kernel, AEC, observation, clone ----------------------------------------------------------------
def _playout_batch(k, num_players: int, seed: int, seconds: float) -> int:
    """Games per ``playouts`` call so that one call takes about a tenth of a timed run."""
    k.playouts(num_players, 2, seed)  # compile / load the numba cache outside the timed region
    t0 = time.perf_counter()
    k.playouts(num_players, 4, seed)
    per_game = max((time.perf_counter() - t0) / 4, 1e-7)
    return max(1, int(0.1 * seconds / per_game))


def kernel_playouts(game_id: str, num_players: int, seconds: float, threads: int, batch: int, seed: int = 0) -> dict:
    """One timed run of uniformly random games inside numba; ``threads`` run independent batches."""
    k = registry.kernel(game_id)

    def worker(w: int) -> tuple[int, int]:
        decisions = games = i = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end or i == 0:
            d, g = k.playouts(num_players, batch, seed + 1_000_003 * w + batch * i)
            decisions, games, i = decisions + d, games + g, i + 1
        return decisions, games

    t0 = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:  # playouts release the GIL
        results = list(pool.map(worker, range(threads)))
    elapsed = time.perf_counter() - t0
    decisions, games = sum(d for d, _ in results), sum(g for _, g in results)
    return {
        "decisions_per_s": decisions / elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_game": decisions / max(games, 1),
    }


def aec_loop(env, seconds: float, seed: int = 0) -> dict:
    """One timed run of the PettingZoo random-agent loop (``agent_iter``/``last``/``step``), >= 1 game."""
    agent = RandomAgent(seed)
    steps = games = 0
    end = time.perf_counter() + seconds
    t0 = time.perf_counter()
    while time.perf_counter() < end or games == 0:
        env.reset(seed=seed + games)
        for _ in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            env.step(None if term or trunc else agent.act(obs["observation"], obs["action_mask"]))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - t0
    return {"steps_per_s": steps / elapsed, "games_per_s": games / elapsed}


def _warm_env(make) -> object:
    """An env that has played one game (numba compiled / cache loaded outside the timed region)."""
    env = make()
    aec_loop(env, 0.0, seed=10_000)
    return env


def _positions(game_id: str, num_players: int, count: int, seed: int = 0) -> list[np.ndarray]:
    """Records at decision nodes with >= 2 legal actions, spread along one seeded random game."""
    k = registry.kernel(game_id)
    rng = np.random.default_rng(seed)
    s = k.new_state(num_players, seed)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    found: list[np.ndarray] = []
    gap = 9  # decisions between kept positions
    step = 0
    while not k.is_over(s) and len(found) < count:
        k.legal_mask(s, mask)
        legal = np.flatnonzero(mask)
        if legal.size > 1 and step % gap == 0:
            found.append(s.copy())
        k.step(s, int(legal[rng.integers(legal.size)]))
        step += 1
    return found


def observe_cost(game_id: str, num_players: int, records: list[np.ndarray], calls: int) -> dict:
    """One timed run: µs per ``observe(record, seat, out)`` call from Python, over every seat."""
    k = registry.kernel(game_id)
    out = np.zeros(k.OBS_SIZE, np.float32)
    observe = k.observe
    pairs = [(r, seat) for r in records for seat in range(num_players)]
    rounds = max(1, calls // len(pairs))
    t0 = time.perf_counter()
    for _ in range(rounds):
        for r, seat in pairs:
            observe(r, seat, out)
    return {"us_per_call": 1e6 * (time.perf_counter() - t0) / (rounds * len(pairs))}


def clone_costs(env, calls: int) -> dict:
    """One timed run, µs per call: ``record.copy()`` (numpy copies a structured record field by field),
    a writable copy through the bytes (``frombuffer(bytearray(tobytes()))``), the serialize round trip
    ``frombuffer(tobytes())`` and ``env.set_state(env.get_state())``."""
    s = env.get_state()
    dtype = s.dtype

    def per_call(fn) -> float:
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        return 1e6 * (time.perf_counter() - t0) / calls

    return {
        "record_copy_us": per_call(s.copy),
        "record_byte_copy_us": per_call(lambda: np.frombuffer(bytearray(s.tobytes()), dtype)),
        "bytes_round_trip_us": per_call(lambda: np.frombuffer(s.tobytes(), dtype)),
        "env_get_set_state_us": per_call(lambda: env.set_state(env.get_state())),
    }


# --- MCTS ---------------------------------------------------------------------------------------------
def mcts_node_bytes(kernel) -> int:
    """Bytes per node of ``agents/mcts/uct.py``'s preallocated tree: int32 action, first_child,
    next_sibling, visits, avail and path entries, plus a float64 value per seat (MAX_PLAYERS)."""
    return 6 * np.dtype(np.int32).itemsize + kernel.MAX_PLAYERS * np.dtype(np.float64).itemsize


def mcts_run(records: list[np.ndarray], simulations: int, depth: int, threads: int, seed: int = 0) -> dict:
    """One timed run: our root-parallel search of every record; simulations/s and ms per 1000 sims."""
    from ..agents.mcts import search_root

    elapsed = 0.0
    for i, r in enumerate(records):
        t0 = time.perf_counter()
        search_root(r, simulations, depth, 1.0, seed + i, threads)
        elapsed += time.perf_counter() - t0
    sims = simulations * len(records)
    return {"sims_per_s": sims / elapsed, "ms_per_1000_sims": 1e6 * elapsed / sims}


# --- one game, all player counts ----------------------------------------------------------------------
def measure_game(game_id: str, num_players: int, cfg: Config) -> dict:
    """Every figure of one game at one player count."""
    from ..agents.mcts import search_root

    k = registry.kernel(game_id)
    batch = _playout_batch(k, num_players, 0, cfg.seconds)
    row: dict = {
        "kernel_1t": _repeat(lambda: kernel_playouts(game_id, num_players, cfg.seconds, 1, batch), cfg.repeats),
        "kernel_all": _repeat(
            lambda: kernel_playouts(game_id, num_players, cfg.seconds, cfg.threads, batch), cfg.repeats
        ),
    }
    row["kernel_all"]["threads"] = cfg.threads
    env = _warm_env(lambda: registry.make_env(game_id, num_players=num_players))
    row["aec"] = _repeat(lambda: aec_loop(env, cfg.seconds), cfg.repeats)
    records = _positions(game_id, num_players, max(cfg.mcts_positions, 5))
    calls = 200 if cfg.quick else 20_000
    observe_cost(game_id, num_players, records, 10)
    row["observe"] = _repeat(lambda: observe_cost(game_id, num_players, records, calls), cfg.repeats)
    env.reset(seed=1)
    env.set_state(records[-1])
    row["clone"] = _repeat(lambda: clone_costs(env, calls // 10), cfg.repeats)  # up to ~100 µs per call
    searched = records[: cfg.mcts_positions]
    search_root(searched[0], 4, cfg.rollout_depth, 1.0, 0, cfg.threads)  # compile / load the cache
    row["mcts_1t"] = _repeat(lambda: mcts_run(searched, cfg.mcts_simulations, cfg.rollout_depth, 1), cfg.repeats)
    row["mcts_all"] = _repeat(
        lambda: mcts_run(searched, cfg.mcts_simulations, cfg.rollout_depth, cfg.threads), cfg.repeats
    )
    row["mcts_all"]["threads"] = cfg.threads
    row["memory"] = {"state_record_bytes": int(k.STATE.itemsize), "mcts_node_bytes": mcts_node_bytes(k)}
    env.close()
    return row
