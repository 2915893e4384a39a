"""Rule-by-rule checks of the Irish Gauge kernel not covered by the §9 examples (spec §3-§8)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop_zoo.kernels import irish_gauge as k

from ._helpers import (
    AUCTION,
    BCD,
    BID,
    BLACK,
    BUILD,
    CALL_DIVIDENDS,
    CBSC,
    END_BUILD,
    GSW,
    MGW,
    PASS,
    PINK,
    PLACE,
    ST,
    TERMINAL_SEAT,
    WHITE,
    WLW,
    T,
    cash,
    common_board,
    give_cert,
    hx,
    legal_ids,
    main_turn,
    mask_of,
    neighbours,
    place,
    placements,
    play,
    returns,
    scores,
    set_network,
    si,
)

HOMES = {CBSC: "O4", WLW: "L4", BCD: "C12", GSW: "H11", MGW: "H11"}
CITIES = ["B8", "C12", "H3", "H11", "L4", "L8", "M9", "O4"]
# chi-square critical values at p = 1e-4 (see test_dividends.py)
CHI2_CRIT_1E4 = {1: 15.137, 2: 18.421, 3: 21.108, 4: 23.513}


def chi2(observed, expected_probs):
    total = sum(observed)
    return sum((o - total * p) ** 2 / (total * p) for o, p in zip(observed, expected_probs))


# --------------------------------------------------------------------------------------------------
# Setup (§3)
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_homes_stacks_supply_IG_SETUP_1_2(n):
    """IG-SETUP-1, IG-SETUP-2."""
    for seed in range(5):
        r = k.new_state(n, seed)[0]
        for c, home in HOMES.items():
            assert np.flatnonzero(r["loco"][c]).tolist() == [hx(home)]
            assert r["supply"][c] == 18
        assert (r["next_cert"] == 0).all()
        assert (r["cert_owner"] == -1).all()
        assert (r["held"] == 0).all()


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_cubes_and_bag_IG_SETUP_3_4(n):
    """IG-SETUP-3, IG-SETUP-4."""
    for seed in range(20):
        r = k.new_state(n, seed)[0]
        assert {T.HEX_IDS[h] for h in np.flatnonzero(r["cube"] >= 0)} == set(CITIES)
        on_cities = [int((r["cube"] == colour).sum()) for colour in range(3)]
        assert sum(on_cities) == 8 and max(on_cities) <= 4  # drawn from 4/4/4
        assert r["bag"].tolist() == [10 - x for x in on_cities]
        assert int(r["bag"].sum()) == 22
        assert (r["drawn"] == -1).all() and r["drawn_rows"] == 0


def test_setup_cube_draw_distribution_IG_SETUP_3():
    """IG-SETUP-3: 8 cubes drawn from 4/4/4: number of black cubes on the cities is hypergeometric
    (C(4,j)C(8,8-j)/C(12,8) = 1, 32, 168, 224, 70 /495), and each city's colour is uniform."""
    seeds = 3000
    black = [0] * 5
    first = [0, 0, 0]
    last = [0, 0, 0]
    for seed in range(seeds):
        r = k.new_state(3, 1000 + seed)[0]
        black[int((r["cube"] == BLACK).sum())] += 1
        first[int(r["cube"][hx("B8")])] += 1
        last[int(r["cube"][hx("O4")])] += 1
    probs = [33 / 495, 168 / 495, 224 / 495, 70 / 495]  # j <= 1 merged
    assert chi2([black[0] + black[1]] + black[2:], probs) < CHI2_CRIT_1E4[3], black
    assert chi2(first, [1 / 3] * 3) < CHI2_CRIT_1E4[2], first
    assert chi2(last, [1 / 3] * 3) < CHI2_CRIT_1E4[2], last


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_cash_IG_SETUP_5(n):
    """IG-SETUP-5."""
    r = k.new_state(n, 3)[0]
    assert r["cash"].tolist() == [20] * n + [0] * (5 - n)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_setup_start_player_IG_SETUP_6(n):
    """IG-SETUP-6."""
    counts = [0] * n
    seeds = 600
    for seed in range(seeds):
        s = k.new_state(n, seed)
        r = s[0]
        sp = int(r["start_player"])
        assert 0 <= sp < n
        counts[sp] += 1
        # the start player opens the first initial auction, CBSC (IG-INIT-1)
        assert r["phase"] == ST.PH_INITIAL_AUCTION and r["auc_company"] == CBSC
        assert k.to_move(s) == sp
    assert min(counts) > 0
    assert chi2(counts, [1 / n] * n) < CHI2_CRIT_1E4[n - 1], counts


