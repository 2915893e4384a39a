"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Irish Gauge has no secrets (spec §7): every seat sees the whole table; only the seat order is
rotated so one policy serves every seat. ``observe(s, -1, out)`` is the table's own view (seat
order absolute), used for PettingZoo ``state()``. Money is scaled by 1/100, counts by their maximum.
"""

from numba import njit

from .._common.layout import SEATS
from .._common.layout import ObsLayout
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
_OBS = ObsLayout()
O_PHASE = _OBS.add("phase_onehot", (N_PHASES,), "0/1")
O_PRESENT = _OBS.add("seat_present", (S,), "0/1", SEATS)
O_TO_MOVE = _OBS.add("to_move_onehot", (S,), "0/1", SEATS)
O_ACTIVE = _OBS.add("active_onehot", (S,), "0/1: whose main turn", SEATS)
O_CASH = _OBS.add("cash_by_seat", (S,), "pounds / 100", SEATS)
O_HELD = _OBS.add("held_by_seat", (S, C), "certificates / 4", SEATS)
O_LEFT = _OBS.add("certs_left", (C,), "certificates / 4")
O_TOP = _OBS.add("top_cert_value", (C,), "pounds / 20, 0 when the stack is empty")
O_SOLD = _OBS.add("shares_sold", (C,), "certificates / 4")
O_SUPPLY = _OBS.add("supply", (C,), "locomotives / 19")
O_LOCO = _OBS.add("loco", (C, H), "0/1")
O_CUBE = _OBS.add("cube_colour", (K, H), "0/1")
O_BAG = _OBS.add("bag", (K,), "cubes / 10")
O_POT = _OBS.add("potential_income", (C,), "pounds / 100 (IG-DISK-1)")
O_LAST_DRAW = _OBS.add("last_draw", (K,), "cubes / 3")
O_LAST_INCOME = _OBS.add("last_income", (C,), "pounds / 100")
O_AUC_C = _OBS.add("auction_company", (C,), "0/1")
O_AUC_HIGH = _OBS.add("auction_high_bid", (1,), "pounds / 100")
O_AUC_MIN = _OBS.add("auction_min_bid", (1,), "pounds / 100")
O_AUC_HIGH_SEAT = _OBS.add("auction_high_bidder", (S,), "0/1", SEATS)
O_AUC_PASSED = _OBS.add("auction_passed", (S,), "0/1", SEATS)
O_BLD_C = _OBS.add("build_company", (C,), "0/1")
O_BLD_BUDGET = _OBS.add("build_budget", (1,), "half build points / 6")
O_BLD_PLACED = _OBS.add("build_placed", (1,), "locomotives / 3")
O_RULESET = _OBS.add("ruleset_published", (1,), "0/1")
O_BONUS = _OBS.add("major_city_bonus", (1,), "pounds / 12")
OBS_PIECES, OBS_SIZE = _OBS.pieces, _OBS.size


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
