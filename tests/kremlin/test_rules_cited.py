"""Kremlin ("Magne!") rules no other test checks by ID (spec shared/rules/kremlin.md §3-§5), with the spec's numbers
(experience: G01 80, G02 75, G03 74)."""

from __future__ import annotations

import numpy as np

from . import _helpers as h
from ._helpers import SELECT_GAMER, ST, G, T, control, flow, game, k, legal, phase, put, roll, run, vacate


def test_a_fresh_game_has_empty_sheets_and_nobody_controlled():
    """KRM-SET-3, KRM-SET-6: speech counters 0, turn 1, no declarations, so every gamer is uncontrolled; the
    influence sheets are still blank before the secret allocation."""
    r = k.new_state(4, 0)[0]
    assert r["turn"] == 1 and r["speeches"][:4].tolist() == [0, 0, 0, 0]
    assert not r["declared"].any() and not r["burned"].any() and not r["assigned"].any()
    assert r["controller"].tolist() == [-1] * 26


def test_the_start_player_rotates_with_the_turn():
    """KRM-SET-5: in turn t the start player is P((t - 1) mod N): with 3 seats, turn 4 starts with P0; with 4
    seats, turn 2 with P1."""
    for n, turn, start in ((3, 3, 0), (4, 1, 1)):
        s = game(n, turn=turn)
        run(s, flow.S_TURN_END)
        assert s[0]["turn"] == turn + 1 and s[0]["start_player"] == start


def test_no_speech_without_an_able_chairman():
    """KRM-YEP-1: no speech (no d20) when P00 is vacant or its holder is on part-time."""
    s = game(3)
    vacate(s, G(1), T.LOC_RET)
    run(s, flow.S_YEP_BEGIN)
    assert not k.is_chance(s) and s[0]["speeches"][:3].tolist() == [0, 0, 0]
    s = game(3)
    vacate(s, G(1), T.LOC_RET)
    put(s, G(3), 0)
    control(s, 2, G(3))
    s[0]["part_time"][G(3)] = 1
    s[0]["speeches"][2] = 2
    run(s, flow.S_YEP_BEGIN)
    assert not k.is_chance(s) and s[0]["speeches"][2] == 2


def test_stress_that_brings_age_to_96_retires_at_once():
    """KRM-STR-3, KRM-GEN-1, KRM-GEN-3: age = experience + SP; the chairman G01 (experience 80) with 15 SP gains 1 in
    the stress phase, reaches 96 and retires (P00 vacant); G02 (75) with 20 SP reaches 95 and stays."""
    s = game(3)
    r = s[0]
    r["sp"][G(1)], r["sp"][G(2)] = 15, 20
    run(s, flow.S_STRESS)
    assert r["loc"][G(1)] == T.LOC_RET and r["holder"][0] == -1
    assert r["loc"][G(2)] == 1 and r["sp"][G(2)] == 20


def _finance_board(broke: int):
    """Finance phase with only G08 (P07) to check: every higher post vacant."""
    s = game(3)
    r = s[0]
    for post in range(7):
        vacate(s, int(r["holder"][post]))
    r["sp"][G(8)], r["broke"][G(8)] = 4, broke
    return s


def test_a_third_broke_marker_retires():
    """KRM-FIN-3, KRM-GEN-4: G08 with 2 broke markers rolls 10 on the normal table (one more marker): with 3 it
    retires and P07 is vacant; with 1 marker the same roll leaves it in its post with 2."""
    for broke, retired in ((2, True), (1, False)):
        s = _finance_board(broke)
        run(s, flow.S_FIN_BEGIN)
        roll(s, 10)
        r = s[0]
        assert (r["loc"][G(8)] == T.LOC_RET) == retired and (r["holder"][7] == -1) == retired