def test_player_count_limits_spec_1():
    for bad in (1, 2, 6):
        with pytest.raises(ValueError):
            k.new_state(bad, 0)


def test_setup_is_reproducible_per_seed_IG_SETUP_3():
    """IG-SETUP-3."""
    assert k.new_state(4, 99).tobytes() == k.new_state(4, 99).tobytes()
    boards = {k.new_state(4, seed)[0]["cube"].tobytes() for seed in range(20)}
    assert len(boards) > 1


# --------------------------------------------------------------------------------------------------
# Initial auction (IG-INIT-*)
# --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", ["seed", "published"])
def test_initial_auction_all_pass_free_to_opener_IG_INIT_3(ruleset):
    """IG-INIT-3: Under both rulesets the opener may pass and, if all pass, receives the certificate for £0 and
    opens the next initial auction; after five such auctions they hold CBSC and move first."""
    s = k.new_state(4, 11, ruleset=ruleset)
    r = s[0]
    sp = int(r["start_player"])
    for c in range(5):
        assert r["auc_company"] == c and r["phase"] == ST.PH_INITIAL_AUCTION
        assert k.to_move(s) == sp
        for i in range(4):
            play(s, PASS, (sp + i) % 4)
        assert r["held"][sp, c] == 1 and r["cert_owner"][c, 0] == sp
    assert cash(s) == [20, 20, 20, 20]
    assert r["phase"] == ST.PH_MAIN and k.to_move(s) == sp


@pytest.mark.parametrize("ruleset", ["seed", "published"])
def test_initial_auction_bids_and_passes_IG_INIT_2_4(ruleset):
    """IG-INIT-2, IG-INIT-4:
    3 players, start P1: bids must exceed the high bid; a passed player is skipped; the winner opens
    the next auction."""
    s = k.new_state(3, 0, ruleset=ruleset)
    r = s[0]
    r["start_player"] = r["active"] = r["auc_opener"] = r["auc_bidder"] = 1
    play(s, BID + 0, 1)  # 7
    play(s, PASS, 2)
    play(s, BID + 2, 0)  # min 8, j = 2 -> 10
    assert s[0]["auc_high_bid"] == 10
    play(s, BID + 0, 1)  # 11
    # P2 passed: back to P0, never P2
    assert k.to_move(s) == 0
    play(s, PASS, 0)
    assert cash(s) == [20, 9, 20] and r["cert_owner"][CBSC, 0] == 1
    assert r["auc_company"] == WLW and k.to_move(s) == 1


def test_initial_auction_only_opener_bids_IG_INIT_4():
    """IG-INIT-4."""
    s = k.new_state(3, 0)
    r = s[0]
    sp = int(r["start_player"])
    play(s, BID + 3, sp)  # 7 + 3 = 10
    play(s, PASS, (sp + 1) % 3)
    play(s, PASS, (sp + 2) % 3)
    assert r["cash"][sp] == 10 and r["held"][sp, CBSC] == 1


