"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Imperial has no secrets by default (spec §7): every seat sees the whole table; only the seat order is
rotated. ``observe(s, -1, out)`` is the table's own view (absolute seats) for PettingZoo ``state()``.
With ``hidden_cash`` (IMP-OPT-3) a seat sees only its own cash. Each piece's scale is its row of ``PIECES``.
"""

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
from .board import has
from .board import is_blocked
from .rules import to_move
from .state import MAX_SEATS
from .state import PH_BUY
from .tables import FIRST_SEA
from .tables import N_BONDS
from .tables import N_HOME
from .tables import N_NATIONS
from .tables import N_REGIONS
from .tables import N_SEAS
from .tables import TAX_MAX_POS
from .tables import TAX_MIN_POS
from .tables import UNIT_LIMIT
from .taxation import revenue

S, N, R, H, B = MAX_SEATS, N_NATIONS, N_REGIONS, N_HOME, N_BONDS
TAX_STEPS = TAX_MAX_POS - TAX_MIN_POS
MAX_UNITS = int(UNIT_LIMIT.max())
MAX_FLEETS = int(UNIT_LIMIT[:, 1].sum())
PIECES = """
| piece           | shape       | per seat | divisor    | max           | unit                                                                            |
|-----------------|-------------|----------|------------|---------------|---------------------------------------------------------------------------------|
| phase_onehot    | (N_PHASES,) |          | 1          | 1             | 0/1                                                                             |
| nation_onehot   | (N,)        |          | 1          | 1             | 0/1: nation whose turn it is                                                    |
| to_move         | (S,)        | yes      | 1          | 1             | 0/1                                                                             |
| seat_present    | (S,)        | yes      | 1          | 1             | 0/1                                                                             |
| cash            | (S,)        | yes      | 50         | int32         | money (hidden from others with hidden_cash)                                     |
| bonds           | (S, N, B)   | yes      | 1          | 1             | 0/1: seat holds bond k of nation n                                              |
| flags           | (S, N)      | yes      | 1          | 1             | 0/1: seat holds nation n's flag                                                 |
| investor_card   | (S,)        | yes      | 1          | 1             | 0/1                                                                             |
| buyer           | (S,)        | yes      | 1          | 1             | 0/1: seat whose purchase is due                                                 |
| flag_in_bank    | (N,)        |          | 1          | 1             | 0/1                                                                             |
| bond_available  | (N, B)      |          | 1          | 1             | 0/1                                                                             |
| treasury        | (N,)        |          | 50         | int32         | money                                                                           |
| power           | (N,)        |          | POWER_MAX  | POWER_MAX     | power points                                                                    |
| tax_pos         | (N,)        |          | 10         | TAX_STEPS     | steps of the tax chart above its lowest position (5)                            |
| tax_now         | (N,)        |          | TAX_CAP    | TAX_CAP       | money: tax revenue if taxed now (IMP-TAX-1)                                     |
| rondel          | (N, 9)      |          | 1          | 1             | 0/1: space 0..7, 8 = centre                                                     |
| factory         | (H,)        |          | 1          | 1             | 0/1                                                                             |
| blocked         | (H,)        |          | 1          | 1             | 0/1: a hostile foreign army stands there                                        |
| armies          | (N, R)      |          | 10         | MAX_UNITS     | units                                                                           |
| fleets          | (N, R)      |          | 10         | MAX_UNITS     | units (home province = docked)                                                  |
| hostile         | (N, H)      |          | 1          | 1             | 0/1                                                                             |
| chip            | (N, R)      |          | 1          | 1             | 0/1                                                                             |
| chips_left      | (N,)        |          | 15         | MAX_TAX_CHIPS | tax chips                                                                       |
| supply          | (N, 2)      |          | 10         | MAX_UNITS     | armies, fleets in supply                                                        |
| moved           | (2, R)      |          | 10         | MAX_UNITS     | acted armies, fleets of the maneuvering nation                                  |
| carried         | (N_SEAS,)   |          | 10         | MAX_FLEETS    | fleets that transported                                                         |
| fleets_locked   | (1,)        |          | 1          | 1             | 0/1                                                                             |
| mv_origin       | (R,)        |          | 1          | 1             | 0/1                                                                             |
| mv_dest         | (R,)        |          | 1          | 1             | 0/1                                                                             |
| mv_chain        | (N_SEAS,)   |          | 1          | 1             | 0/1                                                                             |
| mv_region       | (R,)        |          | 1          | 1             | 0/1: where the arrival resolves                                                 |
| cmb_asked       | (N,)        |          | 1          | 1             | 0/1                                                                             |
| cmb_defender    | (N,)        |          | 1          | 1             | 0/1                                                                             |
| imp_count       | (1,)        |          | IMPORT_MAX | IMPORT_MAX    | units imported                                                                  |
| passed_investor | (1,)        |          | 1          | 1             | 0/1                                                                             |
| options         | (5,)        |          | 1          | 1             | 0/1: published, home chips, factory top-up, optional destruction, chips for all |
| turn            | (1,)        |          | 1          | 1             | nation turns / max_nation_turns (a fraction)                                    |
"""
# the table names the room's constants; O.<piece>: where the piece starts in the vector, D.<piece>: its divisor
O, D, OBS_PIECES, OBS_SIZE = ObsLayout.from_table(PIECES, state, tables, globals()).exports()


# reciprocals of the divisors of integer pieces (checked bit-identical to dividing: ``reciprocal``)
INV_POWER, INV_TAX_POS, INV_TAX_NOW = reciprocal(D.power), reciprocal(D.tax_pos), reciprocal(D.tax_now)
INV_CHIPS, INV_ARMIES, INV_FLEETS = reciprocal(D.chips_left), reciprocal(D.armies), reciprocal(D.fleets)
INV_SUPPLY = reciprocal(D.supply)
INV_MOVED, INV_CARRIED, INV_IMPORT = reciprocal(D.moved), reciprocal(D.carried), reciprocal(D.imp_count)


@internal(cache=True)
def _bonds(r, seat, out):
    for n in range(N):
        f = r.flag[n]
        if f >= 0:
            out[O.flags + relative_seat(r, seat, f) * N + n] = 1.0
        else:
            out[O.flag_in_bank + n] = 1.0
        for k in range(B):
            o = r.bond_owner[n, k]
            if o >= 0:
                out[O.bonds + (relative_seat(r, seat, o) * N + n) * B + k] = 1.0
            else:
                out[O.bond_available + n * B + k] = 1.0


@internal(cache=True)
def _nations(r, out):
    for n in range(N):
        out[O.treasury + n] = r.treasury[n] / D.treasury
        out[O.power + n] = r.power[n] * INV_POWER
        out[O.tax_pos + n] = (r.tax_pos[n] - TAX_MIN_POS) * INV_TAX_POS
        out[O.rondel + n * 9 + (r.rondel_pos[n] if r.rondel_pos[n] >= 0 else 8)] = 1.0
        out[O.chips_left + n] = r.chips_left[n] * INV_CHIPS


@internal(cache=True)
def _homes(r, out):
    """The blocked homes (IMP-STN-4), then each nation's tax revenue if taxed now (IMP-TAX-1), its unblocked
    factories counted from the blocked row just written instead of working out each home's blocking again."""
    blocked = out[O.blocked : O.blocked + H]
    for h in range(H):
        blocked[h] = is_blocked(r, h)  # IMP-STN-4
    for n in range(N):
        factories = 0
        for h in range(5 * n, 5 * n + 5):
            factories += r.factory[h] & (blocked[h] == 0.0)
        out[O.tax_now + n] = revenue(r, n, factories) * INV_TAX_NOW  # IMP-TAX-1


