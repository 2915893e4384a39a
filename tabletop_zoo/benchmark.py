"""Throughput measurements: kernel random playouts and the AEC random-agent loop.

Every figure is measured in the same run as its reference point (PettingZoo's ``connect_four_v3``
AEC loop), and reported as a ratio to it. Timings are never asserted in tests.
"""

from __future__ import annotations

import os
import platform
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from . import registry
from .agents import RandomAgent


def kernel_playouts(game_id: str, num_players: int, seconds: float = 2.0, threads: int = 1, seed: int = 0) -> dict:
    """Uniformly random games inside numba; ``threads`` > 1 runs independent batches in parallel."""
    k = registry.kernel(game_id)
    k.playouts(num_players, 2, seed)  # compile / load the cache outside the timed region
    batch = 50
    # Calibrate a batch size of roughly 0.1 s per call.
    t0 = time.perf_counter()
    k.playouts(num_players, batch, seed)
    per_game = max((time.perf_counter() - t0) / batch, 1e-7)
    batch = max(1, int(0.1 / per_game))

    def worker(w: int) -> tuple[int, int]:
        decisions = games = 0
        end = time.perf_counter() + seconds
        i = 0
        while time.perf_counter() < end:
            d, g = k.playouts(num_players, batch, seed + 1_000_000 * w + batch * i)
            decisions, games, i = decisions + d, games + g, i + 1
        return decisions, games

    t0 = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        results = list(pool.map(worker, range(threads)))
    elapsed = time.perf_counter() - t0
    decisions = sum(d for d, _ in results)
    games = sum(g for _, g in results)
    return {"game": game_id, "players": num_players, "threads": threads, "decisions": decisions, "games": games,
            "seconds": elapsed, "decisions_per_s": decisions / elapsed, "games_per_s": games / elapsed,
            "decisions_per_game": decisions / max(games, 1)}


def aec_loop(make, seconds: float = 2.0, seed: int = 0) -> dict:
    """The PettingZoo random-agent loop (``agent_iter``/``last``/``step``) on ``make()`` for ``seconds``."""
    env = make()
    agent = RandomAgent(seed)
    env.reset(seed=seed)  # warm-up game: numba compiles or loads its cache outside the timed region
    for _ in env.agent_iter():
        obs, _reward, term, trunc, _info = env.last()
        env.step(None if term or trunc else agent.act(obs["observation"], obs["action_mask"]))
    steps = games = 0
    end = time.perf_counter() + seconds
    t0 = time.perf_counter()
    while time.perf_counter() < end:
        env.reset(seed=seed + games)
        for _ in env.agent_iter():
            obs, _reward, term, trunc, _info = env.last()
            env.step(None if term or trunc else agent.act(obs["observation"], obs["action_mask"]))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - t0
    env.close()
    return {"steps": steps, "games": games, "seconds": elapsed, "steps_per_s": steps / elapsed,
            "games_per_s": games / elapsed}


def connect_four_reference(seconds: float = 2.0) -> dict | None:
    """PettingZoo's ``connect_four_v3.env()`` in the same loop, or None if it cannot be imported."""
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:  # needs pygame (the ``bench`` extra)
        return None
    return aec_loop(connect_four_v3.env, seconds)


def mcts_speed(game_id: str, num_players: int, simulations: int = 1000, rollout_depth: int = 20,
               threads: int = 1, moves: int = 5, seed: int = 0) -> dict:
    """MCTS simulations/s and ms per move on positions from a seeded random game (after warm-up)."""
    from .agents.mcts import search_root

    k = registry.kernel(game_id)
    rng = np.random.default_rng(seed)
    s = k.new_state(num_players, seed)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    search_root(s, 10, rollout_depth, 1.0, seed, threads)  # compile / load the cache
    elapsed = 0.0
    done = 0
    for _ in range(moves * 7):
        if k.is_over(s) or done == moves:
            break
        k.legal_mask(s, mask)
        if mask.sum() > 1:  # time only real decisions
            t0 = time.perf_counter()
            search_root(s, simulations, rollout_depth, 1.0, seed + done, threads)
            elapsed += time.perf_counter() - t0
            done += 1
        k.step(s, int(rng.choice(np.flatnonzero(mask))))
    return {"game": game_id, "players": num_players, "threads": threads, "simulations": simulations,
            "rollout_depth": rollout_depth, "moves": done, "sims_per_s": done * simulations / elapsed,
            "ms_per_move": 1000 * elapsed / done}


