"""The worked examples of spec §9, one test each, named with their rule IDs. Expected numbers come from
the spec text, not from running the code."""

import numpy as np

from tabletop_zoo.kernels import kremlin as k
from tabletop_zoo.kernels.kremlin import flow

from ._helpers import (
    DONE,
    OPPOSE,
    RUMOUR_B,
    SELECT_GAMER,
    ST,
    SUPPORT,
    G,
    T,
    control,
    declare,
    game,
    legal,
    open_window,
    pass_window,
    phase,
    play,
    put,
    roll,
    run,
    send_away,
    vacate,
)


def test_KRM_INF_KRM_DW_ex1_declarations_ties_and_loss():
    s = game(3, [{G(9): 7}, {G(9): 9}, {}])
    r = s[0]
    open_window(s, ST.C_EXPULSION)
    assert declare(G(9), 3) == 121 and declare(G(9), 5) == 123
    play(s, 121, seat=0)
    assert r["stamp"][0, G(9)] == 1
    play(s, declare(G(9), 4), seat=1)
    play(s, DONE, seat=2)
    play(s, 123, seat=0)
    assert r["stamp"][0, G(9)] == 3
    play(s, DONE, seat=1)
    play(s, DONE, seat=2)
    play(s, DONE, seat=0)
    assert phase(s) != "WINDOW" or r["dw_cont"] != ST.C_EXPULSION  # the window closed after 3 passes
    assert r["controller"][G(9)] == 0  # 5 > 4
    send_away(s, G(9))
    assert r["declared"][0, G(9)] == 0 and r["declared"][1, G(9)] == 0
    assert r["burned"][0, G(9)] == 5 and r["burned"][1, G(9)] == 4
    # back among the civilians: P0 may declare at most 2, P1 at most 5
    r["loc"][G(9)] = T.LOC_CIV
    s2 = s.copy()
    r2 = s2[0]
    r2["phase"] = ST.PH_WINDOW
    r2["dw_seat"] = 0
    assert declare(G(9), 2) in legal(s2) and declare(G(9), 3) not in legal(s2)
    r2["dw_seat"] = 1
    assert declare(G(9), 5) in legal(s2) and declare(G(9), 6) not in legal(s2)


def test_KRM_INF_4_ex1_tie_goes_to_first_declarer():
    """KRM-INF-4."""
    s = game(3, [{}, {G(10): 8}, {G(10): 9}])
    r = s[0]
    r["counter"] = 9
    open_window(s, ST.C_EXPULSION)
    play(s, DONE, seat=0)
    play(s, DONE, seat=1)
    play(s, declare(G(10), 6), seat=2)  # stamp 10
    assert r["stamp"][2, G(10)] == 10
    play(s, DONE, seat=0)
    play(s, declare(G(10), 6), seat=1)  # stamp 11 (spec: 12; any later stamp)
    assert r["controller"][G(10)] == 2
    play(s, DONE, seat=2)
    play(s, DONE, seat=0)
    play(s, declare(G(10), 7), seat=1)
    assert r["controller"][G(10)] == 1


def _ex2_board():
    s = game(3)
    control(s, 1, G(2))
    s[0]["part_time"][G(3)] = 1
    return s


