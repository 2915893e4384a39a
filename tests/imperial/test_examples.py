"""Every worked example of spec §9 (EX-1..EX-10), with its rule IDs. Numbers come from the spec."""

from __future__ import annotations

import numpy as np

from ._helpers import (
    AH,
    ASK,
    BUILD,
    DEST,
    FACTORY_SP,
    FIGHT,
    FR,
    GB,
    GE,
    IMPORT_ARMY,
    IMPORT_FLEET,
    IMPORT_SP,
    INVESTOR,
    IT,
    MAN1,
    ORIGIN,
    PASS,
    PROD1,
    PROD2,
    RONDEL,
    RU,
    ST,
    TAXATION,
    blank,
    buy,
    deal_seed,
    dests,
    fix_ledger,
    give_bond,
    k,
    legal_ids,
    play,
    rg,
    set_chips,
    to_maneuver,
    turn_to,
)


def test_EX1_six_player_setup_IMP_SET_1_to_9():
    """IMP-SET-1, IMP-SET-3, IMP-SET-4, IMP-SET-7, IMP-SET-9: one flag card a seat; bond 4 + the paired bond 1 (GB-RU,
    AH-GE, RU-FR, IT-GB, GE-IT, FR-AH); treasuries 11, power 0, tax at 5, no units; AH acts first."""
    seed = deal_seed(6, ["GB", "AH", "RU", "IT", "GE", "FR"])
    s = k.new_state(6, seed)
    r = s[0]
    holdings = {
        0: {(GB, 4), (RU, 1)},
        1: {(AH, 4), (GE, 1)},
        2: {(RU, 4), (FR, 1)},
        3: {(IT, 4), (GB, 1)},
        4: {(GE, 4), (IT, 1)},
        5: {(FR, 4), (AH, 1)},
    }
    for p, want in holdings.items():
        got = {(n, b + 1) for n in range(6) for b in range(9) if r["bond_owner"][n, b] == p}
        assert got == want
    assert r["cash"].tolist() == [2] * 6
    assert r["treasury"].tolist() == [11] * 6
    assert r["flag"].tolist() == [1, 3, 5, 0, 4, 2]  # AH s1, IT s3, FR s5, GB s0, GE s4, RU s2
    assert r["investor_card"] == 2
    assert r["power"].tolist() == [0] * 6 and r["tax_pos"].tolist() == [5] * 6
    assert not r["armies"].any() and not r["fleets"].any()
    assert r["phase"] == ST.PH_RONDEL and r["nation"] == AH and k.to_move(s) == 1
    assert legal_ids(s) == set(range(8))  # IMP-RON-2: any space, free


