"""The agent protocol: anything with ``act(observation, action_mask) -> int`` can play."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Agent(Protocol):
    """Chooses a legal action id given a seat's flat observation and its int8 action mask.

    Agents that search the rules kernel directly also implement ``act_state(record) -> int``.
    """

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """A legal action id (``action_mask[id] != 0``) for the seat whose ``observation`` this is."""
        ...
