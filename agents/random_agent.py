"""A seeded uniformly random legal-move agent."""

from __future__ import annotations

import numpy as np


class RandomAgent:
    """Picks uniformly among the legal actions; the same seed gives the same choices."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask: this seat is not to move")
        # rng.random() is several times cheaper than rng.integers() per call
        return int(legal[int(self.rng.random() * legal.size)])