def test_EX2_four_player_first_round():
    """IMP-TURN-1, IMP-TURN-2, IMP-INV-1, IMP-BND-1, IMP-FAC-1, IMP-PRO-3: nations act AH, IT, FR, GB, GE, RU, each by
    its flag holder; Investor pays interest first; a bond is bought at its cost into the treasury; Marseille factory for
    5; production puts chips on home provinces."""
    seed = deal_seed(4, ["FR", "RU", "IT", "GB"])
    s = k.new_state(4, seed)
    r = s[0]
    claudia, daniel, anton, bert = 0, 1, 2, 3
    assert r["treasury"].tolist() == [2, 9, 11, 11, 0, 11]
    assert r["flag"][AH] == claudia and r["flag"][GE] == -1  # IMP-SET-5
    assert r["investor_card"] == daniel  # IMP-SET-6
    # 1. AH -> Import: fleet Trieste, army Lemberg; the treasury is then empty, the import ends
    play(s, RONDEL + IMPORT_SP, claudia)
    play(s, IMPORT_FLEET + rg("trieste"), claudia)
    play(s, IMPORT_ARMY + rg("lemberg"), claudia)
    assert r["treasury"][AH] == 0 and r["fleets"][AH, rg("trieste")] == 1 and r["armies"][AH, rg("lemberg")] == 1
    assert (r["chip"] == AH).sum() == 0  # IMP-OPT-1: import places no chip
    # 2. IT -> Investor; GE is skipped later while its flag is in the bank (IMP-TURN-3)
    assert r["nation"] == IT
    play(s, RONDEL + INVESTOR, anton)
    assert r["cash"][anton] == 6 and r["treasury"][IT] == 5
    assert r["cash"][daniel] == 4  # +2 bonus
    play(s, buy(GE, 2), daniel)
    assert r["cash"][daniel] == 0 and r["treasury"][GE] == 4 and r["flag"][GE] == daniel
    assert r["investor_card"] == anton
    # 3. FR -> Factory at Marseille
    play(s, RONDEL + FACTORY_SP, claudia)
    play(s, BUILD + rg("marseille"), claudia)
    assert r["treasury"][FR] == 6 and r["factory"][rg("marseille")] == 1
    # 4. GB -> Production (space 1)
    play(s, RONDEL + PROD1, bert)
    assert r["fleets"][GB, rg("london")] == 1 and r["fleets"][GB, rg("liverpool")] == 1
    assert r["chip"][rg("london")] == GB and r["chip"][rg("liverpool")] == GB and r["chips_left"][GB] == 8
    # 5. GE -> Production (space 5)
    play(s, RONDEL + PROD2, daniel)
    assert r["armies"][GE, rg("berlin")] == 1 and r["fleets"][GE, rg("hamburg")] == 1
    assert r["chip"][rg("berlin")] == GE and r["chip"][rg("hamburg")] == GE
    # 6. RU -> Investor: Bert 1 first, then Daniel 4; Anton buys GE bond 3 and takes the GE flag
    play(s, RONDEL + INVESTOR, daniel)
    assert r["cash"][bert] == 3 and r["cash"][daniel] == 4 and r["treasury"][RU] == 6
    assert r["cash"][anton] == 8
    play(s, buy(GE, 3), anton)
    assert r["cash"][anton] == 2 and r["treasury"][GE] == 10 and r["flag"][GE] == anton
    assert r["investor_card"] == bert
    assert r["cash"][:4].tolist() == [2, 4, 2, 3]
    assert r["treasury"].tolist() == [0, 5, 6, 11, 10, 6]
    assert k.check_invariants(s) == []


def test_EX2_published_ruleset_places_no_home_chips():
    """IMP-PRO-3: under "published" production places no chip."""
    seed = deal_seed(4, ["FR", "RU", "IT", "GB"])
    s = k.new_state(4, seed, ruleset="published")
    turn_to(s, GB)
    s[0]["flag"][GB] = 3
    play(s, RONDEL + PROD1, 3)
    assert (s[0]["chip"] >= 0).sum() == 0


def test_EX3_rondel_costs_and_passing_IMP_RON_3_IMP_RON_5():
    """IMP-RON-3, IMP-RON-5."""
    from tabletop_zoo.kernels.imperial.economy import passes_investor, rondel_cost

    assert (rondel_cost(2, 7), passes_investor(2, 7)) == (4, True)  # (a)
    assert (rondel_cost(7, 3), passes_investor(7, 3)) == (2, False)  # (b) landing
    assert (rondel_cost(3, 4), passes_investor(3, 4)) == (0, False)  # (c)
    assert (rondel_cost(4, 0), passes_investor(4, 0)) == (2, False)  # (d)
    assert (rondel_cost(0, 5), passes_investor(0, 5)) == (4, True)  # (e)
    assert (rondel_cost(-1, 3), passes_investor(-1, 5)) == (0, False)
    s = blank(4)
    r = s[0]
    r["flag"][:] = 0
    r["cash"][0] = 100
    turn_to(s, AH, PROD1)
    assert RONDEL + PROD1 not in legal_ids(s)  # (f) 0 or 8 steps
    assert legal_ids(s) == {RONDEL + x for x in range(2, 8)}  # 1 -> 0 would be 7 steps (IMP-RON-3)


def test_EX4_taxation_with_an_occupied_factory_IMP_TAX_1_to_5():
    """IMP-TAX-1, IMP-TAX-5: EX4: revenue 8; chart 6 -> 8, bonus 2 to the flag holder, treasury 3 -> 6, power 10 ->
    13."""
    s = blank(4)
    r = s[0]
    r["flag"][AH] = 0
    r["flag"][IT] = 1
    for x in ("vienna", "budapest", "trieste"):
        r["factory"][rg(x)] = 1
    r["armies"][IT, rg("trieste")] = 1
    r["hostile"][IT, rg("trieste")] = 1
    set_chips(s, AH, ["west_balkan", "romania", "greece", "ionian_sea"])
    r["armies"][AH, rg("west_balkan")] = 3
    r["fleets"][AH, rg("ionian_sea")] = 2
    r["tax_pos"][AH] = 6
    r["power"][AH] = 10
    r["treasury"][AH] = 3
    r["cash"][0] = 1
    assert k.tax_revenue(r, AH) == 8
    assert not k.collect_taxes(r, AH)
    assert r["tax_pos"][AH] == 8 and r["cash"][0] == 3 and r["treasury"][AH] == 6 and r["power"][AH] == 13