def test_the_finance_sweep_retires_everyone_aged_96():
    """KRM-FIN-4: after the checks, G13 (experience 63, a member: never checked) with 33 SP (age 96) retires."""
    s = _finance_board(0)
    s[0]["sp"][G(13)] = 33
    run(s, flow.S_FIN_BEGIN)
    assert s[0]["loc"][G(13)] == 12  # still in P12 while the check is pending
    roll(s, 20)
    assert s[0]["loc"][G(13)] == T.LOC_RET and s[0]["holder"][12] == -1


def test_an_expulsion_needs_room_for_three_sp():
    """KRM-EXP-4: G02 (experience 75) may try only while age + 3 <= 95: with 17 SP (92) it picks a target; with 18
    (93) it cannot act and, nobody else being able, there is no expulsion."""
    s = game(3)
    control(s, 1, G(2))
    s[0]["sp"][G(2)] = 17
    run(s, flow.S_EXP_BEGIN)
    assert phase(s) == "EXP_TARGET" and SELECT_GAMER + G(12) in legal(s)
    s = game(3)
    control(s, 1, G(2))
    s[0]["sp"][G(2)] = 18
    run(s, flow.S_EXP_BEGIN)
    assert phase(s) == "WINDOW" and s[0]["dw_cont"] == ST.C_RUMOUR


# --- influence sheets and declaration windows (KRM-INF-1, KRM-DW-3) ---------------------------------------------
def _pieces(s, seat):
    from tabletop_zoo.kernels._common.layout import unflatten

    out = np.zeros(k.OBS_SIZE, np.float32)
    k.observe(s, seat, out)
    return unflatten(k.OBS_PIECES, out)


def test_sheets_are_secret_and_fixed_declarations_and_burned_points_public():
    """KRM-INF-1: P0's sheet gives G09 7 (secret), P1's gives it 4. P0 declares 3 on G09 (declared 3, stamp = the
    counter), then G09 is sent away (burned 3, declared 0). The sheet never changes; P1 sees P0's declared and
    burned points but only its own sheet; only the table view (seat -1) holds every sheet."""
    s = game(3, [{G(9): 7}, {G(9): 4}, {}])
    r = s[0]
    assert not r["declared"].any() and not r["burned"].any() and not r["stamp"].any()  # both start at 0
    for p in range(3):  # values 10..1 once each, 0 elsewhere
        assert sorted(r["assigned"][p][r["assigned"][p] > 0].tolist()) == list(range(1, 11))
    sheet0 = r["assigned"][0].copy()
    control(s, 0, G(9), 3)
    assert r["declared"][0, G(9)] == 3 and r["stamp"][0, G(9)] == r["counter"] > 0
    seen = _pieces(s, 1)  # P1's view: P0 is relative seat 2 of 3
    assert seen["declared"][2, G(9)] == np.float32(0.3) and seen["my_assigned"][G(9)] == np.float32(0.4)
    assert not seen["all_assigned"].any()
    h.send_away(s, G(9))
    assert r["declared"][0, G(9)] == 0 and r["burned"][0, G(9)] == 3
    assert (r["assigned"][0] == sheet0).all() and r["assigned"][0, G(9)] == 7  # fixed all game
    seen = _pieces(s, 1)
    assert seen["burned"][2, G(9)] == np.float32(0.3) and seen["declared"][2, G(9)] == 0
    assert not seen["all_assigned"].any() and seen["my_assigned"][G(9)] == np.float32(0.4)
    table = _pieces(s, -1)
    assert table["all_assigned"][0, G(9)] == np.float32(0.7) and table["all_assigned"][1, G(9)] == np.float32(0.4)


