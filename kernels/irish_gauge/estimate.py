"""Position evaluation for truncated search rollouts: ``estimate``, the win-share estimate of a game in progress.

Each seat's expected final worth = cash + printed values of its certificates + its share of the
dividends its companies can still expect: per remaining dividend call (about bag / 3 of them), a
company earns 4 x E[paying cities] + 2 x towns when it qualifies (IG-DIV-4/5). Worths become win
shares with a softmax (temperature TEMPERATURE pounds), on the same scale as ``returns``.
"""

import sys

from numba import njit

from .._common.chance import comb
from .._common.jit import internal
from .._common.scoring import softmax_estimate
from .rules import scores
from .tables import CITY_INCOME
from .tables import CUBE_SITE_HEX
from .tables import CUBES_PER_CALL
from .tables import N_COMPANIES
from .tables import T_TOWN
from .tables import TERRAIN
from .tables import TOWN_INCOME

TEMPERATURE = 12.0  # pounds: a seat 12 ahead is e times likelier to win than the seat behind it


@njit(cache=True)
def colour_pay_probability(bag, k):
    """P(colour k is among the next call's cubes) = 1 - C(N - b_k, n) / C(N, n) (spec §7)."""
    total = bag[0] + bag[1] + bag[2]
    n = min(CUBES_PER_CALL, total)
    if n == 0:
        return 0.0
    return 1.0 - comb(total - bag[k], n) / comb(total, n)


@njit(cache=True)
def expected_income(loco, cube, bag, c):
    """Rough expected income of company c in one dividend call (IG-DIV-4/5, colours independent)."""
    towns = 0
    p_none = 1.0  # P(no connected city pays)
    p_one = 0.0  # P(exactly one pays)
    e_cities = 0.0
    for i in range(CUBE_SITE_HEX.shape[0]):
        h = CUBE_SITE_HEX[i]
        if not loco[c, h]:
            continue
        if cube[h] >= 0:
            q = colour_pay_probability(bag, cube[h])
            e_cities += q
            p_one = p_one * (1.0 - q) + p_none * q
            p_none *= 1.0 - q
        elif TERRAIN[h] == T_TOWN:
            towns += 1
    p_qualify = 1.0 - p_none if towns > 0 else 1.0 - p_none - p_one
    return p_qualify * (CITY_INCOME * e_cities + TOWN_INCOME * towns)


@internal(cache=True)
def strengths(s, worth):
    """Each seat's expected final worth (see above) into the zeroed float64[MAX_PLAYERS] ``worth``."""
    r = s[0]
    n = r.num_players
    scores(s, worth)
    calls_left = (r.bag[0] + r.bag[1] + r.bag[2]) / CUBES_PER_CALL
    for c in range(N_COMPANIES):
        sold = r.next_cert[c]
        if sold == 0:
            continue
        per_share = expected_income(r.loco, r.cube, r.bag, c) * calls_left / sold
        for p in range(n):
            worth[p] += per_share * r.held[p, c]


estimate = softmax_estimate(sys.modules[__name__])
