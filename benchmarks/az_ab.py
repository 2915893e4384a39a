"""The az searches' CPU time of this checkout against an earlier git revision, in one run, as ratios (#47).

Two worker processes (``mcts_speed.worker``), one importing ``tabletop_zoo`` from a copy of ``--base``, one from
this checkout, take turns game by game: each times, in CPU seconds of its own process, the az agent at its
defaults (shipped network, 500 simulations) on 6 positions of a 4-player game (ms a move), and ``search_batch``
of 16 positions for 32 simulations with the uniform evaluator (the batched search's own cost; ms a search, the
mean of 10). Reports per game the medians of each side and the median of the rounds' new/base ratios, and
whether both sides chose the same moves and visit counts.

    python benchmarks/az_ab.py --base fedfa57 --rounds 11 [--base-path DIR]

``--base-path`` reuses a copy made before (``mcts_speed.base_tree``): numba's cache is kept per source path, so
a fresh copy compiles every search again first.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from mcts_speed import ask, base_tree, worker

GAMES = ["imperial", "irish_gauge", "kremlin", "veld_railroads", "french_revolution_1789"]
SCRIPT = r"""
import json, sys, time, zlib
import numpy as np
import tabletop_zoo
from tabletop_zoo.agents import make_agent
from tabletop_zoo.agents.az import Trees, search_batch, uniform_evaluator
sims, positions = int(sys.argv[1]), int(sys.argv[2])
def records(k, n):
    out, rng, mask = [], np.random.default_rng(7), np.zeros(k.NUM_ACTIONS, np.uint8)
    for p in range(n):
        s = k.new_state(4, 100 + p)
        for _ in range(15 * p):
            if k.is_over(s):
                break
            k.legal_mask(s, mask)
            k.step(s, int(rng.choice(np.flatnonzero(mask))))
        out.append(s)
    return out
cache = {}
for line in sys.stdin:
    game = line.strip()
    k = tabletop_zoo.kernel(game)
    if game not in cache:
        recs = records(k, positions)
        agent = make_agent("az", game, seed=1)
        trees = Trees(16, 32, k.NUM_ACTIONS, k.MAX_PLAYERS, k.OBS_SIZE)
        roots = np.concatenate([recs[i % len(recs)] for i in range(16)])
        agent.act_for_seat(recs[0]); search_batch(roots, 4, trees, uniform_evaluator, 2, 1.25, np.arange(16, dtype=np.uint64))
        cache[game] = recs, agent, trees, roots
    recs, agent, trees, roots = cache[game]
    t0, crc = time.process_time(), 0
    for s in recs:
        crc = zlib.crc32(np.int64(agent.act_for_seat(s)).tobytes(), crc)
    t_agent = (time.process_time() - t0) / len(recs)
    t0 = time.process_time()
    for _ in range(10):
        visits, _ = search_batch(roots, 4, trees, uniform_evaluator, 32, 1.25, np.arange(16, dtype=np.uint64))
    t_batch = (time.process_time() - t0) / 10
    crc = zlib.crc32(visits.astype(np.int64).tobytes(), crc)
    print(json.dumps({"agent_ms": 1e3 * t_agent, "batch_ms": 1e3 * t_batch, "crc": crc}), flush=True)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="fedfa57", help="git revision to compare against")
    ap.add_argument("--base-path", help="a copy of --base made before by mcts_speed.base_tree (its pkg folder)")
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--games", nargs="+", default=GAMES)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.base_path or str(base_tree(args.base, Path(tmp)))
        procs = {"base": worker(path, 0, 6, script=SCRIPT), "new": worker(None, 0, 6, script=SCRIPT)}
        print(
            "| game | agent ms a move, base | new | new/base | batched search ms, base | new | new/base | same moves |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---|")
        for game in args.games:
            got, crc = {"base": [], "new": []}, set()
            for r in range(args.rounds):
                for name in ("base", "new") if r % 2 == 0 else ("new", "base"):
                    got[name].append(ask(procs[name], game))
                    crc.add(got[name][-1]["crc"])
            cells = []
            for field in ("agent_ms", "batch_ms"):
                base, new = ([x[field] for x in got[side]] for side in ("base", "new"))
                ratio = statistics.median(n / b for b, n in zip(base, new))
                cells.append(f"{statistics.median(base):.1f} | {statistics.median(new):.1f} | {ratio:.3f}")
            print(f"| {game} | {' | '.join(cells)} | {'yes' if len(crc) == 1 else 'NO'} |", flush=True)
        for proc in procs.values():
            proc.stdin.close()
            proc.wait()


if __name__ == "__main__":
    main()
