"""Scenario tests per rule family on explicit states; every number is worked out by hand from the spec."""

from __future__ import annotations

import numpy as np
import pytest

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
    IDX,
    JOBURG,
    NATAL,
    OFFER_OWN,
    OFFER_TREASURY,
    PASS,
    SECTION,
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


# --- sum_income: the user's hot path (VR-GEN-6) ------------------------------------------------------
def _sum(owner, levels):
    out = np.zeros(6, np.int64)
    k.sum_income(np.asarray(owner, np.int8), np.asarray(levels, np.int8), out)
    return out.tolist()


def test_sum_income_empty_board_is_zero():
    assert _sum([-1] * 59, [0] * 47) == [0] * 6


def test_sum_income_counts_each_end_and_shared_settlements():
    owner = [-1] * 59
    owner[38] = ZASM  # Johannesburg 2 + Pretoria 2
    owner[42] = CSAR  # Johannesburg 2 + Vereeniging 2
    owner[34] = CSAR  # Kroonstad 2 + Vereeniging 2
    owner[56] = CFM  # Lourenco Marques 2 + Ressano Garcia 1
    assert _sum(owner, [0] * 47) == [3, 8, 0, 0, 0, 4]


def test_sum_income_uses_current_levels():
    owner = [-1] * 59
    owner[38] = ZASM
    owner[42] = CSAR
    owner[34] = CSAR
    levels = [0] * 47
    levels[JOBURG] = 8  # Johannesburg at its top: 10
    levels[IDX["vereeniging"]] = 1  # railway base 2 -> 3
    levels[IDX["pretoria"]] = 1  # commercial 2 -> 4
    assert _sum(owner, levels) == [0, (10 + 3) + (2 + 3), 0, 0, 0, 14]


def test_sum_income_whole_map_one_railroad():
    # Every section owned by CTR&D at level 0: sum over settlements of degree x income.
    owner = [CTRD] * 59
    degree_income = sum(int(k.tables.DEGREE[v]) * int(k.tables.LADDER[v, 0]) for v in range(47))
    assert _sum(owner, [0] * 47)[CTRD] == degree_income


# --- setup (§3) ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n,money", [(3, 100), (4, 75), (5, 60), (6, 50)])
def test_setup_cash_shares_treasuries(n, money):
    s = k.new_state(n, 17)
    r = s[0]
    assert cash(s) == [money] * n and not r["cash"][n:].any()
    assert list(r["treasury_shares"]) == [5] * 6 and not r["holdings"].any()
    assert all(1 <= int(r["treasury_cash"][x]) <= 6 for x in range(5))
    assert r["treasury_cash"][ZASM] in (2, 4, 6, 8, 10, 12)  # ZASM doubled
    assert r["opened"][ZASM] == 0 and (r["section_owner"] == -1).all()


def test_setup_opens_auction_zero_for_player_0_VR_SHARE_3():
    """§3 step 5, VR-SHARE-3, VR-AUC-2: every new game opens on the CFM auction with player_0 to bid at the $1 floor
    (no section built), a decision: nothing transient is left for settle after setup."""
    for n in range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1):
        for seed in range(40):
            s = k.new_state(n, seed)
            r = s[0]
            assert r["phase"] == ST.PH_SETUP_AUCTION and r["auc_railroad"] == CFM and r["auc_min"] == 1
            assert k.to_move(s) == 0 and r["setup_k"] == 0 and BID(1) in legal_ids(s)


def test_setup_dice_cover_all_faces():
    seen = {x: set() for x in range(6)}
    for seed in range(300):
        t = k.new_state(4, seed)[0]["treasury_cash"]
        for x in range(6):
            seen[x].add(int(t[x]))
    for x in range(5):
        assert seen[x] == {1, 2, 3, 4, 5, 6}
    assert seen[ZASM] == {2, 4, 6, 8, 10, 12}


def _win_setup_auction(s, winner, n):
    """Winner bids $1, everybody else passes; returns the opener seat."""
    opener = k.to_move(s)
    play(s, BID(1), seat=winner) if opener == winner else None
    assert opener == winner
    for q in range(1, n):
        play(s, PASS, seat=(winner + q) % n)


def test_setup_opener_without_money_passes_the_duty_on_VR_AUC_2():
    """VR-AUC-2."""
    s = k.new_state(3, 1)
    _win_setup_auction(s, 0, 3)
    s[0]["cash"][1] = 0
    play(s, sec(56), seat=0)
    assert s[0]["auc_railroad"] == CSAR and k.to_move(s) == 2  # P1 cannot pay $1
    assert PASS not in legal_ids(s)


