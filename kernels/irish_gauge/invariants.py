"""Conservation checks for tests and debugging (plain numpy; never called by the rules).

Certificates, locomotives and cubes are never created or lost; money enters only through dividends
and leaves only through auction payments, as recorded in the bank ledger fields.
"""

from __future__ import annotations

import numpy as np

from .._common.invariants import invariant_checker
from .tables import CUBES_PER_COLOUR
from .tables import LOCOMOTIVES
from .tables import N_CERTS
from .tables import N_COLOURS
from .tables import N_COMPANIES
from .tables import START_CASH


def violations(r, n):
    """One line for each law above that the record ``r`` (``n`` seats) breaks."""
    held, owner = r["held"], r["cert_owner"]
    for c in range(N_COMPANIES):
        sold = int(r["next_cert"][c])
        owners = owner[c, : N_CERTS[c]]
        if not 0 <= sold <= N_CERTS[c]:
            yield f"company {c}: next_cert {sold} outside 0..{N_CERTS[c]}"
        if not (np.all(owners[:sold] >= 0) and np.all(owners[sold:] == -1)):
            yield f"company {c}: certificates sold out of stack order {owners.tolist()}"
        for p in range(n):
            if held[p, c] != np.count_nonzero(owners == p):
                yield (
                    f"company {c}: seat {p} holds {held[p, c]} by count but {np.count_nonzero(owners == p)} by owner"
                )
        if held[n:, c].any():
            yield f"company {c}: an empty seat holds certificates"
        on_board = int(r["loco"][c].sum())
        if on_board + int(r["supply"][c]) != LOCOMOTIVES or r["supply"][c] < 0:
            yield f"company {c}: {on_board} on the board + {r['supply'][c]} in supply != {LOCOMOTIVES}"
    drawn = r["drawn"]
    for k in range(N_COLOURS):
        total = int(r["bag"][k]) + int(np.count_nonzero(r["cube"] == k)) + int(np.count_nonzero(drawn == k))
        if total != CUBES_PER_COLOUR or r["bag"][k] < 0:
            yield f"colour {k}: bag + board + drawn track = {total}, not {CUBES_PER_COLOUR}"
    cash = r["cash"]
    if (cash[:n] < 0).any() or cash[n:].any():
        yield f"cash out of range: {cash.tolist()}"
    expected = START_CASH[str(n)] * n - int(r["bank_in"]) + int(r["bank_out"])
    if int(cash[:n].sum()) != expected:
        yield f"money: players hold {int(cash[:n].sum())}, the bank ledger says {expected}"


check_invariants = invariant_checker(violations)
