"""Reference points measured in the same run: PettingZoo ``connect_four_v3`` env() and raw_env() loops,
OpenSpiel connect_four random playouts (Python loop and C++ loop), OpenSpiel's Python and C++ MCTS bots,
and the headline: OpenSpiel's Python ``MCTSBot`` on our games through ``tabletop_zoo.interop.openspiel``
against our MCTS on the same positions with the same simulation counts, rollout depth and leaf evaluation.
"""

from __future__ import annotations

import random
import time

import numpy as np

from .measure import Config, _positions, _repeat, _stat, _warm_env, aec_loop, mcts_run


def pettingzoo_references(cfg: Config) -> dict:
    """PettingZoo ``connect_four_v3`` env() (wrapped) and raw_env() loops, or None if not importable."""
    try:
        from pettingzoo.classic import connect_four_v3
    except ImportError:  # needs pygame (the ``bench`` extra)
        return {"connect_four_v3_env": None, "connect_four_v3_raw_env": None}
    out = {}
    for name, make in (
        ("connect_four_v3_env", connect_four_v3.env),
        ("connect_four_v3_raw_env", connect_four_v3.raw_env),
    ):
        env = _warm_env(make)
        out[name] = _repeat(lambda env=env: aec_loop(env, cfg.seconds), cfg.repeats)
    return out


def _timed_playouts(play, seconds: float) -> dict:
    """Games ``play(g)`` (game ``g``, returning its decisions) one after another until ``seconds`` have passed
    (at least one game); decisions and games per second."""
    decisions = games = 0
    end = time.perf_counter() + seconds
    t0 = time.perf_counter()
    while time.perf_counter() < end or games == 0:
        decisions += play(games)
        games += 1
    elapsed = time.perf_counter() - t0
    return {
        "decisions_per_s": decisions / elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_game": decisions / games,
    }


def _openspiel_python_playouts(game, seconds: float, seed: int = 0) -> dict:
    """Random playouts driven from Python: legal_actions() + apply_action() per decision."""
    choice = random.Random(seed).choice

    def play(g: int) -> int:
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            state.apply_action(choice(state.legal_actions()))
            decisions += 1
        return decisions

    return _timed_playouts(play, seconds)


def _openspiel_cpp_playouts(game, seconds: float, seed: int = 0) -> dict:
    """Random playouts in C++: ``pyspiel.evaluate_bots`` with uniform random C++ bots, one call per game."""
    import pyspiel

    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]

    def play(g: int) -> int:
        state = game.new_initial_state()
        pyspiel.evaluate_bots(state, bots, seed + g)
        return state.move_number()  # connect_four has no chance moves: every move is a decision

    return _timed_playouts(play, seconds)


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
    py_bot = mcts.MCTSBot(
        game,
        1.0,
        sims,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        solve=False,
        random_state=np.random.RandomState(0),
    )
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

        from ..interop import openspiel as osp
    except ImportError:
        return None
    from ..agents.mcts import search_root

    game = osp.load_game(game_id)
    n, sims, depth = game.num_players(), cfg.headline_simulations, cfg.rollout_depth
    records = _positions(game_id, n, cfg.headline_positions, seed=1)
    states = [game.state_from_record(r) for r in records]
    bot = mcts.MCTSBot(
        game,
        1.0,
        sims,
        osp.TruncatedRolloutEvaluator(depth, np.random.RandomState(0)),
        solve=False,
        random_state=np.random.RandomState(0),
    )
    warm = mcts.MCTSBot(game, 1.0, 3, osp.TruncatedRolloutEvaluator(depth, np.random.RandomState(0)), solve=False)
    warm.step(states[0])  # numba compiles the explicit-chance kernels outside the timed region
    search_root(records[0], 4, depth, 1.0, 0, 1)
    theirs = [_openspiel_mcts_move(bot, st, sims)["sims_per_s"] for st in states for _ in range(cfg.repeats)]
    ours = [mcts_run([r], sims, depth, 1, seed=i)["sims_per_s"] for r in records for i in range(cfg.repeats)]
    result = {
        "players": n,
        "simulations": sims,
        "rollout_depth": depth,
        "positions": len(records),
        "openspiel_python_sims_per_s": _stat(theirs),
        "ours_sims_per_s": _stat(ours),
    }
    result["ratio"] = result["ours_sims_per_s"]["median"] / result["openspiel_python_sims_per_s"]["median"]
    return result
