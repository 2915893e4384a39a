"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Imperial has no secrets by default (spec §7): every seat sees the whole table; only the seat order is
rotated. ``observe(s, -1, out)`` is the table's own view (absolute seats) for PettingZoo ``state()``.
With ``hidden_cash`` (IMP-OPT-3) a seat sees only its own cash. Money is scaled by 1/50.
"""

from numba import njit

from .._common.layout import ObsLayout
from .._common.observing import mark
from .._common.observing import relative_seat
from .._common.observing import start_observation
from .board import has
from .board import is_blocked
from .rules import to_move
from .state import MAX_SEATS
from .state import N_PHASES
from .state import PH_BUY
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
PIECES = """
| piece           | shape       | per seat | scale                                               |
|-----------------|-------------|----------|-----------------------------------------------------|
| phase_onehot    | (N_PHASES,) |          | 0/1                                                 |
| nation_onehot   | (N,)        |          | 0/1: nation whose turn it is                        |
| to_move         | (S,)        | yes      | 0/1                                                 |
| seat_present    | (S,)        | yes      | 0/1                                                 |
| cash            | (S,)        | yes      | money / 50                                          |
| bonds           | (S, N, B)   | yes      | 0/1: seat holds bond k of nation n                  |
| flags           | (S, N)      | yes      | 0/1: seat holds nation n's flag                     |
| investor_card   | (S,)        | yes      | 0/1                                                 |
| buyer           | (S,)        | yes      | 0/1: seat whose purchase is due                     |
| flag_in_bank    | (N,)        |          | 0/1                                                 |
| bond_available  | (N, B)      |          | 0/1                                                 |
| treasury        | (N,)        |          | money / 50                                          |
| power           | (N,)        |          | points / 25                                         |
| tax_pos         | (N,)        |          | (position - 5) / 10                                 |
| tax_now         | (N,)        |          | tax revenue if taxed now / 20                       |
| rondel          | (N, 9)      |          | 0/1: space 0..7, 8 = centre                         |
| factory         | (H,)        |          | 0/1                                                 |
| blocked         | (H,)        |          | 0/1: a hostile foreign army stands there            |
| armies          | (N, R)      |          | units / 10                                          |
| fleets          | (N, R)      |          | units / 10 (home province = docked)                 |
| hostile         | (N, H)      |          | 0/1                                                 |
| chip            | (N, R)      |          | 0/1                                                 |
| chips_left      | (N,)        |          | chips / 15                                          |
| supply          | (N, 2)      |          | armies, fleets in supply / 10                       |
| moved           | (2, R)      |          | acted armies, fleets of the maneuvering nation / 10 |
| carried         | (N_SEAS,)   |          | fleets that transported / 10                        |
| fleets_locked   | (1,)        |          | 0/1                                                 |
| mv_origin       | (R,)        |          | 0/1                                                 |
| mv_dest         | (R,)        |          | 0/1                                                 |
| mv_chain        | (N_SEAS,)   |          | 0/1                                                 |
| mv_region       | (R,)        |          | 0/1: where the arrival resolves                     |
| cmb_asked       | (N,)        |          | 0/1                                                 |
| cmb_defender    | (N,)        |          | 0/1                                                 |
| imp_count       | (1,)        |          | units / 3                                           |
| passed_investor | (1,)        |          | 0/1                                                 |
| options         | (5,)        |          | 0/1: published, home chips, factory top-up, optional destruction, chips for all |
| turn            | (1,)        |          | nation turns / max_nation_turns                     |
"""
_OBS = ObsLayout.from_table(PIECES, B=B, H=H, N=N, N_PHASES=N_PHASES, N_SEAS=N_SEAS, R=R, S=S)
O = _OBS.offsets  # O.<piece>: where the piece starts in the vector
OBS_PIECES, OBS_SIZE = _OBS.pieces, _OBS.size


@njit(cache=True)
def observe(s, seat, out):
    """Fill out (float32[OBS_SIZE]) with what ``seat`` sees (seat -1: the table's view)."""
    r = s[0]
    start_observation(r, seat, to_move(s), out, O.phase_onehot, O.seat_present, O.to_move)
    out[O.nation_onehot + r.nation] = 1.0
    for p in range(r.num_players):
        if not r.hidden_cash or seat < 0 or p == seat:
            out[O.cash + relative_seat(r, seat, p)] = r.cash[p] / 50.0
    out[O.investor_card + relative_seat(r, seat, r.investor_card)] = 1.0
    if r.phase == PH_BUY:
        out[O.buyer + relative_seat(r, seat, r.inv_buyer)] = 1.0
    for h in range(H):
        out[O.factory + h] = r.factory[h]
        out[O.blocked + h] = is_blocked(r, h)  # IMP-STN-4
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
        out[O.treasury + n] = r.treasury[n] / 50.0
        out[O.power + n] = r.power[n] / POWER_MAX
        out[O.tax_pos + n] = (r.tax_pos[n] - 5) / 10.0
        out[O.tax_now + n] = tax_revenue(r, n) / 20.0  # IMP-TAX-1
        out[O.rondel + n * 9 + (r.rondel_pos[n] if r.rondel_pos[n] >= 0 else 8)] = 1.0
        out[O.chips_left + n] = r.chips_left[n] / 15.0
        na = 0
        nf = 0
        for x in range(R):
            a = r.armies[n, x]
            fl = r.fleets[n, x]
            if a:
                out[O.armies + n * R + x] = a / 10.0
                na += a
            if fl:
                out[O.fleets + n * R + x] = fl / 10.0
                nf += fl
        out[O.supply + 2 * n] = (UNIT_LIMIT[n, 0] - na) / 10.0
        out[O.supply + 2 * n + 1] = (UNIT_LIMIT[n, 1] - nf) / 10.0
        for h in range(H):
            out[O.hostile + n * H + h] = r.hostile[n, h]
    for x in range(R):
        if r.chip[x] >= 0:
            out[O.chip + r.chip[x] * R + x] = 1.0
        out[O.moved + x] = r.moved_army[x] / 10.0
        out[O.moved + R + x] = r.moved_fleet[x] / 10.0
    for k in range(N_SEAS):
        out[O.carried + k] = r.carried[k] / 10.0
        out[O.mv_chain + k] = has(r.mv_chain, FIRST_SEA + k)
    out[O.fleets_locked] = r.fleets_locked
    mark(out, O.mv_origin, r.mv_origin)
    mark(out, O.mv_dest, r.mv_dest)
    mark(out, O.mv_region, r.mv_region)
    for n in range(N):
        out[O.cmb_asked + n] = (r.cmb_asked >> n) & 1
    mark(out, O.cmb_defender, r.cmb_defender)
    out[O.imp_count] = r.imp_count / 3.0
    out[O.passed_investor] = r.passed_investor
    out[O.options] = r.ruleset
    out[O.options + 1] = r.home_tax_chips
    out[O.options + 2] = r.factory_topup
    out[O.options + 3] = r.optional_destroy
    out[O.options + 4] = r.chip_update_all
    out[O.turn] = min(r.turn / max(r.max_turns, 1), 1.0)