def test_KRM_EXP_ex2_expulsion_chain():
    """KRM-EXP-3, KRM-GEN-5, KRM-PT-3: Ex 2: two successes (+1 SP each, the target leaves for other circles and its post
    is vacant), then a failure against a part-time senior (threshold 14 - 3 = 11): +3 SP and the phase ends."""
    s = _ex2_board()
    r = s[0]
    run(s, flow.S_EXP_BEGIN)
    assert r["actor"] == G(2) and phase(s) == "EXP_TARGET"
    play(s, SELECT_GAMER + G(12), seat=1)
    roll(s, 9)  # member needs 6
    assert r["loc"][G(12)] == T.LOC_OTH and r["sp"][G(2)] == 1
    pass_window(s)  # KRM-DW-1(e)
    play(s, SELECT_GAMER + G(7), seat=1)
    roll(s, 10)  # junior needs 10
    assert r["loc"][G(7)] == T.LOC_OTH and r["sp"][G(2)] == 2
    pass_window(s)
    play(s, SELECT_GAMER + G(3), seat=1)
    roll(s, 10)  # senior on part-time needs 14 - 3 = 11: failure
    assert r["sp"][G(2)] == 5 and 75 + r["sp"][G(2)] == 80
    assert r["loc"][G(3)] == 2 and r["holder"][6] == -1 and r["holder"][11] == -1
    assert phase(s) == "WINDOW" and r["dw_cont"] == ST.C_RUMOUR  # the phase is over


def test_KRM_GEN_2_KRM_GEN_6_ex3_sp_room_and_delegation():
    """KRM-GEN-2, KRM-GEN-6."""
    s = game(3)
    r = s[0]
    control(s, 1, G(2))
    control(s, 2, G(5))
    r["sp"][G(2)] = 18  # age 93: 93 + 3 > 95
    run(s, flow.S_EXP_BEGIN)
    assert r["actor"] == G(5)
    play(s, SELECT_GAMER + G(13), seat=2)
    roll(s, 5)
    assert r["sp"][G(5)] == 3 and r["sp"][G(2)] == 18 and r["loc"][G(13)] == 12
    s = game(3)
    r = s[0]
    control(s, 1, G(2))
    control(s, 2, G(5))
    r["sp"][G(2)] = 17  # age 92: 95 is allowed
    run(s, flow.S_EXP_BEGIN)
    assert r["actor"] == G(2)
    play(s, SELECT_GAMER + G(13), seat=1)
    roll(s, 5)
    assert r["sp"][G(2)] == 20 and 75 + 20 == 95
    assert phase(s) == "WINDOW" and r["dw_cont"] == ST.C_RUMOUR


def test_KRM_STR_ex4_stress_phase():
    """KRM-STR-1, KRM-PT-3: Ex 4: chairman +1, officers +1 a broke marker (not on part-time), +1 for a suspicion marker;
    members gain nothing for broke markers."""
    s = game(3)
    r = s[0]
    r["sp"][G(1)], r["broke"][G(1)] = 2, 2
    r["sp"][G(5)], r["broke"][G(5)], r["part_time"][G(5)], r["susp_turn"][G(5)] = 0, 1, 1, 1
    r["sp"][G(6)], r["broke"][G(6)] = 4, 2
    r["sp"][G(10)], r["broke"][G(10)], r["susp_turn"][G(10)] = 1, 1, 1
    r["broke"][G(20)] = 1
    run(s, flow.S_STRESS)
    assert r["sp"][G(1)] == 5 and r["sp"][G(5)] == 1 and r["sp"][G(6)] == 6 and r["sp"][G(10)] == 2
    assert r["sp"][G(20)] == 0
    assert all(r["loc"][g] != T.LOC_RET for g in range(26))  # nobody reaches 96 (G01 age 85)


def _finance_board(part_time=False):
    s = game(3)
    r = s[0]
    for post in range(7):  # only G08 (P07) is checked
        vacate(s, int(r["holder"][post]))
    r["sp"][G(8)], r["broke"][G(8)], r["part_time"][G(8)] = 4, 1, int(part_time)
    run(s, flow.S_FIN_BEGIN)
    assert k.is_chance(s)
    return s


