"""Scenario tests per rule family, on explicit states, checked on exact (hand-computed) numbers."""

from __future__ import annotations

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo.kernels.imperial import board, rules

from ._helpers import (
    AH,
    ASK,
    BUILD,
    BUY,
    COST,
    DEST,
    DESTROY,
    FACTORY_SP,
    FIGHT,
    FR,
    FRIENDLY,
    GB,
    GE,
    HOSTILE,
    IMPORT_ARMY,
    IMPORT_FLEET,
    IMPORT_SP,
    IT,
    MAN1,
    ORIGIN,
    PASS,
    PROD1,
    RONDEL,
    RU,
    ST,
    TAXATION,
    TOGGLE,
    blank,
    buy,
    dests,
    fix_ledger,
    give_bond,
    k,
    legal_ids,
    mask_of,
    play,
    rg,
    sea_action,
    set_chips,
    to_maneuver,
    turn_to,
)


# --- rondel ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", ["seed", "published"])
def test_first_decision_is_a_free_placement_never_forced_IMP_RON_2_IMP_TURN_4(ruleset):
    """IMP-RON-2, IMP-TURN-4, IMP-SET-9: every new game opens on the first nation with a holder placing its marker on
    any of the 8 spaces, so setup leaves no forced decision to apply (init_state does not settle)."""
    for n in range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1):
        for seed in range(40):
            s = k.new_state(n, seed, ruleset=ruleset)
            r = s[0]
            first = next(x for x in range(6) if r["flag"][x] >= 0)
            assert r["phase"] == ST.PH_RONDEL and r["nation"] == first
            assert legal_ids(s) == {RONDEL + x for x in range(8)}
            assert rules.forced_action(r) == -1


def test_paid_rondel_move_is_paid_by_the_holder_IMP_RON_3():
    """IMP-RON-3, IMP-INV-4: passing Investor: production first, then investor activity (+2), no interest."""
    s = blank(4)
    r = s[0]
    r["flag"][:] = 0
    r["cash"][0] = 5
    turn_to(s, AH, FACTORY_SP)
    assert legal_ids(s) == {RONDEL + x for x in (1, 2, 3, 4, 5)}  # 6 steps (cost 6) unaffordable
    r["treasury"][AH] = 0
    play(s, RONDEL + 5, 0)  # 5 steps: pays 4, passes Investor, production then investor activity
    assert r["cash"][0] == 1 + 2  # 5 - 4, then the card holder (seat 0) receives 2


def test_nation_with_flag_in_bank_is_skipped_IMP_TURN_3():
    """IMP-TURN-3."""
    s = blank(4)
    r = s[0]
    r["flag"][:] = [0, -1, -1, 1, -1, 2]
    turn_to(s, AH, FACTORY_SP)
    r["treasury"][AH] = 0
    play(s, RONDEL + 1, 0)  # production, nothing else
    assert r["nation"] == GB


# --- factory, production, import -------------------------------------------------------------------
def test_factory_treasury_only_under_seed_IMP_FAC_2():
    """IMP-FAC-2, IMP-RON-6: Factory may be chosen though the treasury cannot pay (the turn passes)."""
    s = blank(4)
    r = s[0]
    r["flag"][AH] = 0
    r["treasury"][AH] = 4
    r["cash"][0] = 20
    turn_to(s, AH)
    play(s, RONDEL + FACTORY_SP, 0)  # only PASS is legal -> applied automatically
    assert r["phase"] == ST.PH_RONDEL and r["turn"] == 1  # AH is the only nation with a flag
    assert r["factory"][:5].tolist() == [0] * 5 and r["treasury"][AH] == 4 and r["cash"][0] == 20


def test_factory_topup_under_published_IMP_OPT_4():
    """IMP-OPT-4."""
    s = blank(4, ruleset="published")
    r = s[0]
    r["flag"][AH] = 0
    r["flag"][IT] = 1
    r["treasury"][AH] = 4
    r["cash"][0] = 3
    r["armies"][IT, rg("prague")] = 1
    r["hostile"][IT, rg("prague")] = 1
    turn_to(s, AH)
    play(s, RONDEL + FACTORY_SP, 0)
    assert legal_ids(s) == {PASS} | {BUILD + rg(x) for x in ("vienna", "budapest", "lemberg", "trieste")}
    play(s, BUILD + rg("trieste"), 0)
    assert r["treasury"][AH] == 0 and r["cash"][0] == 2 and r["factory"][rg("trieste")] == 1


def test_production_skips_blocked_factories_and_respects_supply_IMP_PRO_1_2():
    """IMP-PRO-1, IMP-PRO-2."""
    s = blank(4)
    r = s[0]
    r["flag"][GB] = 0
    r["flag"][FR] = 1
    for x in ("london", "liverpool", "sheffield"):
        r["factory"][rg(x)] = 1
    r["armies"][FR, rg("liverpool")] = 1
    r["hostile"][FR, rg("liverpool")] = 1
    r["armies"][GB, rg("norway")] = 5  # 6 armies in the box: 1 left
    turn_to(s, GB)
    play(s, RONDEL + PROD1, 0)
    assert r["fleets"][GB, rg("london")] == 1 and r["fleets"][GB, rg("liverpool")] == 0
    assert r["armies"][GB, rg("sheffield")] == 1
    assert r["chip"][rg("london")] == GB and r["chip"][rg("sheffield")] == GB and r["chip"][rg("liverpool")] == -1


