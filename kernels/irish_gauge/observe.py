"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Irish Gauge has no secrets (spec §7): every seat sees the whole table; only the seat order is
rotated so one policy serves every seat. ``observe(s, -1, out)`` is the table's own view (seat
order absolute), used for PettingZoo ``state()``. Money is scaled by 1/100, counts by their maximum.
"""

from numba import njit

from .._common.layout import SEATS
from .._common.layout import build_pieces
from .._common.layout import offsets
from .._common.seats import relative_seat
from .auction import min_bid
from .dividends import company_potential
from .state import MAX_SEATS
from .state import N_PHASES
from .state import PH_AUCTION
from .state import PH_BUILD
from .state import PH_INITIAL_AUCTION
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
OBS_PIECES, OBS_SIZE = build_pieces(
    [
        ("phase_onehot", (N_PHASES,), "0/1"),
        ("seat_present", (S,), "0/1", SEATS),
        ("to_move_onehot", (S,), "0/1", SEATS),
        ("active_onehot", (S,), "0/1: whose main turn", SEATS),
        ("cash_by_seat", (S,), "pounds / 100", SEATS),
        ("held_by_seat", (S, C), "certificates / 4", SEATS),
        ("certs_left", (C,), "certificates / 4"),
        ("top_cert_value", (C,), "pounds / 20, 0 when the stack is empty"),
        ("shares_sold", (C,), "certificates / 4"),
        ("supply", (C,), "locomotives / 19"),
        ("loco", (C, H), "0/1"),
        ("cube_colour", (K, H), "0/1"),
        ("bag", (K,), "cubes / 10"),
        ("potential_income", (C,), "pounds / 100 (IG-DISK-1)"),
        ("last_draw", (K,), "cubes / 3"),
        ("last_income", (C,), "pounds / 100"),
        ("auction_company", (C,), "0/1"),
        ("auction_high_bid", (1,), "pounds / 100"),
        ("auction_min_bid", (1,), "pounds / 100"),
        ("auction_high_bidder", (S,), "0/1", SEATS),
        ("auction_passed", (S,), "0/1", SEATS),
        ("build_company", (C,), "0/1"),
        ("build_budget", (1,), "half build points / 6"),
        ("build_placed", (1,), "locomotives / 3"),
        ("ruleset_published", (1,), "0/1"),
        ("major_city_bonus", (1,), "pounds / 12"),
    ]
)
_O = offsets(OBS_PIECES)
O_PHASE, O_PRESENT, O_TO_MOVE, O_ACTIVE = (
    _O["phase_onehot"],
    _O["seat_present"],
    _O["to_move_onehot"],
    _O["active_onehot"],
)
O_CASH, O_HELD, O_LEFT, O_TOP = _O["cash_by_seat"], _O["held_by_seat"], _O["certs_left"], _O["top_cert_value"]
O_SOLD, O_SUPPLY, O_LOCO, O_CUBE = _O["shares_sold"], _O["supply"], _O["loco"], _O["cube_colour"]
O_BAG, O_POT, O_LAST_DRAW, O_LAST_INCOME = _O["bag"], _O["potential_income"], _O["last_draw"], _O["last_income"]
O_AUC_C, O_AUC_HIGH, O_AUC_MIN = _O["auction_company"], _O["auction_high_bid"], _O["auction_min_bid"]
O_AUC_HIGH_SEAT, O_AUC_PASSED = _O["auction_high_bidder"], _O["auction_passed"]
O_BLD_C, O_BLD_BUDGET, O_BLD_PLACED = _O["build_company"], _O["build_budget"], _O["build_placed"]
O_RULESET, O_BONUS = _O["ruleset_published"], _O["major_city_bonus"]


@njit(cache=True)
def _to_move(r):
    if r.phase == PH_INITIAL_AUCTION or r.phase == PH_AUCTION:
        return r.auc_bidder
    return r.active  # MAIN and BUILD; unused for chance / game over


@njit(cache=True)
def observe(s, seat, out):
    """Fill out (float32[OBS_SIZE]) with what ``seat`` sees (everything, seat-relative)."""
    r = s[0]
    n = r.num_players
    out[:] = 0.0
    out[O_PHASE + r.phase] = 1.0
    for p in range(n):
        i = relative_seat(r, seat, p)
        out[O_PRESENT + i] = 1.0
        out[O_CASH + i] = r.cash[p] / 100.0
        for c in range(C):
            out[O_HELD + i * C + c] = r.held[p, c] / MAX_CERTS
        if r.auc_company >= 0:
            out[O_AUC_PASSED + i] = r.auc_passed[p]
    if r.phase <= PH_BUILD:  # a seat is to move (not chance, not game over)
        out[O_TO_MOVE + relative_seat(r, seat, _to_move(r))] = 1.0
        out[O_ACTIVE + relative_seat(r, seat, r.active)] = 1.0
    for c in range(C):
        left = N_CERTS[c] - r.next_cert[c]
        out[O_LEFT + c] = left / MAX_CERTS
        if left > 0:
            out[O_TOP + c] = SHARE_VALUE[c, r.next_cert[c]] / 20.0
        out[O_SOLD + c] = r.next_cert[c] / MAX_CERTS
        out[O_SUPPLY + c] = r.supply[c] / LOCOMOTIVES
        out[O_POT + c] = company_potential(r.loco, r.cube, c) / 100.0
        out[O_LAST_INCOME + c] = r.last_income[c] / 100.0
        for h in range(H):
            out[O_LOCO + c * H + h] = r.loco[c, h]
    for h in range(H):
        if r.cube[h] >= 0:
            out[O_CUBE + r.cube[h] * H + h] = 1.0
    for k in range(K):
        out[O_BAG + k] = r.bag[k] / CUBES_PER_COLOUR
        out[O_LAST_DRAW + k] = r.last_draw[k] / CUBES_PER_CALL
    if r.auc_company >= 0:
        out[O_AUC_C + r.auc_company] = 1.0
        out[O_AUC_HIGH] = r.auc_high_bid / 100.0
        out[O_AUC_MIN] = min_bid(r) / 100.0
        if r.auc_high_bidder >= 0:
            out[O_AUC_HIGH_SEAT + relative_seat(r, seat, r.auc_high_bidder)] = 1.0
    if r.phase == PH_BUILD:
        out[O_BLD_C + r.bld_company] = 1.0
        out[O_BLD_BUDGET] = r.bld_budget / BUILD_BUDGET
        out[O_BLD_PLACED] = r.bld_placed / 3.0
    out[O_RULESET] = r.ruleset == RULESET_PUBLISHED
    out[O_BONUS] = r.major_city_bonus / MAJOR_CITY_BONUS_PUBLISHED
