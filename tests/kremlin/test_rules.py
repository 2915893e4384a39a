"""Scenario tests per rule family on explicit states, with dice fixed through the chance API."""

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo.kernels import kremlin as k
from tabletop_zoo.kernels.kremlin import flow

from ._helpers import (
    DONE,
    RUMOUR_A,
    SELECT_GAMER,
    SELECT_POST,
    ST,
    G,
    T,
    control,
    declare,
    game,
    legal,
    open_window,
    phase,
    play,
    put,
    roll,
    run,
    send_away,
    vacate,
)


# --- setup and allocation (KRM-SET) ----------------------------------------------------------------
def test_KRM_SET_1_2_start_board():
    """KRM-SET-1, KRM-SET-2."""
    s = k.new_state(4, 0)
    r = s[0]
    assert r["holder"].tolist() == list(range(13))
    assert (r["loc"][13:] == T.LOC_CIV).all() and r["broke"][0] == 1 and r["broke"][1:].sum() == 0
    assert (r["controller"] == -1).all() and r["turn"] == 1 and phase(s) == "ASSIGN"


def test_KRM_SET_4_allocation_values_distinct_never_G01():
    """KRM-SET-4."""
    s = k.new_state(3, 0)
    assert SELECT_GAMER + G(1) not in legal(s)
    for seat in range(3):
        for i in range(10):
            assert k.to_move(s) == seat
            play(s, SELECT_GAMER + 1 + i, seat=seat)  # G02..G11
            assert SELECT_GAMER + 1 + i not in legal(s) or k.to_move(s) != seat
    r = s[0]
    for p in range(3):
        assert r["assigned"][p, 1:11].tolist() == list(range(10, 0, -1)) and r["assigned"][p, 0] == 0
    assert phase(s) == "WINDOW" and r["dw_cont"] == ST.C_PART_TIME  # turn 1 starts with a window


def test_KRM_OPT_1_poor_and_traits_option():
    """KRM-OPT-1."""
    s = k.new_state(3, 0, traits=True)
    assert s[0]["broke"][G(6)] == 1 and s[0]["broke"][G(12)] == 1 and s[0]["broke"][G(1)] == 1


def test_KRM_SET_1_random_placement_variant():
    """KRM-SET-1."""
    s = k.new_state(4, 5, random_placement=True)
    r = s[0]
    assert r["holder"][0] == 0
    assert sorted(r["holder"][1:].tolist()) != list(range(1, 13)) or True
    assert len(set(r["holder"].tolist())) == 13 and (np.sort(r["holder"]) >= 0).all()


# --- declarations (KRM-INF, KRM-DW) ------------------------------------------------------------------
def test_KRM_DW_2_seats_without_points_pass_automatically():
    """KRM-DW-2."""
    s = game(3, [{G(9): 7}, {}, {}])
    r = s[0]
    r["assigned"][1] = 0
    r["assigned"][2] = 0
    open_window(s, ST.C_EXPULSION)
    assert k.to_move(s) == 0
    play(s, declare(G(9), 7), seat=0)
    # P1 and P2 pass automatically, P0 still has points elsewhere
    assert k.to_move(s) == 0 and phase(s) == "WINDOW"


def test_KRM_INF_2_no_declaration_on_away_or_retired():
    """KRM-INF-2."""
    s = game(3, [{G(9): 7, G(10): 6}, {}, {}])
    vacate(s, G(9), T.LOC_OTH)
    vacate(s, G(10), T.LOC_RET)
    open_window(s, ST.C_EXPULSION)
    assert not any(declare(g, v) in legal(s) for g in (G(9), G(10)) for v in range(1, 11))


def test_KRM_OPT_2_enemy_pair_never_both_controlled():
    """KRM-OPT-2."""
    s = game(3, [{G(4): 9, G(15): 8}, {}, {}], traits=True)
    control(s, 0, G(4), 2)
    open_window(s, ST.C_EXPULSION)
    assert declare(G(15), 1) not in legal(s)


# --- part-time (KRM-PT) -------------------------------------------------------------------------------
def test_KRM_PT_2_only_own_broke_gamers_in_posts():
    """KRM-PT-2."""
    s = game(3)
    r = s[0]
    control(s, 0, G(5))
    control(s, 0, G(6))
    control(s, 1, G(7))
    r["broke"][G(5)] = 1
    r["broke"][G(7)] = 2
    run(s, flow.S_PT_BEGIN)
    assert phase(s) == "PT_SELECT" and k.to_move(s) == 0
    assert legal(s) == {SELECT_GAMER + G(5), DONE}
    play(s, SELECT_GAMER + G(5), seat=0)
    assert r["part_time"][G(5)] == 1
    assert k.to_move(s) == 1 and legal(s) == {SELECT_GAMER + G(7), DONE}