def test_setup_share_nobody_can_buy_is_owed_its_free_section_later():
    s = k.new_state(3, 1)
    _win_setup_auction(s, 0, 3)
    s[0]["cash"][:3] = 0
    play(s, sec(56), seat=0)
    r = s[0]
    assert r["phase"] == ST.PH_CHOOSE_BOX and k.to_move(s) == 0  # every later auction went unsold
    assert list(r["free_pending"]) == [0, 1, 1, 1, 1, 0]
    assert list(r["opened"]) == [1, 1, 1, 1, 1, 0]
    r["cash"][0] = 10
    play(s, BOX_OFFER, seat=0)
    play(s, OFFER_TREASURY + CSAR, seat=0)
    play(s, BID(1), seat=0)
    play(s, PASS, seat=1)
    play(s, PASS, seat=2)
    assert r["phase"] == ST.PH_FIRST_SECTION and k.to_move(s) == 0
    assert legal_sections(s) == {19, 27, 29}  # from Bloemfontein
    play(s, sec(27), seat=0)
    assert r["free_pending"][CSAR] == 0 and r["treasury_cash"][CSAR] == k.new_state(3, 1)[0]["treasury_cash"][CSAR] + 1


# --- action track and locomotives (VR-TRACK, VR-LOCO) -------------------------------------------------
def test_box_costs_VR_TRACK_2():
    """VR-TRACK-2."""
    for box, pos in ((BOX_BUILD, 3), (BOX_OFFER, 4), (BOX_DEVELOP, 5)):
        s = blank_main(4, row=2, position=10)
        play(s, box, seat=0)
        assert s[0]["position"] == 10 + pos


def test_box_capacity_counts_other_locomotives_VR_LOCO_2():
    """VR-LOCO-2."""
    s = blank_main(4)
    s[0]["loco_box"][:4] = [-1, 2, 2, 1]
    assert mask_of(s)[BOX_DEVELOP] == 0  # develop holds 2 others
    s[0]["loco_box"][:4] = [-1, 2, 1, 1]
    m = mask_of(s)
    assert m[BOX_DEVELOP] == 1 and m[BOX_OFFER] == 1
    s[0]["loco_box"][:4] = [-1, 1, 1, 1]
    assert mask_of(s)[BOX_OFFER] == 0  # offer holds 3 others
    s[0]["loco_box"][:4] = [-1, 3, 3, 0]
    assert mask_of(s)[BOX_PAY] == 0 and mask_of(s)[BOX_BUILD] == 1


def test_build_box_may_repeat_others_may_not_VR_LOCO_3():
    """VR-LOCO-3."""
    s = blank_main(4)
    s[0]["loco_box"][0] = 0
    assert mask_of(s)[BOX_BUILD] == 1
    s[0]["loco_box"][0] = 2
    assert mask_of(s)[BOX_DEVELOP] == 0


def test_offer_box_needs_a_legal_offer_VR_LOCO_5():
    """VR-LOCO-5."""
    s = blank_main(4, cash=0)
    assert mask_of(s)[BOX_OFFER] == 0  # every treasury minimum is $1, the seat has $0, holds nothing
    give_shares(s, 0, CFM)
    assert mask_of(s)[BOX_OFFER] == 1


def test_develop_box_needs_an_eligible_settlement_VR_LOCO_5():
    """VR-LOCO-5."""
    s = blank_main(4)
    assert mask_of(s)[BOX_DEVELOP] == 1  # Johannesburg needs no track
    s[0]["dev_level"][JOBURG] = 8
    assert mask_of(s)[BOX_DEVELOP] == 0


def test_no_railroad_can_build_is_a_no_op_VR_BUILD_4():
    """VR-BUILD-4."""
    s = blank_main(4, row=2, position=7)
    before = s.copy()
    play(s, BOX_BUILD, seat=0)
    assert s[0]["position"] == 10 and k.to_move(s) == 1 and s[0]["phase"] == ST.PH_CHOOSE_BOX
    assert (s[0]["section_owner"] == before[0]["section_owner"]).all()


def test_locomotives_stay_at_row_end_VR_LOCO_4():
    """VR-LOCO-4."""
    s = blank_main(4, row=2, position=34)
    play(s, BOX_PAY, seat=0)
    assert s[0]["row"] == 3 and s[0]["loco_box"][0] == 3


