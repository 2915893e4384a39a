"""The pieces every picture shares (``envs/render/_panels.py``): who is to move, the layout, the axes box."""

from __future__ import annotations

import types

import numpy as np

import tabletop_zoo
from tabletop_zoo.envs.render._canvas import Frame, new_figure
from tabletop_zoo.envs.render._panels import layout, mover_label, panel_axes


def _kernel(to_move: int, over: bool):
    return types.SimpleNamespace(to_move=lambda s: np.int64(to_move), is_over=lambda s: over)


def test_mover_label_names_the_seat_the_end_or_the_pending_chance():
    s = None  # the fake kernel never reads the record
    assert mover_label(_kernel(2, False), s, "drawing cubes") == "player_2 to move"
    assert mover_label(_kernel(-1, True), s, "drawing cubes") == "game over"
    assert mover_label(_kernel(-1, False), s, "drawing cubes") == "drawing cubes"
    # a game without chance after setup: nobody to move means over, whatever is_over says
    assert mover_label(_kernel(-1, False), s, over="game over (truncated)") == "game over (truncated)"


def test_layout_reads_the_rooms_layout_json():
    assert set(layout(tabletop_zoo.kernel("irish_gauge"))) >= {"hexes"}


def test_panel_axes_put_the_background_and_the_frame_in_the_same_box():
    rect, xlim, ylim = (0.1, 0.2, 0.5, 0.6), (0, 100), (0, 50)
    plain = panel_axes(new_figure(), rect, xlim, ylim)
    framed = panel_axes(Frame(), rect, xlim, ylim)
    for ax in (plain, framed):
        assert np.allclose(ax.get_position().bounds, rect) and ax.get_xlim() == xlim and ax.get_ylim() == ylim
        assert not ax.axison
