"""The automatic turn flow (spec §4): a small program counter of stages run by ``advance`` until a
seat must decide (PH_* decision point) or a d20 is pending (PH_CHANCE).

Stages return the next stage or STOP. Declaration windows (KRM-DW-1/2) are a stage that visits seats
from the start player and passes those without a legal declaration automatically; when N visits in a
row passed, the window's continuation (``dw_cont``) runs. A decision point whose only legal action is
DONE is skipped (spec §4: the environment applies it without asking).
"""

from .._common.jit import internal
from .board import active
from .board import any_vacant
from .board import auto_fill
from .board import can_afford
from .board import first_able
from .board import in_post
from .board import is_member
from .board import pay
from .board import place
from .board import retire_if_old
from .board import sweep_old
from .influence import has_declaration
from .phases import do_speech
from .phases import do_stress
from .phases import do_verdict
from .phases import election_voter
from .phases import end_by_turn_limit
from .phases import end_by_vacancy
from .phases import in_pool
from .phases import speech_threshold
from .phases import trial_voter
from .phases import valid_expel
from .phases import valid_mark
from .phases import valid_move_source
from .phases import valid_part_time
from .phases import valid_rumour_a
from .phases import valid_rumour_b
from .state import C_ELECTION
from .state import C_EXPULSION
from .state import C_PART_TIME
from .state import C_PER_A
from .state import C_PER_B
from .state import C_PER_C
from .state import C_PER_END
from .state import C_RUMOUR
from .state import C_YEAR_END
from .state import CH_FINANCE
from .state import CH_SPEECH
from .state import PH_CHANCE
from .state import PH_EXP_TARGET
from .state import PH_NOMINATE
from .state import PH_PER_A_SRC
from .state import PH_PER_B_SRC
from .state import PH_PER_C_SRC
from .state import PH_PT_SELECT
from .state import PH_RECALL
from .state import PH_RUM_CHOICE
from .state import PH_RUM_MARK
from .state import PH_VOTE
from .state import PH_WINDOW
from .tables import DELEGATION_ELECTION
from .tables import DELEGATION_EXPULSION
from .tables import DELEGATION_RUMOUR
from .tables import LOC_CIV
from .tables import LOC_OTH
from .tables import LV_JUNIOR
from .tables import LV_MEMBER
from .tables import LV_SENIOR
from .tables import N_GAMERS
from .tables import N_OFFICERS
from .tables import SP_ELE_REJECT
from .tables import SP_EXP_FAILURE
from .tables import SP_PER_B
from .tables import SP_PER_C
from .tables import SP_RECALL
from .tables import SP_TOGGLE

STOP = -1
S_TURN_START = 0
S_WINDOW = 1
S_PT_BEGIN = 2
S_PT_NEXT = 3
S_STRESS = 4
S_EXP_BEGIN = 5
S_EXP_ASK = 6
S_RUM_OPEN = 7
S_RUM_BEGIN = 8
S_RUM_MARK_ASK = 9
S_RUM_CHOICE_ASK = 10
S_TRIAL_VOTE_BEGIN = 11
S_TRIAL_VOTE_NEXT = 12
S_FIN_BEGIN = 13
S_FIN_NEXT = 14
S_ELE_OPEN = 15
S_ELE_BEGIN = 16
S_ELE_VOTE_BEGIN = 17
S_ELE_VOTE_NEXT = 18
S_ELE_END = 19
S_PER_OPEN = 20
S_PER_A_BEGIN = 21
S_PER_A_ASK = 22
S_PER_A_END = 23
S_PER_B_ASK = 24
S_PER_B_END = 25
S_PER_C_ASK = 26
S_PER_C_END = 27
S_PER_END_CHECK = 28
S_RECALL_NEXT = 29
S_YEP_BEGIN = 30
S_TURN_END = 31
S_RUM_END = 32

# continuation code (state.C_*) -> stage
CONT_STAGE = (
    S_PT_BEGIN,
    S_EXP_BEGIN,
    S_EXP_ASK,
    S_RUM_BEGIN,
    S_TRIAL_VOTE_BEGIN,
    S_ELE_BEGIN,
    S_ELE_VOTE_BEGIN,
    S_PER_A_BEGIN,
    S_PER_B_ASK,
    S_PER_C_ASK,
    S_PER_END_CHECK,
    S_YEP_BEGIN,
)