# --- building (VR-BUILD, VR-DBL) ---------------------------------------------------------------------
def test_own_controlled_railroads_only_when_one_can_build_VR_BUILD_4():
    """VR-BUILD-4."""
    s = blank_main(4)
    give_sections(s, CFM, [56])
    give_sections(s, NATAL, [22])
    give_shares(s, 0, CFM)
    give_shares(s, 1, NATAL)
    play(s, BOX_BUILD, seat=0)
    assert legal_ids(s) == {BUILD_RAILROAD + CFM}
    s[0]["treasury_cash"][CFM] = 4  # cannot pay $5: fallback to Natal, built by P1
    s[0]["phase"] = ST.PH_CHOOSE_BOX
    play(s, BOX_BUILD, seat=0)
    assert legal_ids(s) == {BUILD_RAILROAD + NATAL}
    play(s, BUILD_RAILROAD + NATAL, seat=0)
    assert k.to_move(s) == 1


def test_network_legal_sections_VR_BUILD_2():
    """VR-BUILD-2."""
    s = blank_main(4, row=2)
    give_sections(s, CTRD, [0])  # Cape Town - Worcester
    give_shares(s, 0, CTRD)
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + CTRD, seat=0)
    assert legal_sections(s) == {1, 2}  # Cape Town - Malmesbury, Worcester -> Beaufort West


def test_closing_a_loop_is_legal_VR_BUILD_2():
    """VR-BUILD-2."""
    s = blank_main(4, row=6)
    give_sections(s, CMR, [8, 10, 13, 12])  # PE - Alicedale - Cradock - Naauwpoort - Graaff-Reinet
    give_shares(s, 0, CMR)
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + CMR, seat=0)
    assert 9 in legal_sections(s)  # PE - Graaff-Reinet: both ends in the network
    play(s, sec(9), seat=0)
    assert s[0]["treasury_cash"][CMR] == 15 and k.to_move(s) == 1  # single, no double


def test_double_needs_double_money_VR_DBL_4():
    """VR-DBL-4."""
    s = blank_main(4, row=2, treasury=14)
    give_sections(s, CTRD, [0])
    give_shares(s, 0, CTRD)
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + CTRD, seat=0)
    play(s, sec(2), seat=0)  # Worcester -> Beaufort West: Beaufort West untracked, but $14 < $15
    assert s[0]["treasury_cash"][CTRD] == 9 and k.to_move(s) == 1


def test_second_leg_needs_an_untracked_far_settlement_VR_DBL_1():
    """VR-DBL-1."""
    s = blank_main(4, row=2)
    give_sections(s, CTRD, [0])
    give_sections(s, CMR, [8, 10, 13, 12, 5])  # De Aar is tracked by Cape Midland
    give_shares(s, 0, CTRD)
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + CTRD, seat=0)
    play(s, sec(2), seat=0)  # Worcester -> Beaufort West; the only leg 2 (s03) ends at tracked De Aar
    assert s[0]["phase"] == ST.PH_CHOOSE_BOX and s[0]["treasury_cash"][CTRD] == 15


def test_second_leg_choices_and_done_VR_DBL_4():
    """VR-DBL-4."""
    s = blank_main(4, row=2)
    give_sections(s, CTRD, [0])
    give_shares(s, 0, CTRD)
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + CTRD, seat=0)
    play(s, sec(2), seat=0)
    assert s[0]["phase"] == ST.PH_BUILD_SECOND_LEG
    assert legal_ids(s) == {SECTION + 3, DONE}
    t = s.copy()
    play(s, DONE, seat=0)
    assert s[0]["treasury_cash"][CTRD] == 15
    play(t, sec(3), seat=0)
    assert t[0]["treasury_cash"][CTRD] == 5 and t[0]["n_sections"][CTRD] == 3


# --- develop (VR-DEV) ----------------------------------------------------------------------------------
def test_develop_first_pick_compulsory_and_simple_types_once_VR_DEV_3_6():
    """VR-DEV-3, VR-DEV-6."""
    s = blank_main(4, row=2)
    give_sections(s, CFM, [56])
    play(s, BOX_DEVELOP, seat=0)
    assert DONE not in legal_ids(s)
    play(s, settle("ressano_garcia"), seat=0)
    play(s, DONE, seat=0)
    assert s[0]["dev_level"][IDX["ressano_garcia"]] == 1
    assert income(s)[CFM] == 2 + 2
    s[0]["active"] = 0
    s[0]["loco_box"][0] = -1
    play(s, BOX_DEVELOP, seat=0)
    assert settle("ressano_garcia") not in legal_ids(s)  # developed once already
    assert settle("lourenco_marques") in legal_ids(s)