# --------------------------------------------------------------------------------------------------
# Main-game auctions (IG-AUC-*)
# --------------------------------------------------------------------------------------------------
def test_auction_needs_nonempty_stack_IG_AUC_1():
    """IG-AUC-1."""
    s = common_board()
    give_cert(s, 0, BCD)
    give_cert(s, 1, BCD)  # BCD has only two certificates
    main_turn(s, 2)
    ids = legal_ids(s)
    assert AUCTION + BCD not in ids
    assert {AUCTION + c for c in (CBSC, WLW, GSW, MGW)} <= ids


def test_auction_top_certificate_only_IG_AUC_1():
    """IG-AUC-1."""
    s = common_board()
    give_cert(s, 0, GSW)  # GSW_1 (4) sold; top is GSW_2 (9)
    main_turn(s, 1)
    play(s, AUCTION + GSW, 1)
    play(s, BID + 0, 1)
    assert s[0]["auc_high_bid"] == 9
    for seat in (2, 3, 0):
        play(s, PASS, seat)
    r = s[0]
    assert r["cert_owner"][GSW, 1] == 1 and r["cash"][1] == 11 and r["next_cert"][GSW] == 2


def test_published_auction_needs_cash_for_printed_value_IG_AUC_2():
    """IG-AUC-2."""
    s = common_board(ruleset="published")
    r = s[0]
    main_turn(s, 0)
    r["cash"][0] = 6  # tops 7, 5, 8, 4, 6
    ids = legal_ids(s)
    assert {AUCTION + c for c in range(5) if AUCTION + c in ids} == {AUCTION + WLW, AUCTION + GSW, AUCTION + MGW}
    r["cash"][0] = 0
    assert not {0, 1, 2, 3, 4} & legal_ids(s)
    # under the seed ruleset the same seat with £0 may open any auction
    t = common_board()
    main_turn(t, 0)
    t[0]["cash"][0] = 0
    assert {0, 1, 2, 3, 4} <= legal_ids(t)


def test_published_opener_must_bid_but_may_pass_later_IG_AUC_2_3():
    """IG-AUC-2, IG-AUC-3."""
    s = common_board(3, ruleset="published")
    main_turn(s, 0)
    play(s, AUCTION + GSW, 0)
    assert PASS not in legal_ids(s)  # opening decision: bid at least 4
    assert legal_ids(s) == set(range(BID, BID + 17))  # 4..20
    play(s, BID + 0, 0)
    play(s, BID + 0, 1)  # 5
    play(s, PASS, 2)
    assert PASS in legal_ids(s) and k.to_move(s) == 0  # the opener's later decision may pass
    play(s, PASS, 0)
    assert s[0]["held"][1, GSW] == 1 and cash(s) == [20, 15, 20]
    assert k.to_move(s) == 1  # IG-TURN-2: P0 was active -> P1


def test_seed_main_auction_opener_may_pass_then_others_bid_IG_AUC_2_4():
    """IG-AUC-2, IG-AUC-4."""
    s = common_board(3)
    main_turn(s, 0)
    play(s, AUCTION + CBSC, 0)
    play(s, PASS, 0)
    play(s, BID + 0, 1)  # 7
    assert k.to_move(s) == 2
    play(s, PASS, 2)  # P0 passed already: P1 wins at 7
    r = s[0]
    assert r["held"][1, CBSC] == 1 and cash(s) == [20, 13, 20]
    assert r["phase"] == ST.PH_MAIN and k.to_move(s) == 1


def test_bids_capped_by_cash_IG_AUC_5():
    """IG-AUC-5."""
    s = common_board()
    r = s[0]
    main_turn(s, 0)
    r["cash"][:4] = [20, 9, 100, 0]
    play(s, AUCTION + CBSC, 0)  # min 7
    assert legal_ids(s) == {PASS} | set(range(BID, BID + 14))  # 7..20
    play(s, BID + 0, 0)  # 7
    assert legal_ids(s) == {PASS} | {BID, BID + 1}  # P1 with £9: 8 or 9
    play(s, BID + 1, 1)  # 9, all of P1's cash
    assert legal_ids(s) == {PASS} | set(range(BID, BID + 40))  # P2 rich: every jump up to min + 39
    play(s, PASS, 2)
    assert legal_ids(s) == {PASS}  # P3 with £0 must pass
    play(s, PASS, 3)
    play(s, PASS, 0)
    assert r["cash"][1] == 0 and r["held"][1, CBSC] == 1


