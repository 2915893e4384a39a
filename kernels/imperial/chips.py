"""Tax chips at the end of a maneuver (IMP-CHP-1..4, IMP-OPT-1/6).

Reads: armies, fleets, home_tax_chips, chip_update_all. Writes: chip, chips_left.
"""

import numpy as np

from .._common.jit import internal
from .board import ONE
from .board import ZERO
from .board import low_index
from .tables import FIRST_NEUTRAL
from .tables import N_NATIONS
from .tables import N_REGIONS


@internal(cache=True)
def taxable(r, x, n):
    """IMP-CHP-1: seas, neutral land, and (IMP-OPT-1) nation n's own home provinces."""
    if x >= FIRST_NEUTRAL:
        return True
    return bool(r.home_tax_chips) and x // 5 == n


@internal(cache=True)
def _sole_nation(r, x):
    """The only nation with units in region x, -1 if none or several."""
    who = -1
    for n in range(N_NATIONS):
        if r.armies[n, x] > 0 or r.fleets[n, x] > 0:
            if who >= 0:
                return -2
            who = n
    return who


@internal(cache=True)
def claim_region(r, x, n):
    """n alone in x: other chips go home (IMP-CHP-2), n's chip is placed if taxable and in supply."""
    c = r.chip[x]
    if c >= 0 and c != n:
        r.chips_left[c] += 1
        r.chip[x] = -1
    if r.chip[x] < 0 and taxable(r, x, n) and r.chips_left[n] > 0:  # IMP-CHP-4
        r.chip[x] = n
        r.chips_left[n] -= 1


@internal(cache=True)
def _present(r, n):
    """The regions (bits) where nation n has a unit."""
    m = ZERO
    for x in range(N_REGIONS):
        m |= np.uint64((r.armies[n, x] > 0) | (r.fleets[n, x] > 0)) << np.uint64(x)
    return m


@internal(cache=True)
def _sole_regions(r):
    """The regions (bits) where exactly one nation has units."""
    once, twice = ZERO, ZERO
    for n in range(N_NATIONS):
        p = _present(r, n)
        twice |= once & p
        once |= p
    return once & ~twice


@internal(cache=True)
def update_chips(r, mover):
    """IMP-CHP-2 at DONE: the mover's regions (seed), or every nation's (IMP-OPT-6), in increasing region
    order. IMP-CHP-3: shared or empty regions keep their chip, so only the regions of one nation are visited."""
    sole = _sole_regions(r)
    while sole != ZERO:
        x = low_index(sole)
        sole &= sole - ONE
        who = _sole_nation(r, x)
        if who == mover or r.chip_update_all:
            claim_region(r, x, who)
