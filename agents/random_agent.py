"""A seeded uniformly random legal-move agent."""

from __future__ import annotations

import random

import numpy as np

from ..kernels._common.masks import pick_legal


class RandomAgent:
    """Picks uniformly among the legal actions; the same seed gives the same choices."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        # Python's Mersenne Twister: ~20x cheaper per draw than a numpy Generator call, equally seedable.
        self._random = random.Random(seed).random

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A uniformly random legal action (the observation is not read); ValueError for a mask with none."""
        mask = np.asarray(action_mask)
        if mask.dtype.kind not in "biu":  # float or object masks: compare instead of summing values
            mask = mask != 0
        # One numba call picks the int(u * n)-th legal action: half the cost of nonzero + indexing on an
        # 801-long mask, and the same choice for the same seed.
        action = pick_legal(mask.ravel(), self._random())
        if action < 0:
            raise ValueError("no legal action in the mask: this seat is not to move")
        return int(action)
