"""Every worked example of the spec (§9), with its rule IDs; numbers come from the spec text."""

from __future__ import annotations

import numpy as np

from tabletop_zoo.kernels.veld_railroads.income import controllers

from ._helpers import (
    BID,
    BOX_BUILD,
    BOX_DEVELOP,
    BOX_OFFER,
    BOX_PAY,
    BUILD_RAILROAD,
    CFM,
    CMR,
    CSAR,
    CTRD,
    DONE,
    JOBURG,
    NATAL,
    OFFER_TREASURY,
    PASS,
    ST,
    ZASM,
    blank_main,
    cash,
    give_sections,
    give_shares,
    income,
    k,
    legal_ids,
    legal_sections,
    mask_of,
    play,
    sec,
    settle,
)


def csar_example(num_players=4, row=2, position=0, active=2):
    """§9.1 position: CSAR owns s29, s30, s27; P0 holds 2 CSAR shares, P1 holds 1."""
    s = blank_main(num_players, row=row, position=position, active=active)
    give_sections(s, CSAR, [29, 30, 27])
    give_shares(s, 0, CSAR, 2)
    give_shares(s, 1, CSAR, 1)
    return s


def test_ex_9_1_income_and_normal_payout_VR_GEN_6_VR_DIV_2():
    """VR-GEN-6, VR-DIV-2."""
    s = csar_example()
    assert income(s)[CSAR] == 12
    before = cash(s)
    play(s, BOX_PAY, seat=2)  # VR-TRACK-2: pay dividends ends row 2
    assert [c - b for c, b in zip(cash(s), before)] == [6, 3, 0, 0]
    assert s[0]["treasury_cash"][CSAR] == 20  # VR-DIV-1: the treasury does not change


def test_ex_9_2_reconstruction_payout_VR_DIV_3():
    """VR-DIV-3."""
    s = csar_example(row=5)
    before = cash(s)
    play(s, BOX_PAY, seat=2)
    assert [c - b for c, b in zip(cash(s), before)] == [2, 1, 0, 0]


def test_ex_9_2_final_payout_three_shares_sold_VR_DIV_4():
    """VR-DIV-4."""
    s = csar_example(row=8)
    before = cash(s)
    play(s, BOX_PAY, seat=2)
    assert [c - b for c, b in zip(cash(s), before)] == [18, 9, 0, 0]  # 9 per share, no normal dividend
    assert k.is_over(s) and k.to_move(s) == -2
    assert not s[0]["treasury_cash"].any()  # VR-END-1: treasuries go back to the bank


def test_ex_9_2_final_payout_two_shares_sold_VR_DIV_4():
    """VR-DIV-4."""
    s = blank_main(4, row=8, active=2)
    give_sections(s, CSAR, [29, 30, 27])
    give_shares(s, 0, CSAR, 2)
    before = cash(s)
    play(s, BOX_PAY, seat=2)
    assert [c - b for c, b in zip(cash(s), before)] == [28, 0, 0, 0]  # ceil(27 / 2) = 14 per share


def test_ex_9_3_develop_paid_second_step_VR_DEV_3():
    s = csar_example(row=2, active=1)
    play(s, BOX_DEVELOP, seat=1)
    assert s[0]["position"] == 5
    play(s, settle("bloemfontein"), seat=1)
    legal = legal_ids(s)
    assert 107 in legal and DONE in legal  # Kroonstad, DONE
    assert 103 not in legal  # VR-DEV-5: Bloemfontein already picked in this action
    assert 110 not in legal  # §6: a paid Johannesburg pick is dominated by DONE
    paid = s.copy()
    play(paid, settle("kroonstad"), seat=1)
    assert cash(paid)[1] == 50 - 3
    assert paid[0]["dev_level"][JOBURG] == 0  # no automatic Johannesburg step
    assert income(paid)[CSAR] == 15
    assert k.to_move(paid) == 2  # the paid pick ends the action
    play(s, DONE, seat=1)
    assert cash(s)[1] == 50
    assert s[0]["dev_level"][JOBURG] == 1  # VR-DEV-3: Johannesburg 2 -> 3
    assert income(s)[CSAR] == 14


