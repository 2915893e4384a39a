"""Dividends (VR-DIV-1..6): row-end payouts, the final payout and the Johannesburg special dividend.

Every payout is per share held by players and comes from the bank; treasuries are untouched (VR-DIV-1)
except at the end, when they go back to the bank (VR-END-1). Reads: section_owner, dev_level, holdings,
treasury_shares, n_sections, row. Writes: cash, bank_out, bank_in, treasury_cash, last_payout.
"""

from .._common.jit import internal
from .income import income_of
from .income import shares_sold
from .income import valuation
from .tables import DIV_FINAL
from .tables import DIV_RECONSTRUCTION
from .tables import N_RAILROADS
from .tables import NORMAL_DIVISOR
from .tables import RECONSTRUCTION_DIVISOR
from .tables import ROW_DIVIDEND
from .tables import SPECIAL_DIVISOR


@internal(cache=True)
def ceil_div(a, b):
    return (a + b - 1) // b


@internal(cache=True)
def normal_per_share(income):
    """VR-DIV-2: ceil(income / 5); VR-DIV-6: income 0 pays 0."""
    return ceil_div(income, NORMAL_DIVISOR)


@internal(cache=True)
def reconstruction_per_share(income):
    """VR-DIV-3: floor(income / 10)."""
    return income // RECONSTRUCTION_DIVISOR


@internal(cache=True)
def final_per_share(val, income, sold):
    """VR-DIV-4: ceil((valuation + income) / shares sold); nothing when no share is sold."""
    if sold <= 0:
        return 0
    return ceil_div(val + income, sold)


@internal(cache=True)
def pay_shareholders(r, rr, per_share):
    """VR-DIV-1: the bank pays per_share on every share of rr that players hold."""
    for p in range(r.num_players):
        amount = per_share * r.holdings[p, rr]
        r.cash[p] += amount
        r.last_payout[p] += amount
        r.bank_out += amount


@internal(cache=True)
def special_dividend(r, rr):
    """VR-DIV-5: ceil(income / 5) per share, income counted with the new section."""
    for p in range(r.last_payout.shape[0]):
        r.last_payout[p] = 0
    pay_shareholders(r, rr, ceil_div(income_of(r, rr), SPECIAL_DIVISOR))


@internal(cache=True)
def row_end_payout(r):
    """The payout that ends the current row: normal, reconstruction (row 5) or final (row 8)."""
    for p in range(r.last_payout.shape[0]):
        r.last_payout[p] = 0
    kind = ROW_DIVIDEND[r.row - 1]
    for rr in range(N_RAILROADS):
        # VR-GEN-6 income of rr, summed here rather than into a scratch array (a row end is on the per-step
        # path, which allocates nothing, #18); paying changes no section or development level
        income = income_of(r, rr)
        if kind == DIV_FINAL:
            per = final_per_share(valuation(r, rr), income, shares_sold(r, rr))  # VR-DIV-4
        elif kind == DIV_RECONSTRUCTION:
            per = reconstruction_per_share(income)  # VR-DIV-3
        else:
            per = normal_per_share(income)  # VR-DIV-2
        pay_shareholders(r, rr, per)
    r.payouts += 1
    if kind == DIV_FINAL:
        for rr in range(N_RAILROADS):
            r.bank_in += r.treasury_cash[rr]  # VR-END-1: treasury cash goes back to the bank
            r.treasury_cash[rr] = 0