@internal(cache=True)
def open_window(r, cont):
    """KRM-DW-1/2: a window opened by the turn's start player."""
    r.dw_cont = cont
    r.dw_seat = r.start_player
    r.dw_passes = 0
    return S_WINDOW


@internal(cache=True)
def next_seat(r, p):
    return (p + 1) % r.num_players


@internal(cache=True)
def _window(r):
    """KRM-DW-2: visit seats; a seat without a legal declaration passes; N passes in a row close it."""
    while r.dw_passes < r.num_players:
        if has_declaration(r, r.dw_seat):
            r.phase = PH_WINDOW
            return STOP
        r.dw_passes += 1
        r.dw_seat = next_seat(r, r.dw_seat)
    return CONT_STAGE[r.dw_cont]


@internal(cache=True)
def _turn_start(r):
    """KRM-SET-5 start player; KRM-PT-1 part-time flags cleared; window."""
    r.start_player = (r.turn - 1) % r.num_players
    for g in range(N_GAMERS):
        r.part_time[g] = 0
    return open_window(r, C_PART_TIME)


@internal(cache=True)
def _pt_next(r):
    """KRM-PT-2: each seat from the start player chooses part-time jobs, then DONE."""
    while r.seats_done < r.num_players:
        p = r.seat_cursor
        for g in range(N_GAMERS):
            if valid_part_time(r, p, g):
                r.phase = PH_PT_SELECT
                return STOP
        r.seats_done += 1
        r.seat_cursor = next_seat(r, p)
    return S_STRESS


@internal(cache=True)
def _exp_ask(r):
    """KRM-EXP-1: the actor's controller names a target or stops; no target or no room ends the phase."""
    if (
        r.actor < 0
        or not in_post(r, r.actor)
        or r.controller[r.actor] < 0
        or not can_afford(r, r.actor, SP_EXP_FAILURE)
    ):
        return S_RUM_OPEN
    for g in range(N_GAMERS):
        if valid_expel(r, r.actor, g):
            r.phase = PH_EXP_TARGET
            return STOP
    return S_RUM_OPEN


@internal(cache=True)
def _rum_begin(r):
    """KRM-RUM-1, KRM-GEN-6: the actor is the first able of Editorial, Communications, Planning, chairman."""
    for g in range(N_GAMERS):
        r.flag[g] = 0
    r.rumour_mode = 0
    r.actor = first_able(r, DELEGATION_RUMOUR, SP_TOGGLE)
    if r.actor < 0:
        return S_RUM_END
    return S_RUM_MARK_ASK


@internal(cache=True)
def _rum_mark_ask(r):
    for g in range(N_GAMERS):
        if valid_mark(r, g):
            r.phase = PH_RUM_MARK
            return STOP
    return S_RUM_CHOICE_ASK


@internal(cache=True)
def _rum_choice_ask(r):
    if valid_rumour_a(r) or valid_rumour_b(r):
        r.phase = PH_RUM_CHOICE
        return STOP
    return S_RUM_END


@internal(cache=True)
def _vote_next(r, trial):
    """KRM-RUM-3 / KRM-ELE-3: the next voter in rank order, or the tally."""
    while r.post_cursor < N_OFFICERS:
        k = r.post_cursor
        if (trial and trial_voter(r, k)) or (not trial and election_voter(r, k)):
            r.phase = PH_VOTE
            return STOP
        r.post_cursor += 1
    if trial:
        do_verdict(r)
        return S_RUM_END
    return _ele_tally(r)


@internal(cache=True)
def _ele_tally(r):
    """KRM-ELE-3/4: approved -> chairman; rejected -> actor +1 SP, second nomination or the actor."""
    if r.oppose_count < 2:
        place(r, r.target, 0)
        return S_ELE_END
    pay(r, r.actor, SP_ELE_REJECT)  # KRM-ELE-6: always applied
    if r.nominations == 1:
        r.phase = PH_NOMINATE
        return STOP
    place(r, r.actor, 0)  # KRM-ELE-4: the acting delegate becomes chairman
    return S_ELE_END


