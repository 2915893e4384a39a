"""Throughput of every game and layer, next to the libraries a user would pick instead, in one run.

``run(games, Config())`` measures, for every game and player count: kernel random playouts on 1 thread
and on all cores, the PettingZoo AEC random-agent loop, the observation encoder, clone and serialize
round trips, our MCTS (1 thread and all cores) and memory per state record and per MCTS node. In the
same run it measures the reference points that are installed (PettingZoo ``connect_four_v3`` env()
and raw_env() loops; OpenSpiel connect_four random playouts in a Python loop and a C++ loop, OpenSpiel's
Python and C++ MCTS bots) and the headline: OpenSpiel's Python ``MCTSBot`` on our games through
``tabletop_zoo.interop.openspiel`` against our MCTS on the same positions with the same simulation
counts, rollout depth and leaf evaluation.

Every figure is ``{"median", "min", "max", "runs"}`` over repeated runs; compilation and cache loading
happen before the timed region. Timings are reported, never asserted in tests.
"""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import os
import pathlib
import platform
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import registry
from .agents import RandomAgent

# Targets from issue #10 (reported, not asserted).
TARGET_KERNEL_DECISIONS_PER_S = 1_000_000
TARGET_KERNEL_DECISIONS_PER_S_IMPERIAL = 300_000
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
    rollout_depth: int = 20  # our MCTSAgent's default: random decisions, then the kernel's evaluate()
    headline_positions: int = 3
    headline_simulations: int = 1000
    threads: int = dataclasses.field(default_factory=lambda: os.cpu_count() or 1)
    quick: bool = False

    @classmethod
    def quick_mode(cls) -> Config:
        return cls(seconds=0.01, repeats=3, mcts_simulations=20, mcts_positions=1, headline_positions=1,
                   headline_simulations=10, quick=True)


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
    return {"platform": platform.platform(), "cpu": _cpu_model(), "cores": os.cpu_count() or 1,
            "python": platform.python_version(), "numpy": np.__version__, "numba": _version("numba"),
            "pettingzoo": _version("pettingzoo"), "open_spiel": _version("open_spiel")}


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
    return (f"warning: the machine is busy {when}: load average {state['loadavg'][0]:g} (1 min) on "
            f"{state['cpu_count']} cores (busy from {BUSY_LOAD_PER_CORE:g} per core); other work competes "
            "for the cores, so these figures understate the machine")


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
    return {"decisions_per_s": decisions / elapsed, "games_per_s": games / elapsed,
            "decisions_per_game": decisions / max(games, 1)}


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

    return {"record_copy_us": per_call(s.copy),
            "record_byte_copy_us": per_call(lambda: np.frombuffer(bytearray(s.tobytes()), dtype)),
            "bytes_round_trip_us": per_call(lambda: np.frombuffer(s.tobytes(), dtype)),
            "env_get_set_state_us": per_call(lambda: env.set_state(env.get_state()))}


# --- MCTS ---------------------------------------------------------------------------------------------
def mcts_node_bytes(kernel) -> int:
    """Bytes per node of ``agents/mcts/uct.py``'s preallocated tree: int32 action, first_child,
    next_sibling, visits, avail and path entries, plus a float64 value per seat (MAX_PLAYERS)."""
    return 6 * np.dtype(np.int32).itemsize + kernel.MAX_PLAYERS * np.dtype(np.float64).itemsize


