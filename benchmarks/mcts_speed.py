"""MCTS simulations/s of this checkout against an earlier git revision, in one run, as ratios.

Pairs of worker processes, one importing ``tabletop_zoo`` from a copy of ``--base`` (``git archive``), one from
this checkout, search the same positions (4 players, random-playout positions, 1000 simulations, rollout
depth 20, one thread) in alternating rounds, so machine load falls on both alike, and time the searches
in CPU seconds of their own process (``time.process_time``), so waiting for a busy core does not count
(shared caches and cores still do: repeat on a quiet machine for small differences). ``--processes`` pairs run one
after the other, each with fresh processes: one process's speed can differ from another's running the same code by
up to a third on this machine (where its code and data land), so a single pair is not enough. Reports per game the
median over processes of each side's median simulations/s, the median of the pairs' ratios, each pair's ratio, and
checks that both searches return the same visit counts (a faster search must not be a different one).

    python benchmarks/mcts_speed.py --base 276eb42 --rounds 5 [--processes 3] [--new REV] [--uniform-rollouts]

``--uniform-rollouts`` takes the kernels' rollout policies (the optional ``rollout_action``) away on both sides,
so revisions from before a game had one (Irish Gauge's heuristic rollouts, #18) search the same tree; the
workers then compile into a fresh numba cache (a cached search keeps the policy it was compiled with).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["imperial", "irish_gauge", "kremlin", "veld_railroads", "french_revolution_1789"]
MAPPED = {"envs": "envs", "kernels": "kernels", "agents": "agents"}  # pyproject's package-dir

WORKER = r"""
import json, sys, time, zlib
import numpy as np
import tabletop_zoo
from tabletop_zoo.agents.mcts import search_root
sims, positions, uniform = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "uniform"
if uniform:  # searches fall back to uniformly random rollouts (dispatch.rollout_action)
    for game in tabletop_zoo.GAMES:
        kernel = tabletop_zoo.kernel(game)
        if hasattr(kernel, "rollout_action"):
            del kernel.rollout_action

def records(game):
    k = tabletop_zoo.kernel(game)
    out, rng, mask = [], np.random.default_rng(7), np.zeros(k.NUM_ACTIONS, np.uint8)
    for p in range(positions):
        s = k.new_state(4, 100 + p)
        for _ in range(25 * p):
            if k.is_over(s):
                break
            k.legal_mask(s, mask)
            k.step(s, int(rng.choice(np.flatnonzero(mask))))
        out.append(s)
    return out

cache = {}
for line in sys.stdin:
    game = line.strip()
    if game not in cache:
        cache[game] = records(game)
        search_root(cache[game][0], 8, 20, 1.0, 0, 1)  # compile / load the cache outside the clock
    t0, digest = time.process_time(), 0
    for i, s in enumerate(cache[game]):
        visits, _ = search_root(s, sims, 20, 1.0, i, 1)
        digest = zlib.crc32(visits.astype(np.int64).tobytes(), digest)
    dt = time.process_time() - t0
    print(json.dumps({"sims_per_s": sims * len(cache[game]) / dt, "visits_crc": digest}), flush=True)
"""


def base_tree(rev: str, into: Path) -> Path:
    """The package of revision ``rev`` laid out as the import package ``tabletop_zoo`` under ``into``."""
    src = into / "src"
    src.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    pkg = into / "pkg"
    shutil.copytree(src / "tabletop_zoo", pkg / "tabletop_zoo")
    for name, folder in MAPPED.items():
        shutil.copytree(src / folder, pkg / "tabletop_zoo" / name)
    return pkg


def worker(
    pythonpath: str | None, sims: int, positions: int, script: str = WORKER, cache: str | None = None
) -> subprocess.Popen:
    """A process running ``script`` (read one game id per line, answer one JSON line) with ``tabletop_zoo``
    from ``pythonpath`` (None: this checkout); with ``cache`` (a folder), uniform rollouts compiled there."""
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    if cache:
        env["NUMBA_CACHE_DIR"] = cache
    return subprocess.Popen(
        [sys.executable, "-c", script, str(sims), str(positions), "uniform" if cache else "own"],
        env=env,
        cwd=tempfile.gettempdir(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def ask(proc: subprocess.Popen, game: str) -> dict:
    proc.stdin.write(game + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", required=True, help="git revision to compare against")
    ap.add_argument(
        "--new", help="git revision to measure (default: this checkout as it is; a revision keeps edits out)"
    )
    ap.add_argument("--rounds", type=int, default=5, help="alternated rounds per game in each pair of processes")
    ap.add_argument(
        "--processes",
        type=int,
        default=3,
        help="pairs of fresh worker processes, one after the other (medians over them)",
    )
    ap.add_argument("--simulations", type=int, default=1000)
    ap.add_argument("--positions", type=int, default=3)
    ap.add_argument("--games", nargs="+", default=GAMES)
    ap.add_argument(
        "--uniform-rollouts", action="store_true", help="both sides roll out uniformly at random (no rollout_action)"
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cache = str(Path(tmp) / "numba") if args.uniform_rollouts else None
        paths = {}
        for side, rev in (("base", args.base), ("new", args.new)):
            (Path(tmp) / side).mkdir()
            paths[side] = str(base_tree(rev, Path(tmp) / side)) if rev else None  # None: this checkout
        got = {game: {"base": [], "new": []} for game in args.games}  # each process's median
        crc = {game: set() for game in args.games}
        for k in range(args.processes):
            sides = ("base", "new") if k % 2 == 0 else ("new", "base")
            procs = {side: worker(paths[side], args.simulations, args.positions, cache=cache) for side in sides}
            for game in args.games:
                rates = {"base": [], "new": []}
                for r in range(args.rounds):
                    for side in sides if r % 2 == 0 else sides[::-1]:
                        res = ask(procs[side], game)
                        rates[side].append(res["sims_per_s"])
                        crc[game].add(res["visits_crc"])
                for side in sides:
                    got[game][side].append(statistics.median(rates[side]))
            for proc in procs.values():
                proc.stdin.close()
                proc.wait()
            print(f"processes {k + 1} of {args.processes} done", file=sys.stderr, flush=True)
    print(
        "\n| game | base sims/s | new sims/s | ratio (median of the pairs') | each pair's ratio | same visits |\n|---|---|---|---|---|---|"
    )
    for game in args.games:
        b, n = statistics.median(got[game]["base"]), statistics.median(got[game]["new"])
        ratios = [y / x for x, y in zip(got[game]["base"], got[game]["new"])]
        pairs = " / ".join(f"{r:.2f}" for r in ratios)
        same = "yes" if len(crc[game]) == 1 else "NO"
        print(f"| {game} | {b:,.0f} | {n:,.0f} | {statistics.median(ratios):.2f}x | {pairs} | {same} |")


if __name__ == "__main__":
    main()
