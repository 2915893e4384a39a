"""Imperial and Kremlin per decision against the other rooms (#46), and where their time goes.

    python benchmarks/slow_rooms.py rates [--rounds 7] [--games 200]
    python benchmarks/slow_rooms.py profile imperial|kremlin [--positions 20000] [--repeat 20]

``rates``: ``kernel.playouts(DEFAULT_PLAYERS, games, seed)`` of every room, the rooms in a rotating order each
round, decisions per CPU second (``time.process_time``); each round's rate of every room divided by the fastest
*other* room's in the same round; medians over the rounds. The goal of #46 is Imperial and Kremlin at >= 1/1.5
(0.667) of that.

``profile``: random positions (the record before each decision of uniformly random games, and the action the
game took there) stored in an array; numba loops then call ``legal_mask`` on every position, and ``step`` on a
copy of every position (the copy timed alone and subtracted), ``repeat`` times, the least of 5 such runs; the same split by the phase
of the position. Nanoseconds per call; the share is of the total over all positions.

``compare --base REV``: ``rates`` in two worker processes at once, one importing ``tabletop_zoo`` from a copy of
REV (``git archive``, laid out by ``mcts_speed.base_tree``), one from this checkout, the two taking turns game by
game; prints each side's rates and ratios and, per game, new/base (the median of the rounds' ratios).

``trace GAME [--games 300]``: a digest of every record and every legal mask along random games (the policy
drawn from its own generator); equal digests from ``compare``'s two trees mean the same games, byte for byte.

Results: ``benchmarks/SLOW_ROOMS.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import numpy as np
from numba import njit

from tabletop_zoo.kernels._common.masks import sample_legal
from tabletop_zoo.kernels._common.rng import seed_rng
from tabletop_zoo.registry import kernel

GAMES = ("imperial", "kremlin", "irish_gauge", "veld_railroads", "french_revolution_1789")


def rates(rounds: int, games: int) -> None:
    ks = {g: kernel(g) for g in GAMES}
    for k in ks.values():
        k.playouts(k.DEFAULT_PLAYERS, 2, seed=1)  # load from the cache
    per = {g: [] for g in GAMES}
    rel = {g: [] for g in GAMES}
    print("load at start:", os.getloadavg())
    for i in range(rounds):
        order = GAMES[i % len(GAMES) :] + GAMES[: i % len(GAMES)]
        got = {}
        for g in order:
            k = ks[g]
            t = time.process_time()
            d, _ = k.playouts(k.DEFAULT_PLAYERS, games, seed=5)
            got[g] = d / (time.process_time() - t)
        for g in GAMES:
            per[g].append(got[g])
            rel[g].append(got[g] / max(v for h, v in got.items() if h != g))
    print("load at end:", os.getloadavg())
    print(f"| game | decisions/CPU s (median of {rounds}) | / fastest other room (median) | min-max |")
    print("|---|---:|---:|---|")
    for g in GAMES:
        print(
            f"| {g} | {statistics.median(per[g]):,.0f} | {statistics.median(rel[g]):.3f} "
            f"| {min(rel[g]):.3f}-{max(rel[g]):.3f} |"
        )


def tools(k):
    legal_mask, step, init_state, is_over = k.legal_mask, k.step, k.init_state, k.is_over

    @njit
    def collect(out, actions, num_players, setup, seed):
        """Fill out[i] with the record before each decision of random games, actions[i] with the action taken."""
        s = np.zeros(1, out.dtype)
        blank = s.copy()
        mask = np.zeros(k.NUM_ACTIONS, np.uint8)
        rng = np.zeros(1, np.uint64)
        seed_rng(rng, seed)
        i, g = 0, 0
        while i < out.shape[0]:
            s[:] = blank
            init_state(s, num_players, seed + np.uint64(g), *setup)
            g += 1
            while not is_over(s) and i < out.shape[0]:
                out[i] = s[0]
                legal_mask(s, mask)
                a = sample_legal(mask, rng)
                actions[i] = a
                step(s, a)
                i += 1
        return g

    @njit
    def time_mask(recs, idx, repeat):
        mask = np.zeros(k.NUM_ACTIONS, np.uint8)
        c = 0
        for _ in range(repeat):
            for i in idx:
                legal_mask(recs[i : i + 1], mask)
                c += mask[0]
        return c

    @njit
    def time_copy(recs, actions, idx, repeat):
        s = np.zeros(1, recs.dtype)
        c = 0
        for _ in range(repeat):
            for i in idx:
                s[0] = recs[i]
                c += s[0].phase
        return c

    @njit
    def time_step(recs, actions, idx, repeat):
        s = np.zeros(1, recs.dtype)
        c = 0
        for _ in range(repeat):
            for i in idx:
                s[0] = recs[i]
                step(s, actions[i])
                c += s[0].phase
        return c

    return collect, time_mask, time_copy, time_step


def _ns(fn, *args, tries: int = 5) -> float:
    """The least CPU time of ``tries`` calls (the machine is shared: the least is the least disturbed)."""
    best = float("inf")
    for _ in range(tries):
        t = time.process_time()
        fn(*args)
        best = min(best, time.process_time() - t)
    return best * 1e9


def profile(game: str, positions: int, repeat: int) -> None:
    k = kernel(game)
    n = k.DEFAULT_PLAYERS
    setup = tuple(k._setup(n, k.resolve_options()))
    collect, time_mask, time_copy, time_step = tools(k)
    recs = np.zeros(positions, k.STATE)
    actions = np.zeros(positions, np.int64)
    ngames = collect(recs, actions, n, setup, np.uint64(7))
    everything = np.arange(positions)
    for fn in (time_mask, time_step):
        fn(recs, everything[:10], 1) if fn is time_mask else fn(recs, actions, everything[:10], 1)
    time_copy(recs, actions, everything[:10], 1)
    print(f"{game}: {positions} positions from {ngames} games, {repeat} repeats; load {os.getloadavg()}")
    mask_total = _ns(time_mask, recs, everything, repeat)
    step_total = _ns(time_step, recs, actions, everything, repeat) - _ns(time_copy, recs, actions, everything, repeat)
    calls = positions * repeat
    print(f"legal_mask {mask_total / calls:.0f} ns/call, step {step_total / calls:.0f} ns/call (copy subtracted)")
    print("| phase | share of positions | legal_mask ns | step ns | share of mask+step time |")
    print("|---|---:|---:|---:|---:|")
    phases = recs["phase"]
    names = {v: name for name, v in vars(k.state).items() if name.startswith("PH_") and isinstance(v, int)}
    for ph in np.unique(phases):
        idx = np.flatnonzero(phases == ph)
        rep = max(1, repeat * positions // (len(idx) * 4))
        m = _ns(time_mask, recs, idx, rep) / (len(idx) * rep)
        st = (_ns(time_step, recs, actions, idx, rep) - _ns(time_copy, recs, actions, idx, rep)) / (len(idx) * rep)
        share = (m + st) * len(idx) / ((mask_total + step_total) / repeat)
        print(f"| {names.get(int(ph), ph)} | {len(idx) / positions:.1%} | {m:.0f} | {st:.0f} | {share:.1%} |")


def tracer(k):
    legal_mask, step, init_state, is_over = k.legal_mask, k.step, k.init_state, k.is_over

    @njit
    def trace(num_players, setup, games, seed):
        """FNV-1a over the bytes of every record and mask of ``games`` random games; and the decisions."""
        s = np.zeros(1, k.STATE)
        blank = s.copy()
        mask = np.zeros(k.NUM_ACTIONS, np.uint8)
        rng = np.zeros(1, np.uint64)
        seed_rng(rng, seed)
        h = np.uint64(0xCBF29CE484222325)
        prime = np.uint64(0x100000001B3)
        n = 0
        for g in range(games):
            s[:] = blank
            init_state(s, num_players, seed + np.uint64(g), *setup)
            while not is_over(s):
                for b in s.view(np.uint8):
                    h = (h ^ np.uint64(b)) * prime
                legal_mask(s, mask)
                for b in mask:
                    h = (h ^ np.uint64(b)) * prime
                step(s, sample_legal(mask, rng))
                n += 1
            for b in s.view(np.uint8):
                h = (h ^ np.uint64(b)) * prime
        return h, n

    return trace


def trace(game: str, games: int, options: dict) -> None:
    k = kernel(game)
    out = []
    for n in range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1):
        setup = tuple(k._setup(n, k.resolve_options(**options)))
        h, d = tracer(k)(n, setup, games, np.uint64(11))
        out.append(f"{n}p {d} decisions {h:016x}")
    print(game, "; ".join(out))


WORKER = r"""
import json, sys, time
from tabletop_zoo.registry import kernel
ks = {}
for line in sys.stdin:
    game, games = line.split()
    if game not in ks:
        ks[game] = k = kernel(game)
        k.playouts(k.DEFAULT_PLAYERS, 2, seed=1)
    k = ks[game]
    t = time.process_time()
    d, _ = k.playouts(k.DEFAULT_PLAYERS, int(games), seed=5)
    print(json.dumps({"decisions": d, "rate": d / (time.process_time() - t)}), flush=True)
