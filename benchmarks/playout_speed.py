"""Random-playout decisions per CPU second: the shared loop (``kernel.playouts``, built for each room by
``_common/stepping.make_random_games``) against each kernel's own loop as it stood before #17 (4f22688's
``random_playouts``: the kernel's own ``init_state``, ``is_over``, ``legal_mask`` and ``step`` called directly, a
fresh record per game), both timed in this process, interleaved: the median over ROUNDS of each round's ratio,
and the median decisions per CPU second of each loop.

    python benchmarks/playout_speed.py [--games 200] [--players 4] [--rounds 15]

The reference is rebuilt here for each kernel (a closure over its functions, compiled in this run, not cached);
equal decision counts show both play the same games. Results: ``benchmarks/PLAYOUTS.md``.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from numba import njit

from tabletop_zoo.kernels._common.masks import sample_legal
from tabletop_zoo.kernels._common.rng import seed_rng
from tabletop_zoo.registry import kernel

GAMES = ("imperial", "irish_gauge", "veld_railroads", "kremlin", "french_revolution_1789")


def own_loop(k):
    """4f22688's per-kernel ``random_playouts``, over kernel ``k``'s own functions."""
    init_state, is_over, legal_mask, step = k.init_state, k.is_over, k.legal_mask, k.step
    state, num_actions = k.STATE, k.NUM_ACTIONS

    @njit(nogil=True)
    def random_playouts(num_players, setup, n_games, seed, max_decisions):
        policy_rng = np.zeros(1, np.uint64)
        seed_rng(policy_rng, seed ^ np.uint64(0x5EED5EED))
        mask = np.zeros(num_actions, np.uint8)
        total = 0
        finished = 0
        for g in range(n_games):
            s = np.zeros(1, state)
            init_state(s, num_players, seed + np.uint64(g), *setup)
            n = 0
            while not is_over(s) and n < max_decisions:
                legal_mask(s, mask)
                step(s, sample_legal(mask, policy_rng))
                n += 1
            total += n
            finished += is_over(s)
        return total, finished

    return random_playouts


def measure(game: str, games: int, players: int, rounds: int) -> dict:
    k = kernel(game)
    setup = tuple(k._setup(players, k.resolve_options()))
    reference = own_loop(k)
    runs = {
        "shared": lambda n, seed: k.playouts(players, n, seed=seed),
        "own": lambda n, seed: reference(players, setup, n, np.uint64(seed), k.MAX_GAME_LENGTH),
    }
    for run in runs.values():
        run(2, 1)  # compile (the reference) or load from the cache (the shared loop) first
    rates, decisions = {name: [] for name in runs}, {}
    for i in range(rounds):
        for name in sorted(runs, reverse=bool(i % 2)):  # alternate which loop runs first
            t = time.process_time()
            decisions[name], _ = runs[name](games, 5)
            rates[name].append(decisions[name] / (time.process_time() - t))
    if decisions["shared"] != decisions["own"]:
        raise SystemExit(f"{game}: the loops played different games ({decisions})")
    # each round's two runs are adjacent in time: the median of their ratios cancels the machine's drift
    ratios = [sh / own for sh, own in zip(rates["shared"], rates["own"])]
    return {
        "decisions": decisions["own"],
        **{name: round(float(np.median(r))) for name, r in rates.items()},
        "ratio": float(np.median(ratios)),
        "iqr": tuple(float(q) for q in np.percentile(ratios, [25, 75])),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--rounds", type=int, default=15)
    a = p.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.2f}")
    print("| game | decisions | own loop | shared loop | ratio (median) | quartiles |\n|---|---:|---:|---:|---:|---|")
    for game in GAMES:
        r = measure(game, a.games, a.players, a.rounds)
        lo, hi = r["iqr"]
        print(
            f"| {game} | {r['decisions']:,} | {r['own']:,} | {r['shared']:,} | {r['ratio']:.3f}x | {lo:.3f}-{hi:.3f} |",
            flush=True,
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