def test_bid_exceeding_cash_by_one_is_masked_IG_AUC_5():
    """IG-AUC-5."""
    s = common_board()
    main_turn(s, 0)
    s[0]["cash"][0] = 7
    play(s, AUCTION + CBSC, 0)
    assert legal_ids(s) == {PASS, BID}


# --------------------------------------------------------------------------------------------------
# Building (IG-BLD-*)
# --------------------------------------------------------------------------------------------------
def test_build_needs_certificate_IG_BLD_1():
    """IG-BLD-1."""
    s = common_board()
    main_turn(s, 0)
    assert not set(range(BUILD, BUILD + 5)) & legal_ids(s)
    give_cert(s, 1, MGW)  # someone else's certificate does not help
    assert not set(range(BUILD, BUILD + 5)) & legal_ids(s)
    give_cert(s, 0, MGW)
    assert set(range(BUILD, BUILD + 5)) & legal_ids(s) == {BUILD + MGW}


def test_build_needs_supply_IG_BLD_1_8():
    """IG-BLD-1, IG-BLD-8."""
    s = common_board()
    give_cert(s, 0, CBSC)
    main_turn(s, 0)
    assert BUILD + CBSC in legal_ids(s)
    s[0]["supply"][CBSC] = 0
    assert BUILD + CBSC not in legal_ids(s)


def _sealed_board():
    """WLW covers every non-difficult hex except D5; CBSC sits on every difficult hex."""
    s = common_board()
    r = s[0]
    difficult = T.TERRAIN == T.T_DIFFICULT
    r["loco"][WLW, :] = (~difficult).astype(np.uint8)
    r["loco"][WLW, hx("D5")] = 0
    r["loco"][CBSC, :] = difficult.astype(np.uint8)
    r["loco"][CBSC, hx("O4")] = 1
    r["supply"][WLW] = 10
    give_cert(s, 0, WLW)
    main_turn(s, 0)
    return s


def test_build_needs_a_legal_placement_IG_BLD_1_6():
    """IG-BLD-1, IG-BLD-6."""
    s = _sealed_board()
    assert BUILD + WLW in legal_ids(s)
    s[0]["loco"][WLW, hx("D5")] = 1
    assert BUILD + WLW not in legal_ids(s)  # held and supplied, but nowhere to go


def test_build_ends_when_geometry_allows_nothing_IG_BLD_9():
    """IG-BLD-9."""
    s = _sealed_board()
    play(s, BUILD + WLW, 0)
    assert placements(s) == {"D5"}
    play(s, place("D5"), 0)
    r = s[0]
    assert r["phase"] == ST.PH_MAIN and k.to_move(s) == 1  # 2 BP left, but no hex is open
    assert r["supply"][WLW] == 9


def test_placement_must_touch_network_IG_BLD_6():
    """IG-BLD-6."""
    s = common_board()
    give_cert(s, 0, CBSC)
    main_turn(s, 0)
    play(s, BUILD + CBSC, 0)
    assert placements(s) == neighbours("O4") == {"N3", "N4", "N5", "O3"}
    play(s, place("N5"), 0)
    assert placements(s) == (neighbours("O4") | neighbours("N5")) - {"O4", "N5"}


