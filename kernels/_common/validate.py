"""Python-side validation shared by every kernel: clear errors for bad seeds and player counts."""

from __future__ import annotations

import numbers


def check_seed(seed) -> int:
    """A seed is an int in [0, 2**64); anything else is a clear error."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an int in [0, 2**64), got {seed!r} ({type(seed).__name__})")
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed must be an int in [0, 2**64), got {seed}")
    return int(seed)


def check_player_count(num_players, minimum: int, maximum: int, game_name: str) -> int:
    """``num_players`` as an int in minimum..maximum, or a clear error naming the game's range."""
    if isinstance(num_players, bool) or not isinstance(num_players, numbers.Integral):
        raise TypeError(f"num_players must be an int, got {num_players!r}")
    if not minimum <= num_players <= maximum:
        raise ValueError(f"{game_name} is played by {minimum} to {maximum} players, got {num_players}")
    return int(num_players)
