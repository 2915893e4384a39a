"""Scenario tests per rule family on explicit states: every regime action and every intrigue effect.
Expected numbers are from the spec (FR-*) by hand."""

import numpy as np

from ._helpers import (
    ABILITY,
    AM,
    ARMY,
    ARREST,
    ASSASSIN,
    BID,
    CAMPAIGN,
    CHANCE_SEAT,
    CITY,
    CM,
    COALITION,
    DEAD,
    DIR,
    EGA,
    EMP,
    EXECUTE,
    EXILE,
    EXILED,
    EXPEDITION,
    FINANCE,
    FREE,
    FRENCH,
    IMPRISONED,
    INSTIGATE,
    INTRIGUE,
    LILLE,
    LYON,
    MARSEILLE,
    NANTES,
    NATIONALISE,
    NOBLES,
    PARIS,
    PASS,
    PERSON,
    PLAYER,
    RA,
    REGIME,
    RELEASE,
    REP,
    RETURN,
    ROYALIST,
    SELECT,
    ST,
    TER,
    VOTE,
    T,
    action_state,
    card,
    give,
    give_intrigue,
    intrigue,
    k,
    legal,
    mark,
    play,
    set_unit,
)


# --- regime actions (FR-RA-*) ----------------------------------------------------------------------
def test_FR_RA_VOTE_only_listed_boxes_and_zero_vote_persons():
    """FR-RA-VOTE: only the regime's listed boxes; a 0-vote person places nothing but tilts (FR-ACT-3)."""
    s = action_state(2, regime=CM)
    marat = give(s, "marat", 0)  # 0 votes
    play(s, 0, SELECT + marat, RA + VOTE)
    m = legal(s)
    assert np.flatnonzero(m[REGIME : REGIME + 7]).tolist() == [CM, REP]
    play(s, 0, REGIME + REP)
    assert s[0]["votes"].sum() == 0 and s[0]["card_tilted"][marat] == 1


def test_FR_RA_CAMP_returns_other_marker_not_where_armies():
    """FR-RA-CAMP, FR-ARMY-4, FR-GEN-6: no campaign where a royalist unit stands; one marker a city."""
    s = action_state(2, regime=CM)
    p = give(s, "mirabeau", 0)
    mark(s, LYON, 1)
    set_unit(s, NANTES, ROYALIST, 1)
    play(s, 0, SELECT + p, RA + CAMPAIGN)
    m = legal(s)
    assert not m[CITY + NANTES] and m[CITY + LYON]
    play(s, 0, CITY + LYON)
    assert s[0]["city_owner"][LYON] == 0 and s[0]["supply"][:2].tolist() == [7, 8]


def test_FR_RA_NOBLE_only_empty_cities_armies_allowed():
    """FR-RA-NOBLE: only a city without another player's marker; armies allowed."""
    s = action_state(2, regime=AM)
    p = give(s, "louis_xvi", 0)
    mark(s, LYON, 1)
    set_unit(s, NANTES, ROYALIST, 1)
    play(s, 0, SELECT + p, RA + NOBLES)
    m = legal(s)
    assert not m[CITY + LYON] and m[CITY + NANTES]
    play(s, 0, CITY + NANTES)
    assert s[0]["city_owner"][NANTES] == 0


def test_FR_RA_ARREST_RELEASE_EXILE_RETURN_ASSASSIN():
    """FR-RA-ARREST, FR-RA-RELEASE (+2 VP), FR-RA-EXILE, FR-RA-RETURN (+2 VP), FR-RA-ASSASSIN (+1 VP)."""
    s = action_state(2, regime=CM)
    a, b = give(s, "necker", 0), give(s, "mirabeau", 0)
    victim = give(s, "barnave", 1)
    play(s, 0, SELECT + a, RA + ARREST, PERSON + victim)
    assert s[0]["card_status"][victim] == IMPRISONED
    s[0]["act_player"] = 0
    play(s, 0, SELECT + b, RA + RELEASE, PERSON + victim)
    assert s[0]["card_status"][victim] == FREE and s[0]["vp"][0] == 2  # FR-RA-RELEASE +2
    s2 = action_state(2, regime=DIR)
    a, b, c = give(s2, "necker", 0), give(s2, "mirabeau", 0), give(s2, "sieyes", 0)
    play(s2, 0, SELECT + a, RA + EXILE, PERSON + a)  # the actor may exile itself
    assert s2[0]["card_status"][a] == EXILED
    s2[0]["act_player"] = 0
    play(s2, 0, SELECT + b, RA + RETURN, PERSON + a)
    assert s2[0]["card_status"][a] == FREE and s2[0]["vp"][0] == 2  # FR-RA-RETURN +2
    s2[0]["card_status"][a] = EXILED
    s2[0]["act_player"] = 0
    play(s2, 0, SELECT + c, RA + ASSASSIN, PERSON + a)
    assert s2[0]["card_status"][a] == DEAD and s2[0]["vp"][0] == 3  # FR-RA-ASSASSIN +1


