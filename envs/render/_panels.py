"""What every scene draws the same way: its map layout, the title line and who is to move. Game-agnostic: a
scene module passes its kernel and its own words."""

from __future__ import annotations

from types import ModuleType

import numpy as np

from ...kernels._common.data import load_json
from ._canvas import HEIGHT, WIDTH
from .scene import Text

TITLE_Y = 0.965  # figure fraction: the middle of the title line above the panels


def layout(kernel: ModuleType) -> dict:
    """The game's ``kernels/<game>/data/layout.json`` (map coordinates are data, kept beside the rules' JSON)."""
    return load_json(kernel.__name__, "layout.json")


def mover_label(kernel: ModuleType, s: np.ndarray, pending: str | None = None, over: str = "game over") -> str:
    """Who acts in record ``s``: ``player_<seat> to move``; ``over`` once the game is over; else ``pending``, the
    chance event the env resolves by itself (e.g. "drawing cubes"). A game with no chance after setup leaves
    ``pending`` None: nobody to move then means the game is over."""
    mover = int(kernel.to_move(s))
    if mover >= 0:
        return f"player_{mover} to move"
    return over if pending is None or kernel.is_over(s) else pending


def title_texts(left: str, right: str) -> list[Text]:
    """A scene's top line: the game, its phase and who acts (large, bold) at the left edge; notes (small, grey)
    at the right edge."""
    y = HEIGHT * (1 - TITLE_Y)
    return [
        Text(0.01 * WIDTH, y, left, 15, weight="bold"),
        Text(0.99 * WIDTH, y, right, 9, colour="#555555", ha="right"),
    ]
