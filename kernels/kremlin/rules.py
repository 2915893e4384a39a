"""Kremlin / "Magne!" entry points: setup, whose move, legal masks, stepping, chance, end and scores.

``step_decision`` dispatches on the pending decision point (``phase``) to the ``do_*`` of that point
and then lets ``flow.advance`` run the automatic part of the turn until the next decision or d20;
``legal_mask`` fills the action ranges from the ``valid_*`` predicates. Records are shape-(1,) arrays
of dtype ``STATE``; ``r = s[0]`` is a view, so writes to ``r`` land in ``s``.
"""

import sys

import numpy as np
from numba import njit

from .._common.contract import CHANCE
from .._common.contract import TERMINAL
from .._common.jit import internal
from .._common.rng import roll_die
from .._common.rng import seed_rng
from .._common.rng import uniform_int
from .._common.scoring import seat_values
from .._common.stepping import make_chance_step
from .._common.stepping import make_step_and_mask
from .._common.stepping import phase_is
from .actions import A_DECLARE
from .actions import A_DONE
from .actions import A_OPPOSE
from .actions import A_RUMOUR_A
from .actions import A_RUMOUR_B
from .actions import A_SELECT_POST
from .actions import A_SUPPORT
from .board import is_member
from .board import pay
from .board import place
from .board import retire_if_broke
from .flow import S_ELE_VOTE_NEXT
from .flow import S_FIN_NEXT
from .flow import S_PER_A_ASK
from .flow import S_PER_A_END
from .flow import S_PER_B_ASK
from .flow import S_PER_B_END
from .flow import S_PER_C_ASK
from .flow import S_PER_C_END
from .flow import S_PT_NEXT
from .flow import S_RECALL_NEXT
from .flow import S_RUM_CHOICE_ASK
from .flow import S_RUM_END
from .flow import S_RUM_MARK_ASK
from .flow import S_RUM_OPEN
from .flow import S_TRIAL_VOTE_NEXT
from .flow import S_TURN_END
from .flow import S_TURN_START
from .flow import S_WINDOW
from .flow import advance
from .flow import next_seat
from .flow import open_window
from .influence import do_assign
from .influence import do_declare
from .influence import fill_declarations
from .influence import valid_assign
from .phases import do_expel_roll
from .phases import do_finance_roll
from .phases import do_mark
from .phases import do_move
from .phases import do_recall
from .phases import do_rumour_a
from .phases import do_speech
from .phases import fill_marks
from .phases import fill_move_sources
from .phases import first_vacant
from .phases import speech_threshold
from .phases import vacant_count
from .phases import valid_defendant
from .phases import valid_expel
from .phases import valid_move
from .phases import valid_nominee
from .phases import valid_part_time
from .phases import valid_recall_target
from .phases import valid_rumour_a
from .phases import valid_rumour_b
from .state import C_ELE_VOTE
from .state import C_EXP_NEXT
from .state import C_TRIAL_VOTE
from .state import CH_EXPULSION
from .state import CH_FINANCE
from .state import CH_NONE
from .state import PH_ASSIGN
from .state import PH_CHANCE
from .state import PH_EXP_TARGET
from .state import PH_GAME_OVER
from .state import PH_NOMINATE
from .state import PH_PER_A_DST
from .state import PH_PER_A_SRC
from .state import PH_PER_B_DST
from .state import PH_PER_B_SRC
from .state import PH_PER_C_DST
from .state import PH_PER_C_SRC
from .state import PH_PT_SELECT
from .state import PH_RECALL
from .state import PH_RUM_CHOICE
from .state import PH_RUM_MARK
from .state import PH_RUM_TARGET
from .state import PH_VOTE
from .state import PH_WINDOW
from .state import WIN_DRAW
from .state import WIN_NONE
from .tables import DIE_SIDES
from .tables import LEVEL
from .tables import LOC_CIV
from .tables import LV_JUNIOR
from .tables import LV_MEMBER
from .tables import MAX_VALUE
from .tables import N_GAMERS
from .tables import N_POSTS
from .tables import SP_PER_B
from .tables import SP_PER_C
from .tables import START_BROKE
from .tables import START_LOC
from .tables import TR_POOR
from .tables import TRAIT