"""


def compare(base: str, rounds: int, games: int) -> None:
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    from mcts_speed import base_tree

    def start(pythonpath):
        env = dict(os.environ)
        if pythonpath:
            env["PYTHONPATH"] = pythonpath
        return subprocess.Popen(
            [sys.executable, "-c", WORKER],
            env=env,
            cwd=tempfile.gettempdir(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(proc, game):
        proc.stdin.write(f"{game} {games}\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    with tempfile.TemporaryDirectory() as tmp:
        procs = {"base": start(str(base_tree(base, Path(tmp)))), "new": start(None)}
        for g in GAMES:  # load or compile each game first, one side at a time
            for p in procs.values():
                ask(p, g)
        print(f"base {base} against this checkout; load at start: {os.getloadavg()}")
        rate = {(side, g): [] for side in procs for g in GAMES}
        for i in range(rounds):
            order = GAMES[i % len(GAMES) :] + GAMES[: i % len(GAMES)]
            for g in order:
                sides = ("base", "new") if i % 2 == 0 else ("new", "base")
                got = {side: ask(procs[side], g) for side in sides}
                if got["base"]["decisions"] != got["new"]["decisions"]:
                    raise SystemExit(f"{g}: the trees played different games {got}")
                for side in sides:
                    rate[side, g].append(got[side]["rate"])
        for p in procs.values():
            p.stdin.close()
            p.wait()
    print(f"load at end: {os.getloadavg()}")
    print(
        "| game | base decisions/CPU s | / fastest other (base) | new decisions/CPU s | / fastest other (new) | new/base |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for g in GAMES:
        row = [g]
        for side in ("base", "new"):
            rel = [rate[side, g][i] / max(rate[side, h][i] for h in GAMES if h != g) for i in range(rounds)]
            row += [f"{statistics.median(rate[side, g]):,.0f}", f"{statistics.median(rel):.3f}"]
        nb = [n / b for n, b in zip(rate["new", g], rate["base", g])]
        row.append(f"{statistics.median(nb):.3f}")
        print("| " + " | ".join(row) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("rates")
    r.add_argument("--rounds", type=int, default=7)
    r.add_argument("--games", type=int, default=200)
    p = sub.add_parser("profile")
    p.add_argument("game")
    p.add_argument("--positions", type=int, default=20000)
    p.add_argument("--repeat", type=int, default=20)
    c = sub.add_parser("compare")
    c.add_argument("--base", required=True)
    c.add_argument("--rounds", type=int, default=7)
    c.add_argument("--games", type=int, default=200)
    t = sub.add_parser("trace")
    t.add_argument("game")
    t.add_argument("--games", type=int, default=300)
    t.add_argument("--options", default="{}", help="the game's options as JSON, e.g. '{\"traits\": true}'")
    a = ap.parse_args()
    if a.cmd == "rates":
        rates(a.rounds, a.games)
    elif a.cmd == "compare":
        compare(a.base, a.rounds, a.games)
    elif a.cmd == "trace":
        trace(a.game, a.games, json.loads(a.options))
    else:
        profile(a.game, a.positions, a.repeat)


if __name__ == "__main__":
    main()
