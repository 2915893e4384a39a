"""The Python entry points every kernel opens the same way: its options, checked arguments, a fresh record,
random playouts.

A kernel supplies only what differs: its ``options.Options`` table, its ``init_state`` kernel and the game
arguments it takes after ``num_players`` and ``seed`` (a ``setup(num_players, options)`` function of resolved
options).
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from .options import Options
from .stepping import make_random_games
from .validate import check_player_count


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


def make_new_state(kernel: ModuleType, init_state, setup, doc: str):
    """The kernel's ``new_state``: a checked, freshly set-up record."""

    def new_state(num_players: int, seed: int = 0, **options) -> np.ndarray:
        num_players, seed, opts = checked(kernel, num_players, seed, options)
        return fresh_record(kernel.STATE, init_state, num_players, seed, *setup(num_players, opts))

    new_state.__doc__ = f"A fresh game record (shape (1,), dtype STATE) {doc}."
    new_state.__module__ = kernel.__name__
    return new_state


def fixed_utility(utility: str):
    """The kernel's ``utility(options)`` when no option changes what ``returns()`` sum to."""

    def utility_of(options: dict) -> str:
        """Utility class of ``returns()``; the same under every option."""
        return utility

    return utility_of


def make_playouts(kernel: ModuleType, setup):
    """The kernel's ``playouts``: random games run in numba by the room's ``stepping.make_random_games`` loop, set
    up by the kernel's ``init_state`` with the game arguments ``setup(num_players, options)``."""
    random_games = make_random_games(kernel)

    def playouts(num_players: int, n_games: int, seed: int = 0, max_decisions: int = kernel.MAX_GAME_LENGTH, **options):
        """Play n_games uniformly random games in numba; returns (decisions, finished games).

        Releases the GIL, so threads running it use every core.
        """
        num_players, seed, opts = checked(kernel, num_players, seed, options)
        s = np.zeros(1, kernel.STATE)
        mask = np.zeros(kernel.NUM_ACTIONS, np.uint8)
        return random_games(s, mask, num_players, tuple(setup(num_players, opts)), n_games, seed, max_decisions)

    playouts.__module__ = kernel.__name__
    return playouts


def make_game_args(kernel: ModuleType, setup):
    """The kernel's ``game_args``: ``init_state``'s arguments after ``num_players`` and ``seed``, for code that
    sets records up inside numba (``dispatch.init_state``, the batched games of ``make_vec``)."""

    def game_args(num_players: int, **options) -> tuple:
        """``init_state``'s game arguments for ``num_players`` and ``options`` (checked, defaults filled)."""
        num_players = kernel.check_num_players(num_players)
        return tuple(setup(num_players, kernel.resolve_options(**options)))

    game_args.__module__ = kernel.__name__
    return game_args


def make_check_num_players(kernel: ModuleType, title: str):
    """The kernel's ``check_num_players``: an int in MIN_PLAYERS..MAX_PLAYERS, else one clear line naming the game."""

    def check_num_players(num_players) -> int:
        return check_player_count(num_players, kernel.MIN_PLAYERS, kernel.MAX_PLAYERS, title)

    check_num_players.__module__ = kernel.__name__
    return check_num_players


def options_then_start_cash(options: Options, start_cash: dict):
    """A ``setup`` for ``entry_points``: every option's value in the table's order, then the starting cash for the
    player count (``start_cash[str(num_players)]``, as the game's data keys it)."""

    def setup(num_players: int, opts: dict) -> tuple:
        return (*options.values(opts), start_cash[str(num_players)])

    return setup


def entry_points(kernel: ModuleType, options: Options, title: str, init_state, setup, doc: str):
    """``OPTIONS``, ``resolve_options``, ``check_num_players``, ``new_state``, ``playouts`` and ``game_args`` of a
    kernel whose options are the table ``options`` and whose ``init_state`` takes the game arguments
    ``setup(num_players, options)``; ``title`` names the game in errors, ``doc`` where a new game stands."""
    return (
        options.doc,
        options.resolve,
        make_check_num_players(kernel, title),
        make_new_state(kernel, init_state, setup, doc),
        make_playouts(kernel, setup),
        make_game_args(kernel, setup),
    )