def test_a_named_trial_goes_ahead_after_the_accuser_changes_hands():
    """KRM-DW-3: P0's G04 (Editorial) names G05 (marked in turn 1) for trial in turn 2. In the window before the vote
    P1 declares 2 on G04: G04's controller is P1 at once (control recomputed after the declaration), and when the
    window closes the trial still goes ahead against G05 (the choice is not undone). P1 now casts G04's vote; G05 is
    found guilty and G04, the accuser, gains 3 SP."""
    s = game(3, [{G(4): 5}, {G(4): 6}, {}], turn=2)
    r = s[0]
    control(s, 0, G(4), 1)
    r["susp_turn"][G(5)] = 1
    run(s, flow.S_RUM_BEGIN)
    h.play(s, h.DONE, seat=0)  # no marker toggles
    h.play(s, h.RUMOUR_B, seat=0)
    assert legal(s) == {SELECT_GAMER + G(5)}
    h.play(s, SELECT_GAMER + G(5), seat=0)
    assert phase(s) == "WINDOW" and r["dw_cont"] == ST.C_TRIAL_VOTE and k.to_move(s) == 1  # turn 2: P1 starts
    h.play(s, h.declare(G(4), 2), seat=1)
    assert r["controller"][G(4)] == 1 and phase(s) == "WINDOW"  # recomputed at once, window still open
    h.pass_window(s)
    assert phase(s) == "VOTE" and r["target"] == G(5) and k.to_move(s) == 1
    h.play(s, h.SUPPORT, seat=1)
    assert r["loc"][G(5)] == T.LOC_OTH and r["sp"][G(4)] == 3


# --- declining powers (KRM-GEN-7) ---------------------------------------------------------------------------------
def test_a_declined_expulsion_or_rumour_is_not_passed_on():
    """KRM-GEN-7: P1's G02 (Planning, first of the expulsion list) declines with DONE: the phase ends at once (the
    rumour window opens) although P2's G05 (Mood Maker, next on the list) could act, as it does when G02 is
    uncontrolled. P0's G04 (Editorial) declines the rumour power: P2's G03 (Communications) is never asked."""
    s = game(3)
    control(s, 1, G(2))
    control(s, 2, G(5))
    run(s, flow.S_EXP_BEGIN)
    assert phase(s) == "EXP_TARGET" and k.to_move(s) == 1
    h.play(s, h.DONE, seat=1)
    r = s[0]
    assert phase(s) == "WINDOW" and r["dw_cont"] == ST.C_RUMOUR and r["sp"][G(2)] == r["sp"][G(5)] == 0
    assert r["holder"].tolist() == list(range(13))  # nobody was expelled
    s = game(3)
    control(s, 2, G(5))
    run(s, flow.S_EXP_BEGIN)
    assert phase(s) == "EXP_TARGET" and k.to_move(s) == 2 and s[0]["actor"] == G(5)  # delegation when unable
    s = game(3)
    control(s, 0, G(4))
    control(s, 2, G(3))
    run(s, flow.S_RUM_BEGIN)
    h.play(s, h.DONE, seat=0)  # no toggles
    assert phase(s) == "RUM_CHOICE" and k.to_move(s) == 0
    h.play(s, h.DONE, seat=0)  # neither A nor B
    assert k.is_chance(s) and s[0]["chance_kind"] == ST.CH_FINANCE and s[0]["actor"] == -1


def test_the_election_power_cannot_be_declined_and_personnel_powers_are_not_delegated():
    """KRM-GEN-7: the election actor (P1's G03, Communications) must nominate (no DONE). The chairman's personnel
    power A is not delegated: with G01 uncontrolled and P1 controlling G02 (Planning), step A is skipped."""
    s = game(3)
    vacate(s, G(1), T.LOC_RET)
    control(s, 1, G(3))
    run(s, flow.S_ELE_BEGIN)
    assert phase(s) == "NOMINATE" and k.to_move(s) == 1
    assert legal(s) == {SELECT_GAMER + G(2), SELECT_GAMER + G(3), SELECT_GAMER + G(4)}  # seniors, no DONE
    s = game(3)
    control(s, 1, G(2))
    vacate(s, G(9))  # a vacancy a move could fill
    run(s, flow.S_PER_A_BEGIN)
    assert phase(s) == "WINDOW" and s[0]["dw_cont"] == ST.C_PER_B


