"""Random-playout decisions per CPU second of every game's kernel (``kernel.playouts``), best of three.

    python benchmarks/playout_speed.py LABEL            # in each checkout to compare, one after the other

Prints ``LABEL {game: (decisions/s, decisions)}``; equal decision counts mean both checkouts played the same
games. Results: ``benchmarks/PLAYOUTS.md``.
"""

from __future__ import annotations

import sys
import time

from tabletop_zoo.registry import kernel

GAMES = ("imperial", "irish_gauge", "veld_railroads", "kremlin", "french_revolution_1789")


def main(label: str, games: int = 200, players: int = 4) -> None:
    for g in GAMES:
        kernel(g).playouts(players, 2, seed=1)  # compile or load from the cache first
    out = {}
    for g in GAMES:
        k, best = kernel(g), 0.0
        for _ in range(3):
            t = time.process_time()
            decisions, _ = k.playouts(players, games, seed=5)
            best = max(best, decisions / (time.process_time() - t))
        out[g] = (round(best), decisions)
    print(label, out)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "this checkout")
