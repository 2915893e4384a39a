"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Public (spec §7): board, SP, markers, part-time, declarations, burned points, control, speeches,
votes and rolls. Private: each seat's influence sheet. A seat sees its own sheet (``my_assigned``,
``my_remaining``), never another's; ``observe(s, -1, out)`` is the privileged table view (absolute
seat order) and is the only one that fills ``all_assigned``.
"""

import numpy as np
from numba import njit

from .._common.jit import internal
from .._common.layout import ObsLayout
from .._common.observing import copied
from .._common.observing import mark
from .._common.observing import reciprocal
from .._common.observing import relative_seat
from .._common.observing import scaled
from .._common.observing import start_observation
from . import state
from . import tables
from .rules import to_move
from .state import MAX_SEATS
from .state import PH_WINDOW
from .tables import EXPERIENCE
from .tables import LOC_OTH
from .tables import LOC_RET
from .tables import MAX_AGE_AFTER_POWER
from .tables import MAX_VALUE
from .tables import N_GAMERS
from .tables import N_LOCS
from .tables import TRAIT
from .tables import TRAIT_NAMES

S, G = MAX_SEATS, N_GAMERS
N_TRAITS = len(TRAIT_NAMES)
MAX_EXPERIENCE = int(EXPERIENCE.max())
PIECES = """
| piece               | shape         | per seat | divisor                                   | max                                       | unit                                                                                              |
|---------------------|---------------|----------|-------------------------------------------|-------------------------------------------|---------------------------------------------------------------------------------------------------|
| phase_onehot        | (N_PHASES,)   |          | 1                                         | 1                                         | 0/1                                                                                               |
| window_cont_onehot  | (N_CONTS,)    |          | 1                                         | 1                                         | 0/1: what follows the open declaration window                                                     |
| seat_present        | (S,)          | yes      | 1                                         | 1                                         | 0/1                                                                                               |
| to_move_onehot      | (S,)          | yes      | 1                                         | 1                                         | 0/1                                                                                               |
| start_player_onehot | (S,)          | yes      | 1                                         | 1                                         | 0/1                                                                                               |
| speeches            | (S,)          | yes      | SPEECHES_TO_WIN                           | SPEECHES_TO_WIN                           | speeches                                                                                          |
| declared            | (S, G)        | yes      | 10                                        | MAX_VALUE                                 | influence points                                                                                  |
| burned              | (S, G)        | yes      | 10                                        | MAX_VALUE                                 | influence points                                                                                  |
| controls            | (S, G)        | yes      | 1                                         | 1                                         | 0/1                                                                                               |
| values_assigned     | (S,)          | yes      | 10                                        | MAX_VALUE                                 | values given in the allocation                                                                    |
| gamer_location      | (G, N_LOCS)   |          | 1                                         | 1                                         | 0/1: posts P00..P12, civilians, other circles, retired                                            |
| experience          | (G,)          |          | 100                                       | MAX_EXPERIENCE                            | experience                                                                                        |
| sp                  | (G,)          |          | 50                                        | int16                                     | SP                                                                                                |
| age_room            | (G,)          |          | 50                                        | MAX_AGE_AFTER_POWER                       | 95 - experience - SP, 0 when none                                                                 |
| broke               | (G,)          |          | 3                                         | int8                                      | broke markers                                                                                     |
| suspicion           | (G,)          |          | 1                                         | 1                                         | 0/1                                                                                               |
| trial_eligible      | (G,)          |          | 1                                         | 1                                         | 0/1: marker placed in an earlier turn                                                             |
| part_time           | (G,)          |          | 1                                         | 1                                         | 0/1                                                                                               |
| phase_flag          | (G,)          |          | 1                                         | 1                                         | 0/1: toggled (rumour) / moved (personnel A) this phase                                            |
| opposer             | (G,)          |          | 1                                         | 1                                         | 0/1: opposed in the latest vote                                                                   |
| uncontrolled        | (G,)          |          | 1                                         | 1                                         | 0/1                                                                                               |
| traits              | (G, N_TRAITS) |          | 1                                         | 1                                         | 0/1, all zero when the optional traits are off                                                    |
| actor               | (G,)          |          | 1                                         | 1                                         | 0/1: gamer using the current power                                                                |
| target              | (G,)          |          | 1                                         | 1                                         | 0/1: pending target / defendant / nominee / personnel source                                      |
| my_assigned         | (G,)          |          | 10                                        | MAX_VALUE                                 | influence points (own secret sheet)                                                               |
| my_remaining        | (G,)          |          | 10                                        | MAX_VALUE                                 | declarable influence points left (own)                                                            |
| all_assigned        | (S, G)        |          | 10                                        | MAX_VALUE                                 | influence points: privileged view (seat -1) only, zero for a seat                                 |
| context             | (8,)          |          | (1, N_OFFICERS, S, 2, DIE_SIDES, 1, 1, 1) | (1, N_OFFICERS, S, 2, DIE_SIDES, 1, 1, 1) | turn / turn limit, oppose votes, window passes, nominations, d20 roll, 0/1 rumour A, B, traits on |
"""
# the table names the room's constants; O.<piece>: where the piece starts in the vector, D.<piece>: its divisor
O, D, OBS_PIECES, OBS_SIZE = ObsLayout.from_table(PIECES, state, tables, globals()).exports()


# reciprocals of the divisors of integer pieces (checked bit-identical to dividing: ``reciprocal``)
INV_SPEECHES, INV_VALUES = reciprocal(D.speeches), reciprocal(D.values_assigned)
INV_DECLARED, INV_BURNED, INV_ALL = reciprocal(D.declared), reciprocal(D.burned), reciprocal(D.all_assigned)
INV_SP, INV_AGE, INV_BROKE = reciprocal(D.sp), reciprocal(D.age_room), reciprocal(D.broke)
INV_MINE, INV_REMAINING = reciprocal(D.my_assigned), reciprocal(D.my_remaining)
# the pieces that are tables: divided once here (the float64 division, rounded to float32 as the vector does)
_EXPERIENCE = (EXPERIENCE / D.experience).astype(np.float32)
_TRAITS = TRAIT.astype(np.float32).ravel()


@internal(cache=True)
def _values_given(r, p):
    if r.assign_seat > p:
        return MAX_VALUE
    if r.assign_seat == p:
        return r.assign_count
    return 0


@internal(cache=True)
def _seats(r, seat, out):
    for p in range(r.num_players):
        i = relative_seat(r, seat, p)
        out[O.speeches + i] = r.speeches[p] * INV_SPEECHES
        out[O.values_assigned + i] = _values_given(r, p) * INV_VALUES
        scaled(out, O.declared + i * G, r.declared[p], INV_DECLARED)
        scaled(out, O.burned + i * G, r.burned[p], INV_BURNED)
        if seat < 0:
            scaled(out, O.all_assigned + p * G, r.assigned[p], INV_ALL)
    out[O.start_player_onehot + relative_seat(r, seat, r.start_player)] = 1.0


@internal(cache=True)
def _gamers(r, out):
    """The gamers' public pieces, each a row over the gamers (vectorised)."""
    copied(out, O.experience, _EXPERIENCE)
    scaled(out, O.sp, r.sp, INV_SP)
    scaled(out, O.broke, r.broke, INV_BROKE)
    copied(out, O.part_time, r.part_time)
    copied(out, O.phase_flag, r.flag)
    copied(out, O.opposer, r.opposer)
    for g in range(G):
        out[O.age_room + g] = max(0, MAX_AGE_AFTER_POWER - EXPERIENCE[g] - r.sp[g]) * INV_AGE
        out[O.suspicion + g] = r.susp_turn[g] > 0
        out[O.trial_eligible + g] = 0 < r.susp_turn[g] < r.turn
    if r.traits:
        copied(out, O.traits, _TRAITS)