# --- part-time and stress (KRM-PT-1, KRM-STR-2) -------------------------------------------------------------------
def test_part_time_lasts_one_turn():
    """KRM-PT-1: P0 sends its G05 (1 broke marker) to part-time; the flag holds through the stress phase of that turn
    and is cleared at the start of the next turn's part-time phase (then its window opens)."""
    s = game(3)
    r = s[0]
    control(s, 0, G(5))
    r["broke"][G(5)] = 1
    run(s, flow.S_PT_BEGIN)
    h.play(s, SELECT_GAMER + G(5), seat=0)
    assert phase(s) == "WINDOW" and r["dw_cont"] == ST.C_EXPULSION  # stress ran
    assert r["part_time"][G(5)] == 1 and r["sp"][G(5)] == 0  # on part-time: no SP for its broke marker
    r["part_time"][G(9)] = 1
    run(s, flow.S_TURN_END)
    assert r["turn"] == 2 and not r["part_time"].any()
    assert phase(s) == "WINDOW" and r["dw_cont"] == ST.C_PART_TIME


def test_stress_sp_are_not_doubled_for_stress_sensitive_gamers():
    """KRM-STR-2: with the traits on, stress-sensitive G09 in officer post P07 with 2 broke markers and a suspicion
    marker gains 2 + 1 = 3 SP (not 6); stress-sensitive G18 as chairman gains 1 (not 2)."""
    s = game(3, traits=True)
    r = s[0]
    put(s, G(9), 7)
    put(s, G(18), 0)
    r["broke"][G(9)] = 2
    r["susp_turn"][G(9)] = 1
    run(s, flow.S_STRESS)
    assert r["sp"][G(9)] == 3 and r["sp"][G(18)] == 1


# --- rumour costs (KRM-RUM-4) -------------------------------------------------------------------------------------
def _rumour_choice(sp: int, actor: int = G(4), **options) -> tuple[bool, bool]:
    """(A offered, B offered) for the rumour actor in Editorial with ``sp`` SP; G05 was marked in turn 1."""
    s = game(3, turn=2, **options)
    if actor != G(4):
        put(s, actor, 3)
    control(s, 0, actor)
    s[0]["sp"][actor] = sp
    s[0]["susp_turn"][G(5)] = 1
    run(s, flow.S_RUM_BEGIN)
    assert phase(s) == "RUM_MARK" and SELECT_GAMER + G(6) in legal(s)  # a toggle is affordable
    h.play(s, h.DONE, seat=0)
    if phase(s) != "RUM_CHOICE":
        assert k.is_chance(s) and s[0]["chance_kind"] == ST.CH_FINANCE  # no choice at all: the phase ended
        return False, False
    lg = legal(s)
    return h.RUMOUR_A in lg, h.RUMOUR_B in lg


def test_rumour_costs_are_checked_in_advance():
    """KRM-RUM-4: a toggle needs room 1, A room 2, B room 3 (room = 95 - experience - SP). G04 (experience 73): 19 SP
    (room 3) -> A and B; 20 (room 2) -> A only; 21 (room 1) -> toggles only. Stress-sensitive G09 (67) with the
    traits on needs 2, 4, 6: 23 SP (room 5) -> A only; 25 (room 3) -> toggles only."""
    assert _rumour_choice(19) == (True, True)
    assert _rumour_choice(20) == (True, False)
    assert _rumour_choice(21) == (False, False)
    assert _rumour_choice(23, G(9), traits=True) == (True, False)
    assert _rumour_choice(25, G(9), traits=True) == (False, False)


# --- election (KRM-ELE-6, KRM-ELE-7) ------------------------------------------------------------------------------
def _election_at_95():
    """P00 vacant; P0's G03 (Communications, the actor) at age 95 (74 + 21 SP); P1 controls G02 and G05."""
    s = game(3)
    vacate(s, G(1), T.LOC_RET)
    control(s, 0, G(3))
    control(s, 1, G(2))
    control(s, 1, G(5))
    s[0]["sp"][G(3)] = 21
    run(s, flow.S_ELE_BEGIN)
    return s


