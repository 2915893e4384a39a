"""The record layout is part of the env version: a silent change would corrupt saved games."""

from tabletop_zoo.kernels import veld_railroads as k
from tabletop_zoo.kernels._common.layout import check_state_layout

# Changing this list means changing saved-game bytes: bump veld_railroads VERSION and the env's _vN.
EXPECTED_V0 = [
    ("rng", "u8", (1,)),
    ("ruleset", "i1", ()),
    ("repeat_metro", "u1", ()),
    ("num_players", "i1", ()),
    ("phase", "i1", ()),
    ("active", "i1", ()),
    ("setup_k", "i1", ()),
    ("row", "i1", ()),
    ("position", "i1", ()),
    ("payouts", "i1", ()),
    ("turn", "i4", ()),
    ("decisions", "i4", ()),
    ("cash", "i4", (6,)),
    ("holdings", "i1", (6, 6)),
    ("treasury_shares", "i1", (6,)),
    ("treasury_cash", "i4", (6,)),
    ("treasury_start", "i4", (6,)),
    ("opened", "u1", (6,)),
    ("reached_jo", "u1", (6,)),
    ("free_pending", "u1", (6,)),
    ("zasm_trigger", "u1", ()),
    ("section_owner", "i1", (59,)),
    ("touch", "u1", (6, 47)),
    ("n_sections", "i1", (6,)),
    ("dev_level", "i1", (47,)),
    ("loco_box", "i1", (6,)),
    ("bld_railroad", "i1", ()),
    ("bld_builder", "i1", ()),
    ("bld_leg1", "i1", ()),
    ("bld_far", "i1", ()),
    ("bld_single_cost", "i2", ()),
    ("bld_double_cost", "i2", ()),
    ("dev_picks", "i1", ()),
    ("dev_picked", "i1", (3,)),
    ("auc_railroad", "i1", ()),
    ("auc_kind", "i1", ()),
    ("auc_seller", "i1", ()),
    ("auc_bidder", "i1", ()),
    ("auc_must_bid", "u1", ()),
    ("auc_min", "i2", ()),
    ("auc_high_bid", "i2", ()),
    ("auc_high_bidder", "i1", ()),
    ("auc_passed", "u1", (6,)),
    ("fs_railroad", "i1", ()),
    ("fs_player", "i1", ()),
    ("bank_in", "i4", ()),
    ("bank_out", "i4", ()),
    ("last_payout", "i4", (6,)),
]


def test_state_layout_is_version_0():
    assert k.VERSION == 0
    check_state_layout(k.STATE, EXPECTED_V0, 620)


def test_observation_pieces_cover_obs_size():
    assert sum(p.size for p in k.OBS_PIECES) == k.OBS_SIZE
    assert len({p.name for p in k.OBS_PIECES}) == len(k.OBS_PIECES)


def test_action_space_is_spec_section_6():
    assert k.NUM_ACTIONS == 630
    assert k.action_name(None, 61) == "SECTION s39 Johannesburg-Krugersdorp"
    assert k.action_name(None, 130) == "BID $1" and k.action_name(None, 629) == "BID $500"
    assert k.action_name(None, 110) == "DEVELOP Johannesburg"
