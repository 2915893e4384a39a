"""Spec §9 worked examples EX-1..EX-10, driven through the full rules path with the spec's action ids.

Every expected number below is copied from shared/rules/irish_gauge.md §9 (or derived by hand from the
rule the example illustrates, as noted).
"""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_zoo.kernels import irish_gauge as k
from tabletop_zoo.kernels.irish_gauge.dividends import company_potential

from ._helpers import (
    BCD,
    BID,
    BUILD,
    CALL_DIVIDENDS,
    CBSC,
    GSW,
    MGW,
    PASS,
    ST,
    TERMINAL_SEAT,
    WHITE,
    WLW,
    T,
    cash,
    common_board,
    draw,
    ex4_board,
    give_cert,
    hx,
    legal_ids,
    main_turn,
    mask_of,
    pending_outcomes,
    place,
    play,
    returns,
    scores,
    set_network,
    si,
    stack_tops,
)


# --------------------------------------------------------------------------------------------------
# EX-1 initial auction
# --------------------------------------------------------------------------------------------------
def _ex1_start(ruleset: str = "seed"):
    s = k.new_state(4, 7, ruleset=ruleset)
    r = s[0]
    r["start_player"] = 2
    r["active"] = 2
    r["auc_opener"] = 2
    r["auc_bidder"] = 2
    assert r["phase"] == ST.PH_INITIAL_AUCTION and r["auc_company"] == CBSC
    assert cash(s) == [20, 20, 20, 20]
    return s


def run_ex1(ruleset: str = "seed"):
    """EX-1 as written; returns the record at the first main turn."""
    s = _ex1_start(ruleset)
    r = s[0]
    # CBSC (£7): everyone passes -> P2 gets CBSC_1 for £0 and opens WLW (IG-INIT-3, IG-INIT-4).
    for seat in (2, 3, 0, 1):
        play(s, PASS, seat)
    assert cash(s) == [20, 20, 20, 20]
    assert r["held"][2, CBSC] == 1 and r["cert_owner"][CBSC, 0] == 2
    assert r["auc_company"] == WLW and k.to_move(s) == 2
    # WLW (£5): P2 5, P3 6, P0 pass, P1 pass, P2 8 (min 7 -> id 183), P3 pass -> P2 pays 8.
    play(s, BID + 0, 2)
    assert r["auc_high_bid"] == 5
    play(s, BID + 0, 3)
    assert r["auc_high_bid"] == 6
    play(s, PASS, 0)
    play(s, PASS, 1)
    play(s, BID + 1, 2)
    assert r["auc_high_bid"] == 8
    play(s, PASS, 3)
    assert cash(s) == [20, 20, 12, 20]
    assert r["cert_owner"][WLW, 0] == 2
    # BCD (£8), opened by P2: P2 pass, P3 8, P0 9, P1 pass, P3 pass -> P0 pays 9 and opens GSW.
    assert r["auc_company"] == BCD
    play(s, PASS, 2)
    play(s, BID + 0, 3)
    play(s, BID + 0, 0)
    assert r["auc_high_bid"] == 9
    play(s, PASS, 1)
    play(s, PASS, 3)  # P2 passed earlier, so the turn skips from P1 to P3
    assert cash(s) == [11, 20, 12, 20]
    assert r["cert_owner"][BCD, 0] == 0
    # GSW (£4): P0 4, P1/P2/P3 pass -> P0 pays 4 and opens MGW.
    assert r["auc_company"] == GSW
    play(s, BID + 0, 0)
    play(s, PASS, 1)
    play(s, PASS, 2)
    play(s, PASS, 3)
    # MGW (£6): P0 pass, P1 6, P2 pass, P3 pass -> P1 pays 6.
    assert r["auc_company"] == MGW
    play(s, PASS, 0)
    play(s, BID + 0, 1)
    play(s, PASS, 2)
    play(s, PASS, 3)
    return s


