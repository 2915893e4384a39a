"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Irish Gauge has no secrets (spec §7): every seat sees the whole table; only the seat order is
rotated so one policy serves every seat. ``observe(s, -1, out)`` is the table's own view (seat
order absolute), used for PettingZoo ``state()``. Each piece's scale is its row of ``PIECES``.
"""

import numpy as np
from numba import njit

from .._common.jit import internal
from .._common.layout import ObsLayout
from .._common.observing import copied
from .._common.observing import reciprocal
from .._common.observing import relative_seat
from .._common.observing import scaled
from .._common.observing import start_observation
from . import state
from . import tables
from .auction import min_bid
from .dividends import company_potential
from .rules import to_move
from .state import MAX_SEATS
from .state import PH_BUILD
from .state import RULESET_PUBLISHED
from .tables import CITY_INCOME
from .tables import CUBE_SITE_HEX
from .tables import N_CERTS
from .tables import N_COLOURS
from .tables import N_COMPANIES
from .tables import N_HEX
from .tables import SHARE_VALUE
from .tables import TOWN_INCOME

S, C, K, H = MAX_SEATS, N_COMPANIES, N_COLOURS, N_HEX
TOP_SHARE_VALUE = int(SHARE_VALUE.max())
MAX_POTENTIAL = max(CITY_INCOME, TOWN_INCOME) * len(CUBE_SITE_HEX)  # every site connected, each a city
PIECES = """
| piece               | shape       | per seat | divisor                    | max              | unit                              |
|---------------------|-------------|----------|----------------------------|------------------|-----------------------------------|
| phase_onehot        | (N_PHASES,) |          | 1                          | 1                | 0/1                               |
| seat_present        | (S,)        | yes      | 1                          | 1                | 0/1                               |
| to_move_onehot      | (S,)        | yes      | 1                          | 1                | 0/1                               |
| active_onehot       | (S,)        | yes      | 1                          | 1                | 0/1: whose main turn              |
| cash_by_seat        | (S,)        | yes      | 100                        | int32            | pounds                            |
| held_by_seat        | (S, C)      | yes      | MAX_CERTS                  | MAX_CERTS        | certificates                      |
| certs_left          | (C,)        |          | MAX_CERTS                  | MAX_CERTS        | certificates                      |
| top_cert_value      | (C,)        |          | 20                         | TOP_SHARE_VALUE  | pounds, 0 when the stack is empty |
| shares_sold         | (C,)        |          | MAX_CERTS                  | MAX_CERTS        | certificates                      |
| supply              | (C,)        |          | LOCOMOTIVES                | LOCOMOTIVES      | locomotives                       |
| loco                | (C, H)      |          | 1                          | 1                | 0/1                               |
| cube_colour         | (K, H)      |          | 1                          | 1                | 0/1                               |
| bag                 | (K,)        |          | CUBES_PER_COLOUR           | CUBES_PER_COLOUR | cubes                             |
| potential_income    | (C,)        |          | 100                        | MAX_POTENTIAL    | pounds (IG-DISK-1)                |
| last_draw           | (K,)        |          | CUBES_PER_CALL             | CUBES_PER_CALL   | cubes                             |
| last_income         | (C,)        |          | 100                        | int32            | pounds                            |
| auction_company     | (C,)        |          | 1                          | 1                | 0/1                               |
| auction_high_bid    | (1,)        |          | 100                        | int16            | pounds                            |
| auction_min_bid     | (1,)        |          | 100                        | int32            | pounds                            |
| auction_high_bidder | (S,)        | yes      | 1                          | 1                | 0/1                               |
| auction_passed      | (S,)        | yes      | 1                          | 1                | 0/1                               |
| build_company       | (C,)        |          | 1                          | 1                | 0/1                               |
| build_budget        | (1,)        |          | BUILD_BUDGET               | BUILD_BUDGET     | half build points                 |
| build_placed        | (1,)        |          | 3                          | BUILD_BUDGET     | locomotives                       |
| ruleset_published   | (1,)        |          | 1                          | 1                | 0/1                               |
| major_city_bonus    | (1,)        |          | MAJOR_CITY_BONUS_PUBLISHED | int16            | pounds                            |
"""
# the table names the room's constants; O.<piece>: where the piece starts in the vector, D.<piece>: its divisor
O, D, OBS_PIECES, OBS_SIZE = ObsLayout.from_table(PIECES, state, tables, globals()).exports()


# reciprocals of the divisors of integer pieces (checked bit-identical to dividing: ``reciprocal``)
INV_HELD, INV_LEFT, INV_SOLD = reciprocal(D.held_by_seat), reciprocal(D.certs_left), reciprocal(D.shares_sold)
INV_SUPPLY, INV_POTENTIAL = reciprocal(D.supply), reciprocal(D.potential_income)
INV_BAG, INV_DRAW, INV_HIGH_BID = reciprocal(D.bag), reciprocal(D.last_draw), reciprocal(D.auction_high_bid)
INV_BUDGET, INV_PLACED, INV_BONUS = (
    reciprocal(D.build_budget),
    reciprocal(D.build_placed),
    reciprocal(D.major_city_bonus),
)
# the top certificate's value of each company at each stack position, divided once here (the float64 division,
# rounded to float32 as the vector does)
_TOP_CERT_VALUE = (SHARE_VALUE / D.top_cert_value).astype(np.float32)


@internal(cache=True)
def _companies(r, out):
    for c in range(C):
        left = N_CERTS[c] - r.next_cert[c]
        out[O.certs_left + c] = left * INV_LEFT
        if left > 0:
            out[O.top_cert_value + c] = _TOP_CERT_VALUE[c, r.next_cert[c]]
        out[O.shares_sold + c] = r.next_cert[c] * INV_SOLD
        out[O.supply + c] = r.supply[c] * INV_SUPPLY
        out[O.potential_income + c] = company_potential(r.loco, r.cube, c) * INV_POTENTIAL
        out[O.last_income + c] = r.last_income[c] / D.last_income
        copied(out, O.loco + c * H, r.loco[c])
    for h in range(H):
        if r.cube[h] >= 0:
            out[O.cube_colour + r.cube[h] * H + h] = 1.0
    scaled(out, O.bag, r.bag, INV_BAG)
    scaled(out, O.last_draw, r.last_draw, INV_DRAW)


@njit(cache=True)
def observe(s, seat, out):
    """Fill out (float32[OBS_SIZE]) with what ``seat`` sees (everything, seat-relative)."""
    r = s[0]
    start_observation(r, seat, to_move(s), out, O.phase_onehot, O.seat_present, O.to_move_onehot)
    for p in range(r.num_players):
        i = relative_seat(r, seat, p)
        out[O.cash_by_seat + i] = r.cash[p] / D.cash_by_seat
        scaled(out, O.held_by_seat + i * C, r.held[p], INV_HELD)
        if r.auc_company >= 0:
            out[O.auction_passed + i] = r.auc_passed[p]
    if r.phase <= PH_BUILD:  # a seat's turn (not chance, not game over)
        out[O.active_onehot + relative_seat(r, seat, r.active)] = 1.0
    _companies(r, out)
    if r.auc_company >= 0:
        out[O.auction_company + r.auc_company] = 1.0
        out[O.auction_high_bid] = r.auc_high_bid * INV_HIGH_BID
        out[O.auction_min_bid] = min_bid(r) / D.auction_min_bid
        if r.auc_high_bidder >= 0:
            out[O.auction_high_bidder + relative_seat(r, seat, r.auc_high_bidder)] = 1.0
    if r.phase == PH_BUILD:
        out[O.build_company + r.bld_company] = 1.0
        out[O.build_budget] = r.bld_budget * INV_BUDGET
        out[O.build_placed] = r.bld_placed * INV_PLACED
    out[O.ruleset_published] = r.ruleset == RULESET_PUBLISHED
    out[O.major_city_bonus] = r.major_city_bonus * INV_BONUS
