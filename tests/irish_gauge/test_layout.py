"""The record layout is part of the env version: a silent change would corrupt saved games."""

from tabletop_zoo.kernels import irish_gauge as k
from tabletop_zoo.kernels._common.layout import check_state_layout

# Changing this list means changing saved-game bytes: bump irish_gauge VERSION and the env's _vN.
EXPECTED_V0 = [
    ("rng", "u8", (1,)),
    ("ruleset", "i1", ()),
    ("major_city_bonus", "i2", ()),
    ("num_players", "i1", ()),
    ("phase", "i1", ()),
    ("active", "i1", ()),
    ("start_player", "i1", ()),
    ("turn", "i4", ()),
    ("decisions", "i4", ()),
    ("cash", "i4", (5,)),
    ("held", "i1", (5, 5)),
    ("cert_owner", "i1", (5, 4)),
    ("next_cert", "i1", (5,)),
    ("supply", "i1", (5,)),
    ("loco", "u1", (5, 139)),
    ("cube", "i1", (139,)),
    ("bag", "i1", (3,)),
    ("drawn", "i1", (8, 3)),
    ("drawn_rows", "i1", ()),
    ("last_draw", "i1", (3,)),
    ("last_income", "i4", (5,)),
    ("last_payout", "i4", (5,)),
    ("bank_in", "i4", ()),
    ("bank_out", "i4", ()),
    ("auc_company", "i1", ()),
    ("auc_opener", "i1", ()),
    ("auc_bidder", "i1", ()),
    ("auc_high_bid", "i2", ()),
    ("auc_high_bidder", "i1", ()),
    ("auc_passed", "u1", (5,)),
    ("bld_company", "i1", ()),
    ("bld_budget", "i1", ()),
    ("bld_placed", "i1", ()),
]

# (name, offset, shape, per_seat): the observation pieces in order
EXPECTED_OBS_V0 = [
    ("phase_onehot", 0, (6,), False),
    ("seat_present", 6, (5,), True),
    ("to_move_onehot", 11, (5,), True),
    ("active_onehot", 16, (5,), True),
    ("cash_by_seat", 21, (5,), True),
    ("held_by_seat", 26, (5, 5), True),
    ("certs_left", 51, (5,), False),
    ("top_cert_value", 56, (5,), False),
    ("shares_sold", 61, (5,), False),
    ("supply", 66, (5,), False),
    ("loco", 71, (5, 139), False),
    ("cube_colour", 766, (3, 139), False),
    ("bag", 1183, (3,), False),
    ("potential_income", 1186, (5,), False),
    ("last_draw", 1191, (3,), False),
    ("last_income", 1194, (5,), False),
    ("auction_company", 1199, (5,), False),
    ("auction_high_bid", 1204, (1,), False),
    ("auction_min_bid", 1205, (1,), False),
    ("auction_high_bidder", 1206, (5,), True),
    ("auction_passed", 1211, (5,), True),
    ("build_company", 1216, (5,), False),
    ("build_budget", 1221, (1,), False),
    ("build_placed", 1222, (1,), False),
    ("ruleset_published", 1223, (1,), False),
    ("major_city_bonus", 1224, (1,), False),
]


def test_state_layout_is_version_0():
    assert k.VERSION == 0
    check_state_layout(k.STATE, EXPECTED_V0, 1025)


def test_observation_layout_is_version_0():
    assert k.OBS_SIZE == 1225
    assert [(p.name, p.offset, p.shape, p.per_seat) for p in k.OBS_PIECES] == EXPECTED_OBS_V0
