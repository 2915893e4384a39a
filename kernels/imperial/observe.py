"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Imperial has no secrets by default (spec §7): every seat sees the whole table; only the seat order is
rotated. ``observe(s, -1, out)`` is the table's own view (absolute seats) for PettingZoo ``state()``.
With ``hidden_cash`` (IMP-OPT-3) a seat sees only its own cash. Money is scaled by 1/50.
"""

from numba import njit

from .._common.layout import SEATS
from .._common.layout import ObsLayout
from .._common.seats import relative_seat
from .board import has
from .board import is_blocked
from .rules import to_move
from .state import MAX_SEATS
from .state import N_PHASES
from .state import PH_BUY
from .state import PH_GAME_OVER
from .tables import FIRST_SEA
from .tables import N_BONDS
from .tables import N_HOME
from .tables import N_NATIONS
from .tables import N_REGIONS
from .tables import N_SEAS
from .tables import POWER_MAX
from .tables import UNIT_LIMIT
from .taxation import tax_revenue

S, N, R, H, B = MAX_SEATS, N_NATIONS, N_REGIONS, N_HOME, N_BONDS
_OBS = ObsLayout()
O_PHASE = _OBS.add("phase_onehot", (N_PHASES,), "0/1")
O_NATION = _OBS.add("nation_onehot", (N,), "0/1: nation whose turn it is")
O_TO_MOVE = _OBS.add("to_move", (S,), "0/1", SEATS)
O_PRESENT = _OBS.add("seat_present", (S,), "0/1", SEATS)
O_CASH = _OBS.add("cash", (S,), "money / 50", SEATS)
O_BONDS = _OBS.add("bonds", (S, N, B), "0/1: seat holds bond k of nation n", SEATS)
O_FLAGS = _OBS.add("flags", (S, N), "0/1: seat holds nation n's flag", SEATS)
O_CARD = _OBS.add("investor_card", (S,), "0/1", SEATS)
O_BUYER = _OBS.add("buyer", (S,), "0/1: seat whose purchase is due", SEATS)
O_BANK = _OBS.add("flag_in_bank", (N,), "0/1")
O_AVAIL = _OBS.add("bond_available", (N, B), "0/1")
O_TREASURY = _OBS.add("treasury", (N,), "money / 50")
O_POWER = _OBS.add("power", (N,), "points / 25")
O_TAXPOS = _OBS.add("tax_pos", (N,), "(position - 5) / 10")
O_TAXNOW = _OBS.add("tax_now", (N,), "tax revenue if taxed now / 20")
O_RONDEL = _OBS.add("rondel", (N, 9), "0/1: space 0..7, 8 = centre")
O_FACTORY = _OBS.add("factory", (H,), "0/1")
O_BLOCKED = _OBS.add("blocked", (H,), "0/1: a hostile foreign army stands there")
O_ARMIES = _OBS.add("armies", (N, R), "units / 10")
O_FLEETS = _OBS.add("fleets", (N, R), "units / 10 (home province = docked)")
O_HOSTILE = _OBS.add("hostile", (N, H), "0/1")
O_CHIP = _OBS.add("chip", (N, R), "0/1")
O_CHIPS_LEFT = _OBS.add("chips_left", (N,), "chips / 15")
O_SUPPLY = _OBS.add("supply", (N, 2), "armies, fleets in supply / 10")
O_MOVED = _OBS.add("moved", (2, R), "acted armies, fleets of the maneuvering nation / 10")
O_CARRIED = _OBS.add("carried", (N_SEAS,), "fleets that transported / 10")
O_LOCKED = _OBS.add("fleets_locked", (1,), "0/1")
O_MV_ORIGIN = _OBS.add("mv_origin", (R,), "0/1")
O_MV_DEST = _OBS.add("mv_dest", (R,), "0/1")
O_MV_CHAIN = _OBS.add("mv_chain", (N_SEAS,), "0/1")
O_MV_REGION = _OBS.add("mv_region", (R,), "0/1: where the arrival resolves")
O_ASKED = _OBS.add("cmb_asked", (N,), "0/1")
O_DEFENDER = _OBS.add("cmb_defender", (N,), "0/1")
O_IMP = _OBS.add("imp_count", (1,), "units / 3")
O_PASSED = _OBS.add("passed_investor", (1,), "0/1")
O_OPTIONS = _OBS.add("options", (5,), "0/1: published, home chips, factory top-up, optional destruction, chips for all")
O_TURN = _OBS.add("turn", (1,), "nation turns / max_nation_turns")
OBS_PIECES, OBS_SIZE = _OBS.pieces, _OBS.size


@njit(cache=True)
def observe(s, seat, out):
    """Fill out (float32[OBS_SIZE]) with what ``seat`` sees (seat -1: the table's view)."""
    r = s[0]
    np_ = r.num_players
    out[:] = 0.0
    out[O_PHASE + r.phase] = 1.0
    out[O_NATION + r.nation] = 1.0
    if r.phase != PH_GAME_OVER:
        out[O_TO_MOVE + relative_seat(r, seat, to_move(s))] = 1.0
    for p in range(np_):
        i = relative_seat(r, seat, p)
        out[O_PRESENT + i] = 1.0
        if not r.hidden_cash or seat < 0 or p == seat:
            out[O_CASH + i] = r.cash[p] / 50.0
    out[O_CARD + relative_seat(r, seat, r.investor_card)] = 1.0
    if r.phase == PH_BUY:
        out[O_BUYER + relative_seat(r, seat, r.inv_buyer)] = 1.0
    for h in range(H):
        out[O_FACTORY + h] = r.factory[h]
        out[O_BLOCKED + h] = is_blocked(r, h)  # IMP-STN-4
    for n in range(N):
        f = r.flag[n]
        if f >= 0:
            out[O_FLAGS + relative_seat(r, seat, f) * N + n] = 1.0
        else:
            out[O_BANK + n] = 1.0
        for k in range(B):
            o = r.bond_owner[n, k]
            if o >= 0:
                out[O_BONDS + (relative_seat(r, seat, o) * N + n) * B + k] = 1.0
            else:
                out[O_AVAIL + n * B + k] = 1.0
        out[O_TREASURY + n] = r.treasury[n] / 50.0
        out[O_POWER + n] = r.power[n] / POWER_MAX
        out[O_TAXPOS + n] = (r.tax_pos[n] - 5) / 10.0
        out[O_TAXNOW + n] = tax_revenue(r, n) / 20.0  # IMP-TAX-1
        out[O_RONDEL + n * 9 + (r.rondel_pos[n] if r.rondel_pos[n] >= 0 else 8)] = 1.0
        out[O_CHIPS_LEFT + n] = r.chips_left[n] / 15.0
        na = 0
        nf = 0
        for x in range(R):
            a = r.armies[n, x]
            fl = r.fleets[n, x]
            if a:
                out[O_ARMIES + n * R + x] = a / 10.0
                na += a
            if fl:
                out[O_FLEETS + n * R + x] = fl / 10.0
                nf += fl
        out[O_SUPPLY + 2 * n] = (UNIT_LIMIT[n, 0] - na) / 10.0
        out[O_SUPPLY + 2 * n + 1] = (UNIT_LIMIT[n, 1] - nf) / 10.0
        for h in range(H):
            out[O_HOSTILE + n * H + h] = r.hostile[n, h]
    for x in range(R):
        if r.chip[x] >= 0:
            out[O_CHIP + r.chip[x] * R + x] = 1.0
        out[O_MOVED + x] = r.moved_army[x] / 10.0
        out[O_MOVED + R + x] = r.moved_fleet[x] / 10.0
    for k in range(N_SEAS):
        out[O_CARRIED + k] = r.carried[k] / 10.0
        out[O_MV_CHAIN + k] = has(r.mv_chain, FIRST_SEA + k)
    out[O_LOCKED] = r.fleets_locked
    if r.mv_origin >= 0:
        out[O_MV_ORIGIN + r.mv_origin] = 1.0
    if r.mv_dest >= 0:
        out[O_MV_DEST + r.mv_dest] = 1.0
    if r.mv_region >= 0:
        out[O_MV_REGION + r.mv_region] = 1.0
    for n in range(N):
        out[O_ASKED + n] = (r.cmb_asked >> n) & 1
    if r.cmb_defender >= 0:
        out[O_DEFENDER + r.cmb_defender] = 1.0
    out[O_IMP] = r.imp_count / 3.0
    out[O_PASSED] = r.passed_investor
    out[O_OPTIONS] = r.ruleset
    out[O_OPTIONS + 1] = r.home_tax_chips
    out[O_OPTIONS + 2] = r.factory_topup
    out[O_OPTIONS + 3] = r.optional_destroy
    out[O_OPTIONS + 4] = r.chip_update_all
    out[O_TURN] = min(r.turn / max(r.max_turns, 1), 1.0)
