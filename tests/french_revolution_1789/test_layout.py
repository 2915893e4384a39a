"""The record, action and observation layouts are frozen: a change must bump the env version.

Every number below is typed out from the spec (§6 action table) and the ``actions.py`` docstring, never computed
from the tables the code uses, so a silent layout change fails here.
"""

import pytest

from tabletop_zoo.kernels import french_revolution_1789 as k
from tabletop_zoo.kernels._common.layout import check_state_layout
from tabletop_zoo.kernels.french_revolution_1789 import actions

# Changing this list means changing saved-game bytes: bump french_revolution_1789 VERSION and the env's _vN.
EXPECTED_V0 = [
    ("rng", "u8", (1,)),
    ("person_marks", "i1", ()),
    ("num_players", "i1", ()),
    ("phase", "i1", ()),
    ("turn", "i1", ()),
    ("decisions", "i4", ()),
    ("start_player", "i1", ()),
    ("rp", "i2", (5,)),
    ("vp", "i2", (5,)),
    ("supply", "i1", (5,)),
    ("city_owner", "i1", (12,)),
    ("city_army", "i1", (12,)),
    ("city_str", "i1", (12,)),
    ("cup", "i1", (3, 5)),
    ("regime", "i1", ()),
    ("votes", "i2", (7,)),
    ("deck", "i1", (32,)),
    ("deck_pos", "i1", ()),
    ("card_owner", "i1", (32,)),
    ("card_status", "i1", (32,)),
    ("card_tilted", "u1", (32,)),
    ("intr_loc", "i1", (14,)),
    ("intr_known", "u1", (14,)),
    ("pile", "i1", (14,)),
    ("pile_n", "i1", ()),
    ("auc_card", "i1", ()),
    ("auc_bidder", "i1", ()),
    ("auc_high", "i1", ()),
    ("auc_high_bidder", "i1", ()),
    ("auc_passed", "u1", (5,)),
    ("act_player", "i1", ()),
    ("act_passed", "u1", (5,)),
    ("last_passer", "i1", ()),
    ("mv_eff", "i2", ()),
    ("mv_card", "i1", ()),
    ("mv_intr", "i1", ()),
    ("mv_stage", "i1", ()),
    ("mv_regime", "i1", ()),
    ("mv_city", "i1", ()),
    ("mv_person", "i1", ()),
    ("mv_player", "i1", ()),
    ("mv_army", "i1", ()),
    ("ch_kind", "i1", ()),
    ("ch_army", "i1", ()),
    ("ch_draws", "i1", ()),
    ("ch_dispatch", "i1", ()),
    ("ch_bonus", "i1", ()),
    ("last_draw", "i1", ()),
    ("last_success", "i1", ()),
]

# (first id, last id, name of the first, name of the last) of spec §6
ACTION_BLOCKS = [
    (0, 0, "PASS", "PASS"),
    (1, 61, "BID 0", "BID 60"),
    (62, 93, "SELECT_CARD Louis XVI", "SELECT_CARD Coup of 18 Brumaire"),
    (94, 107, "PLAY_INTRIGUE Bribing the Independent Deputies", "PLAY_INTRIGUE Levee en masse"),
    (108, 120, "REGIME_ACTION vote", "REGIME_ACTION assassin"),
    (121, 121, "USE_ABILITY", "USE_ABILITY"),
    (122, 133, "TARGET_CITY paris", "TARGET_CITY rennes"),
    (134, 165, "TARGET_PERSON Louis XVI", "TARGET_PERSON Coup of 18 Brumaire"),
    (166, 172, "TARGET_REGIME absolute_monarchy", "TARGET_REGIME egalitarianism"),
    (173, 177, "TARGET_PLAYER player_0", "TARGET_PLAYER player_4"),
    (178, 179, "TARGET_ARMY coalition", "TARGET_ARMY royalist"),
]

# (name, offset, shape, per_seat): the observation pieces in order
EXPECTED_OBS_V0 = [
    ("phase_onehot", 0, (6,), False),
    ("turn_onehot", 6, (5,), False),
    ("regime_onehot", 11, (7,), False),
    ("votes", 18, (7,), False),
    ("seat_present", 25, (5,), True),
    ("to_move", 30, (5,), True),
    ("start_player", 35, (5,), True),
    ("rp", 40, (5,), True),
    ("vp", 45, (5,), True),
    ("supply", 50, (5,), True),
    ("hand_size", 55, (5,), True),
    ("support", 60, (5, 12), True),
    ("cards", 120, (5, 32, 4), True),
    ("auction_passed", 760, (5,), True),
    ("auction_high_bidder", 765, (5,), True),
    ("action_passed", 770, (5,), True),
    ("city_army", 775, (12, 3), False),
    ("city_strength", 811, (12,), False),
    ("cups", 823, (3, 5), False),
    ("dead", 838, (32,), False),
    ("in_deck", 870, (32,), False),
    ("auction_card", 902, (32,), False),
    ("auction_high_bid", 934, (1,), False),
    ("auction_opened", 935, (1,), False),
    ("markers_free", 936, (2,), False),
    ("pile_size", 938, (1,), False),
    ("played_intrigue", 939, (14,), False),
    ("my_hand", 953, (14,), False),
    ("move_card", 967, (32,), False),
    ("move_intrigue", 999, (14,), False),
    ("move_effect", 1013, (55,), False),
    ("move_decision", 1068, (5,), False),
    ("move_city", 1073, (12,), False),
    ("last_draw", 1085, (5,), False),
    ("last_success", 1090, (1,), False),
]


def test_state_layout_is_version_0():
    assert k.VERSION == 0
    assert k.state.STATE_ITEMSIZE == 313
    check_state_layout(k.STATE, EXPECTED_V0, 313)


def test_action_space_is_spec_section_6():
    assert k.NUM_ACTIONS == 180
    assert k.NUM_CHANCE_OUTCOMES == 14
    starts = (actions.A_PASS, actions.A_BID, actions.A_SELECT, actions.A_INTRIGUE, actions.A_RA, actions.A_ABILITY)
    starts += (actions.A_CITY, actions.A_PERSON, actions.A_REGIME, actions.A_PLAYER, actions.A_ARMY)
    assert starts == tuple(first for first, *_ in ACTION_BLOCKS)
    for first, last, first_name, last_name in ACTION_BLOCKS:
        assert k.action_name(None, first) == first_name, first
        assert k.action_name(None, last) == last_name, last
    # the blocks tile 0..179 with no gap
    assert [b[0] for b in ACTION_BLOCKS[1:]] == [b[1] + 1 for b in ACTION_BLOCKS[:-1]]
    assert ACTION_BLOCKS[-1][1] == 179
    for outside in (-1, 180):  # refused as in every room, not named
        with pytest.raises(ValueError, match=f"action {outside} is out of range 0..179"):
            k.action_name(None, outside)


def test_observation_layout_is_version_0():
    assert k.OBS_SIZE == 1091
    got = [(p.name, p.offset, p.shape, p.per_seat) for p in k.OBS_PIECES]
    assert got == EXPECTED_OBS_V0
    assert EXPECTED_OBS_V0[-1][1] + 1 == 1091  # the last piece, last_success (1,), ends the vector