def test_ex_9_4a_develop_then_row_end_VR_TRACK_3():
    """VR-TRACK-3."""
    s = csar_example(row=2, position=31, active=2)
    before = cash(s)
    play(s, BOX_DEVELOP, seat=2)
    play(s, settle("johannesburg"), seat=2)  # the development is resolved first
    assert s[0]["row"] == 2 and s[0]["phase"] == ST.PH_DEVELOP_PICK
    play(s, DONE, seat=2)
    assert [c - b for c, b in zip(cash(s), before)] == [6, 3, 0, 0]  # normal payout of row 2
    assert s[0]["row"] == 3 and s[0]["position"] == 0
    assert k.to_move(s) == 3  # VR-TRACK-4


def test_ex_9_4b_offer_auction_then_row_end_overflow_lost_VR_TRACK_3():
    """VR-TRACK-3."""
    s = csar_example(row=2, position=34, active=2)
    play(s, BOX_OFFER, seat=2)
    assert s[0]["position"] == 38
    play(s, OFFER_TREASURY + CSAR, seat=2)
    assert PASS not in legal_ids(s)  # VR-AUC-2: the opener bids
    play(s, BID(3), seat=2)  # minimum = 3 sections
    play(s, PASS, seat=3)
    play(s, PASS, seat=0)
    assert s[0]["row"] == 2
    play(s, PASS, seat=1)
    assert s[0]["treasury_cash"][CSAR] == 23
    assert cash(s) == [50 + 6, 50 + 3, 50 - 3 + 3, 50]  # the new share already pays at the row end
    assert s[0]["row"] == 3 and s[0]["position"] == 0  # the 2 extra boxes are lost
    assert k.to_move(s) == 3


def test_ex_9_4c_pay_dividends_and_must_move_VR_LOCO_3():
    s = blank_main(5, row=6, position=10, active=4)
    play(s, BOX_PAY, seat=4)
    assert s[0]["row"] == 7 and s[0]["position"] == 0 and s[0]["payouts"] == 6
    s[0]["active"] = 4
    assert mask_of(s)[BOX_PAY] == 0  # VR-LOCO-3
    assert mask_of(s)[BOX_BUILD] == 1


def zasm_example(row=2, treasury=30):
    """§9.5: ZASM open, owns only s40 Johannesburg-Springs, treasury $30; P0 controls it."""
    s = blank_main(4, row=row, active=0)
    give_sections(s, ZASM, [40])
    give_shares(s, 0, ZASM, 1)
    s[0]["treasury_cash"][ZASM] = treasury
    return s


def test_ex_9_5a_unconnected_zasm_double_costs_30_VR_BUILD_3_VR_ZASM_4():
    """VR-BUILD-3, VR-ZASM-4."""
    s = zasm_example()
    play(s, BOX_BUILD, seat=0)
    assert legal_ids(s) == {BUILD_RAILROAD + ZASM}
    play(s, BUILD_RAILROAD + ZASM, seat=0)
    play(s, sec(48), seat=0)  # Springs -> Middelburg
    assert s[0]["phase"] == ST.PH_BUILD_SECOND_LEG
    play(s, sec(53), seat=0)  # Middelburg -> Waterval Boven
    assert s[0]["treasury_cash"][ZASM] == 0


def test_ex_9_5b_unconnected_zasm_single_costs_10():
    s = zasm_example()
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + ZASM, seat=0)
    play(s, sec(47), seat=0)  # Springs - Heidelberg
    play(s, DONE, seat=0)
    assert s[0]["treasury_cash"][ZASM] == 20


