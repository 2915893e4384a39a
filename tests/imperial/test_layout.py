"""The record, action and observation layouts are frozen: a change must bump the env version.

Every number below is typed out from the spec (§6 action table) and the ``actions.py`` docstring, never computed
from the tables the code uses, so a silent layout change fails here.
"""

from tabletop_zoo.kernels import imperial as k
from tabletop_zoo.kernels._common.layout import check_state_layout
from tabletop_zoo.kernels.imperial import actions

# Changing this list means changing saved-game bytes: bump imperial VERSION and the env's _vN.
EXPECTED_V0 = [
    ("rng", "u8", (1,)),
    ("ruleset", "i1", ()),
    ("home_tax_chips", "i1", ()),
    ("chips_per_nation", "i1", ()),
    ("factory_topup", "i1", ()),
    ("optional_destroy", "i1", ()),
    ("chip_update_all", "i1", ()),
    ("hidden_cash", "i1", ()),
    ("max_turns", "i4", ()),
    ("reward_mode", "i1", ()),
    ("num_players", "i1", ()),
    ("phase", "i1", ()),
    ("nation", "i1", ()),
    ("turn", "i4", ()),
    ("decisions", "i4", ()),
    ("truncated", "i1", ()),
    ("cash", "i4", (6,)),
    ("bond_owner", "i1", (6, 9)),
    ("flag", "i1", (6,)),
    ("investor_card", "i1", ()),
    ("treasury", "i4", (6,)),
    ("power", "i1", (6,)),
    ("tax_pos", "i1", (6,)),
    ("rondel_pos", "i1", (6,)),
    ("factory", "u1", (30,)),
    ("armies", "i1", (6, 54)),
    ("fleets", "i1", (6, 54)),
    ("hostile", "u1", (6, 30)),
    ("chip", "i1", (54,)),
    ("chips_left", "i1", (6,)),
    ("bank_in", "i4", ()),
    ("bank_out", "i4", ()),
    ("passed_investor", "i1", ()),
    ("imp_count", "i1", ()),
    ("moved_army", "i1", (54,)),
    ("moved_fleet", "i1", (54,)),
    ("carried", "i1", (9,)),
    ("fleets_locked", "i1", ()),
    ("mv_origin", "i1", ()),
    ("mv_dest", "i1", ()),
    ("mv_chain", "u8", ()),
    ("mv_last", "i1", ()),
    ("mv_region", "i1", ()),
    ("cmb_asked", "u1", ()),
    ("cmb_defender", "i1", ()),
    ("inv_buyer", "i1", ()),
    ("inv_next", "i1", ()),
]

# (family, first id, last id) of spec §6: 0-7 RONDEL, 8 PASS, 9-38 BUILD_FACTORY, ..., 261-800 BUY
ACTION_BLOCKS = [
    ("RONDEL", 0, 7),
    ("PASS", 8, 8),
    ("BUILD_FACTORY", 9, 38),
    ("IMPORT_ARMY", 39, 68),
    ("IMPORT_FLEET", 69, 98),
    ("SELECT_ORIGIN", 99, 152),
    ("SELECT_DEST", 153, 206),
    ("SELECT_SEA", 207, 215),
    ("TOGGLE_STANCE", 216, 245),
    ("HOSTILE", 246, 246),
    ("FRIENDLY", 247, 247),
    ("FIGHT", 248, 253),
    ("ASK", 254, 259),
    ("DESTROY_FACTORY", 260, 260),
    ("BUY", 261, 800),
]