# --- setup ---------------------------------------------------------------------------------------
@njit(cache=True)
def init_state(s, num_players, seed, traits, random_placement, turn_limit, ranking, theme):
    """KRM-SET-1..6 on a zeroed record; the game waits for the first allocation choice (KRM-SET-4)."""
    r = s[0]
    seed_rng(r.rng, seed)
    r.num_players = num_players
    r.traits = traits
    r.random_placement = random_placement
    r.turn_limit = turn_limit
    r.ranking = ranking
    r.theme = theme
    for k in range(N_POSTS):
        r.holder[k] = -1
    for g in range(N_GAMERS):
        r.controller[g] = -1
        r.loc[g] = LOC_CIV
        if not random_placement and START_LOC[g] < N_POSTS:
            r.loc[g] = START_LOC[g]  # KRM-SET-1
            r.holder[START_LOC[g]] = g
    if random_placement:  # KRM-SET-1 variant: G01 chairman, 12 of G02..G26 drawn into P01..P12
        r.loc[0] = 0
        r.holder[0] = 0
        for k in range(1, N_POSTS):
            free = 0
            for g in range(1, N_GAMERS):
                free += r.loc[g] == LOC_CIV
            j = uniform_int(r.rng, free)
            for g in range(1, N_GAMERS):
                if r.loc[g] == LOC_CIV:
                    if j == 0:
                        r.loc[g] = k
                        r.holder[k] = g
                        break
                    j -= 1
    for g in range(N_GAMERS):
        r.broke[g] = START_BROKE[g]  # KRM-SET-2: 1 on the chairman
        if traits and TRAIT[g, TR_POOR]:
            r.broke[g] += 1  # KRM-OPT-1
        retire_if_broke(r, g)  # KRM-OPT-8 (never fires with the default traits)
    r.winner = WIN_NONE
    r.actor = -1
    r.target = -1
    r.turn = 1  # KRM-SET-6
    r.phase = PH_ASSIGN  # KRM-SET-4: seat 0 first, value 10 first


# --- whose decision, what is legal ---------------------------------------------------------------
@internal(cache=True)
def _decider(r):
    ph = r.phase
    if ph == PH_ASSIGN:
        return r.assign_seat
    if ph == PH_WINDOW:
        return r.dw_seat
    if ph == PH_PT_SELECT:
        return r.seat_cursor
    if ph == PH_VOTE or ph == PH_RECALL:
        return r.controller[r.holder[r.post_cursor]]
    if ph == PH_PER_A_SRC or ph == PH_PER_A_DST:
        return r.controller[r.holder[0]]
    if ph == PH_PER_B_SRC or ph == PH_PER_B_DST:
        return r.controller[r.holder[1]]
    if ph == PH_PER_C_SRC or ph == PH_PER_C_DST:
        return r.controller[r.holder[4]]
    return r.controller[r.actor]  # EXP_TARGET, RUM_*, NOMINATE


is_over = phase_is(PH_GAME_OVER)
is_chance = phase_is(PH_CHANCE)


@njit(cache=True)
def to_move(s):
    if is_over(s):
        return np.int64(TERMINAL)
    if is_chance(s):
        return np.int64(CHANCE)
    return np.int64(_decider(s[0]))


@njit(cache=True)
def legal_mask(s, out):
    """Fill out (uint8[NUM_ACTIONS]) with the legal actions of the seat to move; all 0 otherwise."""
    r = s[0]
    out[:] = 0
    ph = r.phase
    if ph == PH_GAME_OVER or ph == PH_CHANCE:
        return
    if ph == PH_WINDOW:
        fill_declarations(r, r.dw_seat, out, A_DECLARE)  # KRM-INF-2
        out[A_DONE] = 1
        return
    if ph == PH_VOTE:
        out[A_OPPOSE] = 1
        out[A_SUPPORT] = 1
        return
    if ph == PH_RUM_CHOICE:
        out[A_RUMOUR_A] = valid_rumour_a(r)
        out[A_RUMOUR_B] = valid_rumour_b(r)
        out[A_DONE] = 1
        return
    if ph == PH_PER_A_DST:
        for k in range(1, N_POSTS):
            out[A_SELECT_POST + k] = valid_move(r, r.target, k)
        return
    if ph == PH_PER_B_DST or ph == PH_PER_C_DST:
        lv = LV_JUNIOR if ph == PH_PER_B_DST else LV_MEMBER
        for k in range(N_POSTS):
            out[A_SELECT_POST + k] = r.holder[k] < 0 and LEVEL[k] == lv
        return
    _fill_gamers(r, ph, out)
    if ph != PH_ASSIGN and ph != PH_RUM_TARGET and ph != PH_NOMINATE:
        out[A_DONE] = 1