def test_difficult_hex_one_company_and_costs_IG_BLD_3_4_5_7():
    """IG-BLD-3, IG-BLD-7."""
    s = common_board()
    r = s[0]
    r["loco"][WLW, hx("N3")] = 1  # N3 difficult, taken by WLW
    r["loco"][WLW, hx("O3")] = 1  # O3 easy, shared with WLW
    give_cert(s, 0, CBSC)
    main_turn(s, 0)
    play(s, BUILD + CBSC, 0)
    ps = placements(s)
    assert "N3" not in ps  # IG-BLD-4
    assert "O4" not in ps  # IG-BLD-5: never a second locomotive of one company in a hex
    assert {"N4", "N5", "O3"} <= ps  # difficult empty (2), easy (1), shared easy (1.5) all fit in 3
    play(s, place("N4"), 0)  # difficult: 2 BP
    assert r["bld_budget"] == 2
    ps = placements(s)
    assert "O3" not in ps  # shared costs 1.5 > 1 left
    assert "N5" in ps  # empty easy costs 1
    assert not {lab for lab in ps if T.TERRAIN[hx(lab)] == T.T_DIFFICULT}  # difficult costs 2 > 1
    assert "N4" not in ps  # IG-BLD-5
    play(s, place("N5"), 0)
    assert r["phase"] == ST.PH_MAIN and r["supply"][CBSC] == 16
    assert r["loco"][CBSC].sum() == 3


def test_shared_costs_one_and_a_half_whatever_the_number_of_others_IG_BLD_3():
    """IG-BLD-3."""
    s = common_board()
    r = s[0]
    for c in (WLW, BCD, MGW):
        r["loco"][c, hx("N5")] = 1
    give_cert(s, 0, CBSC)
    main_turn(s, 0)
    play(s, BUILD + CBSC, 0)
    play(s, place("N5"), 0)
    assert r["bld_budget"] == 6 - 3


def test_shared_then_difficult_is_illegal_IG_BLD_7():
    """IG-BLD-7."""
    s = common_board()
    r = s[0]
    r["loco"][WLW, hx("O3")] = 1
    give_cert(s, 0, CBSC)
    main_turn(s, 0)
    play(s, BUILD + CBSC, 0)
    play(s, place("O3"), 0)  # 1.5
    assert r["bld_budget"] == 3
    ps = placements(s)
    assert "N3" not in ps and "N4" not in ps  # difficult 2 > 1.5
    assert "N5" in ps


def test_at_most_three_locomotives_per_action_IG_BLD_2_7():
    """IG-BLD-2, IG-BLD-7."""
    s = common_board()
    give_cert(s, 0, MGW)
    main_turn(s, 0)
    play(s, BUILD + MGW, 0)
    for label in ("H10", "H9", "H8"):
        play(s, place(label), 0)
    r = s[0]
    assert r["phase"] == ST.PH_MAIN and r["loco"][MGW].sum() == 4 and r["supply"][MGW] == 15


def test_supply_runs_out_mid_action_IG_BLD_8():
    """IG-BLD-8."""
    s = common_board()
    r = s[0]
    r["supply"][MGW] = 1
    give_cert(s, 0, MGW)
    main_turn(s, 0)
    play(s, BUILD + MGW, 0)
    play(s, place("H10"), 0)
    assert r["supply"][MGW] == 0
    assert r["phase"] == ST.PH_MAIN and k.to_move(s) == 1  # 2 BP left but no locomotive
    main_turn(s, 0)
    assert BUILD + MGW not in legal_ids(s)


def test_end_build_only_after_a_placement_IG_BLD_2_9():
    """IG-BLD-2, IG-BLD-9."""
    s = common_board()
    r = s[0]
    give_cert(s, 3, MGW)
    main_turn(s, 3)
    play(s, BUILD + MGW, 3)
    assert END_BUILD not in legal_ids(s)
    assert all(PLACE <= a < PLACE + T.N_HEX for a in legal_ids(s))
    play(s, place("H10"), 3)
    assert END_BUILD in legal_ids(s) and r["phase"] == ST.PH_BUILD
    play(s, END_BUILD, 3)
    assert r["phase"] == ST.PH_MAIN and k.to_move(s) == 0  # wraps round: P3 -> P0
    assert r["loco"][MGW].sum() == 2 and r["supply"][MGW] == 17
    # unspent BP are lost: the next build starts from 3 again
    main_turn(s, 3)
    play(s, BUILD + MGW, 3)
    assert r["bld_budget"] == 6 and r["bld_placed"] == 0


