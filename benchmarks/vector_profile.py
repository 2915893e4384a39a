"""Where a ``make_vec`` step's time goes at batch 1,024 on one thread (issue #46), per game.

    nice -n 10 python benchmarks/vector_profile.py [--rounds 60] [--batch 1024] [--games irish_gauge,...]

ns per lane decision, each part timed once per round in interleaved rounds and the minimum over rounds kept
(the rounds no other process interrupted): ``step`` (``vec.step``), ``bare`` (``vec.step`` of the same batch made
with ``observations=False``), ``observe`` (a numba loop observing the batch's records for their seats to move
into the batch's observation buffer), ``observe x4`` (the same loop over a batch of the same size and memory
holding a quarter of the positions, each four times: what observing costs when the CPU has met each position
before), ``observe hot`` (one record observed ``batch`` times), ``mask`` (a numba loop of ``legal_mask`` over
the batch) and ``playout`` (the kernel's random games, per decision). ``step / kernel`` = playout / step, the
goal's ratio (>= 0.3x).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from numba import njit

import tabletop_zoo
from tabletop_zoo import registry
from tabletop_zoo.kernels._common.dispatch import legal_mask, observe
from tabletop_zoo.kernels._common.masks import sample_legal


@njit(cache=True, nogil=True)
def _pick(masks, rng, out):
    for i in range(masks.shape[0]):
        out[i] = sample_legal(masks[i], rng)


@njit(cache=True, nogil=True)
def _observe_all(records, seats, out):
    for i in range(records.shape[0]):
        observe(records[i : i + 1], seats[i], out[i])


@njit(cache=True, nogil=True)
def _observe_hot(record, seat, n, out):
    for _ in range(n):
        observe(record, seat, out)


@njit(cache=True, nogil=True)
def _mask_all(records, masks):
    for i in range(records.shape[0]):
        legal_mask(records[i : i + 1], masks[i])


def _ns(fn, per: int) -> float:
    t0 = time.perf_counter_ns()
    fn()
    return (time.perf_counter_ns() - t0) / per


def profile(game: str, batch: int, rounds: int) -> dict:
    """Minimum ns per lane decision of each part over ``rounds`` interleaved rounds."""
    k = registry.kernel(game)
    n = k.DEFAULT_PLAYERS
    vec = tabletop_zoo.make_vec(game, batch, n, seed=0)
    bare = tabletop_zoo.make_vec(game, batch, n, seed=0, observations=False)
    out, out_bare = vec.reset(), bare.reset()
    rng = np.array([12345], np.uint64)
    actions = np.zeros(batch, np.int64)
    for _ in range(50):  # away from the openings
        _pick(out.action_mask, rng, actions)
        out = vec.step(actions)
        _pick(out_bare.action_mask, rng, actions)
        out_bare = bare.step(actions)
    obs = np.zeros((batch, k.OBS_SIZE), np.float32)
    masks = np.zeros((batch, k.NUM_ACTIONS), np.uint8)
    hot = vec.records[:1].copy()
    games = max(1, 20_000 // 400)
    k.playouts(n, 2, 0)
    _observe_all(vec.records, out.current_player, obs)
    _observe_hot(hot, int(out.current_player[0]), 2, obs[0])
    _mask_all(vec.records, masks)
    best = dict.fromkeys(("step", "bare", "observe", "observe x4", "observe hot", "mask", "playout"), 1e18)
    for r in range(rounds):
        _pick(out.action_mask, rng, actions)
        t0 = time.perf_counter_ns()
        out = vec.step(actions)
        best["step"] = min(best["step"], (time.perf_counter_ns() - t0) / batch)
        _pick(out_bare.action_mask, rng, actions)
        t0 = time.perf_counter_ns()
        out_bare = bare.step(actions)
        best["bare"] = min(best["bare"], (time.perf_counter_ns() - t0) / batch)
        seats = out.current_player.copy()
        quarter = -(-batch // 4)  # a quarter of the positions, each four times, in a batch of the same size
        fourfold = np.tile(vec.records[:quarter], 4)[:batch]
        seats4 = np.tile(seats[:quarter], 4)[:batch]
        parts = {
            "observe": lambda: _observe_all(vec.records, seats, obs),
            "observe x4": lambda: _observe_all(fourfold, seats4, obs),
            "observe hot": lambda: _observe_hot(hot, int(seats[0]), batch, obs[0]),
            "mask": lambda: _mask_all(vec.records, masks),
        }
        for name, fn in parts.items():
            best[name] = min(best[name], _ns(fn, batch))
        t0 = time.perf_counter_ns()
        decisions, _ = k.playouts(n, games, 1000 + r)
        best["playout"] = min(best["playout"], (time.perf_counter_ns() - t0) / decisions)
    best["step / kernel"] = best["playout"] / best["step"]
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--games", default=",".join(registry.KERNELS))
    a = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.2f}")
    cols = ("step", "bare", "observe", "observe x4", "observe hot", "mask", "playout", "step / kernel")
    print(f"| game | {' | '.join(cols)} |")
    for game in a.games.split(","):
        best = profile(game, a.batch, a.rounds)
        print(
            f"| {game} | "
            + " | ".join(f"{best[c]:.2f}" if c == "step / kernel" else f"{best[c]:,.0f}" for c in cols)
            + " |"
        )
    print(f"load {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