@pytest.mark.parametrize("ruleset", ["seed", "published"])
def test_ex1_initial_auction_IG_INIT_1_to_5(ruleset):
    """EX-1 (IG-INIT-1..5): the initial auction reads the same under both rulesets (IG-INIT-3)."""
    s = run_ex1(ruleset)
    r = s[0]
    assert cash(s) == [7, 14, 12, 20]
    held = {seat: {c for c in range(5) if r["held"][seat, c]} for seat in range(4)}
    assert held == {0: {BCD, GSW}, 1: {MGW}, 2: {CBSC, WLW}, 3: set()}
    assert r["held"].sum() == 5
    assert list(r["cert_owner"][:, 0]) == [2, 2, 0, 0, 1]
    assert stack_tops(s) == [12, 10, 13, 9, 11]
    assert r["phase"] == ST.PH_MAIN and r["auc_company"] == -1
    # First main turn: P2 (holds CBSC), then P3, P0, P1 (IG-INIT-5, IG-TURN-2).
    assert k.to_move(s) == 2
    for seat in (2, 3, 0, 1, 2):
        play(s, CALL_DIVIDENDS, seat)


# --------------------------------------------------------------------------------------------------
# EX-2 / EX-3 building
# --------------------------------------------------------------------------------------------------
def run_ex2():
    s = run_ex1()
    main_turn(s, 1)
    assert (place("H10"), place("H9"), place("H8")) == (116, 115, 114)  # the spec's ids
    play(s, BUILD + MGW, 1)
    assert s[0]["phase"] == ST.PH_BUILD
    play(s, 116, 1)
    play(s, 115, 1)
    play(s, 114, 1)
    return s


def test_ex2_build_open_ground_IG_BLD_2_3_9():
    """IG-BLD-2, IG-BLD-3, IG-BLD-9: EX-2: three 1-BP placements use the whole budget and the action ends by itself."""
    s = run_ex2()
    r = s[0]
    assert r["phase"] == ST.PH_MAIN  # ended automatically, no END_BUILD
    assert k.to_move(s) == 2  # P1 acted -> P2 next
    assert set(np.flatnonzero(r["loco"][MGW]).tolist()) == {hx(h) for h in ("H11", "H10", "H9", "H8")}
    assert r["supply"][MGW] == 15
    # The other companies are untouched (still home only, 18 in supply).
    for c in (CBSC, WLW, BCD, GSW):
        assert r["loco"][c].sum() == 1 and r["supply"][c] == 18


def test_ex3a_shared_hex_then_half_point_lost_IG_BLD_3_7():
    """IG-BLD-3, IG-BLD-7:
    EX-3 (a): H10 shared costs 1.5, G11 costs 1, 0.5 is lost; I11 (difficult, 2) is illegal after H10."""
    s = run_ex2()
    r = s[0]
    main_turn(s, 0)
    play(s, BUILD + GSW, 0)
    play(s, place("H10"), 0)
    assert r["bld_budget"] == 3  # 1.5 BP left, in half points
    m = mask_of(s)
    assert place("I11") == 126 and m[126] == 0  # difficult costs 2 > 1.5
    assert m[place("G11")] == 1
    play(s, place("G11"), 0)
    assert r["phase"] == ST.PH_MAIN and k.to_move(s) == 1  # 0.5 BP left: ends automatically
    assert r["supply"][GSW] == 16
    assert set(np.flatnonzero(r["loco"][GSW]).tolist()) == {hx("H11"), hx("H10"), hx("G11")}


def test_ex3b_difficult_hex_blocks_other_company_IG_BLD_4():
    """IG-BLD-4: EX-3 (b): GSW takes I11 (2) and I10 (1); MGW can never enter I11 and pays 1.5 for I10."""
    s = run_ex2()
    r = s[0]
    main_turn(s, 0)
    play(s, BUILD + GSW, 0)
    play(s, place("I11"), 0)
    assert r["bld_budget"] == 2
    play(s, place("I10"), 0)
    assert r["phase"] == ST.PH_MAIN and k.to_move(s) == 1
    assert r["supply"][GSW] == 16
    # P1's turn: MGW (on H11, adjacent to I11) may not enter I11; I10 costs 1.5.
    play(s, BUILD + MGW, 1)
    m = mask_of(s)
    assert m[place("I11")] == 0
    assert m[place("I10")] == 1
    play(s, place("I10"), 1)
    assert r["bld_budget"] == 6 - 3
    assert mask_of(s)[place("I11")] == 0  # still blocked from the new neighbour I10