def _vote(s, nominee, votes):
    h.play(s, SELECT_GAMER + nominee, seat=0)
    h.pass_window(s)
    for seat, vote in votes:  # voters in rank order: G02 (P1), G03 (P0), G05 (P1)
        h.play(s, vote, seat=seat)


def test_rejection_sp_apply_and_the_actor_retires_when_the_election_is_over():
    """KRM-ELE-6: G03 nominates G02; G02 and G05 oppose: rejected, G03 gains 1 SP (age 96) although that was not
    masked, and still nominates again (it retires only when the election is over). G05 is then approved: G05 is
    chairman and G03 retires (P02 vacant). If the second vote fails too, G03 (23 SP) becomes chairman and retires at
    once: P00 is vacant again."""
    O, S = h.OPPOSE, h.SUPPORT
    s = _election_at_95()
    r = s[0]
    _vote(s, G(2), [(1, O), (0, S), (1, O)])
    assert r["sp"][G(3)] == 22 and r["loc"][G(3)] == 2 and phase(s) == "NOMINATE"
    assert legal(s) == {SELECT_GAMER + G(2), SELECT_GAMER + G(5)}  # the opposers
    _vote(s, G(5), [(1, S), (0, S), (1, S)])
    assert r["holder"][0] == G(5) and r["loc"][G(3)] == T.LOC_RET and r["holder"][2] == -1
    s = _election_at_95()
    r = s[0]
    _vote(s, G(2), [(1, O), (0, S), (1, O)])
    _vote(s, G(2), [(1, O), (0, S), (1, O)])
    assert r["sp"][G(3)] == 23 and r["loc"][G(3)] == T.LOC_RET and r["holder"][0] == -1 and r["holder"][2] == -1


def test_no_election_when_nobody_can_act():
    """KRM-ELE-7: P00 vacant and every post holder uncontrolled: no election; P00 stays vacant through personnel
    (no step A) and the year end (no speech, no d20) into turn 2. A controlled holder on part-time cannot act
    either."""
    s = game(3)
    r = s[0]
    vacate(s, G(1), T.LOC_RET)
    run(s, flow.S_ELE_OPEN)
    h.pass_window(s)  # the election window
    assert phase(s) == "WINDOW" and r["dw_cont"] == ST.C_PER_A and r["holder"][0] == -1
    while r["turn"] == 1:
        assert phase(s) == "WINDOW" and not k.is_chance(s)
        h.play(s, h.DONE)
    assert r["holder"][0] == -1 and r["holder"][1] == G(2) and not r["speeches"].any()
    s = game(3)
    vacate(s, G(1), T.LOC_RET)
    control(s, 0, G(3))
    s[0]["part_time"][G(3)] = 1
    run(s, flow.S_ELE_BEGIN)
    assert phase(s) == "WINDOW" and s[0]["dw_cont"] == ST.C_PER_A and s[0]["holder"][0] == -1


# --- personnel (KRM-PER-2, KRM-PER-3, KRM-PER-7) ------------------------------------------------------------------
def test_auto_seniors_take_the_most_experienced_junior_then_member_then_civilian():
    """KRM-PER-2: P01 and P03 vacant, G08 (68) in P04 and G05 (72) in P07: P01 gets G05 (highest experience, not the
    first junior post), P03 gets G06 (71); no SP. With no junior, P01 gets G09 (the oldest member); with no junior
    and no member, G14 (the oldest civilian)."""
    s = game(3)
    r = s[0]
    r["holder"][4], r["holder"][7] = G(8), G(5)
    r["loc"][G(8)], r["loc"][G(5)] = 4, 7
    vacate(s, G(2), T.LOC_RET)
    vacate(s, G(4), T.LOC_RET)
    run(s, flow.S_PER_A_END)
    assert r["holder"][1] == G(5) and r["holder"][3] == G(6) and r["holder"][2] == G(3)
    assert r["holder"][7] == -1 and r["holder"][5] == -1 and not r["sp"].any()
    assert phase(s) == "WINDOW" and r["dw_cont"] == ST.C_PER_B
    for away, expect in ((range(5, 9), G(9)), (range(5, 14), G(14))):
        s = game(3)
        vacate(s, G(2), T.LOC_RET)
        for g in away:
            vacate(s, G(g), T.LOC_OTH)
        run(s, flow.S_PER_A_END)
        assert s[0]["holder"][1] == expect and not s[0]["sp"].any()


