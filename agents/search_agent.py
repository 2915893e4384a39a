"""``SearchAgent``: what the agents that search the rules kernel (``mcts``, ``az``) share.

Bound to an env, such an agent reads the game record (``env.get_state()``), never the observation; it seeds
each move from what the seat to move sees, hands its search only a record determinized for that seat in
hidden-information games (IS-MCTS), and plays the most visited root action. A subclass supplies
``_search(record, seed) -> (visits per action, the root mover's mean value per action)``.
"""

from __future__ import annotations

import zlib
from abc import ABC, abstractmethod

import numpy as np

from ..kernels._common import dispatch
from ..kernels._common.record import copy_record


def most_visited(visits: np.ndarray, value: np.ndarray) -> int:
    """The root action with the most visits; ties go to the higher value, then to the lowest id."""
    best = np.flatnonzero(visits == visits.max())
    return int(best[np.argmax(value[best])])


class SearchAgent(ABC):
    """An agent that searches the game record (MCTS, az): ``act_for_seat(record)`` searches from what the seat to
    move may know; ``act`` does the same for the env it is bound to (``bind(env)``). Subclasses implement
    ``_search``; the move is the most visited root action."""

    name = "search"
    seed = 0
    env = None
    last_visits: np.ndarray | None = None  # the root visit counts of the last move searched

    @abstractmethod
    def _search(self, record: np.ndarray, seed: np.uint64) -> tuple[np.ndarray, np.ndarray]:
        """Search ``record`` with generator seed ``seed``: (visits per action, the root mover's mean value per
        action)."""

    def bind(self, env) -> SearchAgent:
        """Play in ``env``: ``act`` will search its current game record."""
        self.env = env
        dispatch.register(env.kernel)
        return self

    def _move_seed(self, record: np.ndarray, seat: int) -> np.uint64:
        """Derived from what the seat sees: the same visible position and agent seed give the same move,
        whatever is hidden and whatever happened before."""
        kernel = dispatch.kernel_for(record.dtype)
        view = np.zeros(kernel.OBS_SIZE, np.float32)
        kernel.observe(record, seat, view)
        # A numpy uint64, not a Python int: numba would type a Python int >= 2**63 as uint64 and fail to
        # convert it for an int64 specialisation compiled earlier in the process ("int too big to convert").
        return np.uint64((self.seed * 0x9E3779B1 + zlib.crc32(view.tobytes())) % 2**64)

    def act_for_seat(self, record: np.ndarray) -> int:
        """Search as the seat to move, from what that seat may know: in hidden-information games the
        search is handed only a determinization for that seat, never the true secrets."""
        kernel = dispatch.kernel_for(record.dtype)
        if kernel.is_over(record):
            raise ValueError("the game is over: there is no move to search")
        seat = int(kernel.to_move(record))
        seed = self._move_seed(record, seat)
        if kernel.INFORMATION == "imperfect":
            record = copy_record(record)
            kernel.determinize(record, seat, seed)
        return self._choose(record, seed)

    def _choose(self, record: np.ndarray, seed: np.uint64) -> int:
        visits, value = self._search(record, seed)
        self.last_visits = visits
        return most_visited(visits, value)

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        """The search's move for the seat to move in the bound env (``bind(env)``); a search reads the record,
        so the observation and mask are not used."""
        if self.env is None:
            raise RuntimeError(
                f"{type(self).__name__} searches the game record: bind(env) first, or call act_for_seat(record)"
            )
        return self.act_for_seat(self.env.get_state())