def test_EX5_falling_tax_and_heavy_upkeep_IMP_TAX_2_3_4():
    """IMP-TAX-2, IMP-TAX-3, IMP-TAX-4."""
    s = blank(4)
    r = s[0]
    r["flag"][FR] = 2
    r["factory"][rg("paris")] = r["factory"][rg("bordeaux")] = 1
    set_chips(s, FR, ["spain"])
    r["armies"][FR, rg("spain")] = 4
    r["armies"][FR, rg("paris")] = 3
    r["tax_pos"][FR] = 8
    r["power"][FR] = 4
    r["treasury"][FR] = 2
    cash = int(r["cash"][2])
    k.collect_taxes(r, FR)
    assert (r["tax_pos"][FR], r["treasury"][FR], r["power"][FR], r["cash"][2]) == (5, 2, 4, cash)
    set_chips(s, FR, ["spain", "portugal"])  # next time the tax is 6
    k.collect_taxes(r, FR)
    assert (r["tax_pos"][FR], r["power"][FR], r["cash"][2]) == (6, 5, cash + 1)


def _ex6_state(p0_cash):
    s = blank(4)
    r = s[0]
    r["flag"][IT] = 0
    for n in (AH, FR, GB, GE, RU):
        r["flag"][n] = 3
    r["treasury"][IT] = 3
    r["cash"][:4] = [p0_cash, 0, 1, 5]
    give_bond(s, 0, IT, 4)
    give_bond(s, 1, IT, 2)
    give_bond(s, 2, IT, 3)
    give_bond(s, 3, GB, 9)
    give_bond(s, 3, AH, 9)
    fix_ledger(s)
    turn_to(s, IT, FACTORY_SP)
    return s


def test_EX6_interest_from_an_empty_treasury_IMP_INV_2_IMP_INV_3():
    """IMP-INV-2, IMP-INV-3."""
    s = _ex6_state(10)
    r = s[0]
    r["investor_card"] = 3
    play(s, RONDEL + INVESTOR, 0)
    assert r["treasury"][IT] == 0
    # after interest: P0 8, P1 2, P2 4; then the card holder (seat 3) got its 2
    assert r["cash"][:3].tolist() == [8, 2, 4]
    assert r["cash"][3] == 7
    assert k.check_invariants(s) == []
    s = _ex6_state(1)
    assert RONDEL + INVESTOR not in legal_ids(s)  # 3 + 1 < 5


def test_EX7a_b_army_routes_rail_and_one_step_IMP_ARM_2_3():
    """IMP-ARM-2, IMP-ARM-3."""
    s = blank(4)
    r = s[0]
    r["flag"][GE] = 0
    r["armies"][GE, rg("holland")] = 1
    to_maneuver(s, GE)
    play(s, ORIGIN + rg("holland"))
    assert "danzig" in dests(s)  # step Holland -> Cologne, rail to Danzig
    s = blank(4)
    r = s[0]
    r["flag"][GE] = 0
    r["armies"][GE, rg("cologne")] = 1
    to_maneuver(s, GE)
    play(s, ORIGIN + rg("cologne"))
    d = dests(s)
    assert "denmark" in d and "sweden" not in d
    s = blank(4)
    r = s[0]
    r["flag"][GE] = 0
    r["armies"][GE, rg("cologne")] = 1
    r["fleets"][GE, rg("baltic_sea")] = 1
    to_maneuver(s, GE)
    play(s, ORIGIN + rg("cologne"))
    assert "sweden" in dests(s)


