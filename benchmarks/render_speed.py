"""CPU milliseconds per ``env.render()`` frame in ``rgb_array`` mode, per game (issue #19: <= 150 ms).

Each game is played with uniformly random legal moves to a mid-game position (``--moves`` decisions),
rendered once (the first frame may build the renderer's cached board), then ``--frames`` more frames are
rendered, one random move apart. CPU time (``time.process_time``) of each ``render()`` call is timed, so
other load on the machine counts little; the table gives the median and the slowest frame. The games run
in one process, so a full garbage collection before each game's frames keeps the earlier games' garbage
(their envs) from landing on its clock as a ~0.3 s collector pause.

    python benchmarks/render_speed.py --frames 20
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time

import numpy as np

import tabletop_zoo

GAMES = ["irish_gauge", "kremlin", "french_revolution_1789", "imperial", "veld_railroads"]


def measure(game: str, players: int, moves: int, frames: int, seed: int) -> tuple[float, float, float, tuple]:
    env = tabletop_zoo.make_env(game, num_players=players, render_mode="rgb_array")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def advance() -> None:
        if env.agents and not all(env.terminations[a] or env.truncations[a] for a in env.agents):
            env.step(int(rng.choice(env.legal_actions())))

    for _ in range(moves):
        advance()
    gc.collect()  # earlier games' garbage is collected here, not in a pause on this game's clock
    t = time.process_time()
    first = env.render()
    first_ms = 1000 * (time.process_time() - t)
    times = []
    for _ in range(frames):
        advance()
        t = time.process_time()
        frame = env.render()
        times.append(1000 * (time.process_time() - t))
    assert frame.shape == first.shape and frame.dtype == np.uint8
    return first_ms, statistics.median(times), max(times), frame.shape


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", default=GAMES)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--moves", type=int, default=60, help="random decisions before the timed frames")
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"| game | first frame (ms CPU) | median of {args.frames} frames (ms CPU) | slowest (ms CPU) | frame |")
    print("|---|---:|---:|---:|---|")
    for game in args.games:
        first, median, worst, shape = measure(game, args.players, args.moves, args.frames, args.seed)
        print(f"| {game} | {first:.0f} | {median:.0f} | {worst:.0f} | uint8{list(shape)} |", flush=True)


if __name__ == "__main__":
    main()
