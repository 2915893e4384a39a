"""Every worked example of the spec (§9), named by its rule IDs. Numbers come from the spec."""

import numpy as np
import pytest

from ._helpers import (
    AM,
    ARREST,
    BID,
    CHANCE_SEAT,
    CITY,
    CM,
    COALITION,
    DEAD,
    DIR,
    EMP,
    EXECUTE,
    EXILED,
    FRENCH,
    IMPRISONED,
    INSTIGATE,
    LILLE,
    LYON,
    NANTES,
    NATIONALISE,
    PARIS,
    PASS,
    PERSON,
    RA,
    REGIME,
    REP,
    ROYALIST,
    SELECT,
    ST,
    STRASBOURG,
    TER,
    VOTE,
    T,
    action_state,
    card,
    give,
    k,
    legal,
    mark,
    pass_all,
    play,
    set_unit,
)


def test_ex1_FR_INC_1_FR_GEN_4_income_cap():
    """FR-INC-1, FR-GEN-4."""
    s = action_state(3, actor=0)
    s[0]["rp"][:3] = [50, 44, 0]
    pass_all(s, [0, 1, 2])  # end of turn I -> turn II income
    assert s[0]["rp"][:3].tolist() == [60, 59, 15]


def test_ex2_FR_AUC_2_to_6_auction_with_credits():
    """FR-AUC-2, FR-AUC-3, FR-AUC-4, FR-AUC-5, FR-AUC-6: Ex 2: B wins Necker at 8, credit 3, pays 5, opens next."""
    s = action_state(4, turn=1)
    r = s[0]
    r["phase"] = ST.PH_AUCTION
    r["deck_pos"] = T.DECK_START[1] + 1
    assert r["deck"][T.DECK_START[1]] == card("necker")
    r["auc_card"], r["auc_bidder"], r["auc_high"], r["auc_high_bidder"] = card("necker"), 0, -1, -1
    r["rp"][:4] = [10, 9, 4, 12]
    give(s, "tennis_court_oath", 1)
    give(s, "orleans", 1)
    play(s, 0, 3)  # BID_2
    play(s, 1, 5)  # BID_4
    assert np.flatnonzero(legal(s)).tolist() == [PASS]
    play(s, 2, PASS)
    play(s, 3, 7)  # BID_6
    play(s, 0, 8)  # BID_7
    assert np.flatnonzero(legal(s)).tolist() == [PASS, BID + 8]
    play(s, 1, 9)  # BID_8
    play(s, 3, PASS)  # C is skipped
    play(s, 0, PASS)
    assert r["card_owner"][card("necker")] == 1
    assert r["rp"][1] == 4
    assert r["start_player"] == 1 and k.to_move(s) == 1 and r["auc_high"] == -1  # B opens the next card


@pytest.mark.parametrize(
    "regime,votes,expected",
    [
        (CM, {CM: 4, REP: 4}, CM),
        (CM, {CM: 3, REP: 5}, REP),
        (CM, {}, CM),
        (AM, {AM: 2, CM: 2, EMP: 3}, EMP),
    ],
)
def test_ex3_FR_REG_1_regime_phase(regime, votes, expected):
    """FR-REG-1."""
    s = action_state(2, regime=regime)
    for g, v in votes.items():
        s[0]["votes"][g] = v
    pass_all(s, [0, 1])
    assert s[0]["regime"] == expected
    assert not s[0]["votes"].any()  # FR-REG-2


def test_ex4_FR_RA_VOTE_FR_SCO_1_turn_one_vote_and_scoring():
    """FR-SCO-1."""
    s = action_state(4, regime=AM)
    lxvi, laf, bar = give(s, "louis_xvi", 0), give(s, "lafayette", 1), give(s, "barnave", 2)
    give(s, "marie_antoinette", 3)
    play(s, 0, SELECT + lxvi, RA + VOTE, REGIME + AM)
    play(s, 1, SELECT + laf, RA + VOTE, REGIME + CM)
    play(s, 2, SELECT + bar, RA + VOTE, REGIME + CM)
    assert s[0]["votes"][:2].tolist() == [3, 4]
    pass_all(s, [3, 0, 1, 2])
    assert s[0]["regime"] == CM
    assert s[0]["vp"][:4].tolist() == [0, 3, 4, 0]


