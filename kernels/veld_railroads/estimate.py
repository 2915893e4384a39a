"""Position evaluation for truncated search rollouts: ``estimate``, the win-share estimate of a game in progress.

Each seat's expected final cash = cash + what its shares should still pay at today's incomes: one
normal dividend ceil(income / 5) per row end left before the last (floor(income / 10) for row 5), plus
the final payout ceil((valuation + income) / shares sold) (VR-DIV-2..4). Worths become win shares with
a softmax (temperature TEMPERATURE dollars), on the same scale as ``returns``.
"""

import sys

import numpy as np

from .._common.jit import internal
from .._common.scoring import softmax_estimate
from .dividends import final_per_share
from .dividends import normal_per_share
from .dividends import reconstruction_per_share
from .income import shares_sold
from .income import sum_income
from .income import valuation
from .tables import DIV_FINAL
from .tables import DIV_RECONSTRUCTION
from .tables import N_RAILROADS
from .tables import N_ROWS
from .tables import ROW_DIVIDEND

TEMPERATURE = 15.0  # dollars: a seat $15 ahead is e times likelier to win than the seat behind it


@internal(cache=True)
def expected_per_share(r, rr, income):
    """Dividends one share of rr should still earn if its income stayed as it is now."""
    per = 0
    for row in range(r.row, N_ROWS + 1):
        kind = ROW_DIVIDEND[row - 1]
        if kind == DIV_FINAL:
            per += final_per_share(valuation(r, rr), income, shares_sold(r, rr))
        elif kind == DIV_RECONSTRUCTION:
            per += reconstruction_per_share(income)
        else:
            per += normal_per_share(income)
    return per


@internal(cache=True)
def strengths(s, worth):
    """Each seat's expected final cash (see above) into the zeroed float64[MAX_PLAYERS] ``worth``."""
    r = s[0]
    n = r.num_players
    income = np.zeros(N_RAILROADS, np.int64)
    sum_income(r.section_owner, r.dev_level, income)
    for p in range(n):
        worth[p] = r.cash[p]
    for rr in range(N_RAILROADS):
        if shares_sold(r, rr) == 0:
            continue
        per = expected_per_share(r, rr, income[rr])
        for p in range(n):
            worth[p] += per * r.holdings[p, rr]


estimate = softmax_estimate(sys.modules[__name__])
