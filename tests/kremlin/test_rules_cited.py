"""Kremlin ("Magne!") rules no other test checks by ID (spec shared/rules/kremlin.md §3-§5), with the spec's numbers
(experience: G01 80, G02 75, G03 74)."""

from __future__ import annotations

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