def test_ex_9_5c_tracked_middelburg_blocks_double_then_connected_prices():
    s = zasm_example()
    give_sections(s, CFM, [53])
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + ZASM, seat=0)
    play(s, sec(48), seat=0)  # Middelburg is tracked: no double, single paid at once
    assert s[0]["treasury_cash"][ZASM] == 20  # still $10: unconnected before the build
    assert s[0]["phase"] == ST.PH_CHOOSE_BOX
    s[0]["active"] = 0
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + ZASM, seat=0)
    assert (s[0]["bld_single_cost"], s[0]["bld_double_cost"]) == (5, 15)
    play(s, sec(47), seat=0)  # Springs - Heidelberg, then Heidelberg - Volksrust as a double
    play(s, sec(49), seat=0)
    assert s[0]["treasury_cash"][ZASM] == 20 - 15


def test_ex_9_5d_no_double_out_of_johannesburg_VR_DBL_2():
    """VR-DBL-2."""
    s = zasm_example()
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + ZASM, seat=0)
    assert 61 - 22 in legal_sections(s)
    play(s, 61, seat=0)  # s39 Johannesburg - Krugersdorp
    assert s[0]["phase"] == ST.PH_CHOOSE_BOX  # BUILD_SECOND_LEG was not entered
    assert s[0]["treasury_cash"][ZASM] == 20


def test_ex_9_6_boer_war_VR_BOER_1_2_3():
    """VR-BOER-1, VR-BOER-2, VR-BOER-3, VR-DBL-3, VR-DEV-4, VR-TRACK-5: row 4 is the Boer War: a $7 single and
    no double; two free developments, a third for $3."""
    s = blank_main(4, row=4, active=1)
    give_sections(s, CMR, [9, 12])  # Port Elizabeth - Graaff-Reinet - Naauwpoort
    give_shares(s, 1, CMR, 1)
    play(s, BOX_BUILD, seat=1)
    play(s, BUILD_RAILROAD + CMR, seat=1)
    play(s, sec(17), seat=1)  # Naauwpoort - Springfontein, $7, no double possible
    assert s[0]["treasury_cash"][CMR] == 13
    assert s[0]["phase"] == ST.PH_CHOOSE_BOX and k.to_move(s) == 2
    # ZASM ($40, controlled by P2) may not build: P2 falls back to Cape Midland, built by P1.
    give_sections(s, ZASM, [40])
    give_shares(s, 2, ZASM, 1)
    s[0]["treasury_cash"][ZASM] = 40
    play(s, BOX_BUILD, seat=2)
    assert legal_ids(s) == {BUILD_RAILROAD + CMR}
    play(s, BUILD_RAILROAD + CMR, seat=2)
    assert k.to_move(s) == 1
    # Develop in the Boer War: two free picks, then a paid third.
    t = blank_main(4, row=4, active=0)
    give_sections(t, CMR, [9, 12])
    play(t, BOX_DEVELOP, seat=0)
    play(t, settle("port_elizabeth"), seat=0)
    play(t, settle("graaff_reinet"), seat=0)
    assert cash(t)[0] == 50
    play(t, settle("naauwpoort"), seat=0)
    assert cash(t)[0] == 47 and t[0]["dev_level"][JOBURG] == 0 and k.to_move(t) == 1