def test_EX7c_sea_transport_chain_IMP_ARM_4_IMP_ARM_6():
    """IMP-ARM-4, IMP-ARM-6."""
    s = blank(4)
    r = s[0]
    r["flag"][AH] = 0
    r["armies"][AH, rg("trieste")] = 3
    r["fleets"][AH, rg("ionian_sea")] = 2
    r["fleets"][AH, rg("western_mediterranean")] = 1
    to_maneuver(s, AH)
    play(s, ORIGIN + rg("trieste"))
    assert {"algeria", "tunis", "rome", "naples"} <= dests(s)
    play(s, DEST + rg("algeria"))
    # the chain [Ionian, Western Med] is the only one: both SEA choices are forced (IMP-TURN-4)
    assert r["armies"][AH, rg("algeria")] == 1
    assert r["carried"][rg("ionian_sea") - 45] == 1 and r["carried"][rg("western_mediterranean") - 45] == 1
    play(s, ORIGIN + rg("trieste"))
    assert "algeria" not in dests(s) and "tunis" in dests(s)
    play(s, DEST + rg("tunis"))  # the only chain [Ionian] is forced (IMP-TURN-4)
    assert r["armies"][AH, rg("tunis")] == 1
    assert r["carried"][rg("ionian_sea") - 45] == 2 and r["carried"][rg("western_mediterranean") - 45] == 1
    play(s, ORIGIN + rg("trieste"))
    assert not {"tunis", "rome", "algeria", "naples"} & dests(s)  # no transport left


def test_EX7c_land_at_rome_after_the_first_sea():
    s = blank(4)
    r = s[0]
    r["flag"][AH] = 0
    r["armies"][AH, rg("trieste")] = 1
    r["fleets"][AH, rg("ionian_sea")] = 1
    r["fleets"][AH, rg("western_mediterranean")] = 1
    to_maneuver(s, AH)
    play(s, ORIGIN + rg("trieste"))
    play(s, DEST + rg("rome"))  # Ionian only: the chain ends as soon as Rome can be reached
    assert r["armies"][AH, rg("rome")] == 1 and r["carried"][rg("western_mediterranean") - 45] == 0
    assert r["phase"] == ST.PH_STANCE


def test_EX7d_rail_broken_by_a_hostile_army_IMP_ARM_2_IMP_STN_4():
    """IMP-ARM-2, IMP-STN-4."""
    s = blank(4)
    r = s[0]
    r["flag"][FR] = 0
    r["flag"][GE] = 1
    r["armies"][FR, rg("paris")] = 1
    r["armies"][GE, rg("dijon")] = 1
    r["hostile"][GE, rg("dijon")] = 1
    to_maneuver(s, FR)
    play(s, ORIGIN + rg("paris"))
    assert dests(s) == {"dijon", "belgium", "brest", "bordeaux", "marseille", "spain", "genoa"}


def _ex8_state():
    s = blank(4)
    r = s[0]
    r["flag"][AH] = 0
    r["flag"][IT] = 1
    r["flag"][GB] = 2
    r["fleets"][AH, rg("ionian_sea")] = 1
    r["fleets"][AH, rg("eastern_mediterranean")] = 1
    set_chips(s, IT, ["ionian_sea"])
    return s


def test_EX8_naval_battle_IMP_CMB_2_3_IMP_CHP_2():
    """IMP-CMB-2, IMP-CMB-3, IMP-CHP-2."""
    s = _ex8_state()
    r = s[0]
    r["fleets"][IT, rg("ionian_sea")] = 1
    to_maneuver(s, AH)
    play(s, ORIGIN + rg("eastern_mediterranean"), 0)
    play(s, DEST + rg("ionian_sea"), 0)
    assert legal_ids(s) == {FIGHT + IT, PASS}
    play(s, FIGHT + IT, 0)
    assert r["fleets"][IT, rg("ionian_sea")] == 0 and r["fleets"][AH, rg("ionian_sea")] == 1
    assert r["moved_fleet"][rg("ionian_sea")] == 0  # the survivor is AH's unacted fleet
    assert ORIGIN + rg("ionian_sea") in legal_ids(s)
    play(s, PASS, 0)  # DONE
    assert r["chip"][rg("ionian_sea")] == AH and r["chips_left"][IT] == 10 and r["chips_left"][AH] == 9


def test_EX8_variant_ask_order_IMP_CMB_2():
    """IMP-CMB-2."""
    s = _ex8_state()
    r = s[0]
    r["fleets"][IT, rg("ionian_sea")] = 1  # B
    r["fleets"][GB, rg("ionian_sea")] = 1  # C
    to_maneuver(s, AH)
    play(s, ORIGIN + rg("eastern_mediterranean"), 0)
    play(s, DEST + rg("ionian_sea"), 0)
    assert legal_ids(s) == {FIGHT + IT, FIGHT + GB, PASS}
    play(s, PASS, 0)
    assert legal_ids(s) == {ASK + IT, ASK + GB}
    play(s, ASK + GB, 0)
    assert legal_ids(s) == {FIGHT + AH, PASS} and k.to_move(s) == 2
    play(s, PASS, 2)
    assert k.to_move(s) == 1 and r["phase"] == ST.PH_ANSWER  # only B is left: asked automatically
    play(s, FIGHT + AH, 1)
    # AH 2 vs IT 1: one exchange; GB not involved
    assert r["fleets"][IT, rg("ionian_sea")] == 0 and r["fleets"][GB, rg("ionian_sea")] == 1
    assert r["fleets"][AH, rg("ionian_sea")] == 1