def test_import_at_most_three_units_ports_only_IMP_IMP_1_2():
    """IMP-IMP-1, IMP-IMP-2."""
    s = blank(4)
    r = s[0]
    r["flag"][IT] = 0
    r["treasury"][IT] = 10
    turn_to(s, IT)
    play(s, RONDEL + IMPORT_SP, 0)
    ids = legal_ids(s)
    assert IMPORT_FLEET + rg("rome") not in ids and IMPORT_FLEET + rg("naples") in ids
    assert IMPORT_ARMY + rg("rome") in ids
    play(s, IMPORT_ARMY + rg("rome"), 0)
    play(s, IMPORT_ARMY + rg("rome"), 0)
    play(s, IMPORT_FLEET + rg("genoa"), 0)
    assert r["treasury"][IT] == 7 and r["armies"][IT, rg("rome")] == 2 and r["fleets"][IT, rg("genoa")] == 1
    assert r["phase"] != ST.PH_IMPORT
    assert r["chip"][rg("rome")] == -1


# --- maneuver: fleets, convoy choice, stance ---------------------------------------------------------
def test_fleet_leaves_port_into_its_port_sea_only_IMP_FLT_1():
    """IMP-FLT-1."""
    s = blank(4)
    r = s[0]
    r["flag"][IT] = 0
    r["fleets"][IT, rg("naples")] = 1
    r["armies"][IT, rg("naples")] = 1  # the army makes DEST a real choice
    to_maneuver(s, IT)
    play(s, ORIGIN + rg("naples"), 0)
    d = dests(s)
    assert {x for x in d if k.tables.REGION_INDEX[x] >= 45} == {"western_mediterranean"}  # never the Ionian
    play(s, DEST + rg("western_mediterranean"), 0)
    assert r["fleets"][IT, rg("western_mediterranean")] == 1 and r["fleets"][IT, rg("naples")] == 0


def test_fleets_must_move_before_armies_IMP_MAN_2():
    """IMP-MAN-2."""
    s = blank(4)
    r = s[0]
    r["flag"][IT] = 0
    r["fleets"][IT, rg("naples")] = 1
    r["armies"][IT, rg("rome")] = 1
    to_maneuver(s, IT)
    play(s, ORIGIN + rg("rome"), 0)
    play(s, DEST + rg("florence"), 0)
    assert ORIGIN + rg("naples") not in legal_ids(s)


def test_convoy_first_sea_is_a_choice_IMP_ARM_6():
    """IMP-ARM-6."""
    s = blank(4)
    r = s[0]
    r["flag"][GB] = 0
    r["armies"][GB, rg("london")] = 2  # the second army keeps the maneuver open
    r["fleets"][GB, rg("north_sea")] = 1
    r["fleets"][GB, rg("english_channel")] = 1
    to_maneuver(s, GB)
    play(s, ORIGIN + rg("london"), 0)
    play(s, DEST + rg("holland"), 0)
    assert legal_ids(s) == {sea_action("north_sea"), sea_action("english_channel")}
    play(s, sea_action("english_channel"), 0)
    assert r["armies"][GB, rg("holland")] == 1
    assert r["carried"].tolist() == [0, 0, 0, 1, 0, 0, 0, 0, 0]


def test_move_fleet_then_convoy_through_it_IMP_ARM_4():
    """IMP-ARM-4, IMP-FLT-2: a fleet at sea moves to one adjacent sea."""
    s = blank(4)
    r = s[0]
    r["flag"][GB] = 0
    r["armies"][GB, rg("london")] = 1
    r["fleets"][GB, rg("north_atlantic")] = 1
    to_maneuver(s, GB)
    play(s, ORIGIN + rg("north_atlantic"), 0)
    play(s, DEST + rg("north_sea"), 0)
    play(s, ORIGIN + rg("london"), 0)
    assert "norway" in dests(s) and "dublin" not in dests(s)


def test_dublin_is_not_rail_linked_IMP_ARM_2():
    """IMP-ARM-2."""
    s = blank(4)
    r = s[0]
    r["flag"][GB] = 0
    r["armies"][GB, rg("london")] = 1
    r["armies"][GB, rg("dublin")] = 1
    to_maneuver(s, GB)
    assert ORIGIN + rg("dublin") not in legal_ids(s)  # no fleet: no move at all
    play(s, ORIGIN + rg("london"), 0)
    assert "dublin" not in dests(s) and {"liverpool", "edinburgh", "sheffield"} <= dests(s)


def test_switzerland_is_not_a_region_IMP_ARM_1():
    """IMP-ARM-1."""
    assert "switzerland" not in k.tables.REGION_INDEX


