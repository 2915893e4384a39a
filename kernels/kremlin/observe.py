"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Public (spec §7): board, SP, markers, part-time, declarations, burned points, control, speeches,
votes and rolls. Private: each seat's influence sheet. A seat sees its own sheet (``my_assigned``,
``my_remaining``), never another's; ``observe(s, -1, out)`` is the privileged table view (absolute
seat order) and is the only one that fills ``all_assigned``.
"""

from numba import njit

from .._common.layout import SEATS
from .._common.layout import ObsLayout
from .._common.seats import relative_seat
from .rules import _decider
from .state import MAX_SEATS
from .state import N_CONTS
from .state import N_PHASES
from .state import PH_CHANCE
from .state import PH_GAME_OVER
from .state import PH_WINDOW
from .tables import EXPERIENCE
from .tables import LOC_OTH
from .tables import LOC_RET
from .tables import MAX_VALUE
from .tables import N_GAMERS
from .tables import N_LOCS
from .tables import TRAIT
from .tables import TRAIT_NAMES

S, G = MAX_SEATS, N_GAMERS
N_TRAITS = len(TRAIT_NAMES)
_OBS = ObsLayout()
O_PHASE = _OBS.add("phase_onehot", (N_PHASES,), "0/1")
O_CONT = _OBS.add("window_cont_onehot", (N_CONTS,), "0/1: what follows the open declaration window")
O_PRESENT = _OBS.add("seat_present", (S,), "0/1", SEATS)
O_TO_MOVE = _OBS.add("to_move_onehot", (S,), "0/1", SEATS)
O_START = _OBS.add("start_player_onehot", (S,), "0/1", SEATS)
O_SPEECH = _OBS.add("speeches", (S,), "speeches / 3", SEATS)
O_DECL = _OBS.add("declared", (S, G), "points / 10", SEATS)
O_BURN = _OBS.add("burned", (S, G), "points / 10", SEATS)
O_CTRL = _OBS.add("controls", (S, G), "0/1", SEATS)
O_NASS = _OBS.add("values_assigned", (S,), "values given in the allocation / 10", SEATS)
O_LOC = _OBS.add("gamer_location", (G, N_LOCS), "0/1: posts P00..P12, civilians, other circles, retired")
O_EXP = _OBS.add("experience", (G,), "experience / 100")
O_SP = _OBS.add("sp", (G,), "SP / 50")
O_ROOM = _OBS.add("age_room", (G,), "(95 - experience - SP) / 50, 0 when none")
O_BROKE = _OBS.add("broke", (G,), "markers / 3")
O_SUSP = _OBS.add("suspicion", (G,), "0/1")
O_ELIG = _OBS.add("trial_eligible", (G,), "0/1: marker placed in an earlier turn")
O_PT = _OBS.add("part_time", (G,), "0/1")
O_FLAG = _OBS.add("phase_flag", (G,), "0/1: toggled (rumour) / moved (personnel A) this phase")
O_OPP = _OBS.add("opposer", (G,), "0/1: opposed in the latest vote")
O_UNC = _OBS.add("uncontrolled", (G,), "0/1")
O_TRAITS = _OBS.add("traits", (G, N_TRAITS), "0/1, all zero when the optional traits are off")
O_ACTOR = _OBS.add("actor", (G,), "0/1: gamer using the current power")
O_TARGET = _OBS.add("target", (G,), "0/1: pending target / defendant / nominee / personnel source")
O_MY_ASS = _OBS.add("my_assigned", (G,), "points / 10 (own secret sheet)")
O_MY_REM = _OBS.add("my_remaining", (G,), "declarable points left / 10 (own)")
O_ALL_ASS = _OBS.add("all_assigned", (S, G), "points / 10: privileged view (seat -1) only, zero for a seat")
O_CTX = _OBS.add(
    "context", (8,), "turn/limit, oppose votes/8, window passes/6, nominations/2, roll/20, rumour A, B, traits on"
)
OBS_PIECES, OBS_SIZE = _OBS.pieces, _OBS.size


@njit(cache=True)
def _values_given(r, p):
    if r.assign_seat > p:
        return MAX_VALUE
    if r.assign_seat == p:
        return r.assign_count
    return 0


@njit(cache=True)
def observe(s, seat, out):
    """Fill out (float32[OBS_SIZE]) with what ``seat`` sees (seat -1: the privileged table view)."""
    r = s[0]
    n = r.num_players
    out[:] = 0.0
    out[O_PHASE + r.phase] = 1.0
    if r.phase == PH_WINDOW:
        out[O_CONT + r.dw_cont] = 1.0
    for p in range(n):
        i = relative_seat(r, seat, p)
        out[O_PRESENT + i] = 1.0
        out[O_SPEECH + i] = r.speeches[p] / 3.0
        out[O_NASS + i] = _values_given(r, p) / 10.0
        for g in range(G):
            out[O_DECL + i * G + g] = r.declared[p, g] / 10.0
            out[O_BURN + i * G + g] = r.burned[p, g] / 10.0
            if seat < 0:
                out[O_ALL_ASS + p * G + g] = r.assigned[p, g] / 10.0
    out[O_START + relative_seat(r, seat, r.start_player)] = 1.0
    if r.phase != PH_CHANCE and r.phase != PH_GAME_OVER:
        m = _decider(r)
        if m >= 0:
            out[O_TO_MOVE + relative_seat(r, seat, m)] = 1.0
    for g in range(G):
        out[O_LOC + g * N_LOCS + r.loc[g]] = 1.0
        out[O_EXP + g] = EXPERIENCE[g] / 100.0
        out[O_SP + g] = r.sp[g] / 50.0
        out[O_ROOM + g] = max(0, 95 - EXPERIENCE[g] - r.sp[g]) / 50.0
        out[O_BROKE + g] = r.broke[g] / 3.0
        out[O_SUSP + g] = r.susp_turn[g] > 0
        out[O_ELIG + g] = 0 < r.susp_turn[g] < r.turn
        out[O_PT + g] = r.part_time[g]
        out[O_FLAG + g] = r.flag[g]
        out[O_OPP + g] = r.opposer[g]
        c = r.controller[g]
        if c >= 0:
            out[O_CTRL + relative_seat(r, seat, c) * G + g] = 1.0
        else:
            out[O_UNC + g] = 1.0
        if r.traits:
            for t in range(N_TRAITS):
                out[O_TRAITS + g * N_TRAITS + t] = TRAIT[g, t]
        if seat >= 0:
            out[O_MY_ASS + g] = r.assigned[seat, g] / 10.0
            if r.loc[g] != LOC_OTH and r.loc[g] != LOC_RET:
                out[O_MY_REM + g] = max(0, r.assigned[seat, g] - r.burned[seat, g] - r.declared[seat, g]) / 10.0
    if r.actor >= 0:
        out[O_ACTOR + r.actor] = 1.0
    if r.target >= 0:
        out[O_TARGET + r.target] = 1.0
    out[O_CTX + 0] = r.turn / max(1, r.turn_limit)
    out[O_CTX + 1] = r.oppose_count / 8.0
    out[O_CTX + 2] = r.dw_passes / 6.0
    out[O_CTX + 3] = r.nominations / 2.0
    out[O_CTX + 4] = r.last_roll / 20.0
    out[O_CTX + 5] = r.rumour_mode == 1
    out[O_CTX + 6] = r.rumour_mode == 2
    out[O_CTX + 7] = r.traits