def test_FR_RA_EXILE_swaps_imprisoned_marker():
    """FR-RA-EXILE: exiling an imprisoned person returns its imprisoned marker (4 free) and uses an exiled one (3)."""
    s = action_state(2, regime=CM)
    a, b = give(s, "necker", 0), give(s, "mirabeau", 0, IMPRISONED)
    play(s, 0, SELECT + a, RA + EXILE, PERSON + b)
    from tabletop_zoo.kernels.french_revolution_1789.effects import markers_free

    assert s[0]["card_status"][b] == EXILED
    assert markers_free(s[0], IMPRISONED) == 4 and markers_free(s[0], EXILED) == 3


def test_FR_RA_FIN_and_EXPED_costs_and_dispatch_ownership():
    """FR-RA-FIN (pay 4 RP, +1 VP), FR-RA-EXPED (pay 2 RP, +2 VP; owning a Dispatch person is enough)."""
    s = action_state(2, regime=DIR)
    a = give(s, "barras", 0)
    s[0]["rp"][0] = 5
    play(s, 0, SELECT + a)
    m = legal(s)
    assert m[RA + FINANCE] and not m[RA + EXPEDITION]  # no Dispatch person owned
    give(s, "carnot", 0, IMPRISONED)  # owning is enough, whatever its status
    assert legal(s)[RA + EXPEDITION]
    play(s, 0, RA + FINANCE)
    assert (s[0]["rp"][0], s[0]["vp"][0]) == (1, 1)
    s[0]["rp"][0] = 2
    s[0]["act_player"] = 0
    b = give(s, "sieyes", 0)
    play(s, 0, SELECT + b, RA + EXPEDITION)
    assert (s[0]["rp"][0], s[0]["vp"][0]) == (0, 3)


def test_FR_ACT_6_7_imprisoned_cannot_act_exiled_only_instigates():
    """FR-ACT-6, FR-ACT-7."""
    s = action_state(2, regime=CM)
    give(s, "necker", 0, IMPRISONED)
    ex = give(s, "mirabeau", 0, EXILED)
    m = legal(s)
    assert not m[SELECT + card("necker")]
    play(s, 0, SELECT + ex)
    assert np.flatnonzero(legal(s)[RA : RA + 13]).tolist() == [INSTIGATE]


def test_FR_RA_INSTIGATE_dual_city_asks_army_and_paris_defence():
    """FR-RA-INSTIGATE, FR-ARMY-3: a dual city asks the army type; Paris defends with +1."""
    s = action_state(2, regime=CM)
    ex = give(s, "mirabeau", 0, EXILED)
    set_unit(s, MARSEILLE, FRENCH, 1)
    set_unit(s, PARIS, FRENCH, 2)
    play(s, 0, SELECT + ex, RA + INSTIGATE, CITY + MARSEILLE)
    assert np.flatnonzero(legal(s)[ARMY : ARMY + 2]).tolist() == [0, 1]
    play(s, 0, ARMY + 1)  # royalist
    assert k.to_move(s) == CHANCE_SEAT and s[0]["ch_army"] == ROYALIST
    k.step_chance(s, 2)
    assert (s[0]["city_army"][MARSEILLE], s[0]["city_str"][MARSEILLE]) == (ROYALIST, 2)
    assert s[0]["city_owner"][MARSEILLE] == 0
    s2 = action_state(2, regime=CM)
    ex = give(s2, "mirabeau", 0, EXILED)
    set_unit(s2, PARIS, FRENCH, 2)
    play(s2, 0, SELECT + ex, RA + INSTIGATE, CITY + PARIS)
    k.step_chance(s2, 3)  # 3 > 2 + 1 is false: Paris defends (FR-ARMY-3)
    assert s2[0]["city_army"][PARIS] == FRENCH