def openspiel_mcts_reference(simulations: int = 1000, moves: int = 3, seed: int = 0) -> dict | None:
    """OpenSpiel's Python MCTSBot (random rollouts) on its connect_four, or None if not installed."""
    try:
        import pyspiel
        from open_spiel.python.algorithms import mcts
    except ImportError:
        return None
    game = pyspiel.load_game("connect_four")
    bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=simulations,
                       evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
                       random_state=np.random.RandomState(seed))
    state = game.new_initial_state()
    t0 = time.perf_counter()
    for _ in range(moves):
        state.apply_action(bot.step(state))
    elapsed = time.perf_counter() - t0
    return {"game": "open_spiel connect_four (Python MCTSBot)", "sims_per_s": moves * simulations / elapsed,
            "ms_per_move": 1000 * elapsed / moves}


def run(game_id: str, seconds: float = 2.0, players: list[int] | None = None) -> dict:
    """The full table for one game: kernel (1 thread and all cores) and AEC, per player count."""
    counts = players or list(registry.player_counts(game_id))
    cores = os.cpu_count() or 1
    ref = connect_four_reference(seconds)
    rows = []
    for n in counts:
        one = kernel_playouts(game_id, n, seconds, threads=1)
        many = kernel_playouts(game_id, n, seconds, threads=cores) if cores > 1 else one
        aec = aec_loop(lambda: registry.make_env(game_id, num_players=n), seconds)
        row = {"players": n, "kernel_1t_decisions_per_s": one["decisions_per_s"],
               "kernel_1t_games_per_s": one["games_per_s"], "decisions_per_game": one["decisions_per_game"],
               f"kernel_{cores}t_decisions_per_s": many["decisions_per_s"],
               f"kernel_{cores}t_games_per_s": many["games_per_s"],
               "aec_steps_per_s": aec["steps_per_s"], "aec_games_per_s": aec["games_per_s"]}
        if ref is not None:
            row["aec_vs_connect_four"] = aec["steps_per_s"] / ref["steps_per_s"]
        rows.append(row)
    return {"game": game_id, "cores": cores, "seconds_per_measure": seconds,
            "machine": f"{platform.machine()} {platform.python_implementation()} {platform.python_version()}",
            "reference": {"connect_four_v3_aec_steps_per_s": ref["steps_per_s"] if ref else None}, "rows": rows}


def format_table(result: dict) -> str:
    ref = result["reference"]["connect_four_v3_aec_steps_per_s"]
    cores = result["cores"]
    lines = [f"{result['game']}  ({result['machine']}, {cores} cores, {result['seconds_per_measure']:g} s per figure)",
             "players  kernel dec/s (1t)  kernel games/s (1t)  "
             f"kernel dec/s ({cores}t)  dec/game  AEC steps/s  AEC/connect_four"]
    for r in result["rows"]:
        ratio = f"{r['aec_vs_connect_four']:.1f}x" if "aec_vs_connect_four" in r else "n/a"
        lines.append(f"{r['players']:>7}  {r['kernel_1t_decisions_per_s']:>17,.0f}  {r['kernel_1t_games_per_s']:>19,.0f}  "
                     f"{r[f'kernel_{cores}t_decisions_per_s']:>17,.0f}  {r['decisions_per_game']:>8.1f}  "
                     f"{r['aec_steps_per_s']:>11,.0f}  {ratio:>16}")
    lines.append(f"reference: PettingZoo connect_four_v3 env() AEC loop = "
                 + (f"{ref:,.0f} steps/s" if ref else "unavailable (pip install pygame)"))
    return "\n".join(lines)
