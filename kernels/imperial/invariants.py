"""Conservation checks for tests and debugging (plain numpy; never called by the rules).

Money: players' cash + treasuries = starting cash + paid by the bank - paid to the bank. Bonds: each
exists once, held by a seat in the game or available. Units: on the board <= the nation's supply.
Chips: on the board + in supply = chips per nation. Flags: held by seats in the game or the bank.
"""

from __future__ import annotations

import numpy as np

from .._common.invariants import invariant_checker
from .tables import N_HOME
from .tables import N_NATIONS
from .tables import START_CASH
from .tables import UNIT_LIMIT


def violations(r, n):
    """One line for each law above that the record ``r`` (``n`` seats) breaks."""
    cash, treasury = r["cash"].astype(np.int64), r["treasury"].astype(np.int64)
    if (cash[:n] < 0).any() or cash[n:].any():
        yield f"cash out of range: {cash.tolist()}"
    if (treasury < 0).any():
        yield f"negative treasury: {treasury.tolist()}"
    expected = int(START_CASH[n]) * n + int(r["bank_out"]) - int(r["bank_in"])
    if int(cash.sum() + treasury.sum()) != expected:
        yield f"money: cash + treasuries = {int(cash.sum() + treasury.sum())}, ledger says {expected}"
    owners = r["bond_owner"]
    if ((owners < -1) | (owners >= n)).any():
        yield f"bond owners out of range: {owners.tolist()}"
    flags = r["flag"]
    if ((flags < -1) | (flags >= n)).any():
        yield f"flags out of range: {flags.tolist()}"
    for k in range(N_NATIONS):
        for kind, field in ((0, "armies"), (1, "fleets")):
            units = r[field][k]
            if (units < 0).any() or int(units.sum()) > int(UNIT_LIMIT[k, kind]):
                yield f"nation {k}: {field} {int(units.sum())} outside 0..{UNIT_LIMIT[k, kind]}"
        if r["fleets"][k][N_HOME:45].any():
            yield f"nation {k}: a fleet stands on neutral land"
        if r["armies"][k][45:].any():
            yield f"nation {k}: an army stands at sea"
        chips = int(np.count_nonzero(r["chip"] == k))
        if chips + int(r["chips_left"][k]) != int(r["chips_per_nation"]) or r["chips_left"][k] < 0:
            yield f"nation {k}: {chips} chips on the board + {r['chips_left'][k]} in supply"
        if not 0 <= r["power"][k] <= 25 or not 5 <= r["tax_pos"][k] <= 15:
            yield f"nation {k}: power {r['power'][k]} or tax position {r['tax_pos'][k]} out of range"
        # a flag holder always has the top investment (flags move only on a strict lead)
        if flags[k] >= 0:
            inv = [sum(int(c) for c, o in zip((2, 4, 6, 9, 12, 16, 20, 25, 30), owners[k]) if o == p) for p in range(n)]
            if inv[flags[k]] < max(inv):
                yield f"nation {k}: flag holder {flags[k]} invested {inv[flags[k]]} < {max(inv)}"
    for h in range(N_HOME):
        foreign = [k for k in range(N_NATIONS) if k != h // 5 and r["fleets"][k][h]]
        if foreign:
            yield f"province {h}: foreign fleets of {foreign} docked"


check_invariants = invariant_checker(violations)