# --------------------------------------------------------------------------------------------------
# EX-4 .. EX-7 dividends, special interest, end of game
# --------------------------------------------------------------------------------------------------
def test_ex4_dividends_IG_DIV_1_to_7():
    """IG-DIV-1: EX-4: draw pink, black, black; BCD pays £6 to P0, MGW £6 split 3 + 3; bag 5/6/8; track row 1."""
    s = ex4_board()
    r = s[0]
    assert list(r["bag"]) == [7, 7, 8]
    main_turn(s, 3)
    play(s, CALL_DIVIDENDS, 3, decision=True)
    assert k.is_chance(s)
    draw(s, 2, 1, 0)  # pink, black, black
    assert list(r["last_income"]) == [0, 0, 6, 0, 6]
    assert cash(s) == [26, 23, 20, 23]
    assert list(r["bag"]) == [5, 6, 8] and int(r["bag"].sum()) == 19
    assert r["drawn_rows"] == 1
    assert sorted(r["drawn"][0].tolist()) == [0, 0, 1]  # black, black, pink (order does not matter)
    assert (r["drawn"][1:] == -1).all()
    assert r["phase"] == ST.PH_MAIN and k.to_move(s) == 0


def test_ex5_rounding_multiple_holdings_IG_DIV_7():
    """IG-DIV-7: EX-5: MGW £8 over 3 shares -> 3 per share; P1 (2 shares) 6, P3 (1 share) 3; bank pays 9."""
    s = common_board()
    r = s[0]
    set_network(s, MGW, ["H11", "G11", "F11", "H10", "H9", "H8", "H7"])
    give_cert(s, 1, MGW)
    give_cert(s, 1, MGW)
    give_cert(s, 3, MGW)
    give_cert(s, 0, CBSC)
    give_cert(s, 0, WLW)
    give_cert(s, 2, BCD)
    give_cert(s, 2, GSW)
    play(s, CALL_DIVIDENDS, 0, decision=True)
    draw(s, 0, 1, 2)  # pink, white, white
    assert r["last_income"][MGW] == 8
    assert list(r["last_payout"][:4]) == [0, 6, 0, 3]
    assert cash(s) == [20, 26, 20, 23]
    assert int(r["last_payout"].sum()) == 9


def test_ex6_special_interest_IG_SI_1_2_DISK_1():
    """IG-SI-1, IG-SI-2:
    EX-6: P1 upgrades Tullamore to white (id 24); potential 6 -> 8; the two draws of the example."""
    s = ex4_board()
    r = s[0]
    main_turn(s, 1)
    assert T.TOWN_HEX[4] == hx("H7") and si(4, WHITE) == 24
    assert company_potential(r["loco"], r["cube"], MGW) == 6
    play(s, 24, 1)
    assert r["cube"][hx("H7")] == WHITE
    assert list(r["bag"]) == [7, 7, 7] and int(r["bag"].sum()) == 21
    assert company_potential(r["loco"], r["cube"], MGW) == 8
    assert k.to_move(s) == 2
    obs = np.zeros(k.OBS_SIZE, np.float32)
    k.observe(s, 1, obs)
    pot = {p.name: p for p in k.OBS_PIECES}["potential_income"]
    assert obs[pot.offset + MGW] == pytest.approx(8 / 100)

    play(s, CALL_DIVIDENDS, 2, decision=True)
    before = cash(s)
    # Draw black, black, pink: MGW P=1 (Dublin), T=0 -> does not qualify.
    a = s.copy()
    draw(a, 2, 1, 0)
    assert a[0]["last_income"][MGW] == 0
    assert cash(a)[1] == before[1] and cash(a)[3] == before[3]
    # Had it drawn white, pink, black: P=2 (Dublin, Tullamore), T=0 -> £8 -> 4 per share.
    b = s.copy()
    draw(b, 1, 1, 1)
    assert b[0]["last_income"][MGW] == 8
    assert cash(b)[1] == before[1] + 4 and cash(b)[3] == before[3] + 4