@internal(cache=True)
def _ele_begin(r):
    """KRM-ELE-1/2: actor by the election delegation list (no SP condition); empty pool -> actor."""
    r.actor = first_able(r, DELEGATION_ELECTION, 0)
    r.nominations = 0
    if r.actor < 0:
        return S_PER_OPEN  # KRM-ELE-7
    for g in range(N_GAMERS):
        r.opposer[g] = 0
        if in_pool(r, g):
            r.phase = PH_NOMINATE
            return STOP
    place(r, r.actor, 0)
    return S_ELE_END


@internal(cache=True)
def _per_a_ask(r):
    """KRM-PER-1: the chairman (present, controlled, not on part-time) moves gamers or stops."""
    if active(r, r.holder[0]):
        for g in range(N_GAMERS):
            if valid_move_source(r, g):
                r.phase = PH_PER_A_SRC
                return STOP
    return S_PER_A_END


@internal(cache=True)
def _promotion_ask(r, post, level, src_loc_level, cost, phase):
    """KRM-PER-3/4: Planning (juniors from members) / Mood Maker (members from civilians)."""
    g = r.holder[post]
    if not active(r, g) or not can_afford(r, g, cost) or not any_vacant(r, level):
        return False
    for h in range(N_GAMERS):
        if (src_loc_level == 4 and r.loc[h] == LOC_CIV) or (src_loc_level == LV_MEMBER and is_member(r, h)):
            r.phase = phase
            return True
    return False


@internal(cache=True)
def _recall_next(r):
    """KRM-PER-6: each officer in rank order may recall gamers from other circles (5 SP each)."""
    any_away = False
    for g in range(N_GAMERS):
        if r.loc[g] == LOC_OTH:
            any_away = True
            break
    while any_away and r.post_cursor < N_OFFICERS:
        g = r.holder[r.post_cursor]
        if active(r, g) and can_afford(r, g, SP_RECALL):
            r.phase = PH_RECALL
            return STOP
        r.post_cursor += 1
    return open_window(r, C_YEAR_END)


@internal(cache=True)
def _yep_begin(r):
    """KRM-YEP-1/2: no speech if P00 is vacant or on part-time; 0 broke markers = automatic success."""
    ch = r.holder[0]
    if ch < 0 or r.part_time[ch]:
        return S_TURN_END
    if speech_threshold(r) == 0:
        if do_speech(r, True):
            return STOP
        return S_TURN_END
    r.chance_kind = CH_SPEECH
    r.phase = PH_CHANCE
    return STOP


@internal(cache=True)
def _turn_end(r):
    """KRM-END-3: after the year-end phase of the last turn the game stops."""
    if r.turn >= r.turn_limit:
        end_by_turn_limit(r)
        return STOP
    r.turn += 1
    return S_TURN_START


@internal(cache=True)
def _vote_begin(r, next_stage):
    """KRM-RUM-3 / KRM-ELE-3: a vote starts at the first post, nobody opposing yet."""
    r.post_cursor = 0
    r.oppose_count = 0
    for g in range(N_GAMERS):
        r.opposer[g] = 0
    return next_stage


@internal(cache=True)
def _fin_next(r):
    """KRM-FIN-1: each officer in rank order rolls for finances; then KRM-FIN-4 sweeps the old."""
    while r.post_cursor < N_OFFICERS:
        if r.holder[r.post_cursor] >= 0:
            r.chance_kind = CH_FINANCE
            r.phase = PH_CHANCE
            return STOP
        r.post_cursor += 1
    sweep_old(r)  # KRM-FIN-4
    return S_ELE_OPEN


@internal(cache=True)
def _per_end_check(r):
    """KRM-PER-5 -> KRM-END-2: a vacant member post ends the game; else the recalls begin."""
    if any_vacant(r, LV_MEMBER):
        end_by_vacancy(r)
        return STOP
    r.post_cursor = 0
    return S_RECALL_NEXT