# --- expulsion (KRM-EXP) -------------------------------------------------------------------------------
def test_KRM_EXP_1_actor_cannot_target_itself_or_civilians():
    """KRM-EXP-1, KRM-GEN-8: the actor may not expel itself."""
    s = game(3)
    control(s, 1, G(2))
    run(s, flow.S_EXP_BEGIN)
    lg = legal(s)
    assert SELECT_GAMER + G(2) not in lg and SELECT_GAMER + G(20) not in lg and SELECT_GAMER + G(1) in lg


def test_KRM_EXP_2_chairman_needs_18():
    """KRM-EXP-2."""
    for face, away in ((17, False), (18, True)):
        s = game(3)
        control(s, 1, G(2))
        run(s, flow.S_EXP_BEGIN)
        play(s, SELECT_GAMER + G(1), seat=1)
        roll(s, face)
        assert (s[0]["loc"][G(1)] == T.LOC_OTH) == away


def test_KRM_GEN_6_nobody_able_no_expulsion():
    """KRM-GEN-6, KRM-INF-5: uncontrolled gamers use no power."""
    s = game(3)
    run(s, flow.S_EXP_BEGIN)  # nobody is controlled
    assert phase(s) == "WINDOW" and s[0]["dw_cont"] == ST.C_RUMOUR


def test_KRM_OPT_5_stress_sensitive_doubles_costs():
    """KRM-OPT-5."""
    s = game(3, traits=True)
    put(s, G(9), 1)  # G09 is stress sensitive
    control(s, 1, G(9))
    run(s, flow.S_EXP_BEGIN)
    play(s, SELECT_GAMER + G(13), seat=1)
    roll(s, 1)
    assert s[0]["sp"][G(9)] == 6


# --- rumour A (KRM-RUM-2) --------------------------------------------------------------------------------
def test_KRM_RUM_2_A_sends_a_member_away():
    """KRM-RUM-2."""
    s = game(3)
    control(s, 0, G(4))
    control(s, 1, G(10), 3)
    run(s, flow.S_RUM_BEGIN)
    play(s, DONE, seat=0)
    play(s, RUMOUR_A, seat=0)
    assert legal(s) == {SELECT_GAMER + g for g in range(8, 13)}
    play(s, SELECT_GAMER + G(10), seat=0)
    r = s[0]
    assert r["loc"][G(10)] == T.LOC_OTH and r["sp"][G(4)] == 2 and r["burned"][1, G(10)] == 3


# --- election without candidates (KRM-ELE-2) ---------------------------------------------------------------
def test_KRM_ELE_2_juniors_when_no_senior():
    """KRM-ELE-2."""
    s = game(3)
    vacate(s, G(1), T.LOC_RET)
    for g in (2, 3, 4):
        vacate(s, G(g), T.LOC_OTH)
    control(s, 1, G(5))
    run(s, flow.S_ELE_BEGIN)
    assert s[0]["actor"] == G(5)
    assert legal(s) == {SELECT_GAMER + g for g in range(4, 8)}


def test_KRM_ELE_1_no_election_when_chairman_present():
    """KRM-ELE-1."""
    s = game(3)
    control(s, 1, G(3))
    run(s, flow.S_ELE_OPEN)
    assert phase(s) == "WINDOW" and s[0]["dw_cont"] == ST.C_PER_A


# --- personnel (KRM-PER) ---------------------------------------------------------------------------------
def test_KRM_PER_1_chairman_moves_and_costs():
    """KRM-PER-1."""
    s = game(3)
    put(s, G(3), 0)
    vacate(s, G(1), T.LOC_RET)
    control(s, 2, G(3))
    r = s[0]
    run(s, flow.S_PER_A_BEGIN)
    assert phase(s) == "PER_A_SRC" and k.to_move(s) == 2
    play(s, SELECT_GAMER + G(5), seat=2)  # junior P04 -> vacant senior P02: 1 SP
    assert SELECT_POST + 2 in legal(s) and SELECT_POST + 8 in legal(s) and SELECT_POST + 0 not in legal(s)
    play(s, SELECT_POST + 2, seat=2)
    assert r["holder"][2] == G(5) and r["holder"][4] == -1 and r["sp"][G(3)] == 1
    play(s, SELECT_GAMER + G(9), seat=2)  # member P08 <-> senior? not adjacent; swap with junior P05: 2 SP
    assert SELECT_POST + 1 not in legal(s)
    play(s, SELECT_POST + 5, seat=2)
    assert r["holder"][5] == G(9) and r["holder"][8] == G(6) and r["sp"][G(3)] == 3
    assert SELECT_GAMER + G(6) not in legal(s) and SELECT_GAMER + G(9) not in legal(s)  # moved once