def mcts_run(records: list[np.ndarray], simulations: int, depth: int, threads: int, seed: int = 0) -> dict:
    """One timed run: our root-parallel search of every record; simulations/s and ms per 1000 sims."""
    from .agents.mcts import search_root

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
    from .agents.mcts import search_root

    k = registry.kernel(game_id)
    batch = _playout_batch(k, num_players, 0, cfg.seconds)
    row: dict = {
        "kernel_1t": _repeat(lambda: kernel_playouts(game_id, num_players, cfg.seconds, 1, batch), cfg.repeats),
        "kernel_all": _repeat(lambda: kernel_playouts(game_id, num_players, cfg.seconds, cfg.threads, batch),
                              cfg.repeats),
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
    row["mcts_all"] = _repeat(lambda: mcts_run(searched, cfg.mcts_simulations, cfg.rollout_depth, cfg.threads),
                              cfg.repeats)
    row["mcts_all"]["threads"] = cfg.threads
    row["memory"] = {"state_record_bytes": int(k.STATE.itemsize), "mcts_node_bytes": mcts_node_bytes(k)}
    env.close()
    return row


# --- reference points -----------------------------------------------------------------------------------
def pettingzoo_references(cfg: Config) -> dict:
    """PettingZoo ``connect_four_v3`` env() (wrapped) and raw_env() loops, or None if not importable."""
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:  # needs pygame (the ``bench`` extra)
        return {"connect_four_v3_env": None, "connect_four_v3_raw_env": None}
    out = {}
    for name, make in (("connect_four_v3_env", connect_four_v3.env), ("connect_four_v3_raw_env", connect_four_v3.raw_env)):
        env = _warm_env(make)
        out[name] = _repeat(lambda env=env: aec_loop(env, cfg.seconds), cfg.repeats)
    return out


def _openspiel_python_playouts(game, seconds: float, seed: int = 0) -> dict:
    """Random playouts driven from Python: legal_actions() + apply_action() per decision."""
    choice = random.Random(seed).choice
    decisions = games = 0
    end = time.perf_counter() + seconds
    t0 = time.perf_counter()
    while time.perf_counter() < end or games == 0:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - t0
    return {"decisions_per_s": decisions / elapsed, "games_per_s": games / elapsed,
            "decisions_per_game": decisions / games}


def _openspiel_cpp_playouts(game, seconds: float, seed: int = 0) -> dict:
    """Random playouts in C++: ``pyspiel.evaluate_bots`` with uniform random C++ bots, one call per game."""
    import pyspiel

    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    decisions = games = 0
    end = time.perf_counter() + seconds
    t0 = time.perf_counter()
    while time.perf_counter() < end or games == 0:
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, bots, seed + games)
        decisions += state.move_number()  # connect_four has no chance moves: every move is a decision
        games += 1
    elapsed = time.perf_counter() - t0
    return {"decisions_per_s": decisions / elapsed, "games_per_s": games / elapsed,
            "decisions_per_game": decisions / games}


def _openspiel_mcts_move(bot, state, simulations: int) -> dict:
    t0 = time.perf_counter()
    bot.step(state)
    elapsed = time.perf_counter() - t0
    return {"sims_per_s": simulations / elapsed, "ms_per_1000_sims": 1e6 * elapsed / simulations}