def test_ex5_FR_SCO_1_to_3_scoring_with_exile_and_imprisonment():
    """FR-SCO-1, FR-SCO-2, FR-SCO-3, FR-ARMY-4, FR-END-1: Ex 5: A ends on 16 VP, 19 RP; the game ends after turn V."""
    s = action_state(3, regime=REP, turn=4)
    for city in (PARIS, LILLE, STRASBOURG):
        set_unit(s, city, COALITION, 2)
    set_unit(s, NANTES, ROYALIST, 1)
    assert k.rules is not None
    r = s[0]
    r["rp"][0], r["vp"][0] = 14, 6
    give(s, "louis_xvi", 0, EXILED)
    give(s, "marie_antoinette", 0, EXILED)
    give(s, "orleans", 0, IMPRISONED)
    give(s, "tennis_court_oath", 0)
    mark(s, PARIS, 0)
    mark(s, LYON, 0)
    pass_all(s, [0, 1, 2])
    assert k.is_over(s)
    assert (r["vp"][0], r["rp"][0]) == (16, 19)


def _ex6_state():
    s = action_state(2, regime=CM)
    lxvi = give(s, "louis_xvi", 0, EXILED)
    set_unit(s, STRASBOURG, FRENCH, 2)
    mark(s, STRASBOURG, 1)
    s[0]["supply"][0] = 5
    play(s, 0, SELECT + lxvi, RA + INSTIGATE, CITY + STRASBOURG)  # coalition-only city: no army choice
    assert k.to_move(s) == CHANCE_SEAT
    return s, lxvi


def test_ex6_FR_RA_INSTIGATE_success():
    """FR-RA-INSTIGATE, FR-ACT-3: Ex 6 success (3 > 2): the coalition unit takes Strasbourg; Louis XVI is tilted."""
    s, lxvi = _ex6_state()
    ids, probs = np.zeros(14, np.int64), np.zeros(14)
    n = k.chance_outcomes(s, ids, probs)
    # coalition cup: strength 1 x3, 2 x4, 3 x3 (spec §2.6)
    assert dict(zip(ids[:n].tolist(), probs[:n].round(12).tolist())) == {1: 0.3, 2: 0.4, 3: 0.3}
    french2 = s[0]["cup"][FRENCH, 2]
    k.step_chance(s, 3)
    r = s[0]
    assert (r["city_army"][STRASBOURG], r["city_str"][STRASBOURG]) == (COALITION, 3)
    assert r["cup"][FRENCH, 2] == french2 + 1
    assert r["city_owner"][STRASBOURG] == 0 and r["supply"][0] == 4 and r["supply"][1] == 8
    assert r["card_tilted"][lxvi] == 1
    from tabletop_zoo.kernels.french_revolution_1789.phases import exile_count

    assert exile_count(r) == 1


def test_ex6_FR_RA_INSTIGATE_failure_on_a_tie():
    """FR-RA-INSTIGATE: Ex 6 variant: 2 > 2 is false, the unit returns to its cup."""
    s, lxvi = _ex6_state()
    coal2 = s[0]["cup"][COALITION, 2]
    k.step_chance(s, 2)
    r = s[0]
    assert (r["city_army"][STRASBOURG], r["city_str"][STRASBOURG], r["city_owner"][STRASBOURG]) == (FRENCH, 2, 1)
    assert r["cup"][COALITION, 2] == coal2 and r["card_tilted"][lxvi] == 1