@internal(cache=True)
def _units(r, out):
    """Armies, fleets and stances (every region, zeros too: rows with no branch, vectorised), the supply."""
    for n in range(N):
        scaled(out, O.armies + n * R, r.armies[n], INV_ARMIES)
        scaled(out, O.fleets + n * R, r.fleets[n], INV_FLEETS)
        copied(out, O.hostile + n * H, r.hostile[n])
        na = 0
        nf = 0
        for x in range(R):
            na += r.armies[n, x]
            nf += r.fleets[n, x]
        out[O.supply + 2 * n] = (UNIT_LIMIT[n, 0] - na) * INV_SUPPLY
        out[O.supply + 2 * n + 1] = (UNIT_LIMIT[n, 1] - nf) * INV_SUPPLY
    scaled(out, O.moved, r.moved_army, INV_MOVED)
    scaled(out, O.moved + R, r.moved_fleet, INV_MOVED)
    scaled(out, O.carried, r.carried, INV_CARRIED)


@njit(cache=True)
def observe(s, seat, out):
    """Fill out (float32[OBS_SIZE]) with what ``seat`` sees (seat -1: the table's view)."""
    r = s[0]
    start_observation(r, seat, to_move(s), out, O.phase_onehot, O.seat_present, O.to_move)
    out[O.nation_onehot + r.nation] = 1.0
    for p in range(r.num_players):
        if not r.hidden_cash or seat < 0 or p == seat:
            out[O.cash + relative_seat(r, seat, p)] = r.cash[p] / D.cash
    out[O.investor_card + relative_seat(r, seat, r.investor_card)] = 1.0
    if r.phase == PH_BUY:
        out[O.buyer + relative_seat(r, seat, r.inv_buyer)] = 1.0
    copied(out, O.factory, r.factory)
    _bonds(r, seat, out)
    _nations(r, out)
    _homes(r, out)
    _units(r, out)
    for x in range(R):
        if r.chip[x] >= 0:
            out[O.chip + r.chip[x] * R + x] = 1.0
    for k in range(N_SEAS):
        out[O.mv_chain + k] = has(r.mv_chain, FIRST_SEA + k)
    out[O.fleets_locked] = r.fleets_locked
    mark(out, O.mv_origin, r.mv_origin)
    mark(out, O.mv_dest, r.mv_dest)
    mark(out, O.mv_region, r.mv_region)
    for n in range(N):
        out[O.cmb_asked + n] = (r.cmb_asked >> n) & 1
    mark(out, O.cmb_defender, r.cmb_defender)
    out[O.imp_count] = r.imp_count * INV_IMPORT
    out[O.passed_investor] = r.passed_investor
    out[O.options] = r.ruleset
    out[O.options + 1] = r.home_tax_chips
    out[O.options + 2] = r.factory_topup
    out[O.options + 3] = r.optional_destroy
    out[O.options + 4] = r.chip_update_all
    out[O.turn] = min(r.turn / max(r.max_turns, 1), 1.0)
