"""A seeded uniformly random legal-move agent."""

from __future__ import annotations

import random

import numpy as np


class RandomAgent:
    """Picks uniformly among the legal actions; the same seed gives the same choices."""

    name = "random"

    def __init__(self, seed: int | None = None):
        # Python's Mersenne Twister: ~20x cheaper per draw than a numpy Generator call, equally seedable.
        self._random = random.Random(seed).random

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        mask = np.asarray(action_mask)
        # 0/1 bytes viewed as bool: numpy's nonzero is about twice as fast on bool arrays
        legal = (mask.view(np.bool_) if mask.dtype.itemsize == 1 else mask != 0).nonzero()[0]
        if legal.size == 0:
            raise ValueError("no legal action in the mask: this seat is not to move")
        return int(legal[int(self._random() * legal.size)])
