"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Imperial has no secrets by default (spec §7): every seat sees the whole table; only the seat order is
rotated. ``observe(s, -1, out)`` is the table's own view (absolute seats) for PettingZoo ``state()``.
With ``hidden_cash`` (IMP-OPT-3) a seat sees only its own cash. Money is scaled by 1/50.
"""

from numba import njit

from .._common.layout import SEATS
from .._common.layout import build_pieces
from .._common.layout import offsets
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
OBS_PIECES, OBS_SIZE = build_pieces(
    [
        ("phase_onehot", (N_PHASES,), "0/1"),
        ("nation_onehot", (N,), "0/1: nation whose turn it is"),
        ("to_move", (S,), "0/1", SEATS),
        ("seat_present", (S,), "0/1", SEATS),
        ("cash", (S,), "money / 50", SEATS),
        ("bonds", (S, N, B), "0/1: seat holds bond k of nation n", SEATS),
        ("flags", (S, N), "0/1: seat holds nation n's flag", SEATS),
        ("investor_card", (S,), "0/1", SEATS),
        ("buyer", (S,), "0/1: seat whose purchase is due", SEATS),
        ("flag_in_bank", (N,), "0/1"),
        ("bond_available", (N, B), "0/1"),
        ("treasury", (N,), "money / 50"),
        ("power", (N,), "points / 25"),
        ("tax_pos", (N,), "(position - 5) / 10"),
        ("tax_now", (N,), "tax revenue if taxed now / 20"),
        ("rondel", (N, 9), "0/1: space 0..7, 8 = centre"),
        ("factory", (H,), "0/1"),
        ("blocked", (H,), "0/1: a hostile foreign army stands there"),
        ("armies", (N, R), "units / 10"),
        ("fleets", (N, R), "units / 10 (home province = docked)"),
        ("hostile", (N, H), "0/1"),
        ("chip", (N, R), "0/1"),
        ("chips_left", (N,), "chips / 15"),
        ("supply", (N, 2), "armies, fleets in supply / 10"),
        ("moved", (2, R), "acted armies, fleets of the maneuvering nation / 10"),
        ("carried", (N_SEAS,), "fleets that transported / 10"),
        ("fleets_locked", (1,), "0/1"),
        ("mv_origin", (R,), "0/1"),
        ("mv_dest", (R,), "0/1"),
        ("mv_chain", (N_SEAS,), "0/1"),
        ("mv_region", (R,), "0/1: where the arrival resolves"),
        ("cmb_asked", (N,), "0/1"),
        ("cmb_defender", (N,), "0/1"),
        ("imp_count", (1,), "units / 3"),
        ("passed_investor", (1,), "0/1"),
        ("options", (5,), "0/1: published, home chips, factory top-up, optional destruction, chips for all"),
        ("turn", (1,), "nation turns / max_nation_turns"),
    ]
)
_O = offsets(OBS_PIECES)
O_PHASE, O_NATION, O_TO_MOVE, O_PRESENT, O_CASH = (
    _O[k] for k in ("phase_onehot", "nation_onehot", "to_move", "seat_present", "cash")
)
O_BONDS, O_FLAGS, O_CARD, O_BUYER, O_BANK, O_AVAIL = (
    _O[k] for k in ("bonds", "flags", "investor_card", "buyer", "flag_in_bank", "bond_available")
)
O_TREASURY, O_POWER, O_TAXPOS, O_TAXNOW, O_RONDEL = (
    _O[k] for k in ("treasury", "power", "tax_pos", "tax_now", "rondel")
)
O_FACTORY, O_BLOCKED, O_ARMIES, O_FLEETS, O_HOSTILE, O_CHIP = (
    _O[k] for k in ("factory", "blocked", "armies", "fleets", "hostile", "chip")
)
O_CHIPS_LEFT, O_SUPPLY, O_MOVED, O_CARRIED, O_LOCKED = (
    _O[k] for k in ("chips_left", "supply", "moved", "carried", "fleets_locked")
)
O_MV_ORIGIN, O_MV_DEST, O_MV_CHAIN, O_MV_REGION = (_O[k] for k in ("mv_origin", "mv_dest", "mv_chain", "mv_region"))
O_ASKED, O_DEFENDER, O_IMP, O_PASSED, O_OPTIONS, O_TURN = (
    _O[k] for k in ("cmb_asked", "cmb_defender", "imp_count", "passed_investor", "options", "turn")
)


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