def test_paid_pick_needs_three_dollars_VR_GEN_2():
    """VR-GEN-2."""
    s = blank_main(4, row=2, cash=2)
    give_sections(s, CFM, [56])
    play(s, BOX_DEVELOP, seat=0)
    play(s, settle("ressano_garcia"), seat=0)
    assert legal_ids(s) == {DONE}


def test_bloemfontein_ladder_and_one_step_per_action_VR_DEV_5_6():
    """VR-DEV-5, VR-DEV-6, VR-DEV-1: each pick raises one settlement by one level."""
    s = blank_main(4, row=2)
    give_sections(s, CSAR, [27])
    play(s, BOX_DEVELOP, seat=0)
    play(s, settle("bloemfontein"), seat=0)
    assert settle("bloemfontein") not in legal_ids(s)
    t = blank_main(4, row=2, repeat_metropolis_pick=True)
    give_sections(t, CSAR, [27])
    play(t, BOX_DEVELOP, seat=0)
    play(t, settle("bloemfontein"), seat=0)
    play(t, settle("bloemfontein"), seat=0)  # the option: a second, paid step
    assert t[0]["dev_level"][IDX["bloemfontein"]] == 2 and cash(t)[0] == 47
    assert income(t)[CSAR] == 5 + 2


def test_auto_step_even_after_johannesburg_was_picked_VR_DEV_5():
    """VR-DEV-5."""
    s = blank_main(4, row=2)
    play(s, BOX_DEVELOP, seat=0)
    play(s, settle("johannesburg"), seat=0)
    play(s, DONE, seat=0)
    assert s[0]["dev_level"][JOBURG] == 2


def test_johannesburg_income_six_opens_zasm_VR_DEV_7_VR_ZASM_1():
    """VR-DEV-7, VR-ZASM-1."""
    s = blank_main(4, row=2, active=1)
    s[0]["dev_level"][JOBURG] = 2  # income 4
    play(s, BOX_DEVELOP, seat=1)
    play(s, settle("johannesburg"), seat=1)  # 5
    play(s, DONE, seat=1)  # auto step: 6
    assert s[0]["opened"][ZASM] == 1 and s[0]["phase"] == ST.PH_ZASM_AUCTION_BID
    assert k.to_move(s) == 1 and PASS not in legal_ids(s)  # the player who just finished opens
    play(s, BID(1), seat=1)
    for q in (2, 3, 0):
        play(s, PASS, seat=q)
    assert legal_sections(s) == {38, 39, 40, 41, 42, 43}
    play(s, sec(40), seat=1)
    assert k.to_move(s) == 2 and s[0]["n_sections"][ZASM] == 1


# --- offers and auctions (VR-SHARE, VR-AUC) -------------------------------------------------------------
def test_own_share_offer_nobody_bids_VR_AUC_3():
    """VR-AUC-3."""
    s = blank_main(4, row=2)
    give_sections(s, CFM, [56])
    give_shares(s, 0, CFM)
    play(s, BOX_OFFER, seat=0)
    play(s, OFFER_OWN + CFM, seat=0)
    assert k.to_move(s) == 1  # the seller does not bid
    for q in (1, 2, 3):
        play(s, PASS, seat=q)
    assert s[0]["holdings"][0, CFM] == 1 and s[0]["position"] == 4 and k.to_move(s) == 1


def test_own_share_sale_pays_the_seller_and_skips_the_high_bidder_VR_AUC_1():
    """VR-AUC-1, VR-SHARE-1: the proceeds of an own share go to the seller."""
    s = blank_main(4, row=2)
    give_sections(s, CFM, [56, 58])
    give_shares(s, 0, CFM)
    play(s, BOX_OFFER, seat=0)
    play(s, OFFER_OWN + CFM, seat=0)
    assert BID(1) not in legal_ids(s) and BID(2) in legal_ids(s)  # 2 sections: minimum $2
    play(s, BID(4), seat=1)
    play(s, PASS, seat=2)
    play(s, BID(9), seat=3)
    play(s, BID(10), seat=1)
    play(s, PASS, seat=3)  # P2 passed for good, so P3's pass ends it
    assert cash(s) == [60, 40, 50, 50]
    assert s[0]["holdings"][1, CFM] == 1 and s[0]["holdings"][0, CFM] == 0
    assert s[0]["treasury_cash"][CFM] == 20


