"""Conservation checks for tests and debugging (plain numpy; never called by the rules).

Shares are never created or lost (5 per railroad between treasury and players); sections belong to at
most one railroad and the touch / n_sections caches agree with them; money moves between players and
treasuries, enters only as dividends (bank_out) and leaves only to the bank (bank_in).
"""

from __future__ import annotations

import numpy as np

from .._common.invariants import invariant_checker
from .tables import HOME
from .tables import MAX_DEV
from .tables import N_RAILROADS
from .tables import SEC_A
from .tables import SEC_B
from .tables import SHARES_PER_RAILROAD
from .tables import START_CASH


def violations(r, n):
    """One line for each law above that the record ``r`` (``n`` seats) breaks."""
    holdings, tshares = r["holdings"], r["treasury_shares"]
    for rr in range(N_RAILROADS):
        total = int(holdings[:n, rr].sum()) + int(tshares[rr])
        if total != SHARES_PER_RAILROAD or tshares[rr] < 0 or (holdings[:, rr] < 0).any():
            yield f"railroad {rr}: players {holdings[:n, rr].tolist()} + treasury {int(tshares[rr])} != 5"
        if holdings[n:, rr].any():
            yield f"railroad {rr}: an empty seat holds shares"
        if tshares[rr] < SHARES_PER_RAILROAD and not r["opened"][rr]:
            yield f"railroad {rr}: shares sold but not opened"
        owned = np.flatnonzero(r["section_owner"] == rr)
        if len(owned) != int(r["n_sections"][rr]):
            yield f"railroad {rr}: n_sections {int(r['n_sections'][rr])} but owns {len(owned)}"
        touch = np.zeros(r["touch"].shape[1], np.uint8)
        touch[SEC_A[owned]] = 1
        touch[SEC_B[owned]] = 1
        if not np.array_equal(touch, r["touch"][rr]):
            yield f"railroad {rr}: touch cache differs from its sections"
        if len(owned) and not r["opened"][rr]:
            yield f"railroad {rr}: has track but is not opened"
        if len(owned) and not touch[HOME[rr]]:
            yield f"railroad {rr}: track not connected to its home"
    if (r["section_owner"] < -1).any() or (r["section_owner"] >= N_RAILROADS).any():
        yield "section owner out of range"
    if (r["dev_level"] < 0).any() or (r["dev_level"] > MAX_DEV).any():
        yield f"dev_level out of range: {r['dev_level'].tolist()}"
    cash, tcash = r["cash"], r["treasury_cash"]
    if (cash[:n] < 0).any() or cash[n:].any():
        yield f"cash out of range: {cash.tolist()}"
    if (tcash < 0).any():
        yield f"treasury cash negative: {tcash.tolist()}"
    expected = START_CASH[str(n)] * n + int(r["treasury_start"].sum()) - int(r["bank_in"]) + int(r["bank_out"])
    held = int(cash[:n].sum()) + int(tcash.sum())
    if held != expected:
        yield f"money: players + treasuries hold {held}, the bank ledger says {expected}"


check_invariants = invariant_checker(violations)
