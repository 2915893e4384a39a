"""Veld income sums (the user's hot path) and the other per-railroad quantities: valuation, control.

``sum_income`` is the kernel named by the user: one pass over the 59 sections adds both end
settlements' current incomes to the owning railroad (VR-GEN-6). Reads: section_owner, dev_level.
"""

import numpy as np
from numba import njit

from .._common.jit import internal
from .tables import LADDER
from .tables import N_SECTIONS
from .tables import SEC_A
from .tables import SEC_B
from .tables import SECTION_VALUATION
from .tables import SHARES_PER_RAILROAD


@internal(cache=True)
def settlement_income(dev_level, s):
    """Current income of settlement s = income_ladder[dev_level] (spec §2.1)."""
    return np.int64(LADDER[s, dev_level[s]])


@njit(cache=True)
def sum_income(section_owner, dev_level, out):
    """VR-GEN-6: out[r] = sum over r's sections of the current incomes of both ends (int64[6])."""
    for k in range(out.shape[0]):
        out[k] = 0
    for e in range(N_SECTIONS):
        o = section_owner[e]
        if o >= 0:  # VR-GEN-6: a settlement on two of r's sections counts twice
            out[o] += LADDER[SEC_A[e], dev_level[SEC_A[e]]] + LADDER[SEC_B[e], dev_level[SEC_B[e]]]


@internal(cache=True)
def income_of(r, rr):
    """VR-GEN-6 for one railroad rr of record row r."""
    total = np.int64(0)
    for e in range(N_SECTIONS):
        if r.section_owner[e] == rr:
            total += LADDER[SEC_A[e], r.dev_level[SEC_A[e]]] + LADDER[SEC_B[e], r.dev_level[SEC_B[e]]]
    return total


@internal(cache=True)
def valuation(r, rr):
    """VR-GEN-5: $5 per section built."""
    return np.int64(SECTION_VALUATION * r.n_sections[rr])


@internal(cache=True)
def shares_sold(r, rr):
    """Shares of rr held by players (VR-DIV-4's divisor)."""
    return np.int64(SHARES_PER_RAILROAD - r.treasury_shares[rr])


@internal(cache=True)
def top_holding(r, rr):
    best = 0
    for p in range(r.num_players):
        best = max(best, r.holdings[p, rr])
    return best


@njit(cache=True)
def controls(r, p, rr):
    """VR-GEN-4: p holds >= 1 share of rr and nobody holds more (ties control together)."""
    return r.holdings[p, rr] >= 1 and r.holdings[p, rr] == top_holding(r, rr)


@njit(cache=True)
def controllers(r, rr):
    """VR-GEN-4 for every seat at once: the bit set of the seats that control rr (bit p for seat p)."""
    top = top_holding(r, rr)
    seats = 0
    if top >= 1:
        for p in range(r.num_players):
            if r.holdings[p, rr] == top:
                seats |= 1 << p
    return seats


@internal(cache=True)
def has_controller(r, rr):
    return top_holding(r, rr) >= 1