def test_ex_9_7_special_dividend_and_zasm_opening_VR_DIV_5_VR_ZASM_1_2_3():
    """VR-DIV-5, VR-ZASM-1, VR-ZASM-2, VR-ZASM-3, VR-BUILD-1, VR-BUILD-5, VR-ZASM-5, VR-DIV-1, VR-GEN-1, VR-GEN-3,
    VR-GEN-7, VR-SHARE-1:
    CSAR pays $5 from its treasury for one section into Johannesburg, which triggers the special dividend at once
    ($4 a share held by players, the treasury gets none) and opens ZASM; ZASM's auction proceeds go to its
    treasury; s42 stays CSAR's; ZASM's own first section into Johannesburg pays no special dividend."""
    s = blank_main(3, row=3, active=0)
    s[0]["dev_level"][JOBURG] = 1
    s[0]["treasury_cash"][ZASM] = 8
    give_sections(s, CSAR, [29, 30, 34])
    give_shares(s, 0, CSAR, 2)
    give_shares(s, 1, CSAR, 1)
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + CSAR, seat=0)
    play(s, sec(42), seat=0)  # Vereeniging - Johannesburg
    assert income(s)[CSAR] == 16
    assert cash(s) == [58, 54, 50]  # 4 per share
    assert s[0]["treasury_cash"][CSAR] == 15
    assert s[0]["phase"] == ST.PH_ZASM_AUCTION_BID and s[0]["opened"][ZASM] == 1
    assert PASS not in legal_ids(s) and BID(1) in legal_ids(s)  # VR-AUC-2, VR-SHARE-3 minimum $1
    play(s, BID(6), seat=0)
    play(s, BID(8), seat=1)
    play(s, PASS, seat=2)
    play(s, PASS, seat=0)
    assert s[0]["treasury_cash"][ZASM] == 16 and cash(s)[1] == 54 - 8
    assert s[0]["holdings"][1, ZASM] == 1
    assert k.to_move(s) == 1 and s[0]["phase"] == ST.PH_FIRST_SECTION
    assert legal_sections(s) == {38, 39, 40, 41, 43}  # s42 is CSAR's
    play(s, sec(38), seat=1)
    assert cash(s) == [58, 46, 50]  # no special dividend for ZASM
    assert s[0]["phase"] == ST.PH_CHOOSE_BOX and k.to_move(s) == 1 and s[0]["row"] == 3
    # ZASM shares Johannesburg with CSAR: normal prices.
    s[0]["active"] = 1
    play(s, BOX_BUILD, seat=1)
    play(s, BUILD_RAILROAD + ZASM, seat=1)
    assert s[0]["bld_single_cost"] == 5


def test_ex_9_8_initial_auction_setup():
    s = k.new_state(4, 5)
    dice = int(s[0]["treasury_cash"][CFM])
    assert s[0]["phase"] == ST.PH_SETUP_AUCTION and s[0]["auc_railroad"] == CFM
    assert PASS not in legal_ids(s) and BID(1) in legal_ids(s)
    play(s, BID(3), seat=0)
    play(s, BID(5), seat=1)
    play(s, PASS, seat=2)
    play(s, PASS, seat=3)
    play(s, BID(7), seat=0)
    play(s, PASS, seat=1)
    assert s[0]["treasury_cash"][CFM] == dice + 7 and cash(s)[0] == 75 - 7
    assert legal_sections(s) == {56, 58} and k.to_move(s) == 0
    play(s, sec(56), seat=0)
    assert income(s)[CFM] == 3
    for j, rr in enumerate([CSAR, NATAL, CTRD, CMR], start=1):
        assert s[0]["auc_railroad"] == rr and k.to_move(s) == j % 4
        play(s, BID(1), seat=j % 4)
        for q in range(1, 4):
            play(s, PASS, seat=(j + q) % 4)
        assert k.to_move(s) == j % 4  # the winner picks the free section
        play(s, int(np.flatnonzero(mask_of(s))[0]), seat=j % 4)
    assert s[0]["phase"] == ST.PH_CHOOSE_BOX and k.to_move(s) == 0 and s[0]["row"] == 1


def test_ex_9_9_develop_auto_johannesburg_and_eligibility_VR_DEV_2_3():
    """VR-DEV-3."""
    s = blank_main(4, row=2, active=0)
    give_sections(s, CMR, [9, 12, 5, 4])
    assert income(s)[CMR] == 14
    play(s, BOX_DEVELOP, seat=0)
    assert settle("bethlehem") not in legal_ids(s)  # no track touches it
    assert settle("johannesburg") in legal_ids(s)  # VR-DEV-2 exception
    play(s, settle("kimberley"), seat=0)
    play(s, DONE, seat=0)
    assert s[0]["dev_level"][JOBURG] == 1
    assert income(s)[CMR] == 16


