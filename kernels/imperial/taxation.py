"""Taxation hot path (IMP-TAX-1..5): ``collect_taxes`` is its own small, separately tested kernel.

Reads: factory, armies, fleets, hostile, chips_left, chips_per_nation, flag. Writes: tax_pos, treasury, power, cash, bank ledger.
"""

from numba import njit

from .._common.jit import internal
from .board import bank_to_cash
from .board import bank_to_treasury
from .board import unblocked_factories
from .tables import N_REGIONS
from .tables import POWER_MAX
from .tables import TAX_CAP
from .tables import TAX_MAX_POS
from .tables import TAX_MIN_POS
from .tables import TAX_PER_CHIP
from .tables import TAX_PER_FACTORY
from .tables import UPKEEP


@njit(cache=True)
def tax_revenue(r, n):
    """IMP-TAX-1: 2 per unblocked own factory + 1 per own chip on the board, capped at 20."""
    return revenue(r, n, unblocked_factories(r, n))


@internal(cache=True)
def revenue(r, n, factories):
    """IMP-TAX-1 for nation n with ``factories`` unblocked factories of its own, counted by the caller (the
    observation counts them from the blocked homes it has just written). The chips on the board are those not in
    the nation's supply (on the board + in supply = chips per nation, an invariant ``check_invariants`` and
    ``validate`` hold), so no count over the regions is needed."""
    chips = r.chips_per_nation - r.chips_left[n]
    return min(TAX_PER_FACTORY * factories + TAX_PER_CHIP * chips, TAX_CAP)


@njit(cache=True)
def collect_taxes(r, n):
    """Resolve nation n's Taxation; returns True when its power reached 25 (IMP-END-1)."""
    tax = tax_revenue(r, n)  # IMP-TAX-1
    pos = min(max(tax, TAX_MIN_POS), TAX_MAX_POS)  # IMP-TAX-2
    bonus = pos - r.tax_pos[n]
    if bonus > 0 and r.flag[n] >= 0:
        bank_to_cash(r, r.flag[n], bonus)  # IMP-TAX-2: success bonus to the flag holder
    r.tax_pos[n] = pos
    units = 0
    for x in range(N_REGIONS):
        units += r.armies[n, x] + r.fleets[n, x]
    income = tax - UPKEEP * units
    if income > 0:
        bank_to_treasury(r, n, income)  # IMP-TAX-3: never negative
    r.power[n] = min(r.power[n] + pos - TAX_MIN_POS, POWER_MAX)  # IMP-TAX-4
    return r.power[n] >= POWER_MAX  # IMP-TAX-5 order, then IMP-END-1