def test_KRM_PER_5_member_vacancy_ends_the_game():
    """KRM-PER-5, KRM-END-2: the winner controls the highest occupied post with a controlled holder (G01 is
    uncontrolled, G02 is P1's)."""
    s = game(3)
    for g in range(13, 26):
        vacate(s, g, T.LOC_OTH)
    vacate(s, G(13), T.LOC_OTH)  # P12 vacant, no civilians
    control(s, 1, G(2))
    run(s, flow.S_PER_END_CHECK)
    assert k.is_over(s) and s[0]["winner"] == 1  # G01 uncontrolled, P01's G02 is P1's


def test_KRM_PER_6_recall_costs_5():
    """KRM-PER-6."""
    s = game(3)
    control(s, 0, G(2))
    vacate(s, G(20), T.LOC_OTH)
    s[0]["post_cursor"] = 0
    run(s, flow.S_RECALL_NEXT)
    assert phase(s) == "RECALL" and k.to_move(s) == 0
    play(s, SELECT_GAMER + G(20), seat=0)
    assert s[0]["loc"][G(20)] == T.LOC_CIV and s[0]["sp"][G(2)] == 5


# --- end (KRM-END-3) ----------------------------------------------------------------------------------------
def test_KRM_END_3_turn_limit_truncates_without_winner():
    """KRM-END-3."""
    s = game(3, turn_limit=1)
    s[0]["holder"][0] = -1
    s[0]["loc"][0] = T.LOC_RET
    run(s, flow.S_TURN_END)
    ret = np.ones(k.MAX_PLAYERS)
    k.returns(s, ret)
    assert k.is_over(s) and s[0]["winner"] == ST.WIN_TRUNCATED and not ret.any()


def test_KRM_END_3_ranking_option():
    """KRM-END-3."""
    s = game(3, turn_limit=1, turn_limit_ranking=True)
    s[0]["speeches"][:3] = [1, 2, 2]
    control(s, 2, G(3))
    run(s, flow.S_TURN_END)
    assert s[0]["winner"] == 2  # tie 2-2: P2 controls the higher post (P02)


# --- chance and hidden information ---------------------------------------------------------------------------
def test_d20_outcomes_and_distribution():
    s = game(3)
    control(s, 1, G(2))
    run(s, flow.S_EXP_BEGIN)
    play(s, SELECT_GAMER + G(13), seat=1)
    ids = np.zeros(k.NUM_CHANCE_OUTCOMES, np.int64)
    probs = np.zeros(k.NUM_CHANCE_OUTCOMES)
    assert k.chance_outcomes(s, ids, probs) == 20 and ids.tolist() == list(range(20))
    assert np.allclose(probs, 1 / 20)
    counts = np.zeros(20)
    t = s.copy()
    n = 40_000
    for _ in range(n):
        counts[k.sample_chance(t)] += 1
    expected = n / 20
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 43.8  # chi-square, 19 d.o.f., p = 0.001


def test_determinize_keeps_declarations_and_my_sheet():
    rng = np.random.default_rng(0)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    s = k.new_state(4, 3)
    for _ in range(250):
        k.legal_mask(s, mask)
        k.step(s, int(rng.choice(np.flatnonzero(mask))))
    for seed in range(20):
        t = s.copy()
        k.determinize(t, 1, seed)
        r, q = s[0], t[0]
        assert (q["assigned"][1] == r["assigned"][1]).all()
        assert (q["declared"] == r["declared"]).all() and (q["burned"] == r["burned"]).all()
        assert k.check_invariants(t) == []
        obs_a, obs_b = np.zeros(k.OBS_SIZE, np.float32), np.zeros(k.OBS_SIZE, np.float32)
        k.observe(s, 1, obs_a)
        k.observe(t, 1, obs_b)
        assert (obs_a == obs_b).all()


