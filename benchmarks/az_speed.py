"""Positions searched per second by the batched az search, and how it scales with the batch (issue #21).

For each batch size B, B positions of the game (random playouts of a few dozen decisions) are searched
together for ``--simulations`` rounds with the network of ``train --algo az`` (``AZNet``, hidden widths
``--hidden``, random weights: speed does not depend on them) evaluating each round's leaves in one forward
pass, and with the network-free uniform evaluator (the search's own cost). CPU seconds of this process
(``time.process_time``; torch on ``--threads`` threads), the median of ``--repeats`` runs.

    python benchmarks/az_speed.py --game irish_gauge --players 3 --simulations 32 --batches 1 4 16 64
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import torch

import tabletop_zoo
from tabletop_zoo.agents.az import Trees, search_batch, uniform_evaluator
from tabletop_zoo.agents.az.network import AZNet


def positions(kernel, players: int, count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out, mask = [], np.zeros(kernel.NUM_ACTIONS, np.uint8)
    while len(out) < count:
        s = kernel.new_state(players, int(rng.integers(2**31)))
        for _ in range(int(rng.integers(0, 60))):
            kernel.legal_mask(s, mask)
            kernel.step(s, int(rng.choice(np.flatnonzero(mask))))
            if kernel.is_over(s):
                break
        if not kernel.is_over(s):
            out.append(s)
    return np.concatenate(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="irish_gauge")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--simulations", type=int, default=32)
    ap.add_argument("--batches", type=int, nargs="+", default=[1, 4, 16, 64])
    ap.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    k = tabletop_zoo.kernel(args.game)
    net = AZNet(k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS, tuple(args.hidden)).eval()
    roots = positions(k, args.players, max(args.batches), 0)
    print("| batch | positions/s, network | simulations/s, network | positions/s, uniform evaluator | network share |")
    print("|---:|---:|---:|---:|---:|")
    for b in args.batches:
        trees = Trees(b, args.simulations, k.NUM_ACTIONS, k.MAX_PLAYERS, k.OBS_SIZE)
        seeds = np.arange(b, dtype=np.uint64)
        rates = {}
        for name, evaluate in (("net", net.evaluate), ("uniform", uniform_evaluator)):
            search_batch(roots[:b], args.players, trees, evaluate, 2, 1.25, seeds)  # compile outside the clock
            runs = []
            for _ in range(args.repeats):
                t0 = time.process_time()
                search_batch(roots[:b], args.players, trees, evaluate, args.simulations, 1.25, seeds)
                runs.append(b / (time.process_time() - t0))
            rates[name] = statistics.median(runs)
        share = 1 - rates["net"] / rates["uniform"]
        print(
            f"| {b} | {rates['net']:,.1f} | {rates['net'] * args.simulations:,.0f} | {rates['uniform']:,.1f} | {share:.2f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