def first_legs(s, seat, rr):
    s[0]["active"] = seat
    s[0]["phase"] = ST.PH_CHOOSE_BOX
    t = s.copy()
    play(t, BOX_BUILD, seat=seat)
    play(t, BUILD_RAILROAD + rr, seat=seat)
    return legal_sections(t)


def test_ex_9_10_borders_and_one_way_VR_BORDER_1_VR_BUILD_2():
    """VR-BORDER-1, VR-BUILD-2."""
    s = blank_main(4, row=1)
    give_sections(s, NATAL, [22, 23, 24, 25])
    give_shares(s, 0, NATAL)
    assert 33 not in first_legs(s, 0, NATAL)  # Transvaal-Natal closed in row 1
    s[0]["row"] = 2
    assert 33 in first_legs(s, 0, NATAL)
    z = blank_main(4, row=6)
    give_sections(z, ZASM, [41, 49])  # Johannesburg - Heidelberg - Volksrust
    give_shares(z, 0, ZASM)
    z[0]["treasury_cash"][ZASM] = 40
    assert 33 not in first_legs(z, 0, ZASM)  # one-way: only from Newcastle
    c = blank_main(4, row=2)
    give_sections(c, CSAR, [29, 30])  # Bloemfontein - Brandfort - Kroonstad
    give_shares(c, 0, CSAR)
    assert 34 not in first_legs(c, 0, CSAR)
    c[0]["row"] = 3
    assert 34 in first_legs(c, 0, CSAR)
    m = blank_main(4, row=3)
    give_sections(m, CTRD, [0, 2, 3, 4])  # Cape Town ... De Aar - Kimberley
    give_shares(m, 0, CTRD)
    assert 36 not in first_legs(m, 0, CTRD)  # Transvaal-Cape closed in rows 1-3
    m[0]["row"] = 4
    assert 36 in first_legs(m, 0, CTRD)
    play(m, BOX_BUILD, seat=0)
    play(m, BUILD_RAILROAD + CTRD, seat=0)
    play(m, sec(36), seat=0)
    assert m[0]["treasury_cash"][CTRD] == 20 - 7  # a $7 single in the Boer War


def test_ex_9_11_minimum_bids_VR_SHARE_3():
    """VR-SHARE-3."""
    s = blank_main(4, row=2)
    give_sections(s, CMR, [9, 12, 5, 4, 8, 10, 11])
    assert s[0]["n_sections"][CMR] == 7
    play(s, BOX_OFFER, seat=0)
    play(s, OFFER_TREASURY + CMR, seat=0)
    assert s[0]["auc_min"] == 7
    assert BID(6) not in legal_ids(s) and BID(7) in legal_ids(s)


def test_ex_9_12_control_ties_and_fallback_builder_VR_GEN_4_VR_BUILD_4():
    """VR-GEN-4, VR-BUILD-4."""
    s = blank_main(3, row=2, active=2)
    give_sections(s, CFM, [56])
    give_shares(s, 0, CFM, 2)
    give_shares(s, 1, CFM, 2)
    give_shares(s, 2, CTRD, 1)
    assert (controllers(s[0], CFM), controllers(s[0], CTRD)) == (0b011, 0b100)  # tied holders control together
    s[0]["treasury_cash"][CTRD] = 3
    s[0]["treasury_cash"][CFM] = 12
    play(s, BOX_BUILD, seat=2)
    assert legal_ids(s) == {BUILD_RAILROAD + CFM}
    play(s, BUILD_RAILROAD + CFM, seat=2)
    assert k.to_move(s) == 0  # first CFM controller clockwise from P2
    play(s, sec(58), seat=0)
    if s[0]["phase"] == ST.PH_BUILD_SECOND_LEG:
        play(s, DONE, seat=0)
    assert s[0]["treasury_cash"][CFM] == 7
