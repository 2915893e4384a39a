"""The record layout and the observation layout are frozen (a change must bump the env version)."""

from tabletop_zoo.kernels import kremlin as k
from tabletop_zoo.kernels._common.layout import check_state_layout

# Changing this list means changing saved-game bytes: bump kremlin VERSION and the env's _vN.
EXPECTED_V0 = [
    ("rng", "u8", (1,)),
    ("ruleset", "i1", ()),
    ("theme", "i1", ()),
    ("traits", "i1", ()),
    ("random_placement", "i1", ()),
    ("ranking", "i1", ()),
    ("num_players", "i1", ()),
    ("phase", "i1", ()),
    ("turn", "i2", ()),
    ("turn_limit", "i2", ()),
    ("start_player", "i1", ()),
    ("decisions", "i4", ()),
    ("loc", "i1", (26,)),
    ("holder", "i1", (13,)),
    ("sp", "i2", (26,)),
    ("broke", "i1", (26,)),
    ("susp_turn", "i2", (26,)),
    ("part_time", "u1", (26,)),
    ("flag", "u1", (26,)),
    ("opposer", "u1", (26,)),
    ("midway_done", "u1", (26,)),
    ("assigned", "i1", (6, 26)),
    ("declared", "i1", (6, 26)),
    ("burned", "i1", (6, 26)),
    ("stamp", "i4", (6, 26)),
    ("counter", "i4", ()),
    ("controller", "i1", (26,)),
    ("speeches", "i1", (6,)),
    ("winner", "i1", ()),
    ("assign_seat", "i1", ()),
    ("assign_count", "i1", ()),
    ("dw_seat", "i1", ()),
    ("dw_passes", "i1", ()),
    ("dw_cont", "i1", ()),
    ("seat_cursor", "i1", ()),
    ("seats_done", "i1", ()),
    ("actor", "i1", ()),
    ("target", "i1", ()),
    ("post_cursor", "i1", ()),
    ("oppose_count", "i1", ()),
    ("nominations", "i1", ()),
    ("rumour_mode", "i1", ()),
    ("chance_kind", "i1", ()),
    ("last_roll", "i1", ()),
]

# (name, offset, shape, per_seat): the observation pieces in order
EXPECTED_OBS_V0 = [
    ("phase_onehot", 0, (18,), False),
    ("window_cont_onehot", 18, (12,), False),
    ("seat_present", 30, (6,), True),
    ("to_move_onehot", 36, (6,), True),
    ("start_player_onehot", 42, (6,), True),
    ("speeches", 48, (6,), True),
    ("declared", 54, (6, 26), True),
    ("burned", 210, (6, 26), True),
    ("controls", 366, (6, 26), True),
    ("values_assigned", 522, (6,), True),
    ("gamer_location", 528, (26, 16), False),
    ("experience", 944, (26,), False),
    ("sp", 970, (26,), False),
    ("age_room", 996, (26,), False),
    ("broke", 1022, (26,), False),
    ("suspicion", 1048, (26,), False),
    ("trial_eligible", 1074, (26,), False),
    ("part_time", 1100, (26,), False),
    ("phase_flag", 1126, (26,), False),
    ("opposer", 1152, (26,), False),
    ("uncontrolled", 1178, (26,), False),
    ("traits", 1204, (26, 9), False),
    ("actor", 1438, (26,), False),
    ("target", 1464, (26,), False),
    ("my_assigned", 1490, (26,), False),
    ("my_remaining", 1516, (26,), False),
    ("all_assigned", 1542, (6, 26), False),
    ("context", 1698, (8,), False),
]


def test_state_layout_is_version_0():
    assert k.VERSION == 0
    check_state_layout(k.STATE, EXPECTED_V0, 1441)


def test_observation_layout_is_version_0():
    assert k.OBS_SIZE == 1706 and k.NUM_ACTIONS == 304 and k.NUM_CHANCE_OUTCOMES == 20
    assert [(p.name, p.offset, p.shape, p.per_seat) for p in k.OBS_PIECES] == EXPECTED_OBS_V0


def test_secrets_are_never_seat_pieces():
    """KRM-INF-1's secret rows (spec §7) are the observer's own piece and the full view's, never per seat."""
    per_seat = {p.name for p in k.OBS_PIECES if p.per_seat}
    assert "all_assigned" not in per_seat and "my_assigned" not in per_seat
    assert {"declared", "burned", "controls", "speeches"} <= per_seat
