"""The pieces every scene shares (``envs/render/_panels.py``): who is to move, the layout, the title line."""

from __future__ import annotations

import types

import numpy as np

import tabletop_zoo
from tabletop_zoo.envs.render._panels import layout, mover_label, title_texts


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


def test_the_title_line_is_at_the_top_left_and_right():
    left, right = title_texts("Game - phase", "notes")
    assert left.x < 20 and left.y < 60 and left.weight == "bold" and left.text == "Game - phase"
    assert right.ha == "right" and right.x > 1200 and right.y == left.y and right.size < left.size