def test_stance_choice_and_last_factory_protection_IMP_STN_1_3():
    """IMP-STN-1, IMP-STN-3."""
    s = blank(4)
    r = s[0]
    r["flag"][GE] = 0
    r["flag"][FR] = 1
    r["factory"][rg("paris")] = 1
    r["armies"][GE, rg("belgium")] = 2
    to_maneuver(s, GE)
    play(s, ORIGIN + rg("belgium"), 0)
    play(s, DEST + rg("paris"), 0)  # Paris holds FR's only factory: FRIENDLY is forced
    assert r["armies"][GE, rg("paris")] == 1 and r["hostile"][GE, rg("paris")] == 0
    assert TOGGLE + rg("paris") not in legal_ids(s)
    r["factory"][rg("bordeaux")] = 1
    play(s, ORIGIN + rg("belgium"), 0)
    play(s, DEST + rg("paris"), 0)
    assert legal_ids(s) == {HOSTILE, FRIENDLY}
    play(s, HOSTILE, 0)
    assert r["hostile"][GE, rg("paris")] == 1 and r["armies"][GE, rg("paris")] == 2  # the group turns hostile


def test_toggle_to_hostile_starts_combat_IMP_STN_2():
    """IMP-STN-2."""
    s = blank(4)
    r = s[0]
    r["flag"][GE] = 0
    r["flag"][FR] = 1
    r["factory"][rg("paris")] = r["factory"][rg("bordeaux")] = 1
    r["armies"][GE, rg("paris")] = 2
    r["armies"][FR, rg("paris")] = 1
    to_maneuver(s, GE)
    assert FIGHT + FR not in legal_ids(s)
    play(s, TOGGLE + rg("paris"), 0)
    assert legal_ids(s) == {FIGHT + FR, PASS}
    play(s, FIGHT + FR, 0)
    assert r["armies"][GE, rg("paris")] == 1 and r["armies"][FR, rg("paris")] == 0


# --- combat declarations --------------------------------------------------------------------------
def _land_battle():
    s = blank(4)
    r = s[0]
    r["flag"][:] = [0, 1, 2, 3, 0, 1]
    r["armies"][AH, rg("vienna")] = 3
    r["armies"][IT, rg("west_balkan")] = 2
    r["armies"][RU, rg("west_balkan")] = 1
    r["armies"][AH, rg("budapest")] = 0
    return s


def test_mover_fights_IMP_CMB_2_3():
    """IMP-CMB-2, IMP-CMB-3."""
    s = _land_battle()
    r = s[0]
    to_maneuver(s, AH)
    play(s, ORIGIN + rg("vienna"), 0)
    play(s, DEST + rg("west_balkan"), 0)
    assert legal_ids(s) == {FIGHT + IT, FIGHT + RU, PASS}
    play(s, FIGHT + IT, 0)
    assert r["armies"][AH, rg("west_balkan")] == 0 and r["armies"][IT, rg("west_balkan")] == 1
    assert r["armies"][RU, rg("west_balkan")] == 1


def test_defender_accepts_IMP_CMB_2():
    """IMP-CMB-2."""
    s = _land_battle()
    r = s[0]
    to_maneuver(s, AH)
    play(s, ORIGIN + rg("vienna"), 0)
    play(s, DEST + rg("west_balkan"), 0)
    play(s, PASS, 0)
    play(s, ASK + RU, 0)
    assert k.to_move(s) == 1  # RU's flag holder answers
    play(s, FIGHT + AH, 1)
    assert r["armies"][AH, rg("west_balkan")] == 0 and r["armies"][RU, rg("west_balkan")] == 0
    assert r["armies"][IT, rg("west_balkan")] == 2 and r["phase"] == ST.PH_MOVE


def test_everyone_declines_IMP_CMB_2():
    """IMP-CMB-2, IMP-CMB-1: units that merely stand together never fight."""
    s = _land_battle()
    r = s[0]
    to_maneuver(s, AH)
    play(s, ORIGIN + rg("vienna"), 0)
    play(s, DEST + rg("west_balkan"), 0)
    play(s, PASS, 0)
    play(s, ASK + IT, 0)
    play(s, PASS, 1)
    play(s, PASS, 1)  # RU (also seat 1) is asked automatically and declines
    assert r["phase"] == ST.PH_MOVE
    assert (r["armies"][AH, rg("west_balkan")], r["armies"][IT, rg("west_balkan")]) == (1, 2)
    play(s, PASS, 0)  # DONE: shared region, no chip
    assert r["chip"][rg("west_balkan")] == -1


def test_fleet_fights_army_only_in_port_IMP_CMB_2():
    """IMP-CMB-2."""
    s = blank(4)
    r = s[0]
    r["flag"][:] = [0, 1, 2, 3, 0, 1]
    r["factory"][rg("trieste")] = r["factory"][rg("vienna")] = 1
    r["fleets"][AH, rg("trieste")] = 1
    r["armies"][IT, rg("venice")] = 2
    to_maneuver(s, IT)
    play(s, ORIGIN + rg("venice"), 1)
    play(s, DEST + rg("trieste"), 1)
    play(s, HOSTILE, 1)
    assert FIGHT + AH in legal_ids(s)
    play(s, FIGHT + AH, 1)
    assert r["fleets"][AH, rg("trieste")] == 0 and r["armies"][IT, rg("trieste")] == 0


