"""The record layout and the observation layout are frozen (a change must bump the env version)."""

from tabletop_zoo.kernels import kremlin as k
from tabletop_zoo.kernels._common.layout import check_state_layout
from tabletop_zoo.kernels.kremlin.state import STATE_FIELDS, STATE_ITEMSIZE


def test_state_layout():
    assert STATE_ITEMSIZE == 1441
    check_state_layout(k.STATE, STATE_FIELDS, STATE_ITEMSIZE)


def test_observation_size_and_pieces():
    assert k.OBS_SIZE == 1706 and k.NUM_ACTIONS == 304 and k.NUM_CHANCE_OUTCOMES == 20
    names = [p.name for p in k.OBS_PIECES]
    assert "my_assigned" in names and "all_assigned" in names
    per_seat = {p.name for p in k.OBS_PIECES if p.per_seat}
    assert "all_assigned" not in per_seat and "my_assigned" not in per_seat  # secrets are never seat pieces
    assert {"declared", "burned", "controls", "speeches"} <= per_seat


def test_max_game_length_derivation():
    n, decl, turns = 6, 55 * 6, k.MAX_TURN_LIMIT
    assert k.MAX_GAME_LENGTH == 10 * n + (n + 1) * decl + turns * (24 * n + 144 + n)