# --------------------------------------------------------------------------------------------------
# Special interest (IG-SI-*)
# --------------------------------------------------------------------------------------------------
def _si_board():
    s = common_board()
    set_network(s, MGW, ["H11", "H10", "H9", "H8", "H7"])
    set_network(s, BCD, ["C12", "C11", "D11", "E11", "F11"])
    give_cert(s, 0, MGW)
    give_cert(s, 1, BCD)
    main_turn(s, 0)
    return s


def si_ids(s) -> set[int]:
    return {a for a in legal_ids(s) if 10 <= a < 40}


def test_special_interest_needs_connected_held_company_IG_SI_1():
    """IG-SI-1."""
    s = _si_board()
    assert si_ids(s) == {si(4, 0), si(4, 1), si(4, 2)}  # Tullamore via MGW; Drogheda is BCD's (P1's)
    main_turn(s, 1)
    assert si_ids(s) == {si(3, 0), si(3, 1), si(3, 2)}
    main_turn(s, 2)
    assert si_ids(s) == set()  # P2 holds nothing
    give_cert(s, 2, GSW)  # GSW only at Dublin: no town
    assert si_ids(s) == set()
    s[0]["loco"][GSW, hx("H7")] = 1  # any held company on the town will do
    assert si_ids(s) == {si(4, 0), si(4, 1), si(4, 2)}


def test_special_interest_colour_must_be_in_bag_IG_SI_2():
    """IG-SI-2."""
    s = _si_board()
    s[0]["bag"][:] = [0, 3, 2]
    assert si_ids(s) == {si(4, PINK), si(4, WHITE)}
    s[0]["bag"][:] = [0, 0, 2]
    assert si_ids(s) == {si(4, WHITE)}


def test_special_interest_places_cube_and_town_becomes_city_IG_SI_2_3():
    """IG-SI-2, IG-SI-3."""
    s = _si_board()
    r = s[0]
    play(s, si(4, BLACK), 0)
    assert r["cube"][hx("H7")] == BLACK
    assert r["bag"].tolist() == [6, 7, 8]
    assert k.to_move(s) == 1
    main_turn(s, 0)
    assert si_ids(s) == set()  # IG-SI-3: Tullamore already has a cube


def test_special_interest_last_cube_ends_game_IG_SI_4_END_1():
    """IG-SI-4."""
    s = _si_board()
    r = s[0]
    r["bag"][:] = [0, 0, 1]
    play(s, si(4, WHITE), 0)
    assert r["bag"].tolist() == [0, 0, 0]
    assert k.is_over(s) and k.to_move(s) == TERMINAL_SEAT
    assert not mask_of(s).any()


# --------------------------------------------------------------------------------------------------
# Turn order, end, scores (IG-TURN-*, IG-END-1, IG-SCORE-*)
# --------------------------------------------------------------------------------------------------
def test_auction_winner_does_not_change_next_active_IG_TURN_2():
    """IG-TURN-2."""
    s = common_board()
    main_turn(s, 0)
    play(s, AUCTION + GSW, 0)
    play(s, PASS, 0)
    play(s, PASS, 1)
    play(s, BID + 0, 2)
    play(s, PASS, 3)
    assert s[0]["held"][2, GSW] == 1
    assert k.to_move(s) == 1 and s[0]["active"] == 1  # P0 was active: P1 next, not the winner's neighbour