def test_bids_capped_by_cash_VR_AUC_1():
    """VR-AUC-1."""
    s = blank_main(4, row=2, cash=7)
    play(s, BOX_OFFER, seat=0)
    play(s, OFFER_TREASURY + CFM, seat=0)
    bids = sorted(a - 129 for a in legal_ids(s) if a > PASS)
    assert bids == list(range(1, 8))


def test_treasury_offer_needs_minimum_in_cash_VR_SHARE_2():
    """VR-SHARE-2."""
    s = blank_main(4, row=2, cash=2)
    give_sections(s, CMR, [8, 10, 13])
    play(s, BOX_OFFER, seat=0)
    assert OFFER_TREASURY + CMR not in legal_ids(s) and OFFER_TREASURY + CFM in legal_ids(s)
    assert OFFER_TREASURY + ZASM not in legal_ids(s)  # unopened


# --- dividends and the end (VR-DIV, VR-END) ---------------------------------------------------------------
def test_rounding_normal_up_reconstruction_down_VR_DIV_2_3():
    """VR-DIV-2, VR-DIV-3, VR-TRACK-5: row 5 is Reconstruction (rounding down)."""
    for row, per in ((3, 3), (5, 1)):
        s = blank_main(4, row=row)
        give_sections(s, CFM, [56, 58])  # (2+1) + (2+1)... LM 2 + RG 1, LM 2 + Goba 1 = 6
        s[0]["dev_level"][IDX["goba"]] = 1  # Goba 3: income 3 + 5 = 8
        give_sections(s, CFM, [57])  # RG 1 + Komatipoort 2: income 11
        give_shares(s, 1, CFM, 2)
        assert income(s)[CFM] == 11
        play(s, BOX_PAY, seat=0)
        assert cash(s)[1] == 50 + 2 * per  # ceil(11/5) = 3; floor(11/10) = 1


def test_special_dividend_once_per_railroad_VR_DIV_5():
    """VR-DIV-5."""
    s = blank_main(4, row=5)
    give_sections(s, CSAR, [29, 30, 34])
    give_shares(s, 0, CSAR)
    s[0]["opened"][ZASM] = 1  # already open: no auction
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + CSAR, seat=0)
    play(s, sec(42), seat=0)  # income (3+1)+(1+2)+(2+2)+(2+2) = 15 -> 3 (same formula in row 5)
    assert cash(s)[0] == 53 and s[0]["reached_jo"][CSAR] == 1
    s[0]["active"] = 0
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + CSAR, seat=0)
    play(s, sec(41), seat=0)  # a second section into Johannesburg: nothing more
    assert cash(s)[0] == 53


def test_game_ends_after_eighth_payout_VR_END_1():
    """VR-END-1."""
    s = blank_main(4, row=7, position=35)
    play(s, BOX_BUILD, seat=0)
    assert s[0]["row"] == 8 and not k.is_over(s)
    play(s, BOX_PAY, seat=1)
    assert k.is_over(s) and s[0]["payouts"] == 8 and not mask_of(s).any()


def test_returns_share_the_win():
    """VR-END-2: the most cash wins; P1 and P2 tie on $40 and share the win."""
    s = blank_main(4, row=8)
    s[0]["cash"][:4] = [30, 40, 40, 10]
    play(s, BOX_PAY, seat=0)
    out = np.zeros(6)
    k.returns(s, out)
    assert out.tolist() == [0.0, 0.5, 0.5, 0.0, 0.0, 0.0]


def test_random_games_end_after_eight_payouts_and_conserve():
    for n in (3, 6):
        d, g = k.playouts(n, 50, seed=3)
        assert g == 50 and d <= 50 * k.MAX_GAME_LENGTH


def test_evaluate_is_returns_when_over_and_a_distribution_otherwise():
    s = blank_main(4, row=3)
    give_sections(s, CSAR, [29, 30, 27])
    give_shares(s, 2, CSAR, 3)
    out = np.zeros(6)
    k.evaluate(s, out)
    assert out[:4].sum() == pytest.approx(1.0) and out[2] == out.max() and out[4:].sum() == 0
