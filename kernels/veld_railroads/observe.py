"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Veld Railroads has no secrets (spec §7): every seat sees the whole table; only the seat order is
rotated so one policy serves every seat. ``observe(s, -1, out)`` is the table's own view (seat order
absolute), used for PettingZoo ``state()``. Each piece's scale is its row of ``PIECES``.
"""

import numpy as np
from numba import njit

from .._common.jit import internal
from .._common.layout import ObsLayout
from .._common.observing import mark
from .._common.observing import reciprocal
from .._common.observing import relative_seat
from .._common.observing import scaled
from .._common.observing import start_observation
from . import state
from . import tables
from .develop import free_picks
from .income import controllers
from .income import sum_income
from .network import tracked
from .rules import to_move
from .state import MAX_SEATS
from .state import PH_BUILD_FIRST_LEG
from .state import PH_BUILD_SECOND_LEG
from .state import PH_DEVELOP_PICK
from .state import PH_GAME_OVER
from .tables import LADDER
from .tables import MAX_DEV
from .tables import N_BOXES
from .tables import N_RAILROADS
from .tables import N_SECTIONS
from .tables import N_SETTLEMENTS
from .tables import ROW_LENGTH
from .tables import SEC_A
from .tables import SEC_B
from .tables import SECTION_VALUATION

S, R, E, V = MAX_SEATS, N_RAILROADS, N_SECTIONS, N_SETTLEMENTS
_TOP_INCOME = LADDER.max(axis=1)  # each settlement's income at its highest development
MAX_INCOME = int((_TOP_INCOME[SEC_A] + _TOP_INCOME[SEC_B]).sum())  # VR-GEN-6: one railroad owns every section
MAX_VALUATION = SECTION_VALUATION * E
MAX_SETTLEMENT_INCOME = _TOP_INCOME
PIECES = """
| piece                  | shape               | per seat | divisor             | max                   | unit                                           |
|------------------------|---------------------|----------|---------------------|-----------------------|------------------------------------------------|
| phase_onehot           | (N_VISIBLE_PHASES,) |          | 1                   | 1                     | 0/1                                            |
| seat_present           | (S,)                | yes      | 1                   | 1                     | 0/1                                            |
| to_move                | (S,)                | yes      | 1                   | 1                     | 0/1                                            |
| active                 | (S,)                | yes      | 1                   | 1                     | 0/1: whose regular turn                        |
| cash                   | (S,)                | yes      | 100                 | int32                 | dollars                                        |
| holdings               | (S, R)              | yes      | SHARES_PER_RAILROAD | SHARES_PER_RAILROAD   | shares                                         |
| controls               | (S, R)              | yes      | 1                   | 1                     | 0/1 (VR-GEN-4)                                 |
| loco_box               | (S, N_BOXES)        | yes      | 1                   | 1                     | 0/1: build, offer, develop, pay                |
| last_payout            | (S,)                | yes      | 100                 | int32                 | dollars                                        |
| treasury_shares        | (R,)                |          | SHARES_PER_RAILROAD | SHARES_PER_RAILROAD   | shares                                         |
| treasury_cash          | (R,)                |          | 50                  | int32                 | dollars                                        |
| opened                 | (R,)                |          | 1                   | 1                     | 0/1                                            |
| reached_johannesburg   | (R,)                |          | 1                   | 1                     | 0/1                                            |
| free_section_owed      | (R,)                |          | 1                   | 1                     | 0/1                                            |
| sections_built         | (R,)                |          | 20                  | E                     | sections                                       |
| income                 | (R,)                |          | 100                 | MAX_INCOME            | dollars (VR-GEN-6)                             |
| valuation              | (R,)                |          | 100                 | MAX_VALUATION         | dollars (VR-GEN-5)                             |
| section_owner          | (R, E)              |          | 1                   | 1                     | 0/1                                            |
| settlement_level       | (V,)                |          | MAX_DEV             | MAX_DEV               | development levels                             |
| settlement_income      | (V,)                |          | 10                  | MAX_SETTLEMENT_INCOME | dollars                                        |
| settlement_tracked     | (V,)                |          | 1                   | 1                     | 0/1                                            |
| row                    | (N_ROWS,)           |          | 1                   | 1                     | 0/1                                            |
| position               | (1,)                |          | ROW_LENGTH          | ROW_LENGTH            | boxes filled (counted up to the row's end)     |
| zasm_trigger           | (1,)                |          | 1                   | 1                     | 0/1                                            |
| build_railroad         | (R,)                |          | 1                   | 1                     | 0/1                                            |
| build_builder          | (S,)                | yes      | 1                   | 1                     | 0/1                                            |
| build_first_leg        | (E,)                |          | 1                   | 1                     | 0/1                                            |
| build_costs            | (2,)                |          | 30                  | int16                 | dollars: single, double section                |
| develop_picked         | (V,)                |          | 1                   | 1                     | 0/1                                            |
| develop_counts         | (2,)                |          | MAX_PICKS           | MAX_PICKS             | picks made, free picks                         |
| free_section_railroad  | (R,)                |          | 1                   | 1                     | 0/1                                            |
| free_section_player    | (S,)                | yes      | 1                   | 1                     | 0/1                                            |
| auction_railroad       | (R,)                |          | 1                   | 1                     | 0/1                                            |
| auction_kind           | (4,)                |          | 1                   | 1                     | 0/1: setup, treasury, own, zasm                |
| auction_seller         | (S,)                | yes      | 1                   | 1                     | 0/1                                            |
| auction_bidder         | (S,)                | yes      | 1                   | 1                     | 0/1                                            |
| auction_high_bidder    | (S,)                | yes      | 1                   | 1                     | 0/1                                            |
| auction_passed         | (S,)                | yes      | 1                   | 1                     | 0/1                                            |
| auction_bids           | (3,)                |          | (100, 100, 1)       | (int16, int16, 1)     | dollars: minimum, high bid; 0/1 opener obliged |
| repeat_metropolis_pick | (1,)                |          | 1                   | 1                     | 0/1 option                                     |
"""
# the table names the room's constants; O.<piece>: where the piece starts in the vector, D.<piece>: its divisor
O, D, OBS_PIECES, OBS_SIZE = ObsLayout.from_table(PIECES, state, tables, globals()).exports()
# settlement_level and settlement_income of every settlement at every level, divided once here (the same float64
# division, rounded to float32 as the vector does): observe reads them instead of dividing twice per settlement
_LEVELS = np.arange(LADDER.shape[1])
_SETTLEMENT_LEVEL = (_LEVELS[None, :] / MAX_DEV[:, None]).astype(np.float32)
_SETTLEMENT_INCOME = (LADDER / D.settlement_income).astype(np.float32)
# reciprocals of the divisors of integer pieces (checked bit-identical to dividing: ``reciprocal``)
INV_HOLDINGS, INV_SHARES = reciprocal(D.holdings), reciprocal(D.treasury_shares)
INV_BUILT, INV_VALUATION, INV_POSITION = reciprocal(D.sections_built), reciprocal(D.valuation), reciprocal(D.position)


@internal(cache=True)
def _seats(r, seat, out):
    for rr in range(R):
        ctrl = controllers(r, rr)  # VR-GEN-4, once per railroad
        for p in range(r.num_players):
            out[O.controls + relative_seat(r, seat, p) * R + rr] = (ctrl >> p) & 1
    for p in range(r.num_players):
        i = relative_seat(r, seat, p)
        out[O.cash + i] = r.cash[p] / D.cash
        out[O.last_payout + i] = r.last_payout[p] / D.last_payout
        scaled(out, O.holdings + i * R, r.holdings[p], INV_HOLDINGS)
        if r.loco_box[p] >= 0:
            out[O.loco_box + i * N_BOXES + r.loco_box[p]] = 1.0
        out[O.auction_passed + i] = r.auc_passed[p]
    if r.phase != PH_GAME_OVER:
        out[O.active + relative_seat(r, seat, r.active)] = 1.0


@internal(cache=True)
def _railroads(r, out):
    # VR-GEN-6 in one pass over the sections, summed in the vector itself (a scratch array would allocate per
    # step; whole pounds are exact in float32), then scaled
    income = out[O.income : O.income + R]
    sum_income(r.section_owner, r.dev_level, income)
    for rr in range(R):
        income[rr] = income[rr] / D.income
        out[O.treasury_shares + rr] = r.treasury_shares[rr] * INV_SHARES
        out[O.treasury_cash + rr] = r.treasury_cash[rr] / D.treasury_cash
        out[O.opened + rr] = r.opened[rr]
        out[O.reached_johannesburg + rr] = r.reached_jo[rr]
        out[O.free_section_owed + rr] = r.free_pending[rr]
        out[O.sections_built + rr] = r.n_sections[rr] * INV_BUILT
        out[O.valuation + rr] = SECTION_VALUATION * r.n_sections[rr] * INV_VALUATION
        # who owns which section, one comparison per (railroad, section): no branch on the owner, which
        # mispredicts from one lane's game to the next in a batch
        for e in range(E):
            out[O.section_owner + rr * E + e] = r.section_owner[e] == rr
    for v in range(V):
        out[O.settlement_level + v] = _SETTLEMENT_LEVEL[v, r.dev_level[v]]
        out[O.settlement_income + v] = _SETTLEMENT_INCOME[v, r.dev_level[v]]
        out[O.settlement_tracked + v] = 1.0 if tracked(r, v) else 0.0


@internal(cache=True)
def _pending(r, seat, out):
    if r.bld_railroad >= 0:
        out[O.build_railroad + r.bld_railroad] = 1.0
        out[O.build_costs] = r.bld_single_cost / D.build_costs
        out[O.build_costs + 1] = r.bld_double_cost / D.build_costs
    if r.bld_builder >= 0 and (r.phase == PH_BUILD_FIRST_LEG or r.phase == PH_BUILD_SECOND_LEG):
        out[O.build_builder + relative_seat(r, seat, r.bld_builder)] = 1.0
    mark(out, O.build_first_leg, r.bld_leg1)
    if r.phase == PH_DEVELOP_PICK:
        for i in range(r.dev_picks):
            out[O.develop_picked + r.dev_picked[i]] = 1.0
        out[O.develop_counts] = r.dev_picks / D.develop_counts
        out[O.develop_counts + 1] = free_picks(r) / D.develop_counts
    if r.fs_railroad >= 0:
        out[O.free_section_railroad + r.fs_railroad] = 1.0
        out[O.free_section_player + relative_seat(r, seat, r.fs_player)] = 1.0
    if r.auc_railroad >= 0:
        out[O.auction_railroad + r.auc_railroad] = 1.0
        out[O.auction_kind + r.auc_kind] = 1.0
        if r.auc_seller >= 0:
            out[O.auction_seller + relative_seat(r, seat, r.auc_seller)] = 1.0
        out[O.auction_bidder + relative_seat(r, seat, r.auc_bidder)] = 1.0
        if r.auc_high_bidder >= 0:
            out[O.auction_high_bidder + relative_seat(r, seat, r.auc_high_bidder)] = 1.0
        out[O.auction_bids] = r.auc_min / D.auction_bids[0]
        out[O.auction_bids + 1] = r.auc_high_bid / D.auction_bids[1]
        out[O.auction_bids + 2] = r.auc_must_bid


@njit(cache=True)
def observe(s, seat, out):
    """Fill out (float32[OBS_SIZE]) with what ``seat`` sees (everything, seat-relative)."""
    r = s[0]
    start_observation(r, seat, to_move(s), out, O.phase_onehot, O.seat_present, O.to_move)
    _seats(r, seat, out)
    _railroads(r, out)
    out[O.row + r.row - 1] = 1.0
    out[O.position] = min(r.position, ROW_LENGTH) * INV_POSITION
    out[O.zasm_trigger] = r.zasm_trigger
    _pending(r, seat, out)
    out[O.repeat_metropolis_pick] = r.repeat_metro