def test_planning_promotes_members_then_auto_juniors_fill_the_rest():
    """KRM-PER-3: P05 and P06 vacant; P1's G02 (Planning) may promote members, 1 SP each: G12 into P06 (two posts
    vacant: it chooses), then G13 into P05 (the post is automatic when only one is vacant). If Planning stops at once,
    auto juniors fill P05 with G09 and P06 with G10 (the oldest members) at no cost."""
    s = game(3)
    r = s[0]
    vacate(s, G(6), T.LOC_RET)
    vacate(s, G(7), T.LOC_RET)
    control(s, 1, G(2))
    run(s, flow.S_PER_B_ASK)
    assert phase(s) == "PER_B_SRC" and k.to_move(s) == 1
    assert legal(s) == {SELECT_GAMER + G(g) for g in range(9, 14)} | {h.DONE}
    h.play(s, SELECT_GAMER + G(12), seat=1)
    assert legal(s) == {h.SELECT_POST + 5, h.SELECT_POST + 6}
    h.play(s, h.SELECT_POST + 6, seat=1)
    assert r["holder"][6] == G(12) and r["holder"][11] == -1 and r["sp"][G(2)] == 1
    h.play(s, SELECT_GAMER + G(13), seat=1)
    assert r["holder"][5] == G(13) and r["sp"][G(2)] == 2
    assert phase(s) == "WINDOW" and r["dw_cont"] == ST.C_PER_C
    s = game(3)
    r = s[0]
    vacate(s, G(6), T.LOC_RET)
    vacate(s, G(7), T.LOC_RET)
    control(s, 1, G(2))
    run(s, flow.S_PER_B_ASK)
    h.play(s, h.DONE, seat=1)
    assert r["holder"][5] == G(9) and r["holder"][6] == G(10) and r["sp"][G(2)] == 0


def test_auto_promotion_raises_a_part_time_gamer_which_stays_on_part_time():
    """KRM-PER-7: P01 and P05 vacant; G05 (P04, the oldest junior) is on part-time: it becomes Planning and stays on
    part-time, so P1, its controller, is not asked for step B; auto juniors fill P04 and P05 with G09 and G10."""
    s = game(3)
    r = s[0]
    vacate(s, G(2), T.LOC_RET)
    vacate(s, G(6), T.LOC_RET)
    control(s, 1, G(5))
    r["part_time"][G(5)] = 1
    run(s, flow.S_PER_A_END)
    assert r["holder"][1] == G(5) and r["part_time"][G(5)] == 1
    h.pass_window(s)
    assert phase(s) == "WINDOW" and r["dw_cont"] == ST.C_PER_C  # no PER_B_SRC
    assert r["holder"][4] == G(9) and r["holder"][5] == G(10) and r["part_time"][G(5)] == 1


# --- rewards (KRM-END-4) ------------------------------------------------------------------------------------------
def _returns(s):
    out = np.full(k.MAX_PLAYERS, 9.0)
    k.returns(s, out)
    return out[:3].tolist()