def test_EX9_trade_up_flag_change_compensation_flagless_purchase():
    """IMP-BND-1: EX9: a trade-up returns FR bond 2 and pays the difference for bond 5."""
    s = blank(4)
    r = s[0]
    x, y = 1, 2
    r["flag"][:] = [y, 0, x, 3, 0, 3]
    give_bond(s, x, FR, 4)
    give_bond(s, y, FR, 2)
    give_bond(s, y, AH, 4)
    give_bond(s, 0, IT, 4)
    give_bond(s, 0, GE, 4)
    give_bond(s, 3, GB, 4)
    give_bond(s, 3, RU, 4)
    r["cash"][:4] = [0, 3, 8, 0]
    r["investor_card"] = y
    fix_ledger(s)
    turn_to(s, IT, MAN1)  # IT (seat 0) passes Investor: Maneuver -> Import
    play(s, RONDEL + IMPORT_SP, 0)  # the treasury is empty: the import ends by itself
    assert k.to_move(s) == y and r["cash"][y] == 10
    fr = int(r["treasury"][FR])
    play(s, buy(FR, 5, 2), y)
    assert r["flag"][FR] == y and r["cash"][y] == 1 and r["cash"][x] == 4
    assert k.to_move(s) == x  # seats 3 and 0 hold flags
    play(s, buy(FR, 2), x)
    assert r["flag"][FR] == x and r["cash"][x] == 0 and r["cash"][y] == 1
    assert r["treasury"][FR] == fr + 12
    assert r["investor_card"] == 3
    assert k.check_invariants(s) == []


def test_EX10_game_end_after_passing_investor_and_scoring_IMP_END_1_IMP_SCR_1_3():
    """IMP-END-1, IMP-SCR-1, IMP-SCR-2, IMP-SCR-3, IMP-INV-6, IMP-TAX-5: EX10: RU reaches 25 power at Taxation, the game
    ends before the passed Investor acts (no +2); scores 43, 43, 38, 41."""
    s = blank(4)
    r = s[0]
    r["flag"][:] = [2, 2, 0, 3, 1, 3]
    r["power"][:] = [18, 9, 12, 14, 20, 22]
    r["tax_pos"][RU] = 12
    r["treasury"][RU] = 5
    for x in ("moscow", "odessa", "kiev", "warsaw"):
        r["factory"][rg(x)] = 1
    r["armies"][RU, rg("moscow")] = 6
    set_chips(s, RU, ["sweden", "norway", "romania", "bulgaria", "turkey"])
    bonds = {
        0: [(RU, 3), (GE, 2), (FR, 4)],
        1: [(RU, 1), (GE, 5), (AH, 1)],
        2: [(AH, 4), (AH, 2), (IT, 4), (GB, 1)],
        3: [(GB, 4), (GB, 3), (RU, 4), (IT, 1)],
    }
    for p, held in bonds.items():
        for n, b in held:
            give_bond(s, p, n, b)
    r["cash"][:4] = [12, 15, 14, 9]  # seat 3 holds RU: pays 4 for the move, gets a bonus of 1 -> 6
    r["investor_card"] = 0
    fix_ledger(s)
    turn_to(s, RU, MAN1)
    play(s, RONDEL + TAXATION, 3)
    assert k.is_over(s) and r["phase"] == ST.PH_GAME_OVER
    assert r["tax_pos"][RU] == 13 and r["treasury"][RU] == 12 and r["power"][RU] == 25
    assert r["cash"][:4].tolist() == [12, 15, 14, 6]  # no investor activity (no +2 for seat 0)
    sc = np.zeros(6, np.int64)
    k.scores(s, sc)
    assert sc[:4].tolist() == [43, 43, 38, 41]
    ret = np.zeros(6)
    k.returns(s, ret)
    assert ret[:4].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert k.check_invariants(s) == []
