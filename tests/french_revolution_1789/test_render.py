"""French Revolution 1789 rendering: rgb_array frames of the documented size at several states, the city
layout as data, and a readable ansi table (issue #11)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_zoo.envs.french_revolution_1789_v0 import render_ansi
from tabletop_zoo.envs.render import french_revolution_1789 as pic
from tabletop_zoo.kernels import french_revolution_1789 as k

from ..render._helpers import FRAME, assert_distinct, assert_reused_frame_is_fresh, play


@pytest.fixture(scope="module")
def states() -> dict[str, np.ndarray]:
    return {
        "start_2p": play(k, 2, 0, 0),
        "start_5p": play(k, 5, 1, 0),
        "mid_4p": play(k, 4, 2, 120),
        "over_5p": play(k, 5, 3, None),
    }


def test_frames_have_the_documented_shape_and_are_not_blank(frames, states):
    for name, img in frames.items():
        assert img.shape == FRAME and img.dtype == np.uint8, name
        assert img.std() > 20, f"{name} looks blank"
        n = int(states[name][0]["num_players"])
        for colour in pic.PLAYER_COLOURS[:n]:  # every player's swatch is drawn
            rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
            assert (np.abs(img.astype(int) - rgb).sum(axis=2) < 20).any(), (name, colour)


def test_the_finished_game_is_finished(states):
    assert k.is_over(states["over_5p"]) and not k.is_over(states["mid_4p"])


def test_frames_differ_between_states(frames):
    assert_distinct(frames)


def test_a_support_marker_is_drawn_at_its_city():
    """A support marker of player_1 in Lyon shows up next to Lyon on the map."""
    s = k.new_state(3, 0)
    lyon = k.tables.CITY_INDEX["lyon"]
    s[0]["city_owner"][lyon] = -1
    before = pic.render_rgb(s)
    s[0]["city_owner"][lyon] = 1
    after = pic.render_rgb(s)
    x, y = pic.map_px(pic.CITY_XY[lyon] + pic.SUPPORT_OFFSET[lyon])  # frame pixels, y down
    rows, cols = np.nonzero((before != after).any(axis=2))
    near = (np.abs(cols - x) < 12) & (np.abs(rows - y) < 12)
    assert near.sum() > 50
    assert (cols[~near] > FRAME[1] * 0.45).all()  # elsewhere only player_1's city count changes


def test_layout_has_a_position_for_every_city():
    assert set(pic.LAYOUT["cities"]) == set(k.tables.CITY_IDS)
    assert pic.LAYOUT["source"] and pic.LAYOUT["note"]
    for c in k.tables.MAP["cities"]:  # the same approximate real positions as map.json
        assert pic.LAYOUT["cities"][c["id"]] == [c["lon"], c["lat"]]
    for outline in pic.LAYOUT["outlines"].values():
        lon, lat = np.array(outline).T
        assert (-5.5 < lon).all() and (lon < 10).all() and (41 < lat).all() and (lat < 51.5).all()


def test_ansi_mentions_every_player_and_city(states):
    text = render_ansi(states["start_5p"])
    for p in range(5):
        assert f"player_{p}" in text
    for cid in k.tables.CITY_IDS:
        assert cid in text


def test_a_reused_frame_shows_the_state_not_the_last_frame():
    """Issue #19: a frame drawn over the cached board after moves equals one drawn from scratch."""
    assert_reused_frame_is_fresh("french_revolution_1789", pic)