def test_rewards_of_a_win_a_draw_and_a_truncation():
    """KRM-END-4 (adapted in docs/rules/kremlin.md: winner 1, others 0, a draw shares 1): P1's third speech wins
    (a termination: [0, 1, 0]); a member vacancy with no controlled holder is a draw ([1/3] * 3, a termination);
    the default turn-limit stop is a truncation with 0 for everyone."""
    s = game(3)
    put(s, G(3), 0)
    control(s, 1, G(3))
    s[0]["speeches"][1] = 2
    run(s, flow.S_YEP_BEGIN)
    assert k.is_over(s) and s[0]["winner"] == 1 and not k.is_truncated(s)
    assert _returns(s) == [0.0, 1.0, 0.0]
    s = game(3)
    for g in range(13, 26):
        vacate(s, g, T.LOC_OTH)
    vacate(s, G(13), T.LOC_OTH)
    run(s, flow.S_PER_END_CHECK)
    assert k.is_over(s) and s[0]["winner"] == ST.WIN_DRAW and not k.is_truncated(s)
    assert _returns(s) == [1 / 3, 1 / 3, 1 / 3]
    s = game(3, turn_limit=1)
    vacate(s, G(1), T.LOC_RET)
    run(s, flow.S_TURN_END)
    assert k.is_over(s) and k.is_truncated(s) and _returns(s) == [0.0, 0.0, 0.0]


# --- optional personalities (KRM-OPT-3/4/6/7/8/9) -----------------------------------------------------------------
def _expulsion_targets(actor: int, y_or_mate: int | None, **options) -> set[int]:
    """Legal targets of P0's ``actor`` as Planning; P1 controls ``y_or_mate`` (a civilian) and G10, P2 controls G11."""
    s = game(3, **options)
    put(s, actor, 1)
    control(s, 0, actor)
    if y_or_mate is not None:
        control(s, 1, y_or_mate)
    control(s, 1, G(10))
    control(s, 2, G(11))
    run(s, flow.S_EXP_BEGIN)
    assert phase(s) == "EXP_TARGET" and k.to_move(s) == 0
    return legal(s)


def test_ally_of_and_clique_forbid_some_expulsion_targets():
    """KRM-OPT-3: G03 is the ally of G20. With the traits on, G03 as expeller may not target P1's G10 while P1
    controls G20; P2's G11 and uncontrolled G12 stay legal; with G20 uncontrolled, or the traits off, G10 is legal.
    Clique G21/G25/G26: G21 as expeller may not target P1's G10 while P1 controls G25."""
    ok = _expulsion_targets(G(3), G(20), traits=True)
    assert SELECT_GAMER + G(10) not in ok and {SELECT_GAMER + G(11), SELECT_GAMER + G(12)} <= ok
    assert SELECT_GAMER + G(10) in _expulsion_targets(G(3), None, traits=True)
    assert SELECT_GAMER + G(10) in _expulsion_targets(G(3), G(20))
    ok = _expulsion_targets(G(21), G(25), traits=True)
    assert SELECT_GAMER + G(10) not in ok and SELECT_GAMER + G(11) in ok
    assert SELECT_GAMER + G(10) in _expulsion_targets(G(21), G(25))
    assert SELECT_GAMER + G(10) in _expulsion_targets(G(21), G(20), traits=True)  # G20 is no clique mate


def test_inconspicuous_gamers_receive_no_influence(monkeypatch):
    """KRM-OPT-4: the default assignment makes nobody inconspicuous (as the seed), so with the traits on the
    allocation still offers G02..G26. A record with points on an inconspicuous gamer (G02 marked so here) is invalid
    with the traits on, and valid with them off."""
    import importlib

    s = k.new_state(3, 0, traits=True)
    assert legal(s) == {SELECT_GAMER + g for g in range(1, 26)}
    kv = importlib.import_module("tabletop_zoo.kernels.kremlin.validate")
    marked = kv.TRAIT.copy()
    marked[G(2), T.TR_INCONSPICUOUS] = 1
    monkeypatch.setattr(kv, "TRAIT", marked)
    for traits, flagged in ((True, True), (False, False)):
        s = game(3, [{G(2): 5}, {}, {}], traits=traits)
        run(s, flow.S_TURN_START)  # out of the allocation: the turn-1 window
        assert k.validate(s) == [] or flagged
        assert any("KRM-OPT-4" in m for m in k.validate(s)) == flagged
    s = game(3, traits=True)  # the sheets fill G26, G25, ...: nobody holds points on G02
    run(s, flow.S_TURN_START)
    assert k.validate(s) == []