@internal(cache=True)
def _sheet(r, seat, out):
    """``seat``'s own influence sheet: what it assigned, and what it may still declare."""
    scaled(out, O.my_assigned, r.assigned[seat], INV_MINE)
    for g in range(G):
        if r.loc[g] != LOC_OTH and r.loc[g] != LOC_RET:
            out[O.my_remaining + g] = (
                max(0, r.assigned[seat, g] - r.burned[seat, g] - r.declared[seat, g]) * INV_REMAINING
            )


@njit(cache=True)
def observe(s, seat, out):
    """Fill out (float32[OBS_SIZE]) with what ``seat`` sees (seat -1: the privileged table view)."""
    r = s[0]
    start_observation(r, seat, to_move(s), out, O.phase_onehot, O.seat_present, O.to_move_onehot)
    if r.phase == PH_WINDOW:
        out[O.window_cont_onehot + r.dw_cont] = 1.0
    _seats(r, seat, out)
    _gamers(r, out)
    for g in range(G):
        out[O.gamer_location + g * N_LOCS + r.loc[g]] = 1.0
        c = r.controller[g]
        if c >= 0:
            out[O.controls + relative_seat(r, seat, c) * G + g] = 1.0
        else:
            out[O.uncontrolled + g] = 1.0
    if seat >= 0:
        _sheet(r, seat, out)
    mark(out, O.actor, r.actor)
    mark(out, O.target, r.target)
    out[O.context + 0] = r.turn / max(1, r.turn_limit)
    out[O.context + 1] = r.oppose_count / D.context[1]
    out[O.context + 2] = r.dw_passes / D.context[2]
    out[O.context + 3] = r.nominations / D.context[3]
    out[O.context + 4] = r.last_roll / D.context[4]
    out[O.context + 5] = r.rumour_mode == 1
    out[O.context + 6] = r.rumour_mode == 2
    out[O.context + 7] = r.traits
