"""Veld Railroads rendering: rgb_array frames of the documented size at several states, the settlement
layout as data, and a readable ansi table (issue #11)."""

from __future__ import annotations

import json
from importlib import resources

import numpy as np
import pytest

from tabletop_zoo.envs.render import veld_railroads as pic
from tabletop_zoo.envs.veld_railroads_v0 import render_ansi
from tabletop_zoo.kernels import veld_railroads as k

from ..render._helpers import FRAME, assert_distinct, assert_reused_frame_is_fresh, play

T = k.tables


@pytest.fixture(scope="module")
def states() -> dict[str, np.ndarray]:
    return {
        "start_3p": play(k, 3, 0, 0),
        "start_6p": play(k, 6, 1, 0),
        "mid_4p": play(k, 4, 2, 60),
        "over_6p": play(k, 6, 3, None),
    }


def test_frames_have_the_documented_shape_and_are_not_blank(frames):
    for name, img in frames.items():
        assert img.shape == FRAME and img.dtype == np.uint8, name
        assert img.std() > 20, f"{name} looks blank"


def test_the_states_cover_start_middle_and_end(states):
    assert int(states["mid_4p"][0]["n_sections"].sum()) > 0 and not k.is_over(states["mid_4p"])
    assert k.is_over(states["over_6p"])


def test_frames_differ_between_states(frames):
    assert_distinct(frames)


def _near(img_a, img_b, x: float, y: float, radius: float) -> tuple[int, int]:
    """(changed map pixels within radius of map point (x, y), changed map pixels in all)."""
    changed = np.argwhere((img_a != img_b).any(axis=2))
    rows, cols = changed[:, 0], changed[:, 1]
    on_map = cols < pic.MAP_W
    near = on_map & (np.abs(cols - x) < radius) & (np.abs((pic.HEIGHT - rows) - y) < radius)
    return int(near.sum()), int(on_map.sum())


def test_a_built_section_is_drawn_in_its_railroad_colour():
    """Building CTR&D's Cape Town-Worcester section changes the map only along that section, in blue."""
    s = k.new_state(4, 0)
    before = pic.render_rgb(s)
    e = T.SECTION_IDS.index("s00")
    s[0]["section_owner"][e] = 3  # CTR&D
    after = pic.render_rgb(s)
    (xa, ya), (xb, yb) = pic.POS[T.SEC_A[e]], pic.POS[T.SEC_B[e]]
    mid_x, mid_y = (xa + xb) / 2, (ya + yb) / 2
    near, total = _near(before, after, mid_x, mid_y, abs(xb - xa) / 2 + 20)
    assert near > 100 and near == total
    row, col = int(pic.HEIGHT - mid_y), int(mid_x)
    assert tuple(after[row, col]) == (0x2F, 0x5F, 0xD0)  # CTR&D blue under the section's midpoint


def test_a_development_changes_the_settlement_marker():
    s = k.new_state(4, 0)
    before = pic.render_rgb(s)
    kim = T.SETTLEMENT_INDEX["kimberley"]
    s[0]["dev_level"][kim] = 1
    after = pic.render_rgb(s)
    near, total = _near(before, after, *pic.POS[kim], 16)
    assert near > 30 and near == total


def _layout() -> dict:
    text = resources.files("tabletop_zoo.kernels.veld_railroads").joinpath("data", "layout.json").read_text("utf-8")
    return json.loads(text)


def test_layout_covers_every_settlement_near_its_real_position():
    layout = _layout()
    assert layout["source"]
    assert set(layout["settlements"]) == set(T.SETTLEMENT_IDS)
    for v in T.SETTLEMENTS:
        pos = layout["settlements"][v["id"]]
        # approximate real geography: within about 80 km of the real town
        assert abs(pos["lat"] - v["lat"]) < 0.75 and abs(pos["lon"] - v["lon"]) < 0.75, v["id"]
    assert set(layout["region_labels"]) == set(T.REGION_IDS)


def test_settlement_markers_keep_apart():
    """Legibility: every two settlement markers are at least a marker and a name line apart."""
    d = np.hypot(*(pic.POS[:, None, :] - pic.POS[None, :, :]).transpose(2, 0, 1))
    np.fill_diagonal(d, np.inf)
    assert d.min() > 24
    assert (pic.POS >= 0).all() and (pic.POS[:, 0] <= pic.MAP_W).all() and (pic.POS[:, 1] <= pic.MAP_H).all()


@pytest.mark.parametrize("name", ["start_3p", "start_6p", "over_6p"])
def test_ansi_mentions_every_player(states, name):
    s = states[name]
    text = render_ansi(s)
    for p in range(int(s[0]["num_players"])):
        assert f"player_{p}" in text
    assert ("winner" in text) == bool(k.is_over(s))


def test_a_reused_frame_shows_the_state_not_the_last_frame():
    """Issue #19: a frame drawn over the cached board after moves equals one drawn from scratch."""
    assert_reused_frame_is_fresh("veld_railroads", pic)
