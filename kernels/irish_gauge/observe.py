"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Irish Gauge has no secrets (spec §7): every seat sees the whole table; only the seat order is
rotated so one policy serves every seat. ``observe(s, -1, out)`` is the table's own view (seat
order absolute), used for PettingZoo ``state()``. Money is scaled by 1/100, counts by their maximum.
"""

from numba import njit

from .._common.layout import ObsLayout
from .._common.observing import relative_seat
from .._common.observing import start_observation
from .auction import min_bid
from .dividends import company_potential
from .rules import to_move
from .state import MAX_SEATS
from .state import N_PHASES
from .state import PH_BUILD
from .state import RULESET_PUBLISHED
from .tables import BUILD_BUDGET
from .tables import CUBES_PER_CALL
from .tables import CUBES_PER_COLOUR
from .tables import LOCOMOTIVES
from .tables import MAJOR_CITY_BONUS_PUBLISHED
from .tables import MAX_CERTS
from .tables import N_CERTS
from .tables import N_COLOURS
from .tables import N_COMPANIES
from .tables import N_HEX
from .tables import SHARE_VALUE

S, C, K, H = MAX_SEATS, N_COMPANIES, N_COLOURS, N_HEX
PIECES = """
| piece               | shape       | per seat | scale                                  |
|---------------------|-------------|----------|----------------------------------------|
| phase_onehot        | (N_PHASES,) |          | 0/1                                    |
| seat_present        | (S,)        | yes      | 0/1                                    |
| to_move_onehot      | (S,)        | yes      | 0/1                                    |
| active_onehot       | (S,)        | yes      | 0/1: whose main turn                   |
| cash_by_seat        | (S,)        | yes      | pounds / 100                           |
| held_by_seat        | (S, C)      | yes      | certificates / 4                       |
| certs_left          | (C,)        |          | certificates / 4                       |
| top_cert_value      | (C,)        |          | pounds / 20, 0 when the stack is empty |
| shares_sold         | (C,)        |          | certificates / 4                       |
| supply              | (C,)        |          | locomotives / 19                       |
| loco                | (C, H)      |          | 0/1                                    |
| cube_colour         | (K, H)      |          | 0/1                                    |
| bag                 | (K,)        |          | cubes / 10                             |
| potential_income    | (C,)        |          | pounds / 100 (IG-DISK-1)               |
| last_draw           | (K,)        |          | cubes / 3                              |
| last_income         | (C,)        |          | pounds / 100                           |
| auction_company     | (C,)        |          | 0/1                                    |
| auction_high_bid    | (1,)        |          | pounds / 100                           |
| auction_min_bid     | (1,)        |          | pounds / 100                           |
| auction_high_bidder | (S,)        | yes      | 0/1                                    |
| auction_passed      | (S,)        | yes      | 0/1                                    |
| build_company       | (C,)        |          | 0/1                                    |
| build_budget        | (1,)        |          | half build points / 6                  |
| build_placed        | (1,)        |          | locomotives / 3                        |
| ruleset_published   | (1,)        |          | 0/1                                    |
| major_city_bonus    | (1,)        |          | pounds / 12                            |
"""
_OBS = ObsLayout.from_table(PIECES, C=C, H=H, K=K, N_PHASES=N_PHASES, S=S)
O = _OBS.offsets  # O.<piece>: where the piece starts in the vector
OBS_PIECES, OBS_SIZE = _OBS.pieces, _OBS.size


@njit(cache=True)
def observe(s, seat, out):
    """Fill out (float32[OBS_SIZE]) with what ``seat`` sees (everything, seat-relative)."""
    r = s[0]
    start_observation(r, seat, to_move(s), out, O.phase_onehot, O.seat_present, O.to_move_onehot)
    for p in range(r.num_players):
        i = relative_seat(r, seat, p)
        out[O.cash_by_seat + i] = r.cash[p] / 100.0
        for c in range(C):
            out[O.held_by_seat + i * C + c] = r.held[p, c] / MAX_CERTS
        if r.auc_company >= 0:
            out[O.auction_passed + i] = r.auc_passed[p]
    if r.phase <= PH_BUILD:  # a seat's turn (not chance, not game over)
        out[O.active_onehot + relative_seat(r, seat, r.active)] = 1.0
    for c in range(C):
        left = N_CERTS[c] - r.next_cert[c]
        out[O.certs_left + c] = left / MAX_CERTS
        if left > 0:
            out[O.top_cert_value + c] = SHARE_VALUE[c, r.next_cert[c]] / 20.0
        out[O.shares_sold + c] = r.next_cert[c] / MAX_CERTS
        out[O.supply + c] = r.supply[c] / LOCOMOTIVES
        out[O.potential_income + c] = company_potential(r.loco, r.cube, c) / 100.0
        out[O.last_income + c] = r.last_income[c] / 100.0
        for h in range(H):
            out[O.loco + c * H + h] = r.loco[c, h]
    for h in range(H):
        if r.cube[h] >= 0:
            out[O.cube_colour + r.cube[h] * H + h] = 1.0
    for k in range(K):
        out[O.bag + k] = r.bag[k] / CUBES_PER_COLOUR
        out[O.last_draw + k] = r.last_draw[k] / CUBES_PER_CALL
    if r.auc_company >= 0:
        out[O.auction_company + r.auc_company] = 1.0
        out[O.auction_high_bid] = r.auc_high_bid / 100.0
        out[O.auction_min_bid] = min_bid(r) / 100.0
        if r.auc_high_bidder >= 0:
            out[O.auction_high_bidder + relative_seat(r, seat, r.auc_high_bidder)] = 1.0
    if r.phase == PH_BUILD:
        out[O.build_company + r.bld_company] = 1.0
        out[O.build_budget] = r.bld_budget / BUILD_BUDGET
        out[O.build_placed] = r.bld_placed / 3.0
    out[O.ruleset_published] = r.ruleset == RULESET_PUBLISHED
    out[O.major_city_bonus] = r.major_city_bonus / MAJOR_CITY_BONUS_PUBLISHED