def test_dividend_call_that_leaves_cubes_does_not_end_IG_END_1():
    """IG-END-1."""
    s = common_board()
    s[0]["bag"][:] = [2, 1, 1]
    main_turn(s, 2)
    play(s, CALL_DIVIDENDS, 2)
    assert int(s[0]["bag"].sum()) == 1
    assert not k.is_over(s) and k.to_move(s) == 3
    assert returns(s) == [0.0] * 4  # no rewards before the end


def test_call_dividends_is_the_fallback_action_IG_TURN_3():
    """IG-TURN-3: A seat with no money, no certificates, under the published rules: CALL_DIVIDENDS is still legal."""
    s = common_board(ruleset="published")
    main_turn(s, 0)
    s[0]["cash"][0] = 0
    assert legal_ids(s) == {CALL_DIVIDENDS}


def _final_position(cash5):
    """5 players; certificates: P0 WLW_1 + WLW_2 + GSW_1 (5 + 10 + 4), P2 BCD_1 (8), P1 BCD_2 (13),
    P4 MGW_1 (6); CBSC unsold. The last cube is white, which pays nobody (homes only)."""
    s = common_board(5)
    give_cert(s, 0, WLW)
    give_cert(s, 0, WLW)
    give_cert(s, 0, GSW)
    give_cert(s, 2, BCD)
    give_cert(s, 1, BCD)
    give_cert(s, 4, MGW)
    s[0]["cash"][:] = cash5
    s[0]["bag"][:] = [0, 0, 1]
    main_turn(s, 4)
    play(s, CALL_DIVIDENDS, 4)
    assert k.is_over(s)
    assert s[0]["last_payout"].tolist() == [0] * 5
    return s


def test_scores_and_three_way_tie_IG_SCORE_1_2():
    """IG-SCORE-1, IG-SCORE-2."""
    s = _final_position([11, 17, 17, 30, 1])
    assert scores(s) == [11 + 19, 17 + 13, 17 + 8, 30, 1 + 6]
    assert returns(s) == pytest.approx([1 / 3, 1 / 3, 0.0, 1 / 3, 0.0])


def test_scores_single_winner_IG_SCORE_2():
    """IG-SCORE-2."""
    s = _final_position([11, 17, 17, 31, 1])
    assert scores(s) == [30, 30, 25, 31, 7]
    assert returns(s) == [0.0, 0.0, 0.0, 1.0, 0.0]


@pytest.mark.parametrize("n, ruleset", [(3, "seed"), (4, "published"), (5, "seed"), (3, "published")])
def test_random_games_invariants_IG_TURN_3_END_1(n, ruleset):
    """Uniformly random games: CALL_DIVIDENDS is legal in every MAIN turn (IG-TURN-3), the mask is never
    empty for a seat to move, the bag never goes negative, certificates and locomotives stay consistent,
    and every game ends with an empty bag (IG-END-1) and returns summing to 1."""
    policy = np.random.default_rng(n * 7 + len(ruleset))
    for game in range(3):
        s = k.new_state(n, 500 + game, ruleset=ruleset)
        r = s[0]
        steps = 0
        while not k.is_over(s):
            m = mask_of(s)
            ids = np.flatnonzero(m)
            assert ids.size > 0
            assert k.to_move(s) in range(n)
            if r["phase"] == ST.PH_MAIN:
                assert m[CALL_DIVIDENDS] == 1
            k.step(s, int(policy.choice(ids)))
            steps += 1
            assert (r["bag"] >= 0).all() and (r["cash"][:n] >= 0).all()
            if steps % 25 == 0:
                assert k.check_invariants(s) == []
            assert steps < 20000
        assert int(r["bag"].sum()) == 0
        for c in range(5):
            owners = r["cert_owner"][c, : r["next_cert"][c]]
            assert (owners >= 0).all() and (r["cert_owner"][c, r["next_cert"][c] :] == -1).all()
            assert [int((owners == p).sum()) for p in range(5)] == r["held"][:, c].tolist()
            assert int(r["loco"][c].sum()) + int(r["supply"][c]) == 19
        # cubes: 30 in all = board + bag (empty) + drawn track
        assert int((r["cube"] >= 0).sum()) + int((r["drawn"] >= 0).sum()) == 30
        assert k.check_invariants(s) == []
        assert math.isclose(sum(returns(s)), 1.0)
        worth = scores(s)
        assert all((x > 0) == (worth[p] == max(worth)) for p, x in enumerate(returns(s)))


