"""Small shared helpers over the record: bitmasks, money moves, blocking, supplies, flags.

Reads/writes only what each docstring says; ``r`` is ``s[0]`` (a record view).
"""

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .._common.jit import internal
from .._common.seats import count_held
from .tables import FACTORY_TYPE
from .tables import FT_SHIPYARD
from .tables import HOME_MASK
from .tables import N_HOME
from .tables import N_NATIONS
from .tables import N_REGIONS
from .tables import RAIL_ADJ
from .tables import UNIT_LIMIT

ZERO = np.uint64(0)
ONE = np.uint64(1)


@internal(cache=True)
def bit(x):
    """uint64 with only bit x set (region sets are uint64 bitmasks)."""
    return ONE << np.uint64(x)


@internal(cache=True)
def has(m, x):
    return (m >> np.uint64(x)) & ONE != ZERO


@internal(cache=True)
def low_index(m):
    """The index of the lowest set bit of a non-zero uint64 m (one instruction: LLVM's cttz). The loops over a region
    set visit its members, not every region index (the maneuver's closures would otherwise visit all 54 regions)."""
    return np.int64(trailing_zeros(m))


@internal(cache=True)
def union_of(m, table):
    """The union (bitwise or) of table[x] over the set bits x of m."""
    out = ZERO
    while m != ZERO:
        out |= table[low_index(m)]
        m &= m - ONE
    return out


# --- money (every payment is recorded so conservation can be checked) --------------------------
@internal(cache=True)
def bank_to_cash(r, p, x):
    r.cash[p] += x
    r.bank_out += x


@internal(cache=True)
def cash_to_bank(r, p, x):
    r.cash[p] -= x
    r.bank_in += x


@internal(cache=True)
def bank_to_treasury(r, n, x):
    r.treasury[n] += x
    r.bank_out += x


@internal(cache=True)
def treasury_to_bank(r, n, x):
    r.treasury[n] -= x
    r.bank_in += x


# --- blocking (IMP-STN-4) ----------------------------------------------------------------------
@njit(cache=True)
def is_blocked(r, h):
    """Home province h holds >= 1 hostile army of a nation other than its owner (IMP-STN-4). The nations are
    counted without a branch: the observation asks this of every home at every step, on positions the CPU has not
    met, where a branch per nation costs more than the count."""
    owner = h // 5
    hostile = 0
    for n in range(N_NATIONS):
        hostile += (r.armies[n, h] > 0) & (r.hostile[n, h] != 0) & (n != owner)
    return hostile > 0


@internal(cache=True)
def blocked_mask(r, nation):
    """Bitmask of the nation's home provinces that are blocked."""
    m = ZERO
    for h in range(5 * nation, 5 * nation + 5):
        if is_blocked(r, h):
            m |= bit(h)
    return m


@internal(cache=True)
def rail_ok_mask(r, nation):
    """Provinces the nation's railway may use: own and unblocked (IMP-ARM-2)."""
    return HOME_MASK[nation] & ~blocked_mask(r, nation)


@internal(cache=True)
def rail_closure(start, rail_ok):
    """start plus every province reachable by rail from a start province inside rail_ok (IMP-ARM-2)."""
    seen = start
    frontier = start & rail_ok
    while frontier != ZERO:
        nxt = union_of(frontier, RAIL_ADJ) & rail_ok & ~seen
        seen |= nxt
        frontier = nxt
    return seen


@internal(cache=True)
def unblocked_factories(r, nation):
    c = 0
    for h in range(5 * nation, 5 * nation + 5):
        if r.factory[h] and not is_blocked(r, h):
            c += 1
    return c


@internal(cache=True)
def factories_of(r, nation):
    c = 0
    for h in range(5 * nation, 5 * nation + 5):
        c += r.factory[h]
    return c


@internal(cache=True)
def last_factory_protected(r, h):
    """IMP-STN-3: h holds its owner's only factory not blocked by a hostile foreign army."""
    if not r.factory[h] or is_blocked(r, h):
        return False
    return unblocked_factories(r, h // 5) == 1


# --- units -------------------------------------------------------------------------------------
@internal(cache=True)
def units_on_board(r, nation, kind):
    """Armies (kind 0) or fleets (kind 1) of the nation on the board."""
    c = 0
    for x in range(N_REGIONS):
        c += r.armies[nation, x] if kind == 0 else r.fleets[nation, x]
    return c


@internal(cache=True)
def supply_left(r, nation, kind):
    """Units of a kind still in the nation's supply (IMP-PRO-2, OQ-15)."""
    return UNIT_LIMIT[nation, kind] - units_on_board(r, nation, kind)


@internal(cache=True)
def is_port(h):
    return h < N_HOME and FACTORY_TYPE[h] == FT_SHIPYARD


@internal(cache=True)
def remove_armies(r, nation, x, k):
    """Remove k armies of a nation from region x; the stance of an emptied group is cleared."""
    r.armies[nation, x] -= k
    if x < N_HOME and r.armies[nation, x] == 0:
        r.hostile[nation, x] = 0


# --- flags and bonds ---------------------------------------------------------------------------
@internal(cache=True)
def flags_held(r, p):
    return count_held(r.flag, p)