# --- abilities (FR-ACT-8) ----------------------------------------------------------------------------
def test_FR_ARMY_2_dispatch_ability():
    """FR-ARMY-2."""
    s = action_state(2, regime=AM)
    laf = give(s, "lafayette", 0)
    set_unit(s, LILLE, COALITION, 2)
    mark(s, LILLE, 1)
    play(s, 0, SELECT + laf, ABILITY, CITY + LILLE)
    assert s[0]["ch_army"] == FRENCH
    k.step_chance(s, 3)
    r = s[0]
    assert (r["city_army"][LILLE], r["city_str"][LILLE], r["city_owner"][LILLE]) == (FRENCH, 3, 0)
    assert r["cup"][COALITION, 2] == 4  # back in the coalition cup (4 twos in all)


def test_FR_ACT_8_abilities_ignore_regime_veto_and_loan():
    """FR-ACT-8."""
    s = action_state(2, regime=AM)
    lx, ne = give(s, "louis_xvi", 0), give(s, "necker", 0)
    s[0]["votes"][CM] = 3
    play(s, 0, SELECT + lx, ABILITY, REGIME + CM)
    assert s[0]["votes"][CM] == 1  # Royal Veto removes up to 2
    s[0]["act_player"] = 0
    s[0]["rp"][0] = 58
    play(s, 0, SELECT + ne, ABILITY)
    assert s[0]["rp"][0] == 60  # State Loan +3, capped (FR-GEN-4)


def test_corday_kills_and_dies():
    s = action_state(2, regime=AM)
    co = give(s, "corday", 0)
    v = give(s, "barnave", 1, IMPRISONED)
    play(s, 0, SELECT + co, ABILITY, PERSON + v)
    assert s[0]["card_status"][v] == DEAD and s[0]["card_status"][co] == DEAD


# --- intrigue cards (FR-ACT-9) -----------------------------------------------------------------------
def _intr_state(name, regime=AM):
    s = action_state(3, regime=regime)
    j = give_intrigue(s, name, 0)
    return s, j


def test_intrigue_bribe_any_box():
    """FR-ACT-9: an intrigue card resolves at once and leaves the game (LOC_PLAYED)."""
    s, j = _intr_state("bribe_independents")
    play(s, 0, INTRIGUE + j, REGIME + EGA)
    assert s[0]["votes"][EGA] == 3 and s[0]["intr_loc"][j] == ST.LOC_PLAYED


def test_intrigue_informer_prison_break_false_passports_amnesty():
    s, j = _intr_state("informer")
    v = give(s, "barnave", 1)
    play(s, 0, INTRIGUE + j, PERSON + v)
    assert s[0]["card_status"][v] == IMPRISONED
    s, j = _intr_state("prison_break")
    v = give(s, "barnave", 0, IMPRISONED)
    play(s, 0, INTRIGUE + j, PERSON + v)
    assert s[0]["card_status"][v] == FREE and s[0]["vp"][0] == 0
    s, j = _intr_state("false_passports")
    v = give(s, "barnave", 0)
    play(s, 0, INTRIGUE + j, PERSON + v)
    assert s[0]["card_status"][v] == EXILED
    s, j = _intr_state("amnesty")
    v = give(s, "barnave", 0, EXILED)
    play(s, 0, INTRIGUE + j, PERSON + v)
    assert s[0]["card_status"][v] == FREE and s[0]["vp"][0] == 2


def test_intrigue_journee_and_pamphlets():
    s, j = _intr_state("sans_culottes_journee")
    set_unit(s, PARIS, COALITION, 3)
    mark(s, PARIS, 1)
    play(s, 0, INTRIGUE + j, CITY + PARIS)  # even with an army in Paris
    assert s[0]["city_owner"][PARIS] == 0
    s, j = _intr_state("pamphlets")
    play(s, 0, INTRIGUE + j, CITY + LYON)
    assert s[0]["city_owner"][LYON] == 0


def test_intrigue_speculation_assignats_necklace():
    s, j = _intr_state("speculation")
    play(s, 0, INTRIGUE + j)
    assert s[0]["rp"][0] == 5
    s, j = _intr_state("assignats")
    s[0]["rp"][:3] = [1, 4, 0]
    play(s, 0, INTRIGUE + j)
    assert s[0]["rp"][:3].tolist() == [4, 3, 0]
    s, j = _intr_state("necklace_affair")
    s[0]["vp"][2] = 1
    play(s, 0, INTRIGUE + j, PLAYER + 2)
    assert s[0]["vp"][2] == 0