def _ex7_board():
    s = common_board()
    r = s[0]
    set_network(s, CBSC, ["O4"])
    set_network(s, WLW, ["L4"])
    set_network(s, BCD, ["C12", "C11", "D11", "E11", "F11"])
    set_network(s, GSW, ["H11", "H10", "G11"])
    set_network(s, MGW, ["H11", "H10", "H9", "H8", "H7"])
    give_cert(s, 0, BCD)
    give_cert(s, 0, GSW)
    give_cert(s, 1, MGW)
    give_cert(s, 1, MGW)
    give_cert(s, 2, CBSC)
    give_cert(s, 2, WLW)
    r["bag"][:] = [1, 0, 1]
    r["cash"][:4] = [30, 31, 28, 31]
    main_turn(s, 3)
    return s


def test_ex7_end_of_game_shared_win_IG_END_1_SCORE_1_2():
    """IG-END-1: EX-7: the last 2 cubes are drawn, BCD pays P0 6, game over, P0 and P1 tie at 48."""
    s = _ex7_board()
    r = s[0]
    play(s, CALL_DIVIDENDS, 3, decision=True)
    assert pending_outcomes(s) == {(1, 0, 1): pytest.approx(1.0)}  # only 2 cubes remain, both drawn
    draw(s, 1, 0, 1)
    assert list(r["last_income"]) == [0, 0, 6, 0, 0]
    assert cash(s) == [36, 31, 28, 31]
    assert int(r["bag"].sum()) == 0
    assert k.is_over(s) and r["phase"] == ST.PH_GAME_OVER
    assert k.to_move(s) == TERMINAL_SEAT
    assert not mask_of(s).any()
    assert scores(s) == [48, 48, 40, 31]
    assert returns(s) == [0.5, 0.5, 0.0, 0.0]


# --------------------------------------------------------------------------------------------------
# EX-8 main-game auction
# --------------------------------------------------------------------------------------------------
def _ex8_start(ruleset: str):
    s = run_ex1(ruleset)
    main_turn(s, 3)
    assert cash(s) == [7, 14, 12, 20]
    return s


@pytest.mark.parametrize("ruleset", ["seed", "published"])
def test_ex8a_main_auction_IG_AUC_1_3_4_5_TURN_2(ruleset):
    """IG-AUC-1, IG-AUC-3, IG-AUC-4, IG-AUC-5:
    EX-8 (a), and (c) for the published ruleset: P3 buys CBSC_2 for 15; next active P0."""
    s = _ex8_start(ruleset)
    r = s[0]
    play(s, 0, 3)  # AUCTION[CBSC]: top certificate CBSC_2, £12
    assert r["phase"] == ST.PH_AUCTION and r["auc_company"] == CBSC
    opening = set(range(182, 191))  # BID 12..20
    if ruleset == "seed":
        assert legal_ids(s) == opening | {PASS}
    else:
        assert legal_ids(s) == opening  # (c): no pass on the opening
    play(s, 182, 3)  # BID 12
    assert legal_ids(s) == {PASS}  # P0: min 13 > 7
    play(s, PASS, 0)
    play(s, 182, 1)  # BID 13
    assert legal_ids(s) == {PASS}  # P2: min 14 > 12
    play(s, PASS, 2)
    assert legal_ids(s) == {PASS} | set(range(182, 182 + 20 - 14 + 1))  # P3 may raise again, 14..20
    play(s, 183, 3)  # BID 15 (min 14, j = 1)
    assert legal_ids(s) == {PASS}  # P1: min 16 > 14
    play(s, PASS, 1)
    assert cash(s) == [7, 14, 12, 5]
    assert r["held"][3, CBSC] == 1 and r["cert_owner"][CBSC, 1] == 3
    assert int(r["held"][:, CBSC].sum()) == 2 and r["next_cert"][CBSC] == 2
    assert r["phase"] == ST.PH_MAIN and k.to_move(s) == 0


def test_ex8b_everyone_passes_free_certificate_IG_AUC_2_seed():
    """IG-AUC-2: EX-8 (b): under the seed ruleset P3 opens with PASS, all pass, P3 takes CBSC_2 for £0; next P0."""
    s = _ex8_start("seed")
    r = s[0]
    play(s, 0, 3)
    play(s, PASS, 3)
    play(s, PASS, 0)
    play(s, PASS, 1)
    play(s, PASS, 2)
    assert cash(s) == [7, 14, 12, 20]
    assert r["cert_owner"][CBSC, 1] == 3 and int(r["held"][:, CBSC].sum()) == 2
    assert k.to_move(s) == 0


