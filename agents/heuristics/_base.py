"""``HeuristicAgent``: the shared frame of the per-game heuristics — read the seat's observation, dispatch
on the phase it shows, and never fall back to a random move.

A game's heuristic names its kernel's ``PHASE_NAMES`` and ``OBS_PIECES`` and defines one handler
``_<phase name in lower case>(o, mask)`` per decision phase; ``o`` is the observation decoded by the kernel's
layout (``decode``): each named piece in its own unit (money in money, units in units, seat 0 = me), so no
heuristic repeats a scale of the encoder. A handler returns a legal action id. A phase without a handler, or a handler
choice that the mask forbids, raises ``ValueError`` naming the phase and the choice: a gap in the
strategy shows up as an error, not as a silently random move.
"""

from __future__ import annotations

import numpy as np

from ...kernels._common.layout import decode
from ..base import Agent  # noqa: F401  (documentation: this class honours the Agent protocol)


class HeuristicAgent:
    name = "heuristic"
    PHASE_NAMES: tuple[str, ...] = ()
    OBS_PIECES: tuple = ()

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)  # only to break ties and vary rival beginners

    @classmethod
    def decision_phases(cls) -> list[str]:
        """The phases this heuristic has a strategy for."""
        return [p for p in cls.PHASE_NAMES if callable(getattr(cls, "_" + p.lower(), None))]

    def phase(self, o) -> str:
        """The name of the phase the observation shows."""
        return self.PHASE_NAMES[int(np.argmax(o["phase_onehot"]))]

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        mask = np.asarray(action_mask)
        if not mask.any():
            raise ValueError("no legal action in the mask: this seat is not to move")
        o = decode(self.OBS_PIECES, observation)
        phase = self.phase(o)
        handler = getattr(self, "_" + phase.lower(), None)
        if handler is None:
            raise ValueError(
                f"{type(self).__name__} has no strategy for phase {phase}; it handles "
                f"{', '.join(self.decision_phases())}"
            )
        legal = np.flatnonzero(mask)
        if legal.size == 1:
            return int(legal[0])  # forced: nothing to decide
        choice = handler(o, mask)
        if choice is None or not 0 <= int(choice) < mask.size or not mask[int(choice)]:
            raise ValueError(
                f"{type(self).__name__} chose action {choice} in phase {phase}, which is not legal "
                f"there; legal: {legal[:20].tolist()}{' ...' if legal.size > 20 else ''}"
            )
        return int(choice)
