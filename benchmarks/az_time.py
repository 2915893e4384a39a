"""Time per move of the az agent's search against MCTS's, on the same positions, in one run (#21).

    python benchmarks/az_time.py [GAME ...] [--simulations 1000] [--mcts 1000] [--players 4] [--positions 6]

Positions every 15 random decisions of one seeded game; each is searched by ``az`` (the shipped network,
its default settings but ``simulations``) and by ``mcts:simulations=M``, alternately, twice; the report is
the median seconds per move of each and their ratio, with the machine's load average.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from tabletop_zoo import registry
from tabletop_zoo.agents import make_agent


def positions(kernel, players: int, count: int, seed: int = 0) -> list[np.ndarray]:
    s, mask, rng = kernel.new_state(players, seed), np.zeros(kernel.NUM_ACTIONS, np.uint8), np.random.default_rng(seed)
    out = []
    while len(out) < count and not kernel.is_over(s):
        for _ in range(15):
            if kernel.is_over(s):
                break
            kernel.legal_mask(s, mask)
            kernel.step(s, int(rng.choice(np.flatnonzero(mask))))
        if not kernel.is_over(s):
            out.append(s.copy())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", default=list(registry.GAMES))
    ap.add_argument("--simulations", type=int, default=None, help="az's budget (default: the agent's)")
    ap.add_argument("--mcts", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--positions", type=int, default=6)
    a = ap.parse_args()
    extra = {} if a.simulations is None else {"simulations": a.simulations}
    print(f"load average {os.getloadavg()}")
    for game in a.games:
        k = registry.kernel(game)
        az = make_agent("az", game, seed=1, **extra)
        mcts = make_agent("mcts", game, seed=1, simulations=a.mcts)
        recs = positions(k, a.players, a.positions)
        az.act_for_seat(recs[0])  # compile or load
        mcts.act_for_seat(recs[0])
        times = {"az": [], "mcts": []}
        for _ in range(2):
            for s in recs:
                for name, agent in (("az", az), ("mcts", mcts)):
                    start = time.perf_counter()
                    agent.act_for_seat(s)
                    times[name].append(time.perf_counter() - start)
        t_az, t_mcts = np.median(times["az"]), np.median(times["mcts"])
        print(
            f"{game}: az {1e3 * t_az:.1f} ms, mcts {1e3 * t_mcts:.1f} ms a move, ratio {t_az / t_mcts:.2f}", flush=True
        )
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
