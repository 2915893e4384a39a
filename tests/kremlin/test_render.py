"""Kremlin rendering: rgb_array frames of the documented size at several states, the privileged view of
the secret sheets, and a readable ansi table (issue #11)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_zoo.envs.kremlin_v0 import render_ansi
from tabletop_zoo.envs.render import kremlin as pic
from tabletop_zoo.kernels import kremlin as k

from ..render._helpers import FRAME, assert_distinct, assert_reused_frame_is_fresh, play


@pytest.fixture(scope="module")
def states() -> dict[str, np.ndarray]:
    return {
        "start_3p": play(k, 3, 0, 0),
        "start_6p": play(k, 6, 1, 0),
        "mid_4p": play(k, 4, 2, 200),
        "kremlin_theme_5p": play(k, 5, 3, 120, theme="kremlin"),
        "over_6p": play(k, 6, 4, None),
    }


def test_frames_have_the_documented_shape_and_are_not_blank(frames, states):
    for name, img in frames.items():
        assert img.shape == FRAME and img.dtype == np.uint8, name
        assert img.std() > 20, f"{name} looks blank"
        n = int(states[name][0]["num_players"])
        for colour in pic.PLAYER_COLOURS[:n]:  # every faction's swatch is drawn
            rgb = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
            assert (np.abs(img.astype(int) - rgb).sum(axis=2) < 20).any(), (name, colour)


def test_the_finished_game_is_finished(states):
    assert k.is_over(states["over_6p"]) and not k.is_over(states["mid_4p"])


def test_frames_differ_between_states(frames):
    assert_distinct(frames)


def test_rgb_is_the_privileged_view_of_the_secret_sheets():
    """The docstring promises the secret influence sheets are drawn: changing one changes the picture."""
    s = k.new_state(4, 0)
    before = pic.render_rgb(s)
    s[0]["assigned"][2, 5] = 7
    after = pic.render_rgb(s)
    cols = np.nonzero((before != after).any(axis=2))[1]
    assert cols.size > 0 and (cols >= pic.TABLE_X).all()  # only the sheet table on the right changes
    assert "privileged" in pic.__doc__.lower() and "secret" in pic.__doc__.lower()


def test_a_controller_tints_its_post():
    """Giving the chairman's gamer to player_1 (red) tints the chairman's box red."""
    s = k.new_state(4, 0)
    g = int(s[0]["holder"][0])
    s[0]["controller"][g] = -1
    before = pic.render_rgb(s).astype(int)
    s[0]["controller"][g] = 1
    after = pic.render_rgb(s).astype(int)
    x, y = pic.POST_XY[0]
    rows, cols = slice(int(FRAME[0] - y - 20), int(FRAME[0] - y + 20)), slice(int(x - 60), int(x + 60))

    def redness(img):  # image rows run downwards, the ladder's y upwards
        box = img[rows, cols]
        return (box[:, :, 0] - box[:, :, 1]).mean()

    assert redness(after) > redness(before) + 30


def test_ansi_mentions_every_player_and_post(states):
    text = render_ansi(states["start_6p"])
    for p in range(6):
        assert f"player_{p}" in text
    for post in k.tables.POST_IDS:
        assert post in text
    assert "pending:" in render_ansi(states["mid_4p"])


def test_a_reused_frame_shows_the_state_not_the_last_frame():
    """Issue #19: a frame drawn over the cached board after moves equals one drawn from scratch."""
    assert_reused_frame_is_fresh("kremlin", pic)
