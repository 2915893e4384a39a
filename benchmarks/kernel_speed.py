"""Kernel decisions/s, observe calls/s and AEC steps/s of this checkout against an earlier revision, in CPU
seconds, in one run, as ratios (#17's "no slower than 5%").

Two worker processes, one importing ``tabletop_zoo`` from a copy of ``--base`` (``git archive``, laid out by
``mcts_speed.base_tree``), one from ``--new`` (or this checkout), measure the same work in alternating rounds,
timed in CPU seconds of their own process (``time.process_time``), so waiting for a busy core does not count:

- kernel: ``kernel.playouts(4, games, seed)`` (random games in numba), decisions per CPU second;
- observe: ``kernel.observe`` of every seat on positions of one random game, calls per CPU second;
- aec: the AEC env stepped with seeded random legal actions, steps per CPU second.

    python benchmarks/kernel_speed.py --base b625541 --new HEAD [--rounds 9] [--games ...]

Reports the median over rounds of each figure and new/base.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from mcts_speed import GAMES, ask, base_tree, worker

WORKER = r"""
import json, sys, time
import numpy as np
import tabletop_zoo

def positions(k, n=4):
    s, rng, mask, out = k.new_state(n, 5), np.random.default_rng(5), np.zeros(k.NUM_ACTIONS, np.uint8), []
    while not k.is_over(s) and len(out) < 200:
        out.append(s.copy())
        k.legal_mask(s, mask)
        k.step(s, int(rng.choice(np.flatnonzero(mask))))
    return out

def timed(fn):
    t0 = time.process_time()
    count = fn()
    return count / (time.process_time() - t0)

def kernel_rate(k):
    return timed(lambda: k.playouts(4, GAMES_PER_ROUND[k.GAME_ID], seed=1)[0])

def observe_rate(k, recs):
    obs = np.zeros(k.OBS_SIZE, np.float32)
    def run():
        calls = 0
        for _ in range(20):
            for s in recs:
                for seat in range(4):
                    k.observe(s, seat, obs)
                    calls += 1
        return calls
    return timed(run)

def aec_rate(game):
    env = tabletop_zoo.make_env(game, num_players=4)
    rng = np.random.default_rng(3)
    def run():
        steps = 0
        for g in range(6):
            env.reset(seed=g)
            for agent in env.agent_iter():
                obs, r, term, trunc, info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
        return steps
    return timed(run)

GAMES_PER_ROUND = {"imperial": 60, "irish_gauge": 300, "kremlin": 150, "veld_railroads": 300, "french_revolution_1789": 200}
cache = {}
for line in sys.stdin:
    game = line.strip()
    k = tabletop_zoo.kernel(game)
    if game not in cache:
        cache[game] = positions(k)
        k.playouts(4, 1, seed=0)  # compile / load outside the clock
        aec_rate(game)
    print(json.dumps({"kernel": kernel_rate(k), "observe": observe_rate(k, cache[game]), "aec": aec_rate(game)}), flush=True)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", required=True)
    ap.add_argument("--new", help="git revision to measure (default: this checkout as it is)")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--games", nargs="+", default=GAMES)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "base").mkdir()
        procs = {"base": worker(str(base_tree(a.base, Path(tmp) / "base")), 0, 0, WORKER)}
        if a.new:
            (Path(tmp) / "new").mkdir()
            procs["new"] = worker(str(base_tree(a.new, Path(tmp) / "new")), 0, 0, WORKER)
        else:
            procs["new"] = worker(None, 0, 0, WORKER)
        print("| game | figure (per CPU second) | base | new | new/base |\n|---|---|---:|---:|---:|", flush=True)
        for game in a.games:
            got = {"base": [], "new": []}
            for r in range(a.rounds):
                for name in ("base", "new") if r % 2 == 0 else ("new", "base"):
                    got[name].append(ask(procs[name], game))
            for figure in ("kernel", "observe", "aec"):
                b = statistics.median(x[figure] for x in got["base"])
                n = statistics.median(x[figure] for x in got["new"])
                print(f"| {game} | {figure} | {b:,.0f} | {n:,.0f} | {n / b:.3f} |", flush=True)
        for proc in procs.values():
            proc.stdin.close()
            proc.wait()


if __name__ == "__main__":
    main()