def test_KRM_FIN_ex5_finance_table_lookup():
    """KRM-FIN-1: Ex 5: the d20 on the normal table, or on the part-time table for a part-time officer."""
    for face, retired, broke in ((1, True, None), (3, True, None), (10, False, 2), (11, False, 1), (20, False, 0)):
        s = _finance_board()
        roll(s, face)
        r = s[0]
        assert (r["loc"][G(8)] == T.LOC_RET) == retired, face
        if not retired:
            assert r["broke"][G(8)] == broke, face
    for face, retired, broke in ((1, True, None), (3, False, 2), (11, False, 1), (12, False, 0)):
        s = _finance_board(part_time=True)
        roll(s, face)
        r = s[0]
        assert (r["loc"][G(8)] == T.LOC_RET) == retired, face
        if not retired:
            assert r["broke"][G(8)] == broke, face


def _ex6_board():
    s = game(3, turn=3)
    r = s[0]
    for p, g in ((1, 2), (2, 3), (0, 4), (1, 5), (2, 6), (2, 7), (0, 8)):
        control(s, p, G(g))
    r["sp"][G(4)] = 2
    r["susp_turn"][G(6)] = 2
    r["part_time"][G(7)] = 1
    run(s, flow.S_RUM_BEGIN)
    assert r["actor"] == G(4) and phase(s) == "RUM_MARK"
    play(s, SELECT_GAMER + G(7), seat=0)
    assert r["sp"][G(4)] == 3
    play(s, DONE, seat=0)
    play(s, RUMOUR_B, seat=0)
    assert SELECT_GAMER + G(7) not in legal(s)  # marked this turn: not eligible
    play(s, SELECT_GAMER + G(6), seat=0)
    pass_window(s)
    return s


def test_KRM_RUM_ex6_trial_acquitted():
    """KRM-RUM-3: Ex 6: two OPPOSE votes acquit."""
    s = _ex6_board()
    r = s[0]
    for seat, vote in ((1, OPPOSE), (2, OPPOSE), (0, SUPPORT), (1, SUPPORT), (0, SUPPORT)):
        play(s, vote, seat=seat)  # voters G02, G03, G04, G05, G08
    assert r["loc"][G(6)] == 5 and r["susp_turn"][G(6)] == 2 and r["sp"][G(4)] == 3


def test_KRM_RUM_ex6_trial_guilty():
    """KRM-RUM-1, KRM-RUM-3, KRM-INF-3, KRM-GEN-5: Ex 6: the marker costs 1 SP; one OPPOSE: guilty, G06 leaves for other
    circles, its marker goes and P2's declaration on it is burned."""
    s = _ex6_board()
    r = s[0]
    for seat, vote in ((1, OPPOSE), (2, SUPPORT), (0, SUPPORT), (1, SUPPORT), (0, SUPPORT)):
        play(s, vote, seat=seat)
    assert r["loc"][G(6)] == T.LOC_OTH and r["susp_turn"][G(6)] == 0 and r["sp"][G(4)] == 6
    assert r["declared"][2, G(6)] == 0 and r["burned"][2, G(6)] == 1


def _ex7(declare_g09=True, sheets=None):
    s = game(3, sheets or [{G(9): 6}, {}, {}])
    r = s[0]
    vacate(s, G(1), T.LOC_RET)
    for p, g in ((1, 2), (2, 3), (0, 4), (1, 5), (2, 7), (0, 8)):
        control(s, p, G(g))
    r["sp"][G(3)] = 1
    run(s, flow.S_ELE_BEGIN)
    assert r["actor"] == G(3) and phase(s) == "NOMINATE"
    play(s, SELECT_GAMER + G(2), seat=2)
    pass_window(s)
    for seat, vote in ((1, SUPPORT), (2, SUPPORT), (0, OPPOSE), (1, SUPPORT), (2, SUPPORT), (0, OPPOSE)):
        play(s, vote, seat=seat)  # G02, G03, G04, G05, G07, G08
    assert r["sp"][G(3)] == 2 and phase(s) == "NOMINATE"
    assert legal(s) == {SELECT_GAMER + G(4), SELECT_GAMER + G(8)}
    play(s, SELECT_GAMER + G(8), seat=2)
    pass_window(s)
    for seat, vote in ((1, OPPOSE), (2, SUPPORT), (0, SUPPORT), (1, OPPOSE), (2, SUPPORT), (0, SUPPORT)):
        play(s, vote, seat=seat)
    return s


