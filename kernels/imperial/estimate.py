"""Position evaluation for truncated search rollouts: ``estimate``, the win-share estimate of a game in progress.

Each seat's expected final worth = cash + sum over its bonds of interest x the expected final
multiplier of the bond's nation. A nation's power is projected forward at its current tax-chart
rate (position - 5 points per taxation, about one taxation every 3 of its turns) for the number of
turns the leading nation still needs to reach 25. Worths become win shares with a softmax
(temperature TEMPERATURE money), on the scale of ``returns``; with the ``score_margin`` reward the
estimate is each worth minus the table's mean worth (the expected final margin).
"""

import numpy as np
from numba import njit

from .._common.jit import internal
from .._common.scoring import margins_from_mean
from .._common.scoring import softmax_shares
from .state import REWARD_SCORE_MARGIN
from .tables import BOND_INTEREST
from .tables import N_BONDS
from .tables import N_NATIONS
from .tables import POWER_MAX

TEMPERATURE = 8.0
TAX_EVERY = 3.0  # a nation taxes roughly once every 3 of its turns


@internal(cache=True)
def strengths(s, worth):
    """Each seat's expected final worth (see above) into the zeroed float64[MAX_PLAYERS] ``worth``."""
    r = s[0]
    n = r.num_players
    # rounds the leader still needs at its current rate
    rounds = 1e9
    for k in range(N_NATIONS):
        rate = (r.tax_pos[k] - 5) / TAX_EVERY
        if rate > 0:
            rounds = min(rounds, (POWER_MAX - r.power[k]) / rate)
    if rounds > 60.0:
        rounds = 60.0
    mult = np.zeros(N_NATIONS, np.float64)
    for k in range(N_NATIONS):
        p = min(float(POWER_MAX), r.power[k] + rounds * (r.tax_pos[k] - 5) / TAX_EVERY)
        mult[k] = min(5.0, p / 5.0)
    for p in range(n):
        worth[p] = r.cash[p]
    for k in range(N_NATIONS):
        for b in range(N_BONDS):
            o = r.bond_owner[k, b]
            if o >= 0:
                worth[o] += BOND_INTEREST[b] * mult[k]


@njit(cache=True)
def estimate(s, out):
    """float64[MAX_PLAYERS] win-share estimate for every seat of a game in progress, or with the
    ``score_margin`` reward the expected final margin (see above)."""
    worth = np.zeros(out.shape[0], np.float64)
    strengths(s, worth)
    n = s[0].num_players
    if s[0].reward_mode == REWARD_SCORE_MARGIN:
        margins_from_mean(worth, n, out)
    else:
        softmax_shares(worth, n, TEMPERATURE, out)