def openspiel_references(cfg: Config) -> dict:
    """OpenSpiel's C++ connect_four: random playouts (Python loop, C++ loop) and its Python and C++
    MCTS bots (random rollouts to the end, ``solve`` off so every move runs all its simulations)."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return dict.fromkeys(("random_python_loop", "random_cpp_loop", "mcts_python", "mcts_cpp"))
    game = pyspiel.load_game("connect_four")
    sims = cfg.mcts_simulations
    out = {"game": "connect_four (OpenSpiel C++ game)"}
    _openspiel_python_playouts(game, 0.0)
    out["random_python_loop"] = _repeat(lambda: _openspiel_python_playouts(game, cfg.seconds), cfg.repeats)
    out["random_cpp_loop"] = _repeat(lambda: _openspiel_cpp_playouts(game, cfg.seconds), cfg.repeats)
    py_bot = mcts.MCTSBot(game, 1.0, sims, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)), solve=False,
                          random_state=np.random.RandomState(0))
    cpp_bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 0), 1.0, sims, 1000, False, 0, False)
    state = game.new_initial_state()
    out["mcts_python"] = _repeat(lambda: _openspiel_mcts_move(py_bot, state, sims), cfg.repeats)
    out["mcts_cpp"] = _repeat(lambda: _openspiel_mcts_move(cpp_bot, state, sims), cfg.repeats)
    return out


def headline(game_id: str, cfg: Config) -> dict | None:
    """OpenSpiel's Python MCTSBot on our game (through the adapter) vs our MCTS, same positions, same
    simulation count, same rollout depth and leaf evaluation, one thread each; None without OpenSpiel."""
    try:
        from open_spiel.python.algorithms import mcts

        from .interop import openspiel as osp
    except ImportError:
        return None
    from .agents.mcts import search_root

    game = osp.load_game(game_id)
    n, sims, depth = game.num_players(), cfg.headline_simulations, cfg.rollout_depth
    records = _positions(game_id, n, cfg.headline_positions, seed=1)
    states = [game.state_from_record(r) for r in records]
    bot = mcts.MCTSBot(game, 1.0, sims, osp.TruncatedRolloutEvaluator(depth, np.random.RandomState(0)),
                       solve=False, random_state=np.random.RandomState(0))
    warm = mcts.MCTSBot(game, 1.0, 3, osp.TruncatedRolloutEvaluator(depth, np.random.RandomState(0)), solve=False)
    warm.step(states[0])  # numba compiles the explicit-chance kernels outside the timed region
    search_root(records[0], 4, depth, 1.0, 0, 1)
    theirs = [_openspiel_mcts_move(bot, st, sims)["sims_per_s"] for st in states for _ in range(cfg.repeats)]
    ours = [mcts_run([r], sims, depth, 1, seed=i)["sims_per_s"] for r in records for i in range(cfg.repeats)]
    result = {"players": n, "simulations": sims, "rollout_depth": depth, "positions": len(records),
              "openspiel_python_sims_per_s": _stat(theirs), "ours_sims_per_s": _stat(ours)}
    result["ratio"] = result["ours_sims_per_s"]["median"] / result["openspiel_python_sims_per_s"]["median"]
    return result


# --- the whole run --------------------------------------------------------------------------------------
def run(games: list[str], cfg: Config, progress: Callable[[str], None] | None = None) -> dict:
    """Every figure for ``games``, the reference points and the headline, with ratios and targets."""
    say = progress or (lambda _msg: None)
    games = [registry._canonical(g) for g in games]
    result: dict = {"machine": machine(), "config": dataclasses.asdict(cfg), "games": {}, "headline": {}}
    result["load"] = {"before": load()}  # recorded so that a run on a busy machine is visibly one
    say("reference points: PettingZoo connect_four_v3")
    result["references"] = {"pettingzoo": pettingzoo_references(cfg)}
    say("reference points: OpenSpiel connect_four")
    result["references"]["openspiel"] = openspiel_references(cfg)
    for g in games:
        result["games"][g] = {}
        for n in registry.player_counts(g):
            say(f"{g}, {n} players")
            result["games"][g][str(n)] = measure_game(g, n, cfg)
        say(f"{g}: OpenSpiel Python MCTSBot vs ours")
        result["headline"][g] = headline(g, cfg)
    result["load"]["after"] = load()
    result["load"]["busy"] = bool(result["load"]["before"]["busy"] or result["load"]["after"]["busy"])
    add_ratios(result)
    return result


def _median(fig: dict | None, key: str) -> float | None:
    return None if fig is None else fig[key]["median"]


def add_ratios(result: dict) -> None:
    """Ratios to the reference points and target checks, added to every game row."""
    refs = result["references"]
    pz = _median(refs["pettingzoo"]["connect_four_v3_env"], "steps_per_s")
    pz_raw = _median(refs["pettingzoo"]["connect_four_v3_raw_env"], "steps_per_s")
    ops = refs["openspiel"]
    os_cpp = _median(ops.get("random_cpp_loop"), "decisions_per_s")
    os_py = _median(ops.get("random_python_loop"), "decisions_per_s")
    os_mcts_py = _median(ops.get("mcts_python"), "sims_per_s")
    os_mcts_cpp = _median(ops.get("mcts_cpp"), "sims_per_s")

    def ratio(a, b):
        return None if a is None or b is None else a / b

    for g, rows in result["games"].items():
        target = TARGET_KERNEL_DECISIONS_PER_S_IMPERIAL if g == "imperial" else TARGET_KERNEL_DECISIONS_PER_S
        for row in rows.values():
            k1, kall = row["kernel_1t"]["decisions_per_s"]["median"], row["kernel_all"]["decisions_per_s"]["median"]
            aec, m1 = row["aec"]["steps_per_s"]["median"], row["mcts_1t"]["sims_per_s"]["median"]
            row["ratios"] = {
                "kernel_all_vs_1t": kall / k1,
                "aec_vs_pettingzoo_connect_four_env": ratio(aec, pz),
                "aec_vs_pettingzoo_connect_four_raw_env": ratio(aec, pz_raw),
                "kernel_1t_vs_openspiel_connect_four_cpp_loop": ratio(k1, os_cpp),
                "kernel_1t_vs_openspiel_connect_four_python_loop": ratio(k1, os_py),
                "mcts_1t_vs_openspiel_python_mcts_connect_four": ratio(m1, os_mcts_py),
                "mcts_1t_vs_openspiel_cpp_mcts_connect_four": ratio(m1, os_mcts_cpp),
            }
            aec_ratio = row["ratios"]["aec_vs_pettingzoo_connect_four_env"]
            row["targets_met"] = {
                "kernel_decisions_per_s": k1 >= target,
                "multi_core_scaling": None if row["kernel_all"]["threads"] < 2 else kall / k1 >= TARGET_TWO_CORE_SCALING,
                "aec_vs_pettingzoo": None if aec_ratio is None else aec_ratio >= TARGET_AEC_VS_PETTINGZOO,
                "clone_record_copy_us": row["clone"]["record_copy_us"]["median"] <= TARGET_CLONE_US,
                "clone_record_byte_copy_us": row["clone"]["record_byte_copy_us"]["median"] <= TARGET_CLONE_US,
            }
    for h in result["headline"].values():
        if h is not None:
            h["target_met"] = h["ratio"] >= TARGET_MCTS_VS_OPENSPIEL_PYTHON


# --- output -----------------------------------------------------------------------------------------------
def _fmt(x: float | None, digits: int = 0) -> str:
    if x is None:
        return "n/a"
    return f"{x:,.{digits}f}"


def _mmm(fig: dict, digits: int = 0) -> str:
    """median (min-max)"""
    return f"{_fmt(fig['median'], digits)} ({_fmt(fig['min'], digits)}-{_fmt(fig['max'], digits)})"


def _x(r: float | None) -> str:
    return "n/a" if r is None else f"{r:,.1f}x"


def _load_line(result: dict) -> str:
    """The machine's load at the start and the end of the run, flagged when it was busy."""
    ld = result.get("load")
    if not ld or ld["before"]["loadavg"] is None:
        return "Load: not recorded"
    span = f"Load average (1 min): {ld['before']['loadavg'][0]:g} at the start, {ld['after']['loadavg'][0]:g} at the end"
    return span + (" -- BUSY MACHINE: figures understate it" if ld["busy"] else " (quiet)")