def test_resolve_combat_exact_numbers_and_loss_order_IMP_CMB_3():
    """IMP-CMB-3."""
    s = blank(4)
    r = s[0]
    x = rg("trieste")
    r["armies"][IT, x] = 3
    r["moved_army"][x] = 2  # IT is the mover: two of its armies have acted
    r["armies"][AH, x] = 1
    r["fleets"][AH, x] = 1
    r["nation"] = IT
    assert k.resolve_combat(r, x, IT, AH) == 2
    assert r["armies"][IT, x] == 1 and r["moved_army"][x] == 0  # acted armies lost first
    assert r["armies"][AH, x] == 0 and r["fleets"][AH, x] == 0  # army before docked fleet
    sea = rg("ionian_sea")
    r["fleets"][IT, sea] = 1
    r["fleets"][GB, sea] = 3
    assert k.resolve_combat(r, sea, IT, GB) == 1
    assert r["fleets"][IT, sea] == 0 and r["fleets"][GB, sea] == 2


# --- factory destruction ---------------------------------------------------------------------------
def _siege(**options):
    s = blank(4, **options)
    r = s[0]
    r["flag"][:] = [0, 1, 2, 3, 0, 1]
    r["factory"][rg("vienna")] = r["factory"][rg("budapest")] = 1
    r["armies"][IT, rg("vienna")] = 2
    r["hostile"][IT, rg("vienna")] = 1
    r["armies"][IT, rg("venice")] = 1
    return s


def test_three_hostile_armies_destroy_a_factory_automatically_IMP_DST_1():
    """IMP-DST-1."""
    s = _siege()
    r = s[0]
    to_maneuver(s, IT)
    play(s, ORIGIN + rg("venice"), 1)
    play(s, DEST + rg("vienna"), 1)
    play(s, HOSTILE, 1)
    assert r["factory"][rg("vienna")] == 0 and r["armies"][IT, rg("vienna")] == 0


def test_last_factory_cannot_be_destroyed_IMP_DST_2():
    """IMP-DST-2."""
    s = _siege()
    r = s[0]
    r["factory"][rg("budapest")] = 0
    to_maneuver(s, IT)
    play(s, ORIGIN + rg("venice"), 1)
    play(s, DEST + rg("vienna"), 1)  # Vienna is already blocked, so hostile is allowed: but it is the last
    play(s, HOSTILE, 1)
    assert r["factory"][rg("vienna")] == 1 and r["armies"][IT, rg("vienna")] == 3


def test_destruction_is_a_choice_under_published_IMP_OPT_5():
    """IMP-OPT-5."""
    s = _siege(ruleset="published")
    r = s[0]
    to_maneuver(s, IT)
    play(s, ORIGIN + rg("venice"), 1)
    play(s, DEST + rg("vienna"), 1)
    play(s, HOSTILE, 1)
    assert legal_ids(s) == {DESTROY, PASS}
    play(s, PASS, 1)
    assert r["factory"][rg("vienna")] == 1 and r["armies"][IT, rg("vienna")] == 3


# --- tax chips -------------------------------------------------------------------------------------
def test_chips_on_seas_neutral_and_own_home_not_foreign_IMP_CHP_1_2():
    """IMP-CHP-1, IMP-CHP-2."""
    s = blank(4)
    r = s[0]
    r["flag"][:] = [0, 1, 2, 3, 0, 1]
    r["armies"][GE, rg("berlin")] = 1
    r["armies"][GE, rg("holland")] = 1
    r["fleets"][GE, rg("baltic_sea")] = 1
    r["armies"][GE, rg("warsaw")] = 1
    r["hostile"][GE, rg("warsaw")] = 1
    set_chips(s, RU, ["sweden"])
    r["armies"][GE, rg("sweden")] = 1
    to_maneuver(s, GE)
    play(s, PASS, 0)
    assert r["chip"][rg("berlin")] == GE and r["chip"][rg("holland")] == GE and r["chip"][rg("baltic_sea")] == GE
    assert r["chip"][rg("warsaw")] == -1 and r["chip"][rg("sweden")] == GE
    assert r["chips_left"][GE] == 6 and r["chips_left"][RU] == 10


def test_published_chips_not_on_home_and_for_all_nations_IMP_OPT_1_6():
    """IMP-OPT-1, IMP-OPT-6."""
    s = blank(4, ruleset="published")
    r = s[0]
    r["flag"][:] = [0, 1, 2, 3, 0, 1]
    r["armies"][GE, rg("berlin")] = 1
    r["fleets"][GB, rg("north_sea")] = 1
    to_maneuver(s, GE)
    play(s, PASS, 0)
    assert r["chip"][rg("berlin")] == -1 and r["chip"][rg("north_sea")] == GB
    assert r["chips_left"][GB] == 14


