"""Dividends (IG-DIV-*), the user-named hot path: the cube draw and the payout resolution.

``draw_dividend_cubes`` and ``dividend_payouts`` are small standalone kernels over plain arrays, tested
on their own (exact payouts, draw distribution); ``resolve_dividends`` applies them to a record.
"""

import numpy as np
from numba import njit

from .._common.chance import hypergeom_prob
from .._common.jit import internal
from .._common.rng import bag_draw
from .tables import CITY_INCOME
from .tables import CUBE_SITE_HEX
from .tables import CUBES_PER_CALL
from .tables import MAJOR_CITY_HEX
from .tables import N_COLOURS
from .tables import N_COMPANIES
from .tables import T_TOWN
from .tables import TERRAIN
from .tables import TOWN_INCOME
from .turn import end_turn

# Chance outcomes of one call: colour-count triples (black, pink, white) drawn, for 1..3 cubes.
_triples = [
    (b, p, w)
    for n in range(1, CUBES_PER_CALL + 1)
    for b in range(n + 1)
    for p in range(n + 1 - b)
    for w in (n - b - p,)
]
DRAW_OUTCOMES = np.array(_triples, dtype=np.int8)  # outcome id -> counts per colour
NUM_CHANCE_OUTCOMES = DRAW_OUTCOMES.shape[0]  # 3 + 6 + 10 = 19


@internal(cache=True)
def cubes_to_draw(bag):
    """IG-DIV-1: three cubes, or all that remain when fewer than three are left."""
    return min(CUBES_PER_CALL, bag[0] + bag[1] + bag[2])


@njit(cache=True)
def draw_dividend_cubes(bag, n, rng, out_counts):
    """IG-DIV-1: draw n cubes one at a time without replacement, removing them from bag.

    out_counts[k] receives the number of colour-k cubes drawn. Each subset of physical cubes is
    equally likely (sequential uniform draws from the bag's remaining cubes).
    """
    for k in range(N_COLOURS):
        out_counts[k] = 0
    for _ in range(n):
        out_counts[bag_draw(rng, bag)] += 1


@njit(cache=True)
def draw_outcome_probs(bag, out_ids, out_probs):
    """Explicit chance: outcome ids of the pending draw with their probabilities; returns the count."""
    n = cubes_to_draw(bag)
    m = 0
    for o in range(DRAW_OUTCOMES.shape[0]):
        t = DRAW_OUTCOMES[o]
        if t[0] + t[1] + t[2] != n or t[0] > bag[0] or t[1] > bag[1] or t[2] > bag[2]:
            continue
        out_ids[m] = o
        out_probs[m] = hypergeom_prob(bag, t)  # multivariate hypergeometric (spec §7)
        m += 1
    return m


@njit(cache=True)
def dividend_payouts(loco, cube, paying, held, num_players, major_bonus, out_income, out_payout):
    """IG-DIV-3..8: each company's income for this draw and what every seat receives.

    loco[c, h] locomotive flags; cube[h] colour or -1; paying[k] 1 if colour k was drawn;
    held[seat, c] certificates. Writes out_income[c] (pounds) and out_payout[seat] (pounds).
    """
    for p in range(out_payout.shape[0]):
        out_payout[p] = 0
    for c in range(N_COMPANIES):
        paying_cities = 0
        towns = 0
        for i in range(CUBE_SITE_HEX.shape[0]):
            h = CUBE_SITE_HEX[i]
            if not loco[c, h]:  # IG-DIV-4: connected = a locomotive there
                continue
            if cube[h] >= 0:
                if paying[cube[h]]:  # IG-DIV-3: a colour drawn once or more pays once
                    paying_cities += 1
            elif TERRAIN[h] == T_TOWN:
                towns += 1
        income = 0
        if (paying_cities >= 1 and towns >= 1) or paying_cities >= 2:  # IG-DIV-4
            income = CITY_INCOME * paying_cities + TOWN_INCOME * towns  # IG-DIV-5
            if major_bonus > 0:
                all_majors = True
                for i in range(MAJOR_CITY_HEX.shape[0]):
                    if not loco[c, MAJOR_CITY_HEX[i]]:
                        all_majors = False
                if all_majors:
                    income += major_bonus  # IG-DIV-6 (chosen timing: only when qualifying)
        out_income[c] = income
        sold = 0
        for p in range(num_players):
            sold += held[p, c]
        if sold == 0 or income == 0:
            continue  # IG-DIV-8
        per_share = (income + sold - 1) // sold  # IG-DIV-7: rounded up
        for p in range(num_players):
            out_payout[p] += per_share * held[p, c]


@njit(cache=True)
def company_potential(loco, cube, c):
    """IG-DISK-1: company c's disk position, 4 per connected city + 2 per connected town (no bonus)."""
    v = 0
    for i in range(CUBE_SITE_HEX.shape[0]):
        h = CUBE_SITE_HEX[i]
        if loco[c, h]:
            if cube[h] >= 0:
                v += CITY_INCOME
            elif TERRAIN[h] == T_TOWN:
                v += TOWN_INCOME
    return v


@internal(cache=True)
def resolve_dividends(r, counts):
    """Apply a drawn colour-count triple: track row, payouts from the bank, end of turn (IG-DIV-2..7)."""
    row = r.drawn_rows
    slot = 0
    for k in range(N_COLOURS):  # IG-DIV-2: the order within a row does not matter; store sorted
        r.last_draw[k] = counts[k]
        for _ in range(counts[k]):
            r.drawn[row, slot] = k
            slot += 1
    r.drawn_rows += 1
    # last_draw doubles as the paying-colour flags: a colour pays iff its count is non-zero.
    dividend_payouts(
        r.loco, r.cube, r.last_draw, r.held, r.num_players, r.major_city_bonus, r.last_income, r.last_payout
    )
    for p in range(r.num_players):
        r.cash[p] += r.last_payout[p]  # the bank is unlimited (spec §2.2, chosen)
        r.bank_out += r.last_payout[p]
    end_turn(r)  # IG-END-1: an emptied bag ends the game after these payouts
