"""What every picture draws the same way: its map layout, axes over a fixed box of the frame, the title line and
who is to move. Game-agnostic: a renderer passes its kernel and its own words."""

from __future__ import annotations

from types import ModuleType

import numpy as np

from ...kernels._common.data import load_json
from ._canvas import HEIGHT, WIDTH, Frame
from .scene import Text

TITLE_Y = 0.965  # figure fraction: the middle of the title line above the panels


def layout(kernel: ModuleType) -> dict:
    """The game's ``kernels/<game>/data/layout.json`` (map coordinates are data, kept beside the rules' JSON)."""
    return load_json(kernel.__name__, "layout.json")


def panel_axes(fig, rect, xlim=None, ylim=None, aspect=None, zorder: float = 0):
    """Axes without ticks at ``rect`` (figure fractions) with fixed limits, in a plain figure (a cached background
    matplotlib draws whole) or in a ``Frame`` (``TextAxes``, whose text Pillow draws): both get the same box, so
    what a frame draws lands on its background."""
    if isinstance(fig, Frame):
        return fig.axes(rect, xlim, ylim, aspect, zorder)
    ax = fig.add_axes(rect, zorder=zorder)
    if xlim is not None:
        ax.set_xlim(*xlim)
    if ylim is not None:
        ax.set_ylim(*ylim)
    if aspect:
        ax.set_aspect(aspect)
    ax.set_axis_off()
    return ax


def mover_label(kernel: ModuleType, s: np.ndarray, pending: str | None = None, over: str = "game over") -> str:
    """Who acts in record ``s``: ``player_<seat> to move``; ``over`` once the game is over; else ``pending``, the
    chance event the env resolves by itself (e.g. "drawing cubes"). A game with no chance after setup leaves
    ``pending`` None: nobody to move then means the game is over."""
    mover = int(kernel.to_move(s))
    if mover >= 0:
        return f"player_{mover} to move"
    return over if pending is None or kernel.is_over(s) else pending


def title_bar(frame: Frame, left: str, right: str) -> None:
    """The frame's top line: the game, its phase and who acts (large, bold) at the left edge; notes (small, grey,
    at most two short lines, so a long phase never runs into them) at the right edge."""
    frame.text(0.01, TITLE_Y, left, fontsize=15, weight="bold", va="center")
    frame.text(0.99, TITLE_Y, right, fontsize=9, ha="right", va="center", color="#555555")


def title_strip(ax, head: str, info: str, info_x: float, colour: str = "black") -> None:
    """A title axes' one line (axes fractions): the game (large, bold, in ``colour``) at the left edge, then the
    state of play from ``info_x`` on."""
    ax.text(0.008, 0.5, head, va="center", fontsize=15, fontweight="bold", color=colour)
    ax.text(info_x, 0.5, info, va="center", fontsize=10.5)


def title_texts(left: str, right: str) -> list[Text]:
    """A scene's top line: the game, its phase and who acts (large, bold) at the left edge; notes (small, grey)
    at the right edge."""
    y = HEIGHT * (1 - TITLE_Y)
    return [
        Text(0.01 * WIDTH, y, left, 15, weight="bold"),
        Text(0.99 * WIDTH, y, right, 9, colour="#555555", ha="right"),
    ]