def test_chip_supply_limit_IMP_CHP_4():
    """IMP-CHP-4."""
    s = blank(4)
    r = s[0]
    r["flag"][GE] = 0
    set_chips(
        s, GE, ["norway", "sweden", "denmark", "belgium", "spain", "portugal", "morocco", "algeria", "tunis", "greece"]
    )
    set_chips(s, RU, ["turkey"])
    r["armies"][GE, rg("turkey")] = 1
    r["armies"][GE, rg("bulgaria")] = 1
    to_maneuver(s, GE)
    play(s, PASS, 0)
    assert r["chip"][rg("turkey")] == -1 and r["chip"][rg("bulgaria")] == -1 and r["chips_left"][RU] == 10


# --- taxation --------------------------------------------------------------------------------------
def _three_factories_four_chips():
    """Austria-Hungary with factories in Vienna, Budapest and Trieste and 4 chips on the board: a tax of 10."""
    s = blank(4)
    r = s[0]
    r["flag"][AH] = 0
    for x in ("vienna", "budapest", "trieste"):
        r["factory"][rg(x)] = 1
    set_chips(s, AH, ["west_balkan", "romania", "greece", "ionian_sea"])
    return s, r


def test_tax_without_occupation_counts_every_factory_IMP_TAX_1():
    """IMP-TAX-1."""
    s, r = _three_factories_four_chips()
    assert k.tax_revenue(r, AH) == 10
    r["armies"][IT, rg("trieste")] = 1  # friendly: no effect
    assert k.tax_revenue(r, AH) == 10
    r["hostile"][IT, rg("trieste")] = 1
    assert k.tax_revenue(r, AH) == 8


BLOCKED_AT, TAX_NOW_AT = 577, 487  # the observation's pieces (tests/imperial/test_layout.py), 30 homes and 6 nations


