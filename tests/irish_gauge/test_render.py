"""Irish Gauge rendering: rgb_array frames of the documented size at several states, the hex layout as
data, and a readable ansi table (issue #11)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_zoo.envs.irish_gauge_v0 import render_ansi
from tabletop_zoo.envs.render import irish_gauge as pic
from tabletop_zoo.kernels import irish_gauge as k

from ..render._helpers import FRAME, assert_distinct, assert_reused_frame_is_fresh, play


@pytest.fixture(scope="module")
def states() -> dict[str, np.ndarray]:
    return {
        "start_3p": play(k, 3, 0, 0),
        "start_5p": play(k, 5, 1, 0),
        "mid_4p": play(k, 4, 2, 60),
        "over_5p": play(k, 5, 3, None),
    }


def test_frames_have_the_documented_shape_and_are_not_blank(frames):
    for name, img in frames.items():
        assert img.shape == FRAME and img.dtype == np.uint8, name
        assert img.std() > 20, f"{name} looks blank"
        # every company's colour is on the picture (map locomotives and the company legend)
        for colour in pic.COMPANY_COLOURS:
            rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
            assert (np.abs(img.astype(int) - rgb).sum(axis=2) < 20).any(), (name, colour)


def test_the_finished_game_is_finished(states):
    assert k.is_over(states["over_5p"]) and not k.is_over(states["mid_4p"])


def test_frames_differ_between_states(frames):
    assert_distinct(frames)


def test_a_locomotive_is_drawn_on_its_hex():
    """Placing a WLW locomotive on F5 changes the map only around F5."""
    s = k.new_state(4, 0)
    before = pic.render_rgb(s)
    hx = k.tables.HEX_INDEX["F5"]
    s[0]["loco"][1, hx] = 1
    after = pic.render_rgb(s)
    x, y = pic.map_px(pic.HEX_XY[hx] + pic.LOCO_OFFSET[1])  # frame pixels, y down
    rows, cols = np.nonzero((before != after).any(axis=2))
    near = (np.abs(cols - x) < 12) & (np.abs(rows - y) < 12)
    assert near.sum() > 20
    assert (cols[~near] > FRAME[1] * 0.41).all()  # elsewhere only the side tables change (locomotive count)


def test_layout_has_a_position_for_every_hex():
    assert set(pic.LAYOUT["hexes"]) == set(k.tables.HEX_IDS)
    assert pic.LAYOUT["source"] and np.isfinite(pic.HEX_XY).all()
    # neighbouring hexes sit one hex width apart, so the layout really is the board's grid
    for h, nbs in zip(range(k.tables.N_HEX), k.tables.NEIGHBORS):
        for nb in nbs[nbs >= 0]:
            assert np.isclose(np.hypot(*(pic.HEX_XY[h] - pic.HEX_XY[nb])), np.sqrt(3), atol=1e-2)


def test_ansi_mentions_every_player_and_company(states):
    text = render_ansi(states["mid_4p"])
    for p in range(4):
        assert f"player_{p}" in text
    for cid in k.tables.COMPANY_IDS:
        assert cid in text
    assert "last dividends" in render_ansi(states["over_5p"])


def test_a_reused_frame_shows_the_state_not_the_last_frame():
    """Issue #19: a frame drawn over the cached board after moves equals one drawn from scratch."""
    assert_reused_frame_is_fresh("irish_gauge", pic)
