"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Veld Railroads has no secrets (spec §7): every seat sees the whole table; only the seat order is
rotated so one policy serves every seat. ``observe(s, -1, out)`` is the table's own view (seat order
absolute), used for PettingZoo ``state()``. Money is scaled by 1/100, counts by their maximum.
"""

from numba import njit

from .._common.layout import SEATS
from .._common.layout import ObsLayout
from .._common.seats import relative_seat
from .develop import free_picks
from .income import controls
from .income import income_of
from .network import tracked
from .rules import to_move_r
from .state import MAX_SEATS
from .state import N_VISIBLE_PHASES
from .state import PH_BUILD_FIRST_LEG
from .state import PH_BUILD_SECOND_LEG
from .state import PH_DEVELOP_PICK
from .state import PH_GAME_OVER
from .tables import LADDER
from .tables import MAX_DEV
from .tables import MAX_PICKS
from .tables import N_BOXES
from .tables import N_RAILROADS
from .tables import N_ROWS
from .tables import N_SECTIONS
from .tables import N_SETTLEMENTS
from .tables import ROW_LENGTH
from .tables import SECTION_VALUATION
from .tables import SHARES_PER_RAILROAD

S, R, E, V = MAX_SEATS, N_RAILROADS, N_SECTIONS, N_SETTLEMENTS
_OBS = ObsLayout()
O_PHASE_ONEHOT = _OBS.add("phase_onehot", (N_VISIBLE_PHASES,), "0/1")
O_SEAT_PRESENT = _OBS.add("seat_present", (S,), "0/1", SEATS)
O_TO_MOVE = _OBS.add("to_move", (S,), "0/1", SEATS)
O_ACTIVE = _OBS.add("active", (S,), "0/1: whose regular turn", SEATS)
O_CASH = _OBS.add("cash", (S,), "dollars / 100", SEATS)
O_HOLDINGS = _OBS.add("holdings", (S, R), "shares / 5", SEATS)
O_CONTROLS = _OBS.add("controls", (S, R), "0/1 (VR-GEN-4)", SEATS)
O_LOCO_BOX = _OBS.add("loco_box", (S, N_BOXES), "0/1: build, offer, develop, pay", SEATS)
O_LAST_PAYOUT = _OBS.add("last_payout", (S,), "dollars / 100", SEATS)
O_TREASURY_SHARES = _OBS.add("treasury_shares", (R,), "shares / 5")
O_TREASURY_CASH = _OBS.add("treasury_cash", (R,), "dollars / 50")
O_OPENED = _OBS.add("opened", (R,), "0/1")
O_REACHED_JOHANNESBURG = _OBS.add("reached_johannesburg", (R,), "0/1")
O_FREE_SECTION_OWED = _OBS.add("free_section_owed", (R,), "0/1")
O_SECTIONS_BUILT = _OBS.add("sections_built", (R,), "sections / 20")
O_INCOME = _OBS.add("income", (R,), "dollars / 100 (VR-GEN-6)")
O_VALUATION = _OBS.add("valuation", (R,), "dollars / 100 (VR-GEN-5)")
O_SECTION_OWNER = _OBS.add("section_owner", (R, E), "0/1")
O_SETTLEMENT_LEVEL = _OBS.add("settlement_level", (V,), "dev_level / max developments")
O_SETTLEMENT_INCOME = _OBS.add("settlement_income", (V,), "dollars / 10")
O_SETTLEMENT_TRACKED = _OBS.add("settlement_tracked", (V,), "0/1")
O_ROW = _OBS.add("row", (N_ROWS,), "0/1")
O_POSITION = _OBS.add("position", (1,), "boxes / 36")
O_ZASM_TRIGGER = _OBS.add("zasm_trigger", (1,), "0/1")
O_BUILD_RAILROAD = _OBS.add("build_railroad", (R,), "0/1")
O_BUILD_BUILDER = _OBS.add("build_builder", (S,), "0/1", SEATS)
O_BUILD_FIRST_LEG = _OBS.add("build_first_leg", (E,), "0/1")
O_BUILD_COSTS = _OBS.add("build_costs", (2,), "single, double dollars / 30")
O_DEVELOP_PICKED = _OBS.add("develop_picked", (V,), "0/1")
O_DEVELOP_COUNTS = _OBS.add("develop_counts", (2,), "picks made / 3, free picks / 3")
O_FREE_SECTION_RAILROAD = _OBS.add("free_section_railroad", (R,), "0/1")
O_FREE_SECTION_PLAYER = _OBS.add("free_section_player", (S,), "0/1", SEATS)
O_AUCTION_RAILROAD = _OBS.add("auction_railroad", (R,), "0/1")
O_AUCTION_KIND = _OBS.add("auction_kind", (4,), "0/1: setup, treasury, own, zasm")
O_AUCTION_SELLER = _OBS.add("auction_seller", (S,), "0/1", SEATS)
O_AUCTION_BIDDER = _OBS.add("auction_bidder", (S,), "0/1", SEATS)
O_AUCTION_HIGH_BIDDER = _OBS.add("auction_high_bidder", (S,), "0/1", SEATS)
O_AUCTION_PASSED = _OBS.add("auction_passed", (S,), "0/1", SEATS)
O_AUCTION_BIDS = _OBS.add("auction_bids", (3,), "minimum, high bid / 100; opener obliged 0/1")
O_REPEAT_METROPOLIS_PICK = _OBS.add("repeat_metropolis_pick", (1,), "0/1 option")
OBS_PIECES, OBS_SIZE = _OBS.pieces, _OBS.size


@njit(cache=True)
def _seats(r, seat, out):
    n = r.num_players
    for p in range(n):
        i = relative_seat(r, seat, p)
        out[O_SEAT_PRESENT + i] = 1.0
        out[O_CASH + i] = r.cash[p] / 100.0
        out[O_LAST_PAYOUT + i] = r.last_payout[p] / 100.0
        for rr in range(R):
            out[O_HOLDINGS + i * R + rr] = r.holdings[p, rr] / SHARES_PER_RAILROAD
            out[O_CONTROLS + i * R + rr] = 1.0 if controls(r, p, rr) else 0.0  # VR-GEN-4
        if r.loco_box[p] >= 0:
            out[O_LOCO_BOX + i * N_BOXES + r.loco_box[p]] = 1.0
        out[O_AUCTION_PASSED + i] = r.auc_passed[p]
    if r.phase != PH_GAME_OVER:
        out[O_TO_MOVE + relative_seat(r, seat, to_move_r(r))] = 1.0
        out[O_ACTIVE + relative_seat(r, seat, r.active)] = 1.0


@njit(cache=True)
def _railroads(r, out):
    for rr in range(R):
        out[O_TREASURY_SHARES + rr] = r.treasury_shares[rr] / SHARES_PER_RAILROAD
        out[O_TREASURY_CASH + rr] = r.treasury_cash[rr] / 50.0
        out[O_OPENED + rr] = r.opened[rr]
        out[O_REACHED_JOHANNESBURG + rr] = r.reached_jo[rr]
        out[O_FREE_SECTION_OWED + rr] = r.free_pending[rr]
        out[O_SECTIONS_BUILT + rr] = r.n_sections[rr] / 20.0
        out[O_INCOME + rr] = income_of(r, rr) / 100.0  # per railroad: a scratch array would allocate per step
        out[O_VALUATION + rr] = SECTION_VALUATION * r.n_sections[rr] / 100.0
    for e in range(E):
        if r.section_owner[e] >= 0:
            out[O_SECTION_OWNER + r.section_owner[e] * E + e] = 1.0
    for v in range(V):
        out[O_SETTLEMENT_LEVEL + v] = r.dev_level[v] / MAX_DEV[v]
        out[O_SETTLEMENT_INCOME + v] = LADDER[v, r.dev_level[v]] / 10.0
        out[O_SETTLEMENT_TRACKED + v] = 1.0 if tracked(r, v) else 0.0


@njit(cache=True)
def _pending(r, seat, out):
    if r.bld_railroad >= 0:
        out[O_BUILD_RAILROAD + r.bld_railroad] = 1.0
        out[O_BUILD_COSTS] = r.bld_single_cost / 30.0
        out[O_BUILD_COSTS + 1] = r.bld_double_cost / 30.0
    if r.bld_builder >= 0 and (r.phase == PH_BUILD_FIRST_LEG or r.phase == PH_BUILD_SECOND_LEG):
        out[O_BUILD_BUILDER + relative_seat(r, seat, r.bld_builder)] = 1.0
    if r.bld_leg1 >= 0:
        out[O_BUILD_FIRST_LEG + r.bld_leg1] = 1.0
    if r.phase == PH_DEVELOP_PICK:
        for i in range(r.dev_picks):
            out[O_DEVELOP_PICKED + r.dev_picked[i]] = 1.0
        out[O_DEVELOP_COUNTS] = r.dev_picks / MAX_PICKS
        out[O_DEVELOP_COUNTS + 1] = free_picks(r) / MAX_PICKS
    if r.fs_railroad >= 0:
        out[O_FREE_SECTION_RAILROAD + r.fs_railroad] = 1.0
        out[O_FREE_SECTION_PLAYER + relative_seat(r, seat, r.fs_player)] = 1.0
    if r.auc_railroad >= 0:
        out[O_AUCTION_RAILROAD + r.auc_railroad] = 1.0
        out[O_AUCTION_KIND + r.auc_kind] = 1.0
        if r.auc_seller >= 0:
            out[O_AUCTION_SELLER + relative_seat(r, seat, r.auc_seller)] = 1.0
        out[O_AUCTION_BIDDER + relative_seat(r, seat, r.auc_bidder)] = 1.0
        if r.auc_high_bidder >= 0:
            out[O_AUCTION_HIGH_BIDDER + relative_seat(r, seat, r.auc_high_bidder)] = 1.0
        out[O_AUCTION_BIDS] = r.auc_min / 100.0
        out[O_AUCTION_BIDS + 1] = r.auc_high_bid / 100.0
        out[O_AUCTION_BIDS + 2] = r.auc_must_bid


@njit(cache=True)
def observe(s, seat, out):
    """Fill out (float32[OBS_SIZE]) with what ``seat`` sees (everything, seat-relative)."""
    r = s[0]
    out[:] = 0.0
    out[O_PHASE_ONEHOT + r.phase] = 1.0
    _seats(r, seat, out)
    _railroads(r, out)
    out[O_ROW + r.row - 1] = 1.0
    out[O_POSITION] = min(r.position, ROW_LENGTH) / ROW_LENGTH
    out[O_ZASM_TRIGGER] = r.zasm_trigger
    _pending(r, seat, out)
    out[O_REPEAT_METROPOLIS_PICK] = r.repeat_metro