def test_ex7_FR_RA_NATION_FR_GEN_3_vp_floor():
    """FR-RA-NATION, FR-GEN-3: Ex 7: C's Lyon marker returns, C 1 VP -> 0."""
    s = action_state(3, regime=TER, actor=1)
    danton = give(s, "danton", 1)
    mark(s, LYON, 2)
    s[0]["vp"][2] = 1
    s[0]["rp"][1], s[0]["vp"][1] = 7, 3
    play(s, 1, SELECT + danton, RA + NATIONALISE, CITY + LYON)
    r = s[0]
    assert r["city_owner"][LYON] == -1 and r["supply"][2] == 8 and r["vp"][2] == 0
    assert (r["vp"][1], r["rp"][1]) == (3, 7) and r["card_tilted"][danton] == 1


@pytest.mark.parametrize("actor_name,person_marks", [("robespierre", False), ("carnot", False)])
def test_ex8_FR_RA_ARREST_FR_RA_EXEC_marker_limits(actor_name, person_marks):
    """FR-RA-ARREST, FR-RA-EXEC: Ex 8: no arrest without a free imprisoned marker; execution +1 VP."""
    s = action_state(3, regime=TER, actor=0, person_marks=person_marks)
    danton = give(s, "danton", 1, IMPRISONED)
    give(s, "marat", 2, IMPRISONED)
    give(s, "brissot", 2, IMPRISONED)
    give(s, "orleans", 0, IMPRISONED)
    sj = give(s, "saint_just", 0)
    actor = give(s, actor_name, 0)
    give(s, "hebert", 1)  # a free person A could arrest if a marker were left
    play(s, 0, SELECT + sj)
    assert not legal(s)[RA + ARREST]
    s[0]["phase"], s[0]["mv_card"] = ST.PH_ACTION, -1  # back to step 1 (test shortcut)
    play(s, 0, SELECT + actor, RA + EXECUTE, PERSON + danton)
    r = s[0]
    assert r["card_status"][danton] == DEAD and r["vp"][0] == 1
    r["act_player"] = 0
    play(s, 0, SELECT + sj)
    assert legal(s)[RA + ARREST]


def test_ex8_FR_OPT_1_person_marks_masks_carnot():
    """FR-OPT-1."""
    s = action_state(3, regime=TER, actor=0, person_marks=True)
    give(s, "danton", 1, IMPRISONED)
    carnot = give(s, "carnot", 0)
    play(s, 0, SELECT + carnot) if legal(s)[SELECT + carnot] else None
    if s[0]["phase"] == ST.PH_CHOOSE:
        assert not legal(s)[RA + EXECUTE]
    else:
        assert not legal(s)[SELECT + carnot]


def test_ex9_FR_ACT_2_FR_ACT_4_pass_order_and_start_player():
    """FR-ACT-2, FR-ACT-4."""
    s = action_state(3, regime=AM, actor=1)
    b1, b2, c1 = give(s, "louis_xvi", 1), give(s, "barnave", 1), give(s, "lafayette", 2)
    play(s, 1, SELECT + b1, RA + VOTE, REGIME + AM)
    play(s, 2, SELECT + c1, RA + VOTE, REGIME + AM)
    play(s, 0, PASS)
    play(s, 1, SELECT + b2, RA + VOTE, REGIME + AM)
    play(s, 2, PASS)
    play(s, 1, PASS)
    assert s[0]["start_player"] == 1 and s[0]["phase"] == ST.PH_AUCTION and k.to_move(s) == 1


def test_ex9_variant_FR_ACT_4():
    """FR-ACT-4."""
    s = action_state(3, regime=AM, actor=1)
    give(s, "louis_xvi", 1)
    c1, a1 = give(s, "lafayette", 2), give(s, "marie_antoinette", 0)
    play(s, 1, PASS)
    play(s, 2, SELECT + c1, RA + VOTE, REGIME + AM)
    play(s, 0, SELECT + a1, RA + VOTE, REGIME + AM)
    play(s, 2, PASS)
    play(s, 0, PASS)
    assert s[0]["start_player"] == 0 and k.to_move(s) == 0


_ = (DIR, ARREST, LYON)