@internal(cache=True)
def _fill_gamers(r, ph, out):
    """SELECT_GAMER(g) legality at a gamer-choosing decision point (spec §6 table), out[g] for every gamer: one
    loop per phase, not a test of the phase for every gamer."""
    if ph == PH_ASSIGN:
        p = r.assign_seat
        for g in range(N_GAMERS):
            out[g] = valid_assign(r, p, g)
    elif ph == PH_PT_SELECT:
        p = r.seat_cursor
        for g in range(N_GAMERS):
            out[g] = valid_part_time(r, p, g)
    elif ph == PH_EXP_TARGET:
        p = r.actor
        for g in range(N_GAMERS):
            out[g] = valid_expel(r, p, g)
    elif ph == PH_RUM_MARK:
        fill_marks(r, out)
    elif ph == PH_RUM_TARGET:
        for g in range(N_GAMERS):
            out[g] = is_member(r, g) if r.rumour_mode == 1 else valid_defendant(r, g)
    elif ph == PH_NOMINATE:
        for g in range(N_GAMERS):
            out[g] = valid_nominee(r, g)
    elif ph == PH_PER_A_SRC:
        fill_move_sources(r, out)
    elif ph == PH_PER_B_SRC:
        for g in range(N_GAMERS):
            out[g] = is_member(r, g)
    elif ph == PH_PER_C_SRC:
        for g in range(N_GAMERS):
            out[g] = r.loc[g] == LOC_CIV
    elif ph == PH_RECALL:
        for g in range(N_GAMERS):
            out[g] = valid_recall_target(r, g)


# --- stepping ------------------------------------------------------------------------------------
@internal(cache=True)
def _promote(r, promoter, g, k, cost, next_stage):
    place(r, g, k)  # KRM-PER-3/4
    pay(r, promoter, cost)
    r.target = -1
    advance(r, next_stage)


@internal(cache=True)
def _step_gamer(r, ph, g):
    """A SELECT_GAMER(g) decision."""
    if ph == PH_ASSIGN:
        do_assign(r, g)
        if r.assign_seat == r.num_players:
            advance(r, S_TURN_START)
    elif ph == PH_PT_SELECT:
        r.part_time[g] = 1  # KRM-PT-2
        advance(r, S_PT_NEXT)
    elif ph == PH_EXP_TARGET:
        r.target = g
        r.chance_kind = CH_EXPULSION  # KRM-EXP-2: roll the d20
        r.phase = PH_CHANCE
    elif ph == PH_RUM_MARK:
        do_mark(r, g)
        advance(r, S_RUM_MARK_ASK)
    elif ph == PH_RUM_TARGET:
        if r.rumour_mode == 1:
            do_rumour_a(r, g)
            advance(r, S_RUM_END)
        else:
            r.target = g  # KRM-RUM-3: window before the vote
            advance(r, open_window(r, C_TRIAL_VOTE))
    elif ph == PH_NOMINATE:
        r.target = g
        r.nominations += 1
        advance(r, open_window(r, C_ELE_VOTE))  # KRM-DW-1(c)
    elif ph == PH_PER_A_SRC:
        r.target = g
        r.phase = PH_PER_A_DST
    elif ph == PH_PER_B_SRC or ph == PH_PER_C_SRC:
        b = ph == PH_PER_B_SRC
        lv = LV_JUNIOR if b else LV_MEMBER
        if vacant_count(r, lv) == 1:  # the post is automatic when only one is vacant
            _promote(
                r,
                r.holder[1 if b else 4],
                g,
                first_vacant(r, lv),
                SP_PER_B if b else SP_PER_C,
                S_PER_B_ASK if b else S_PER_C_ASK,
            )
        else:
            r.target = g
            r.phase = PH_PER_B_DST if b else PH_PER_C_DST
    elif ph == PH_RECALL:
        do_recall(r, r.holder[r.post_cursor], g)
        advance(r, S_RECALL_NEXT)


@internal(cache=True)
def _step_done(r, ph):
    """DONE at any decision point that offers it."""
    if ph == PH_WINDOW:
        r.dw_passes += 1
        r.dw_seat = next_seat(r, r.dw_seat)
        advance(r, S_WINDOW)
    elif ph == PH_PT_SELECT:
        r.seats_done += 1
        r.seat_cursor = next_seat(r, r.seat_cursor)
        advance(r, S_PT_NEXT)
    elif ph == PH_EXP_TARGET:
        advance(r, S_RUM_OPEN)  # KRM-GEN-7: declined, not delegated
    elif ph == PH_RUM_MARK:
        advance(r, S_RUM_CHOICE_ASK)
    elif ph == PH_RUM_CHOICE:
        advance(r, S_RUM_END)
    elif ph == PH_PER_A_SRC:
        advance(r, S_PER_A_END)
    elif ph == PH_PER_B_SRC:
        advance(r, S_PER_B_END)
    elif ph == PH_PER_C_SRC:
        advance(r, S_PER_C_END)
    elif ph == PH_RECALL:
        r.post_cursor += 1
        advance(r, S_RECALL_NEXT)