def format_report(result: dict) -> str:
    """Markdown tables (readable in a terminal too): machine, games, references, headline."""
    m, cfg = result["machine"], result["config"]
    lines = [f"Machine: {m['cpu']}, {m['cores']} cores, {m['platform']}; Python {m['python']}, numpy {m['numpy']}, "
             f"numba {m['numba']}, pettingzoo {m['pettingzoo']}, open_spiel {m['open_spiel']}",
             f"Each figure: median (min-max) over {cfg['repeats']} runs of {cfg['seconds']:g} s "
             f"(MCTS: one run = one search of each of {cfg['mcts_positions']} positions, "
             f"{cfg['mcts_simulations']} simulations, rollouts of {cfg['rollout_depth']} decisions + evaluate())"
             + ("; QUICK MODE: figures are not meaningful" if cfg["quick"] else ""), _load_line(result), ""]
    t = cfg["threads"]
    lines += ["## Throughput (decisions/s)", "",
              f"| game | players | kernel 1 thread | kernel {t} threads | scaling | decisions/game | kernel games/s (1t) "
              "| AEC env() steps/s | AEC vs PettingZoo connect_four env() |",
              "|---|---|---|---|---|---|---|---|---|"]
    for g, rows in result["games"].items():
        for n, r in rows.items():
            lines.append(f"| {g} | {n} | {_mmm(r['kernel_1t']['decisions_per_s'])} | "
                         f"{_mmm(r['kernel_all']['decisions_per_s'])} | {_x(r['ratios']['kernel_all_vs_1t'])} | "
                         f"{_fmt(r['kernel_1t']['decisions_per_game']['median'], 1)} | "
                         f"{_mmm(r['kernel_1t']['games_per_s'])} | {_mmm(r['aec']['steps_per_s'])} | "
                         f"{_x(r['ratios']['aec_vs_pettingzoo_connect_four_env'])} |")
    lines += ["", "## Per-call costs, MCTS and memory", "",
              "| game | players | observe µs | record.copy() µs | byte copy µs | tobytes+frombuffer µs "
              f"| env get+set_state µs | MCTS sims/s (1t) | MCTS sims/s ({t}t) | ms per 1000 sims (1t) | state bytes "
              "| MCTS node bytes |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for g, rows in result["games"].items():
        for n, r in rows.items():
            c = r["clone"]
            lines.append(f"| {g} | {n} | {_mmm(r['observe']['us_per_call'], 2)} | {_mmm(c['record_copy_us'], 2)} | "
                         f"{_mmm(c['record_byte_copy_us'], 2)} | {_mmm(c['bytes_round_trip_us'], 2)} | {_mmm(c['env_get_set_state_us'], 2)} | "
                         f"{_mmm(r['mcts_1t']['sims_per_s'])} | {_mmm(r['mcts_all']['sims_per_s'])} | "
                         f"{_mmm(r['mcts_1t']['ms_per_1000_sims'], 1)} | {r['memory']['state_record_bytes']:,} | "
                         f"{r['memory']['mcts_node_bytes']} |")
    lines += ["", "## Reference points (same run)", "", "| reference | figure |", "|---|---|"]
    pz, ops = result["references"]["pettingzoo"], result["references"]["openspiel"]
    for name, fig in pz.items():
        lines.append(f"| PettingZoo {name.replace('_env', ' env()').replace('_raw env()', ' raw_env()')} loop "
                     f"| {'not installed' if fig is None else _mmm(fig['steps_per_s']) + ' steps/s'} |")
    labels = {"random_python_loop": ("OpenSpiel connect_four random playouts, Python loop", "decisions_per_s", "decisions/s"),
              "random_cpp_loop": ("OpenSpiel connect_four random playouts, C++ loop (evaluate_bots)", "decisions_per_s",
                                  "decisions/s"),
              "mcts_python": ("OpenSpiel Python MCTSBot on connect_four", "sims_per_s", "sims/s"),
              "mcts_cpp": ("OpenSpiel C++ MCTSBot on connect_four", "sims_per_s", "sims/s")}
    for key, (label, field, unit) in labels.items():
        fig = ops.get(key)
        lines.append(f"| {label} | {'not installed' if fig is None else _mmm(fig[field]) + ' ' + unit} |")
    lines += ["", "## Headline: OpenSpiel's Python MCTSBot on our games vs our MCTS", "",
              "Same positions, same simulations, rollouts of the same depth scored by the kernel's evaluate(), "
              "one thread each (target: ours >= 20x).", "",
              "| game | players | simulations | positions | OpenSpiel MCTSBot sims/s | ours sims/s | ours / OpenSpiel |",
              "|---|---|---|---|---|---|---|"]
    for g, h in result["headline"].items():
        if h is None:
            lines.append(f"| {g} | | | | OpenSpiel not installed | | |")
        else:
            lines.append(f"| {g} | {h['players']} | {h['simulations']} | {h['positions']} | "
                         f"{_mmm(h['openspiel_python_sims_per_s'])} | {_mmm(h['ours_sims_per_s'])} | {_x(h['ratio'])} |")
    return "\n".join(lines)


def plot(result: dict, path: pathlib.Path) -> None:
    """Bar chart (log scale) of decisions/s per game and layer at the game's default player count."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure  # not pyplot: the caller's backend and figures stay as they are

    games = list(result["games"])
    layers = [("kernel 1 thread", lambda r: r["kernel_1t"]["decisions_per_s"]),
              (f"kernel {result['config']['threads']} threads", lambda r: r["kernel_all"]["decisions_per_s"]),
              ("AEC env() loop", lambda r: r["aec"]["steps_per_s"])]
    fig = Figure(figsize=(2 + 1.8 * len(games), 5))
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    width = 0.8 / len(layers)
    x = np.arange(len(games))
    labels = []
    for i, (name, pick) in enumerate(layers):
        med, lo, hi = [], [], []
        for g in games:
            rows = result["games"][g]
            n = str(registry.kernel(g).DEFAULT_PLAYERS)
            fig_ = pick(rows[n] if n in rows else next(iter(rows.values())))
            med.append(fig_["median"])
            lo.append(fig_["median"] - fig_["min"])
            hi.append(fig_["max"] - fig_["median"])
        ax.bar(x + (i - 1) * width, med, width, yerr=[lo, hi], label=name, capsize=2)
    for g in games:
        n = str(registry.kernel(g).DEFAULT_PLAYERS)
        labels.append(f"{g}\n({n if n in result['games'][g] else next(iter(result['games'][g]))} players)")
    refs = result["references"]
    pz = refs["pettingzoo"].get("connect_four_v3_env")
    if pz:
        ax.axhline(pz["steps_per_s"]["median"], color="grey", ls="--", lw=1, label="PettingZoo connect_four_v3 env()")
    cpp = refs["openspiel"].get("random_cpp_loop")
    if cpp:
        ax.axhline(cpp["decisions_per_s"]["median"], color="black", ls=":", lw=1,
                   label="OpenSpiel connect_four, C++ loop")
    ax.set_xticks(x, labels, fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("decisions per second (median; bars: min-max)")
    ax.set_title(f"Random playouts, {result['machine']['cpu']}, {result['machine']['cores']} cores", fontsize=9)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.17), ncol=3)  # below: bars stay visible
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def write(result: dict, out: pathlib.Path) -> list[pathlib.Path]:
    """results.json and results.png (decisions/s per game and layer) in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "results.json", out / "results.png"]
    paths[0].write_text(json.dumps(result, indent=1) + "\n")
    plot(result, paths[1])
    return paths