@internal(cache=True)
def _stages_to_finance(r, st):
    """The turn up to the finances (spec §4): part-time jobs, stress, expulsion, rumour and trial, finance."""
    if st == S_WINDOW:
        return _window(r)
    if st == S_TURN_START:
        return _turn_start(r)
    if st == S_PT_BEGIN:
        r.seat_cursor = r.start_player
        r.seats_done = 0
        return S_PT_NEXT
    if st == S_PT_NEXT:
        return _pt_next(r)
    if st == S_STRESS:
        do_stress(r)
        return open_window(r, C_EXPULSION)
    if st == S_EXP_BEGIN:
        r.actor = first_able(r, DELEGATION_EXPULSION, SP_EXP_FAILURE)  # KRM-GEN-6
        return S_EXP_ASK
    if st == S_EXP_ASK:
        return _exp_ask(r)
    if st == S_RUM_OPEN:
        r.actor = -1
        return open_window(r, C_RUMOUR)
    if st == S_RUM_BEGIN:
        return _rum_begin(r)
    if st == S_RUM_MARK_ASK:
        return _rum_mark_ask(r)
    if st == S_RUM_CHOICE_ASK:
        return _rum_choice_ask(r)
    if st == S_TRIAL_VOTE_BEGIN:
        return _vote_begin(r, S_TRIAL_VOTE_NEXT)
    if st == S_TRIAL_VOTE_NEXT:
        return _vote_next(r, True)
    if st == S_RUM_END:
        r.actor = -1
        r.rumour_mode = 0
        return S_FIN_BEGIN
    if st == S_FIN_BEGIN:
        r.post_cursor = 0
        return S_FIN_NEXT
    if st == S_FIN_NEXT:
        return _fin_next(r)
    return STOP


@internal(cache=True)
def _stages_from_election(r, st):
    """The turn from the election on (spec §4): election, personnel A/B/C, recall, year-end, the next turn."""
    if st == S_ELE_VOTE_BEGIN:
        return _vote_begin(r, S_ELE_VOTE_NEXT)
    if st == S_ELE_VOTE_NEXT:
        return _vote_next(r, False)
    if st == S_ELE_OPEN:
        if r.holder[0] < 0:
            return open_window(r, C_ELECTION)  # KRM-ELE-1
        return S_PER_OPEN
    if st == S_ELE_BEGIN:
        return _ele_begin(r)
    if st == S_ELE_END:
        retire_if_old(r, r.actor)  # KRM-ELE-6
        r.actor = -1
        r.target = -1
        return S_PER_OPEN
    if st == S_PER_OPEN:
        return open_window(r, C_PER_A)
    if st == S_PER_A_BEGIN:
        for g in range(N_GAMERS):
            r.flag[g] = 0
        return S_PER_A_ASK
    if st == S_PER_A_ASK:
        return _per_a_ask(r)
    if st == S_PER_A_END:
        auto_fill(r, LV_SENIOR)  # KRM-PER-2
        return open_window(r, C_PER_B)
    if st == S_PER_B_ASK:
        if _promotion_ask(r, 1, LV_JUNIOR, LV_MEMBER, SP_PER_B, PH_PER_B_SRC):
            return STOP
        return S_PER_B_END
    if st == S_PER_B_END:
        auto_fill(r, LV_JUNIOR)  # KRM-PER-3
        return open_window(r, C_PER_C)
    if st == S_PER_C_ASK:
        if _promotion_ask(r, 4, LV_MEMBER, 4, SP_PER_C, PH_PER_C_SRC):
            return STOP
        return S_PER_C_END
    if st == S_PER_C_END:
        auto_fill(r, LV_MEMBER)  # KRM-PER-4
        return open_window(r, C_PER_END)
    if st == S_PER_END_CHECK:
        return _per_end_check(r)
    if st == S_RECALL_NEXT:
        return _recall_next(r)
    if st == S_YEP_BEGIN:
        return _yep_begin(r)
    if st == S_TURN_END:
        return _turn_end(r)
    return STOP


@internal(cache=True)
def run_stage(r, st):
    """Run stage ``st`` and return the next one, or STOP at a decision point or a pending d20."""
    if st <= S_FIN_NEXT or st == S_RUM_END:
        return _stages_to_finance(r, st)
    return _stages_from_election(r, st)


@internal(cache=True)
def advance(r, st):
    """Run automatic stages until a decision point or a chance node (or the end)."""
    while st != STOP:
        st = run_stage(r, st)
