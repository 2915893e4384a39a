"""``PolicyAgent``: a trained (Maskable)PPO model as an agent, e.g. ``policy:path=model.zip`` in the arena."""

from __future__ import annotations

import numpy as np


class PolicyAgent:
    """Plays the model's action for its seat's observation, restricted to the legal mask."""

    name = "policy"

    def __init__(self, path: str | None = None, model=None, deterministic: bool = True, seed: int | None = None):
        if model is None:
            if not path:
                raise ValueError("policy agent needs path=<model.zip> (a saved MaskablePPO model)")
            from sb3_contrib import MaskablePPO  # torch is imported only when a policy is used

            model = MaskablePPO.load(path, device="cpu")
        self.model = model
        self.deterministic = bool(deterministic)
        if seed is not None:
            self.model.set_random_seed(int(seed) % 2**32)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        action, _ = self.model.predict(observation, action_masks=np.asarray(action_mask, bool),
                                       deterministic=self.deterministic)
        return int(action)