@njit(cache=True)
def step_decision(s, action):
    """Apply one legal decision; stops at the next decision point or at a pending d20."""
    r = s[0]
    r.decisions += 1
    ph = r.phase
    if action < A_SELECT_POST:
        _step_gamer(r, ph, action)
    elif action < A_DECLARE:
        k = action - A_SELECT_POST
        if ph == PH_PER_A_DST:
            do_move(r, r.target, k)  # KRM-PER-1
            r.target = -1
            advance(r, S_PER_A_ASK)
        elif ph == PH_PER_B_DST:
            _promote(r, r.holder[1], r.target, k, SP_PER_B, S_PER_B_ASK)
        else:
            _promote(r, r.holder[4], r.target, k, SP_PER_C, S_PER_C_ASK)
    elif action < A_DONE:
        g, v = divmod(action - A_DECLARE, MAX_VALUE)
        do_declare(r, r.dw_seat, g, v + 1)  # KRM-INF-2
        r.dw_passes = 0
        r.dw_seat = next_seat(r, r.dw_seat)
        advance(r, S_WINDOW)
    elif action == A_DONE:
        _step_done(r, ph)
    elif action == A_OPPOSE or action == A_SUPPORT:
        if action == A_OPPOSE:
            r.oppose_count += 1
            r.opposer[r.holder[r.post_cursor]] = 1
        r.post_cursor += 1
        advance(r, S_TRIAL_VOTE_NEXT if r.rumour_mode == 2 else S_ELE_VOTE_NEXT)
    else:
        r.rumour_mode = 1 if action == A_RUMOUR_A else 2  # KRM-RUM-2
        r.phase = PH_RUM_TARGET


# --- chance: every die is one d20 ------------------------------------------------------------------
@njit(cache=True)
def chance_outcomes(s, out_ids, out_probs):
    """The pending d20: outcome id = face - 1, each with probability 1/20; returns the count."""
    if not is_chance(s):
        return 0
    for i in range(DIE_SIDES):
        out_ids[i] = i
        out_probs[i] = 1.0 / DIE_SIDES
    return DIE_SIDES


@njit(cache=True)
def step_chance(s, outcome):
    """Apply the pending d20 with face outcome + 1 (KRM-EXP-2, KRM-FIN-2, KRM-YEP-2)."""
    r = s[0]
    roll = outcome + 1
    r.last_roll = roll
    kind = r.chance_kind
    r.chance_kind = CH_NONE
    if kind == CH_EXPULSION:
        if do_expel_roll(r, roll):
            advance(r, open_window(r, C_EXP_NEXT))  # KRM-DW-1(e)
        else:
            advance(r, S_RUM_OPEN)  # KRM-EXP-3: a failure ends the phase
    elif kind == CH_FINANCE:
        do_finance_roll(r, r.holder[r.post_cursor], roll)
        r.post_cursor += 1
        advance(r, S_FIN_NEXT)
    else:
        if not do_speech(r, roll >= speech_threshold(r)):
            advance(r, S_TURN_END)


@njit(cache=True)
def sample_chance(s):
    """Draw the pending d20 from the record RNG (outcome id = face - 1)."""
    return roll_die(s[0].rng, DIE_SIDES) - 1


# step: a decision, then every chance event it opens, drawn from the record RNG
step = make_chance_step(sys.modules[__name__])


# the contract's step_and_mask: step, then the next mask, calling this module's functions directly
step_and_mask = make_step_and_mask(sys.modules[__name__])


# --- end and scores ------------------------------------------------------------------------------
@njit(cache=True)
def scores(s, out):
    """Successful speeches per seat (KRM-YEP-3)."""
    seat_values(s[0].speeches, s[0].num_players, out)


@njit(cache=True)
def returns(s, out):
    """Terminal rewards (project convention, KRM-END-4 adapted): winner 1, others 0; a draw shares 1
    equally; the default turn-limit truncation gives 0 to everyone (no winner)."""
    r = s[0]
    for p in range(out.shape[0]):
        out[p] = 0.0
    if r.phase != PH_GAME_OVER:
        return
    if r.winner >= 0:
        out[r.winner] = 1.0
    elif r.winner == WIN_DRAW:
        for p in range(r.num_players):
            out[p] = 1.0 / r.num_players