# (name, offset, shape, per_seat): the observation pieces in order
EXPECTED_OBS_V0 = [
    ("phase_onehot", 0, (13,), False),
    ("nation_onehot", 13, (6,), False),
    ("to_move", 19, (6,), True),
    ("seat_present", 25, (6,), True),
    ("cash", 31, (6,), True),
    ("bonds", 37, (6, 6, 9), True),
    ("flags", 361, (6, 6), True),
    ("investor_card", 397, (6,), True),
    ("buyer", 403, (6,), True),
    ("flag_in_bank", 409, (6,), False),
    ("bond_available", 415, (6, 9), False),
    ("treasury", 469, (6,), False),
    ("power", 475, (6,), False),
    ("tax_pos", 481, (6,), False),
    ("tax_now", 487, (6,), False),
    ("rondel", 493, (6, 9), False),
    ("factory", 547, (30,), False),
    ("blocked", 577, (30,), False),
    ("armies", 607, (6, 54), False),
    ("fleets", 931, (6, 54), False),
    ("hostile", 1255, (6, 30), False),
    ("chip", 1435, (6, 54), False),
    ("chips_left", 1759, (6,), False),
    ("supply", 1765, (6, 2), False),
    ("moved", 1777, (2, 54), False),
    ("carried", 1885, (9,), False),
    ("fleets_locked", 1894, (1,), False),
    ("mv_origin", 1895, (54,), False),
    ("mv_dest", 1949, (54,), False),
    ("mv_chain", 2003, (9,), False),
    ("mv_region", 2012, (54,), False),
    ("cmb_asked", 2066, (6,), False),
    ("cmb_defender", 2072, (6,), False),
    ("imp_count", 2078, (1,), False),
    ("passed_investor", 2079, (1,), False),
    ("options", 2080, (5,), False),
    ("turn", 2085, (1,), False),
]


def test_state_layout_is_version_0():
    assert k.VERSION == 0
    assert k.state.STATE_ITEMSIZE == 1221
    check_state_layout(k.STATE, EXPECTED_V0, 1221)


def test_action_space_is_spec_section_6():
    assert k.NUM_ACTIONS == 801
    assert k.NUM_CHANCE_OUTCOMES == 0
    for family, first, last in ACTION_BLOCKS:
        assert actions.action_family(first) == (family, 0), (family, first)
        assert actions.action_family(last) == (family, last - first), (family, last)
    # the blocks tile 0..800 with no gap: each block starts one past the previous block's last id
    assert [first for _, first, _ in ACTION_BLOCKS[1:]] == [last + 1 for _, _, last in ACTION_BLOCKS[:-1]]
    assert ACTION_BLOCKS[-1][2] == 800


def test_action_ids_name_their_arguments():
    assert k.action_name(None, 0) == "RONDEL factory" and k.action_name(None, 7) == "RONDEL taxation"
    assert k.action_name(None, 9) == "BUILD_FACTORY vienna" and k.action_name(None, 38) == "BUILD_FACTORY st_petersburg"
    assert k.action_name(None, 152) == "SELECT_ORIGIN black_sea" and k.action_name(None, 153) == "SELECT_DEST vienna"
    assert (
        k.action_name(None, 207) == "SELECT_SEA north_atlantic" and k.action_name(None, 215) == "SELECT_SEA black_sea"
    )
    assert k.action_name(None, 248) == "FIGHT AH" and k.action_name(None, 259) == "ASK RU"
    # BUY id = 261 + 90 n + 10 (k - 1) + t (spec §6): Russia (n = 5) bond 3 (k = 3) returning bond 2 (t = 2)
    assert k.buy_id(5, 3, 2) == 261 + 450 + 20 + 2 == 733
    assert k.action_name(None, 261) == "BUY AH bond 1 for 2m"
    assert k.action_name(None, 733) == "BUY RU bond 3 returning bond 2 for 2m"  # 6m - 4m


def test_observation_layout_is_version_0():
    assert k.OBS_SIZE == 2086
    got = [(p.name, p.offset, p.shape, p.per_seat) for p in k.OBS_PIECES]
    assert got == EXPECTED_OBS_V0
    assert EXPECTED_OBS_V0[-1][1] + 1 == 2086  # the last piece, turn (1,), ends the vector