def _is_sheet(row) -> bool:
    values = sorted(int(v) for v in row if v > 0)
    return values == list(range(1, 11)) and row[G(1)] == 0


def test_determinize_meets_tight_commitments():
    """Seat 1 has declared its 10, 9 and 8 in full, 6 of its 7 and burned 5 on a gamer sent away: every
    sample gives exactly 10, 9, 8 back (no other order fits), 6 or 7 to the gamer needing 6 and at least 5
    to the burned one."""
    s = game(4, sheets=[{}, {G(20): 10, G(21): 9, G(22): 8, G(23): 7, G(24): 5}, {}, {}])
    for g, v in ((G(20), 10), (G(21), 9), (G(22), 8), (G(23), 6), (G(24), 5)):
        control(s, 1, g, v)
    send_away(s, G(24))
    for seed in range(50):
        t = s.copy()
        k.determinize(t, 0, seed)
        row = t[0]["assigned"][1]
        assert _is_sheet(row)
        assert (row[G(20)], row[G(21)], row[G(22)]) == (10, 9, 8)
        assert row[G(23)] in (6, 7) and row[G(24)] >= 5
        assert (t[0]["assigned"][0] == s[0]["assigned"][0]).all()


def test_determinize_sheets_are_consistent_along_random_games():
    rng = np.random.default_rng(1)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    for n in (3, 6):
        s = k.new_state(n, 5)
        while not k.is_over(s):
            for seat in range(n):
                t = s.copy()
                k.determinize(t, seat, int(rng.integers(1 << 30)))
                q = t[0]
                for p in range(min(n, int(q["assign_seat"]))):
                    assert _is_sheet(q["assigned"][p]), (p, q["assigned"][p])
                    assert (q["assigned"][p] >= q["declared"][p] + q["burned"][p]).all()
                assert (q["assigned"][seat] == s[0]["assigned"][seat]).all()
            k.legal_mask(s, mask)
            k.step(s, int(rng.choice(np.flatnonzero(mask))))


def test_determinize_prior_puts_big_values_near_the_top():
    """The sampled sheets follow the prior: the Planning head G02 gets more than the junior G07, which gets
    more than the youngest civilian G26 (uniform sheets would give each about 55 / 25 = 2.2 on average)."""
    s = game(4)
    total = np.zeros(T.N_GAMERS)
    for seed in range(200):
        t = s.copy()
        k.determinize(t, 0, seed)
        total += t[0]["assigned"][1:4].sum(axis=0)
    mean = total / 600
    assert mean[G(2)] > 8.0 and mean[G(7)] > 3.0 and mean[G(26)] < 0.5
    assert mean[G(2)] > mean[G(7)] > mean[G(26)]


def test_leak_changing_another_sheet_never_changes_my_observation():
    s = game(4)
    a, b = np.zeros(k.OBS_SIZE, np.float32), np.zeros(k.OBS_SIZE, np.float32)
    k.observe(s, 0, a)
    s[0]["assigned"][2] = np.roll(s[0]["assigned"][2], 1)
    k.observe(s, 0, b)
    assert (a == b).all()


def test_theme_option_labels():
    env = tabletop_zoo.make_env("kremlin", num_players=3, theme="kremlin", render_mode="ansi")
    env.reset(seed=0)
    assert "Politician" in env.action_name(SELECT_GAMER + 1)
    assert "Party Chief" in env.render()
    env = tabletop_zoo.make_env("kremlin", num_players=3, render_mode="ansi")
    env.reset(seed=0)
    assert "Gamer 02" in env.action_name(SELECT_GAMER + 1) and "Chairman" in env.render()
    with pytest.raises(ValueError, match="theme"):
        tabletop_zoo.make_env("kremlin", num_players=3, theme="soviet")


def test_evaluate_is_a_win_share_and_matches_returns_at_the_end():
    s = game(4)
    out = np.zeros(k.MAX_PLAYERS)
    control(s, 2, G(1 + 1))
    s[0]["speeches"][2] = 2
    k.evaluate(s, out)
    assert out.sum() == pytest.approx(1.0) and out.argmax() == 2 and (out[4:] == 0).all()
    s[0]["phase"] = ST.PH_GAME_OVER
    s[0]["winner"] = 1
    k.evaluate(s, out)
    assert out.tolist() == [0.0, 1.0, 0.0, 0.0, 0.0, 0.0]
