"""The Python entry points every kernel opens the same way: checked arguments, a fresh record, random playouts.

A kernel supplies only what differs: its ``init_state`` / ``random_playouts`` kernels and the game arguments
they take after ``num_players`` and ``seed`` (a ``setup(num_players, options)`` function of resolved options).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np


def checked(kernel: ModuleType, num_players, seed, options: dict) -> tuple[int, np.uint64, dict]:
    """Player count, seed and options checked in one order by every kernel (each raises one clear line)."""
    num_players = kernel.check_num_players(num_players)
    seed = np.uint64(kernel.check_seed(seed))
    return num_players, seed, kernel.resolve_options(**options)


def fresh_record(dtype: np.dtype, init_state, num_players: int, seed: np.uint64, *setup) -> np.ndarray:
    """A zeroed shape-(1,) record set up by the game's ``init_state(s, num_players, seed, *setup)``."""
    s = np.zeros(1, dtype=dtype)
    init_state(s, num_players, seed, *setup)
    return s


def make_new_state(kernel: ModuleType, init_state, setup, doc: str, settle=None):
    """The kernel's ``new_state``: a checked, freshly set-up record; ``settle(s)`` then runs any decisions the
    kernel applies by itself before the first seat moves."""

    def new_state(num_players: int, seed: int = 0, **options) -> np.ndarray:
        num_players, seed, opts = checked(kernel, num_players, seed, options)
        s = fresh_record(kernel.STATE, init_state, num_players, seed, *setup(num_players, opts))
        if settle is not None:
            settle(s)
        return s

    new_state.__doc__ = f"A fresh game record (shape (1,), dtype STATE) {doc}."
    new_state.__module__ = kernel.__name__
    return new_state


def fixed_utility(utility: str):
    """The kernel's ``utility(options)`` when no option changes what ``returns()`` sum to."""

    def utility_of(options: dict) -> str:
        """Utility class of ``returns()``; the same under every option."""
        return utility

    return utility_of


def make_playouts(kernel: ModuleType, random_playouts, setup):
    """The kernel's ``playouts``: random games run by ``random_playouts(num_players, *setup, n_games, seed,
    max_decisions)``, with ``setup(num_players, options)`` giving the game arguments."""

    def playouts(num_players: int, n_games: int, seed: int = 0, max_decisions: int = kernel.MAX_GAME_LENGTH, **options):
        """Play n_games uniformly random games in numba; returns (decisions, finished games).

        Releases the GIL, so threads running it use every core.
        """
        num_players, seed, opts = checked(kernel, num_players, seed, options)
        return random_playouts(num_players, *setup(num_players, opts), n_games, seed, max_decisions)

    playouts.__module__ = kernel.__name__
    return playouts