@pytest.mark.parametrize("company", range(5))
def test_ex8b_poor_player_may_auction_seed_but_not_published_IG_AUC_2(company):
    """IG-AUC-2: EX-8 (b)/(c): a player with £8 facing tops 12/10/13/9/11: seed -> AUCTION legal, opening only PASS;
    published -> every AUCTION id masked."""
    s = _ex8_start("seed")
    s[0]["cash"][3] = 8
    assert stack_tops(s) == [12, 10, 13, 9, 11]
    assert {0, 1, 2, 3, 4} <= legal_ids(s)
    play(s, company, 3)
    assert legal_ids(s) == {PASS}
    for seat in (3, 0, 1, 2):
        play(s, PASS, seat)
    assert s[0]["held"][3, company] == 1 and cash(s)[3] == 8

    p = _ex8_start("published")
    p[0]["cash"][3] = 8
    assert not ({0, 1, 2, 3, 4} & legal_ids(p))


def test_ex8c_published_opener_cannot_pass_IG_AUC_2():
    """IG-AUC-2: EX-8 (c): under the published ruleset the all-pass line of (b) cannot even start."""
    s = _ex8_start("published")
    play(s, 0, 3)
    assert mask_of(s)[PASS] == 0
    assert legal_ids(s) == set(range(182, 191))


# --------------------------------------------------------------------------------------------------
# EX-9 draw probabilities
# --------------------------------------------------------------------------------------------------
def test_ex9_draw_probabilities_chance_outcomes():
    """EX-9: bag 1/1/2, 3 drawn: (1,1,1) 1/2, (1,0,2) 1/4, (0,1,2) 1/4; P(white)=1, P(black)=P(pink)=3/4."""
    s = common_board()
    s[0]["bag"][:] = [1, 1, 2]
    play(s, CALL_DIVIDENDS, 0, decision=True)
    assert k.to_move(s) == -1
    out = pending_outcomes(s)
    assert set(out) == {(1, 1, 1), (1, 0, 2), (0, 1, 2)}
    assert out[(1, 1, 1)] == pytest.approx(1 / 2, abs=1e-12)
    assert out[(1, 0, 2)] == pytest.approx(1 / 4, abs=1e-12)
    assert out[(0, 1, 2)] == pytest.approx(1 / 4, abs=1e-12)
    appears = [sum(p for t, p in out.items() if t[colour] > 0) for colour in range(3)]
    assert appears == pytest.approx([3 / 4, 3 / 4, 1.0], abs=1e-12)


# --------------------------------------------------------------------------------------------------
# EX-10 major-city bonus
# --------------------------------------------------------------------------------------------------
EX10_GSW = ["H11", "H10", "H9", "H8", "H7", "H6", "H5", "H4", "H3", "G11", "F11", "E11", "D11", "C11", "C12"]


@pytest.mark.parametrize(
    "options, bonus, income, per_share",
    [({}, 0, 8, 4), ({"ruleset": "published"}, 12, 20, 10), ({"major_city_bonus": 12}, 12, 20, 10)],
    ids=["seed", "published", "seed-with-bonus-12"],
)
def test_ex10_major_city_bonus_IG_DIV_6(options, bonus, income, per_share):
    """IG-DIV-6: EX-10: GSW links Galway, Dublin, Belfast; white x3 pays Galway + 2 towns: £8, or £20 with the bonus."""
    s = common_board(**options)
    r = s[0]
    assert r["major_city_bonus"] == bonus
    set_network(s, GSW, EX10_GSW)
    assert r["loco"][GSW].sum() == 15 and r["supply"][GSW] == 4
    give_cert(s, 0, GSW)
    give_cert(s, 2, GSW)
    play(s, CALL_DIVIDENDS, 0, decision=True)
    draw(s, 0, 0, 3)
    assert list(r["last_income"]) == [0, 0, 0, income, 0]
    assert list(r["last_payout"][:4]) == [per_share, 0, per_share, 0]
    assert cash(s) == [20 + per_share, 20, 20 + per_share, 20]
    assert list(r["bag"]) == [7, 7, 5]