def test_KRM_ELE_ex7_election_two_rejections():
    """KRM-ELE-3, KRM-ELE-4, KRM-ELE-5: Ex 7: two OPPOSE reject (+1 SP); the actor must nominate an opposer (G04 or G08:
    every voter voted); a second rejection makes the actor chairman (+1 SP, its post vacant)."""
    s = _ex7()
    r = s[0]
    assert r["sp"][G(3)] == 3 and r["holder"][0] == G(3) and r["holder"][2] == -1


def test_KRM_PER_KRM_DW_1d_ex8_window_before_C():
    """KRM-DW-1."""
    s = _ex7()
    r = s[0]
    pass_window(s)  # personnel window
    play(s, DONE, seat=2)  # A: chairman G03 stops
    assert r["holder"][2] == G(5) and r["holder"][4] == -1  # auto seniors
    pass_window(s)  # before B
    play(s, DONE, seat=1)  # B: Planning G02 stops
    assert r["holder"][4] == G(9) and r["holder"][8] == -1  # auto juniors
    assert declare(G(9), 1) == 119
    play(s, 119, seat=0)
    play(s, DONE, seat=1)
    play(s, DONE, seat=2)
    play(s, DONE, seat=0)
    assert r["controller"][G(9)] == 0
    assert phase(s) == "PER_C_SRC" and k.to_move(s) == 0
    play(s, SELECT_GAMER + G(20), seat=0)  # P08 is the only vacancy: the post is automatic
    assert r["sp"][G(9)] == 1 and r["holder"][8] == G(20)
    pass_window(s)  # before the end check
    assert phase(s) == "WINDOW" and r["dw_cont"] == ST.C_YEAR_END  # no vacancy: on to D (nobody away) and the party


def test_KRM_PER_4_ex8_all_pass_then_auto_members():
    """KRM-PER-4."""
    s = _ex7()
    r = s[0]
    pass_window(s)
    play(s, DONE, seat=2)
    pass_window(s)
    play(s, DONE, seat=1)
    pass_window(s)
    assert r["controller"][G(9)] == -1 and r["holder"][8] == G(14)  # C skipped, auto members
    assert r["sp"][G(9)] == 0


def _ex9_board(broke=1):
    s = game(3)
    r = s[0]
    vacate(s, G(1), T.LOC_RET)
    put(s, G(3), 0)
    control(s, 2, G(3))
    r["broke"][G(3)], r["sp"][G(3)] = broke, 3
    r["speeches"][2] = 2
    run(s, flow.S_YEP_BEGIN)
    assert k.is_chance(s)
    return s


def test_KRM_YEP_ex9_speech_and_victory():
    """KRM-YEP-3, KRM-YEP-4, KRM-END-1: Ex 9: a successful speech is P2's third and wins at once; the chairman gains 1
    SP per broke marker (2 with 2) after the speech."""
    s = _ex9_board()
    roll(s, 7)
    r = s[0]
    assert k.is_over(s) and r["winner"] == 2 and r["speeches"][2] == 3 and r["sp"][G(3)] == 4
    ret = np.zeros(k.MAX_PLAYERS)
    k.returns(s, ret)
    assert ret[2] == 1.0 and ret[0] == 0.0 and ret[1] == 0.0  # project convention (docs/rules/kremlin.md)
    s = _ex9_board()
    roll(s, 6)
    assert not k.is_over(s) and s[0]["sp"][G(3)] == 4 and s[0]["speeches"][2] == 2
    for face, ok in ((13, False), (14, True)):
        s = _ex9_board(broke=2)
        roll(s, face)
        assert k.is_over(s) == ok and s[0]["sp"][G(3)] == 5