def _blocked_by_the_rule(r) -> list[bool]:
    """IMP-STN-4 read straight from the record: a home holds a hostile army of a nation other than its owner."""
    return [any(r["armies"][n, h] > 0 and r["hostile"][n, h] for n in range(6) if n != h // 5) for h in range(30)]


def test_observed_blocked_homes_and_tax_now_follow_the_rules_IMP_STN_4_IMP_TAX_1():
    """IMP-STN-4, IMP-TAX-1: the observation counts a nation's unblocked factories from the blocked homes it writes."""
    s, r = _three_factories_four_chips()
    r["armies"][IT, rg("trieste")] = 1  # friendly: blocks nothing
    r["armies"][AH, rg("vienna")] = 2
    r["hostile"][AH, rg("vienna")] = 1  # the owner's own army never blocks
    out = np.zeros(k.OBS_SIZE, np.float32)
    k.observe(s, 0, out)
    assert not out[BLOCKED_AT : BLOCKED_AT + 30].any() and out[TAX_NOW_AT + AH] * 20 == 10
    r["hostile"][IT, rg("trieste")] = 1
    k.observe(s, 0, out)
    assert np.flatnonzero(out[BLOCKED_AT : BLOCKED_AT + 30]).tolist() == [rg("trieste")]
    assert out[TAX_NOW_AT + AH] * 20 == 8 == k.tax_revenue(r, AH)
    # random positions: the pieces, the rule's own functions and the rule read from the record agree
    vec = tabletop_zoo.make_vec("imperial", 64, seed=4)
    o = vec.reset()
    rng = np.random.default_rng(4)
    blocked_seen = 0
    for _ in range(150):
        o = vec.step((rng.random(o.action_mask.shape) * o.action_mask).argmax(1))
        for i in range(0, 64, 8):
            rec = vec.records[i : i + 1]
            k.observe(rec, 0, out)
            expected = _blocked_by_the_rule(rec[0])
            assert out[BLOCKED_AT : BLOCKED_AT + 30].tolist() == [float(b) for b in expected]
            assert [board.is_blocked(rec[0], h) for h in range(30)] == expected
            taxes = [k.tax_revenue(rec[0], n) for n in range(6)]
            np.testing.assert_array_equal(out[TAX_NOW_AT : TAX_NOW_AT + 6], np.float32(taxes) / np.float32(20))
            blocked_seen += sum(expected)
    assert blocked_seen > 0  # the random games did block homes


def test_tax_cap_and_power_clamp_IMP_TAX_1_4():
    """IMP-TAX-1, IMP-TAX-4."""
    s = blank(4)
    r = s[0]
    r["flag"][AH] = 0
    r["chips_per_nation"] = 30
    for h in range(5):
        r["factory"][h] = 1
    set_chips(s, AH, list(range(30, 45)))  # 10 + 15 = 25 -> capped at 20
    assert k.tax_revenue(r, AH) == 20
    r["power"][AH] = 20
    r["tax_pos"][AH] = 15
    assert k.collect_taxes(r, AH)
    assert r["power"][AH] == 25 and r["treasury"][AH] == 20 and r["cash"][0] == 0


# --- investor ----------------------------------------------------------------------------------------
def _activity(card_holder, cash, flags, bonds):
    """Seat 0 holds AH (empty treasury) and moves Maneuver -> Import, passing Investor."""
    s = blank(4)
    r = s[0]
    r["flag"][:] = flags
    for p, n, b in bonds:
        give_bond(s, p, n, b)
    r["cash"][:4] = cash
    r["investor_card"] = card_holder
    fix_ledger(s)
    turn_to(s, AH, MAN1)
    play(s, RONDEL + IMPORT_SP, 0)
    return s


def test_flag_tie_does_not_move_IMP_BND_2():
    """IMP-BND-2."""
    s = _activity(1, [0, 10, 0, 0], [0, 0, 0, 0, 2, 0], [(0, AH, 4), (2, GE, 4)])
    r = s[0]
    play(s, buy(GE, 3), 1)  # 6 < 9
    assert r["flag"][GE] == 2
    s = _activity(1, [0, 10, 0, 0], [0, 0, 0, 0, 2, 0], [(0, AH, 4), (2, GE, 3)])
    play(s, buy(GE, 4), 1)  # 9 > 6 -> flag moves; GE has power 0 but seat 2 has no other flag: pays 1
    assert s[0]["flag"][GE] == 1 and s[0]["cash"][1] == 12 - 9 - 1 and s[0]["cash"][2] == 1


def test_compensation_makes_an_unaffordable_purchase_illegal_IMP_BND_3():
    """IMP-BND-3, IMP-BND-4: a payment that cannot be afforded is not legal."""
    s = _activity(1, [0, 7, 0, 0], [0, 0, 0, 0, 2, 0], [(0, AH, 4), (2, GE, 3)])
    assert buy(GE, 4) not in legal_ids(s)  # 9 + 1 > 9
    assert buy(GE, 3 + 1) not in legal_ids(s) and buy(GE, 2) in legal_ids(s)


def test_compensation_when_the_buyer_leads_the_holder_by_one_IMP_BND_2_IMP_BND_3():
    """IMP-BND-2, IMP-BND-3: an investment one above the holder's (10 against 9) takes the flag, so the purchase costs
    the compensation too: legal with price + 1 in cash, not with the price alone."""
    bonds = [(0, AH, 4), (2, GE, 4), (1, GE, 2)]
    s = _activity(1, [0, 4, 0, 0], [0, 0, 0, 0, 2, 0], bonds)  # seat 1: 4 + 2 (card) = 6 = the price of bond 3
    assert buy(GE, 3) not in legal_ids(s)
    s = _activity(1, [0, 5, 0, 0], [0, 0, 0, 0, 2, 0], bonds)
    play(s, buy(GE, 3), 1)
    r = s[0]
    assert r["flag"][GE] == 1 and r["cash"][1] == 0 and r["cash"][2] == 1


def test_no_compensation_when_power_above_zero_IMP_BND_3():
    """IMP-BND-3."""
    s = _activity(1, [0, 7, 0, 0], [0, 0, 0, 0, 2, 0], [(0, AH, 4), (2, GE, 3)])
    # recreate with GE power 1: the purchase of bond 4 for 9 becomes legal
    s = blank(4)
    r = s[0]
    r["flag"][:] = [0, 0, 0, 0, 2, 0]
    give_bond(s, 0, AH, 4)
    give_bond(s, 2, GE, 3)
    r["cash"][:4] = [0, 7, 0, 0]
    r["power"][GE] = 1
    r["investor_card"] = 1
    fix_ledger(s)
    turn_to(s, AH, MAN1)
    play(s, RONDEL + IMPORT_SP, 0)
    play(s, buy(GE, 4), 1)
    assert r["flag"][GE] == 1 and r["cash"][1] == 0 and r["cash"][2] == 0


def _reference_buys(r) -> dict[int, int]:
    """Legal BUY ids of the buyer and, for each, (price, compensation), from the spec's words alone:
    IMP-BND-1 (a bond from the bank, new or for one of his own lower bonds, IMP-BND-4), IMP-BND-2 (where the flag goes)
    and IMP-BND-3 (1 more to a holder losing his only flag of a 0-power nation)."""
    p, players = int(r["inv_buyer"]), int(r["num_players"])
    owner = r["bond_owner"]
    legal = {}
    for n in range(6):
        invested = [sum(COST[b + 1] for b in range(9) if owner[n, b] == q) for q in range(players)]
        holder = int(r["flag"][n])
        for bond in range(1, 10):
            if owner[n, bond - 1] >= 0:
                continue
            for ret in [0] + [t for t in range(1, bond) if owner[n, t - 1] == p]:
                price = COST[bond] - (COST[ret] if ret else 0)
                after = [v + price if q == p else v for q, v in enumerate(invested)]
                top = max(after)
                if holder < 0:
                    new_holder = p
                elif after[holder] >= top:
                    new_holder = holder
                else:
                    card = int(r["investor_card"])
                    new_holder = next(q for q in ((card + i) % players for i in range(players)) if after[q] == top)
                only_flag = holder >= 0 and int((r["flag"] == holder).sum()) == 1
                comp = int(holder >= 0 and new_holder != holder and only_flag and r["power"][n] == 0)
                if price + comp <= r["cash"][p]:
                    legal[buy(n, bond, ret)] = price, comp
    return legal


def test_bond_purchases_match_the_rules_on_random_positions_IMP_BND_1_IMP_BND_2_IMP_BND_3_IMP_BND_4():
    """IMP-BND-1..4 on the investor decisions of random games at every player count, each also with the buyer's cash
    set to a price he could pay (where the compensation decides), every nation at power 0 and the flags dealt at
    random: the mask is the reference's, and each legal purchase takes exactly price + compensation from the buyer."""
    rng = np.random.default_rng(5)
    prices = sorted({COST[b] - (COST[t] if t else 0) for b in COST for t in range(b)})
    checked = compensated = 0
    for players in range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1):
        s = k.new_state(players, players)
        while not k.is_over(s) and checked < 150 * (players - 1):
            r = s[0]
            if r["phase"] == ST.PH_BUY:
                for variant in range(4):
                    t = s.copy()
                    if variant:  # the buyer's cash at a price, every nation at power 0, the flags dealt anew
                        t[0]["cash"][t[0]["inv_buyer"]] = rng.choice(prices)
                        t[0]["power"][:] = 0
                        if variant > 1:
                            t[0]["flag"][:] = rng.integers(-1, players, 6)
                    want = _reference_buys(t[0])
                    assert {a for a in legal_ids(t) if a >= BUY} == set(want)
                    for a, (price, comp) in want.items():
                        u = t.copy()
                        p, y = int(u[0]["inv_buyer"]), int(u[0]["flag"][(a - BUY) // 90])
                        cash = u[0]["cash"].astype(int)
                        k.step(u, a)
                        owed = np.zeros_like(cash)
                        owed[p] += price + comp
                        if comp:
                            owed[y] -= comp  # the holder losing his only flag
                        assert (cash - u[0]["cash"]).tolist() == owed.tolist()
                        compensated += comp
                    checked += 1
            mask = mask_of(s)
            k.step(s, int(rng.choice(np.flatnonzero(mask))))
    assert checked >= 400 and compensated >= 100, (checked, compensated)
    print(checked, compensated)


def test_flagless_players_invest_clockwise_and_card_passes_IMP_INV_5():
    """IMP-INV-5."""
    s = _activity(1, [0, 0, 6, 6], [0, 0, 0, 0, 0, 0], [(0, AH, 4)])
    r = s[0]
    assert k.to_move(s) == 1 and r["cash"][1] == 2
    play(s, PASS, 1)
    assert k.to_move(s) == 2  # flagless, clockwise from the card holder's left
    play(s, buy(IT, 3), 2)  # IT's flag leaves the bank? no: seat 0 holds it; 6 > 0 -> seat 2 takes IT
    assert r["flag"][IT] == 2 and r["cash"][2] == 0
    assert k.to_move(s) == 3
    play(s, buy(GB, 2), 3)
    assert r["flag"][GB] == 3 and r["cash"][3] == 2
    assert r["investor_card"] == 2 and r["phase"] == ST.PH_RONDEL


def test_game_end_only_at_25_power_IMP_END_1():
    """IMP-END-1."""
    s = blank(4)
    r = s[0]
    r["flag"][:] = 0
    r["power"][RU] = 24
    r["tax_pos"][RU] = 5
    r["factory"][rg("moscow")] = 1
    r["cash"][0] = 4
    fix_ledger(s)
    turn_to(s, RU, MAN1)
    play(s, RONDEL + TAXATION, 0)  # tax 2 -> position 5 -> +0
    assert not k.is_over(s) and r["power"][RU] == 24
    assert r["phase"] == ST.PH_BUY and r["cash"][0] == 2  # passed Investor: the activity follows


def test_truncation_IMP_END_2():
    """IMP-END-2."""
    s = k.new_state(4, 0, max_nation_turns=3)
    m = np.zeros(k.NUM_ACTIONS, np.uint8)
    while not k.is_over(s):
        k.legal_mask(s, m)
        k.step(s, int(np.flatnonzero(m)[0]))
    assert s[0]["truncated"] == 1 and s[0]["turn"] == 3


def _finished_game(seed, **options):
    s = k.new_state(4, seed, max_nation_turns=12, **options)
    m = np.zeros(k.NUM_ACTIONS, np.uint8)
    rng = np.random.default_rng(seed)
    while not k.is_over(s):
        k.legal_mask(s, m)
        k.step(s, int(rng.choice(np.flatnonzero(m))))
    return s


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_score_margin_reward_is_score_minus_mean_spec_6(seed):
    s = _finished_game(seed, reward="score_margin")
    score = np.zeros(k.MAX_PLAYERS, np.int64)
    k.scores(s, score)
    ret = np.zeros(k.MAX_PLAYERS)
    k.returns(s, ret)
    assert np.allclose(ret[:4], score[:4] - score[:4].mean()) and abs(ret.sum()) < 1e-9
    assert (ret[4:] == 0).all()
    # the same game (same seed and moves) under the default reward pays win shares
    ref = _finished_game(seed)
    k.returns(ref, ret)
    assert ret.sum() == pytest.approx(1.0) and set(np.round(ret[:4], 6)) <= {0.0, 1.0, 0.5, 1 / 3, 0.25}


def test_score_margin_evaluate_estimates_a_margin_spec_6():
    s = k.new_state(4, 0, reward="score_margin")
    out = np.zeros(k.MAX_PLAYERS)
    k.evaluate(s, out)
    assert abs(out.sum()) < 1e-9 and (out[4:] == 0).all()
    s = k.new_state(4, 0)
    k.evaluate(s, out)
    assert out.sum() == pytest.approx(1.0) and (out >= 0).all()


@pytest.mark.parametrize(
    "bad",
    [
        {"ruleset": "x"},
        {"max_nation_turns": 0},
        {"tax_chips_per_nation": 0},
        {"home_tax_chips": 1},
        {"reward": "margin"},
    ],
)
def test_option_validation(bad):
    with pytest.raises(ValueError):
        k.new_state(4, 0, **bad)


def test_published_ruleset_switches_every_option_IMP_OPT_0():
    """IMP-OPT-0."""
    o = k.resolve_options(ruleset="published")
    assert o["home_tax_chips"] is False and o["tax_chips_per_nation"] == 15 and o["factory_topup"] is True
    assert o["optional_factory_destruction"] is True and o["chip_update_all_nations"] is True
    o = k.resolve_options()
    assert o["home_tax_chips"] is True and o["tax_chips_per_nation"] == 10 and o["factory_topup"] is False


@pytest.mark.parametrize("n,cash", [(2, 35), (3, 24), (4, 13), (5, 13), (6, 13)])
def test_setup_per_player_count_IMP_SET_2_to_5(n, cash):
    for seed in range(5):
        s = k.new_state(n, seed)
        r = s[0]
        assert r["cash"][:n].tolist() == [2] * n  # IMP-SET-2
        assert int(r["treasury"].sum()) == (cash - 2) * n
        dealt = int((r["bond_owner"][:, 3] >= 0).sum())
        assert dealt == (6 if n in (2, 3, 6) else n)
        if n == 3:
            groups = {frozenset(np.flatnonzero(r["bond_owner"][:, 3] == p).tolist()) for p in range(3)}
            assert groups == {frozenset({AH, GB}), frozenset({IT, RU}), frozenset({FR, GE})}
        if n == 2:
            groups = {frozenset(np.flatnonzero(r["bond_owner"][:, 3] == p).tolist()) for p in range(2)}
            assert groups == {frozenset({AH, FR, GE}), frozenset({IT, RU, GB})}
        assert r["factory"].sum() == 12 and k.check_invariants(s) == []


def test_friendly_entrant_may_not_name_the_owner_but_owner_may_fight_IMP_CMB_2():
    """IMP-CMB-2."""
    s = blank(4)
    r = s[0]
    r["flag"][:] = [0, 1, 2, 3, 0, 1]
    r["factory"][rg("paris")] = 1  # FR's only factory: the entry is forced friendly
    r["armies"][FR, rg("paris")] = 1
    r["armies"][GE, rg("belgium")] = 2
    to_maneuver(s, GE)
    play(s, ORIGIN + rg("belgium"), 0)
    play(s, DEST + rg("paris"), 0)
    # FRIENDLY forced; the mover may only PASS; FR (the only participant) is then asked automatically
    assert r["phase"] == ST.PH_ANSWER and k.to_move(s) == 2 and r["hostile"][GE, rg("paris")] == 0
    play(s, FIGHT + GE, 2)
    assert r["armies"][GE, rg("paris")] == 0 and r["armies"][FR, rg("paris")] == 0


def test_flag_tie_rule_clockwise_from_the_card_holder_IMP_BND_2():
    """IMP-BND-2."""
    from tabletop_zoo.kernels.imperial.investor import new_flag_holder

    s = blank(4)
    r = s[0]
    r["flag"][IT] = 0
    give_bond(s, 0, IT, 2)  # 4 (an artificial position: two players newly ahead of the holder)
    give_bond(s, 2, IT, 4)  # 9
    give_bond(s, 3, IT, 1)
    r["investor_card"] = 3
    assert new_flag_holder(r, IT, 3, 9) == 3  # seats 2 and 3 tie at 9: card holder first
    r["investor_card"] = 1
    assert new_flag_holder(r, IT, 3, 9) == 2  # clockwise from seat 1: seat 2 before seat 3
    assert new_flag_holder(r, IT, 3, 4) == 2  # strict lead of seat 2 over the holder's 4


def test_hidden_cash_option_IMP_OPT_3():
    """IMP-OPT-3."""
    s = k.new_state(4, 0, hidden_cash=True)
    o = np.zeros(k.OBS_SIZE, np.float32)
    k.observe(s, 1, o)
    piece = {p.name: p for p in k.OBS_PIECES}["cash"]
    cash = o[piece.offset : piece.offset + piece.size]
    assert cash[0] == pytest.approx(2 / 50) and not cash[1:].any()


@pytest.mark.parametrize("n", [2, 5])
def test_published_ruleset_random_games_keep_invariants(n):
    from ..conftest import random_trajectory

    m = np.zeros(k.NUM_ACTIONS, np.uint8)
    for g in range(2):
        for s, mask in random_trajectory(k, n, seed=50 + g, policy_seed=g, ruleset="published"):
            assert k.check_invariants(s) == []
            if mask is None:
                break
            k.legal_mask(s, m)
            assert m.any()
    assert k.playouts(n, 50, 3, ruleset="published")[1] == 50