def test_midway_break_leaves_the_first_senior_post_once_per_game():
    """KRM-OPT-6: P01 vacant; the oldest junior G05 (midway_break) is promoted, sent to other circles at once and
    G06 fills P01 instead. Once the trait has fired, or with the traits off, G05 keeps P01."""
    s = game(3, traits=True)
    r = s[0]
    vacate(s, G(2), T.LOC_RET)
    run(s, flow.S_PER_A_END)
    assert r["loc"][G(5)] == T.LOC_OTH and r["midway_done"][G(5)] == 1 and r["holder"][1] == G(6)
    for traits, done in ((True, 1), (False, 0)):
        s = game(3, traits=traits)
        vacate(s, G(2), T.LOC_RET)
        s[0]["midway_done"][G(5)] = done
        run(s, flow.S_PER_A_END)
        assert s[0]["holder"][1] == G(5) and s[0]["loc"][G(5)] == 1


def _expel_g16(face: int, **options) -> bool:
    s = game(3, **options)
    put(s, G(16), 8)
    control(s, 1, G(2))
    run(s, flow.S_EXP_BEGIN)
    h.play(s, SELECT_GAMER + G(16), seat=1)
    roll(s, face)
    return bool(s[0]["loc"][G(16)] == T.LOC_OTH)


def test_other_circle_member_lowers_expulsion_thresholds_by_two():
    """KRM-OPT-7: G16 (other_circle_member) as a member (threshold 6): with the traits on a roll of 4 expels it and 3
    does not; with the traits off 4 fails and 6 succeeds."""
    assert _expel_g16(4, traits=True) and not _expel_g16(3, traits=True)
    assert not _expel_g16(4) and _expel_g16(6)


def test_other_interest_retires_at_its_first_broke_marker():
    """KRM-OPT-8: G14 (other_interest) in P07 at age 72 (62 + 10 SP), the only officer: a finance roll of 10 gives it
    one broke marker (as for G08 at 72 above). With the traits on it retires at once; off, it stays with 1 marker."""
    for traits, retired in ((True, True), (False, False)):
        s = game(3, traits=traits)
        r = s[0]
        for post in range(7):
            vacate(s, int(r["holder"][post]))
        put(s, G(14), 7)
        r["sp"][G(14)] = 10
        run(s, flow.S_FIN_BEGIN)
        roll(s, 10)
        assert (r["loc"][G(14)] == T.LOC_RET) == retired and (r["holder"][7] == -1) == retired
        assert r["broke"][G(14)] == 1


def test_the_other_column_has_no_rule_effect():
    """KRM-OPT-9: with the traits on, the observation's trait table (9 columns, KRM-OPT-1..8) flags exactly the
    spec's default assignment and nothing for the seed's "other" column; with the traits off it is all zero."""
    spec = {
        "poor": {6, 12, 17, 22},
        "enemy_of": {4, 15, 8, 19, 11, 24},
        "ally_of": {3, 7, 10, 13, 14},
        "clique": {21, 25, 26},
        "inconspicuous": set(),
        "stress_sensitive": {9, 18},
        "midway_break": {5, 18},
        "other_circle_member": {16},
        "other_interest": {14, 20},
    }
    traits = _pieces(k.new_state(3, 0, traits=True), 0)["traits"]
    assert traits.shape == (26, 9)
    got = {name: {g + 1 for g in np.flatnonzero(traits[:, t])} for t, name in enumerate(T.TRAIT_NAMES)}
    assert got == spec
    assert not _pieces(k.new_state(3, 0), 0)["traits"].any()