# --------------------------------------------------------------------------------------------------
# Observation
# --------------------------------------------------------------------------------------------------
def _pieces():
    return {p.name: p for p in k.OBS_PIECES}


@pytest.mark.parametrize("n", [3, 4, 5])
def test_observation_is_seat_relative_spec_7(n):
    s = common_board(n)
    r = s[0]
    r["cash"][:n] = [11, 22, 33, 44, 55][:n]
    give_cert(s, 1, MGW)
    give_cert(s, 1, MGW)
    give_cert(s, n - 1, BCD)
    main_turn(s, 1)
    play(s, AUCTION + CBSC, 1)
    play(s, BID + 0, 1)  # P1 high bidder, P2 to move
    P = _pieces()
    out = np.zeros(k.OBS_SIZE, np.float32)
    for q in range(n):
        k.observe(s, q, out)
        for p in range(n):
            i = (p - q) % n
            assert out[P["cash_by_seat"].offset + i] == pytest.approx(r["cash"][p] / 100)
            held = out[P["held_by_seat"].offset + i * 5 : P["held_by_seat"].offset + i * 5 + 5]
            assert held == pytest.approx(r["held"][p] / 4)
        present = out[P["seat_present"].offset : P["seat_present"].offset + 5].tolist()
        assert present == [1.0] * n + [0.0] * (5 - n)
        to_move = out[P["to_move_onehot"].offset : P["to_move_onehot"].offset + 5]
        assert np.flatnonzero(to_move).tolist() == [(2 - q) % n]
        active = out[P["active_onehot"].offset : P["active_onehot"].offset + 5]
        assert np.flatnonzero(active).tolist() == [(1 - q) % n]
        high = out[P["auction_high_bidder"].offset : P["auction_high_bidder"].offset + 5]
        assert np.flatnonzero(high).tolist() == [(1 - q) % n]
        assert out[P["auction_high_bid"].offset] == pytest.approx(7 / 100)
        assert out[P["auction_min_bid"].offset] == pytest.approx(8 / 100)
    # the table's view (seat -1) keeps absolute seats
    k.observe(s, -1, out)
    for p in range(n):
        assert out[P["cash_by_seat"].offset + p] == pytest.approx(r["cash"][p] / 100)


def test_observation_pieces_cover_the_vector_spec_7():
    pieces = sorted(k.OBS_PIECES, key=lambda p: p.offset)
    pos = 0
    for p in pieces:
        assert p.offset == pos
        pos += p.size
    assert pos == k.OBS_SIZE


def test_observation_shows_board_and_bag_spec_7():
    s = common_board()
    P = _pieces()
    out = np.zeros(k.OBS_SIZE, np.float32)
    k.observe(s, 2, out)
    cube = out[P["cube_colour"].offset : P["cube_colour"].offset + 3 * 139].reshape(3, 139)
    for label, colour in {"C12": BLACK, "H11": PINK, "H3": WHITE}.items():
        assert cube[colour, hx(label)] == 1 and cube[:, hx(label)].sum() == 1
    bag = out[P["bag"].offset : P["bag"].offset + 3]
    assert bag == pytest.approx([0.7, 0.7, 0.8])
    loco = out[P["loco"].offset : P["loco"].offset + 5 * 139].reshape(5, 139)
    assert loco[GSW, hx("H11")] == 1 and loco[GSW].sum() == 1
