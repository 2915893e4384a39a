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


def test_state_layout_is_version_0():
    assert k.VERSION == 0
    check_state_layout(k.STATE, EXPECTED_V0, k.state.STATE_ITEMSIZE)


def test_observation_pieces_cover_obs_size():
    assert sum(p.size for p in k.OBS_PIECES) == k.OBS_SIZE == 1225
    assert len({p.name for p in k.OBS_PIECES}) == len(k.OBS_PIECES)
