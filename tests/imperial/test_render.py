"""Imperial rendering: rgb_array frames of the documented size at several states, the map layout as data,
and a readable ansi table (issue #11)."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest

from tabletop_zoo.envs.imperial_v0 import render_ansi
from tabletop_zoo.envs.render import imperial as pic
from tabletop_zoo.kernels import imperial as k

from ..render._helpers import FRAME, assert_distinct, assert_reused_frame_is_fresh, play


@pytest.fixture(scope="module")
def states() -> dict[str, np.ndarray]:
    return {
        "start_2p": play(k, 2, 0, 0),
        "start_6p": play(k, 6, 1, 0),
        "mid_4p": play(k, 4, 2, 150),
        "late_3p": play(k, 3, 3, 400),
        "over_6p": play(k, 6, 4, None),
    }


def test_frames_have_the_documented_shape_and_are_not_blank(frames):
    for name, img in frames.items():
        assert img.shape == FRAME and img.dtype == np.uint8, name
        assert img.std() > 20, f"{name} looks blank"
        # the nation colours are drawn (the title, swatches, units): AH's yellow is present
        assert (np.abs(img.astype(int) - [0xE0, 0xB4, 0x00]).sum(axis=2) < 30).any(), name


def test_the_finished_game_is_finished(states):
    assert k.is_over(states["over_6p"]) and not k.is_over(states["mid_4p"])


def test_frames_differ_between_states(frames):
    assert_distinct(frames)


def test_units_change_the_map_pixels():
    """An army placed in a neutral region shows up on the map (its badge) and nowhere else changes much."""
    s = k.new_state(4, 0)
    before = pic.render_rgb(s)
    spain = k.tables.REGION_INDEX["spain"]
    s[0]["armies"][2, spain] = 3
    after = pic.render_rgb(s)
    changed = np.argwhere((before != after).any(axis=2))
    x, y = pic.POS[spain]
    rows, cols = changed[:, 0], changed[:, 1]
    near = (np.abs(cols - x) < 40) & (np.abs((pic.HEIGHT - rows) - y) < 40)
    assert near.sum() > 50
    assert changed[cols < pic.MAP_W].shape[0] == near.sum()  # on the map, only around Spain


def _layout() -> dict:
    text = resources.files("tabletop_zoo.kernels.imperial").joinpath("data", "layout.json").read_text("utf-8")
    return json.loads(text)


def test_layout_covers_every_map_region_near_its_real_position():
    layout = _layout()
    assert layout["source"]
    assert set(layout["regions"]) == set(k.tables.REGION_IDS)
    for region in k.tables.MAP["regions"]:
        pos = layout["regions"][region["id"]]
        assert pos["label"]
        # approximate real geography: within a few degrees of the region's real centre
        assert abs(pos["lat"] - region["lat"]) < 2.0 and abs(pos["lon"] - region["lon"]) < 3.5, region["id"]
    for item in k.tables.MAP["impassable"]:
        assert item["id"] in layout["impassable"]


def test_region_boxes_do_not_overlap():
    """Legibility: no two region boxes (name plus the factory slot on its left) share pixels."""
    boxes = []
    for x in range(k.tables.N_REGIONS):
        cx, cy = pic.POS[x]
        half = pic._box_width(pic.LABELS[x]) / 2
        left = cx - half - (12 if x < k.tables.N_HOME else 0)
        boxes.append((left, cx + half, cy - 7.5, cy + 7.5))
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            b = boxes[j]
            overlap = a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]
            assert not overlap, (k.tables.REGION_IDS[i], k.tables.REGION_IDS[j])
    assert all(0 <= v[0] and v[1] <= pic.MAP_W and 0 <= v[2] and v[3] <= pic.MAP_H for v in boxes)


@pytest.mark.parametrize("name", ["start_2p", "start_6p", "over_6p"])
def test_ansi_mentions_every_player(states, name):
    s = states[name]
    text = render_ansi(s)
    for p in range(int(s[0]["num_players"])):
        assert f"player_{p}" in text
    assert ("winner:" in text) == bool(k.is_over(s))


def test_a_reused_frame_shows_the_state_not_the_last_frame():
    """Issue #19: a frame drawn over the cached board after moves equals one drawn from scratch."""
    assert_reused_frame_is_fresh("imperial", pic)
