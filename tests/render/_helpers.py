"""Shared pieces of the rendering tests: the frame size and records after random decisions."""

from __future__ import annotations

import numpy as np

FRAME = (800, 1280, 3)  # every game's documented rgb_array size (envs/render/_canvas.py)


def play(kernel, num_players: int, seed: int, decisions: int | None, **options) -> np.ndarray:
    """A record after ``decisions`` uniformly random decisions (None: to the end of the game)."""
    s = kernel.new_state(num_players, seed, **options)
    mask = np.zeros(kernel.NUM_ACTIONS, np.uint8)
    rng = np.random.default_rng(seed)
    done = 0
    while not kernel.is_over(s) and (decisions is None or done < decisions):
        kernel.legal_mask(s, mask)
        legal = np.flatnonzero(mask)
        kernel.step(s, int(legal[rng.integers(legal.size)]))
        done += 1
    return s


def assert_distinct(frames: dict[str, np.ndarray]) -> None:
    """No two of the named frames are the same picture."""
    names = list(frames)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert not np.array_equal(frames[a], frames[b]), (a, b)
