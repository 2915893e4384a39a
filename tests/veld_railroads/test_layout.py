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

# (name, offset, shape, per_seat): the observation pieces in order
EXPECTED_OBS_V0 = [
    ("phase_onehot", 0, (11,), False),
    ("seat_present", 11, (6,), True),
    ("to_move", 17, (6,), True),
    ("active", 23, (6,), True),
    ("cash", 29, (6,), True),
    ("holdings", 35, (6, 6), True),
    ("controls", 71, (6, 6), True),
    ("loco_box", 107, (6, 4), True),
    ("last_payout", 131, (6,), True),
    ("treasury_shares", 137, (6,), False),
    ("treasury_cash", 143, (6,), False),
    ("opened", 149, (6,), False),
    ("reached_johannesburg", 155, (6,), False),
    ("free_section_owed", 161, (6,), False),
    ("sections_built", 167, (6,), False),
    ("income", 173, (6,), False),
    ("valuation", 179, (6,), False),
    ("section_owner", 185, (6, 59), False),
    ("settlement_level", 539, (47,), False),
    ("settlement_income", 586, (47,), False),
    ("settlement_tracked", 633, (47,), False),
    ("row", 680, (8,), False),
    ("position", 688, (1,), False),
    ("zasm_trigger", 689, (1,), False),
    ("build_railroad", 690, (6,), False),
    ("build_builder", 696, (6,), True),
    ("build_first_leg", 702, (59,), False),
    ("build_costs", 761, (2,), False),
    ("develop_picked", 763, (47,), False),
    ("develop_counts", 810, (2,), False),
    ("free_section_railroad", 812, (6,), False),
    ("free_section_player", 818, (6,), True),
    ("auction_railroad", 824, (6,), False),
    ("auction_kind", 830, (4,), False),
    ("auction_seller", 834, (6,), True),
    ("auction_bidder", 840, (6,), True),
    ("auction_high_bidder", 846, (6,), True),
    ("auction_passed", 852, (6,), True),
    ("auction_bids", 858, (3,), False),
    ("repeat_metropolis_pick", 861, (1,), False),
]


def test_state_layout_is_version_0():
    assert k.VERSION == 0
    check_state_layout(k.STATE, EXPECTED_V0, 620)


def test_observation_layout_is_version_0():
    assert k.OBS_SIZE == 862
    assert [(p.name, p.offset, p.shape, p.per_seat) for p in k.OBS_PIECES] == EXPECTED_OBS_V0


def test_action_space_is_spec_section_6():
    assert k.NUM_ACTIONS == 630
    assert k.action_name(None, 61) == "SECTION s39 Johannesburg-Krugersdorp"
    assert k.action_name(None, 130) == "BID $1" and k.action_name(None, 629) == "BID $500"
    assert k.action_name(None, 110) == "DEVELOP Johannesburg"