def test_intrigue_hired_assassin_ballot_fraud():
    s, j = _intr_state("hired_assassin")
    v = give(s, "barnave", 1, EXILED)
    play(s, 0, INTRIGUE + j, PERSON + v)
    assert s[0]["card_status"][v] == DEAD and s[0]["vp"][0] == 1
    s, j = _intr_state("ballot_fraud")
    s[0]["votes"][REP] = 5
    play(s, 0, INTRIGUE + j, REGIME + REP)
    assert s[0]["votes"][REP] == 2


def test_intrigue_pitts_gold_draws_two():
    """FR-ARMY-5, FR-ACT-9: Pitt's Gold draws two coalition units and keeps the stronger (P = 3/45, 18/45, 24/45)."""
    s, j = _intr_state("pitts_gold")
    ex = give(s, "barnave", 0, EXILED)
    s[0]["card_tilted"][ex] = 1  # tilted or not
    set_unit(s, LILLE, FRENCH, 2)
    play(s, 0, INTRIGUE + j, PERSON + ex, CITY + LILLE)
    ids, probs = np.zeros(14, np.int64), np.zeros(14)
    n = k.chance_outcomes(s, ids, probs)
    # 10 coalition units: 3 ones, 4 twos, 3 threes; P(max=1)=C(3,2)/C(10,2)=3/45, P(max<=2)=C(7,2)/45=21/45
    assert np.allclose(probs[:n], [3 / 45, 18 / 45, 24 / 45]) and ids[:n].tolist() == [1, 2, 3]
    k.step_chance(s, 3)
    assert s[0]["city_army"][LILLE] == COALITION and s[0]["card_tilted"][ex] == 1


def test_intrigue_levee_en_masse():
    s, j = _intr_state("levee_en_masse")
    set_unit(s, NANTES, ROYALIST, 2)
    play(s, 0, INTRIGUE + j, CITY + NANTES)
    k.step_chance(s, 2)  # 2 + 1 > 2
    assert s[0]["city_army"][NANTES] == FRENCH and s[0]["city_owner"][NANTES] == 0


def test_police_network_and_court_intrigue():
    s = action_state(3, regime=AM)
    fo, ma = give(s, "fouche", 0), give(s, "marie_antoinette", 0)
    j = give_intrigue(s, "speculation", 1)
    assert not legal(s)[SELECT + fo] or True
    play(s, 0, SELECT + fo, ABILITY)
    assert np.flatnonzero(legal(s)[PLAYER : PLAYER + 5]).tolist() == [1]
    play(s, 0, PLAYER + 1)
    ids, probs = np.zeros(14, np.int64), np.zeros(14)
    assert k.chance_outcomes(s, ids, probs) == 1 and ids[0] == j
    k.step_chance(s, j)
    assert s[0]["intr_loc"][j] == 0
    s[0]["act_player"] = 0
    top = int(s[0]["pile"][s[0]["pile_n"] - 1])
    play(s, 0, SELECT + ma, ABILITY)
    assert s[0]["intr_loc"][top] == 0


# --- auction, hidden information ---------------------------------------------------------------------
def test_FR_AUC_3_opening_bid_below_rp():
    """FR-AUC-3."""
    s = k.new_state(3, 5)
    m = legal(s)
    assert not m[PASS] and np.flatnonzero(m).tolist() == [BID + x for x in range(15)]  # 15 RP: bids 0..14


def test_determinize_keeps_own_hand_and_counts():
    s = k.new_state(4, 9)
    before = s.copy()
    k.determinize(s, 0, 123)
    r, b = s[0], before[0]
    assert (r["intr_loc"] == 0).tolist() == (b["intr_loc"] == 0).tolist()
    for p in range(4):
        assert (r["intr_loc"] == p).sum() == (b["intr_loc"] == p).sum()
    assert r["deck"][0] == b["deck"][0]  # the revealed card stays
    assert k.check_invariants(s) == []


_ = (CM, EMP, TER, REP, EXECUTE, NATIONALISE, intrigue, T, card, EXPEDITION)
