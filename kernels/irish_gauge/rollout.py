"""Rollout policy for truncated search rollouts (the optional kernel hook ``rollout_action``).

Uniformly random rollouts misplay Irish Gauge where its worth is decided. A random bid is uniform over
every affordable price, so a few auctions spend a seat's cash far above the certificates' printed values,
and that worth is lost for good: IG-SCORE-1 counts a certificate at its printed value. On a main turn the
20 special-interest placements outnumber the other 11 choices. So the rollouts play the beginner's
strategy of the ``heuristic`` agent (agents/heuristics/irish_gauge.py), written here over the record:

- auction: pass as the opener when the certificate would likely come free, because everyone else passes
  (IG-INIT-3; IG-AUC-2 under the seed rules). Otherwise bid the minimum up to the printed value, and above
  it pay at most part of the expected dividends, keeping cash for later auctions. With probability
  ROLLOUT_FLIP the choice is flipped, so rollouts still sample other auction outcomes;
- main turn: the best-scoring of auctioning a certificate, building towards the nearest town or city a
  company does not reach, a special interest that raises its income, or calling dividends (IG-DIV-4/5
  through the bag's odds);
- building: the placement nearest to a town or city the company does not reach yet; stop when none is
  within reach;
- with probability ROLLOUT_EXPLORE a main-turn or build decision is random instead: on a main turn a
  uniform family (auction, build, special interest, call dividends), then a uniform action of it.
"""

import numpy as np
from numba import njit

from .._common.jit import internal
from .._common.masks import sample_legal
from .._common.rng import uniform_float
from .._common.rng import uniform_int
from .actions import A_AUCTION
from .actions import A_BID
from .actions import A_BUILD
from .actions import A_CALL_DIVIDENDS
from .actions import A_END_BUILD
from .actions import A_PASS
from .actions import A_PLACE
from .actions import A_SPECIAL_INTEREST
from .auction import min_bid
from .auction import top_value
from .estimate import colour_pay_probability
from .estimate import expected_income
from .state import PH_AUCTION
from .state import PH_BUILD
from .state import PH_INITIAL_AUCTION
from .state import PH_MAIN
from .state import RULESET_SEED
from .tables import CITY_INCOME
from .tables import CUBE_SITE_HEX
from .tables import CUBES_PER_CALL
from .tables import HEX_DISTANCE
from .tables import N_COLOURS
from .tables import N_COMPANIES
from .tables import N_HEX
from .tables import TOWN_HEX
from .tables import TOWN_INCOME

ROLLOUT_FLIP = 0.1  # chance of flipping a bid/pass choice
ROLLOUT_EXPLORE = 0.1  # chance of a random main-turn or build decision
GROWTH = 2.0  # pounds per dividend call a company is expected to add by building
CAUTION = 0.5  # share of the expected dividends worth paying above the printed value
OVERPAY_CAP = 4  # pounds above the printed value never exceeded: cash is scarce (20 to start)
RESERVE = 4  # pounds kept after an overbid, to bid in later auctions
RIVAL_PASS = 0.25  # chance that a seat able to afford the printed value still passes
AUCTION_WEIGHT = 1.5  # how much auctions are liked against building or calling
FAR = 4  # hexes: a build stops when no town or city it lacks is nearer than this
# the main turn's action families, as [start, end) id ranges
_FAMILIES = (
    (A_AUCTION, A_BUILD),
    (A_BUILD, A_SPECIAL_INTEREST),
    (A_SPECIAL_INTEREST, A_CALL_DIVIDENDS),
    (A_CALL_DIVIDENDS, A_PLACE),
)


# --- reading the table ----------------------------------------------------------------------------
@internal(cache=True)
def _calls_left(r):
    return (r.bag[0] + r.bag[1] + r.bag[2]) / CUBES_PER_CALL


@internal(cache=True)
def _income(r, c):
    """Expected income of company c in one dividend call (IG-DIV-4/5 through the bag's odds)."""
    return expected_income(r.loco, r.cube, r.bag, c)


@internal(cache=True)
def _share(r, q, c):
    """Seat q's share of company c's dividends."""
    return r.held[q, c] / max(r.next_cert[c], 1)


@internal(cache=True)
def _dividends_gain(r, p, c, income, calls_left):
    """Dividends one more certificate of c (expected ``income`` a call) brings seat p, plus those a rival's
    purchase would dilute away."""
    h, sold = r.held[p, c], r.next_cert[c]
    future = (income + (GROWTH if r.supply[c] > 0 else 0.0)) * calls_left
    now = future * h / sold if sold else 0.0
    return future * (h + 1) / (sold + 1) - now + (now - future * h / (sold + 1))


@internal(cache=True)
def _all_others_pass(r, p, price, skip_passed):
    """Chance that every other seat still in passes at this price (it must when it cannot pay, IG-AUC-5)."""
    chance = 1.0
    for q in range(r.num_players):
        if q == p or (skip_passed and r.auc_passed[q]):
            continue
        chance *= 1.0 if r.cash[q] < price else RIVAL_PASS
    return chance


@internal(cache=True)
def _free_if_all_pass(r):
    """IG-INIT-3 always; IG-AUC-2 under the seed rules: an all-pass auction gives the opener the certificate."""
    return r.phase == PH_INITIAL_AUCTION or r.ruleset == RULESET_SEED


@internal(cache=True)
def _reach(r, c):
    """Fewest hexes from company c's network to a town or city it does not reach; -1 when it reaches all."""
    best = -1
    for i in range(CUBE_SITE_HEX.shape[0]):
        t = CUBE_SITE_HEX[i]
        if r.loco[c, t]:
            continue
        for h in range(N_HEX):
            if r.loco[c, h] and (best < 0 or HEX_DISTANCE[h, t] < best):
                best = HEX_DISTANCE[h, t]
    return best


# --- decisions ------------------------------------------------------------------------------------
@njit(cache=True)
def _auction_choice(r, mask):
    """The heuristic's bid or pass for the seat to bid."""
    if not mask[A_BID]:
        return A_PASS  # cannot afford the minimum (IG-AUC-5)
    if not mask[A_PASS]:
        return A_BID  # IG-AUC-2 (published): the opener must bid
    p, c = r.auc_bidder, r.auc_company
    price, top = min_bid(r), top_value(r, c)
    gain = _dividends_gain(r, p, c, _income(r, c), _calls_left(r))
    if r.auc_high_bidder < 0:
        opener = True
        for q in range(r.num_players):
            opener = opener and not r.auc_passed[q]
        if opener and _free_if_all_pass(r) and _all_others_pass(r, p, price, False) * (top + gain) > gain:
            return A_PASS  # likely free: IG-INIT-3 / IG-AUC-2
        return A_BID  # the printed value costs no worth and denies the opener a free certificate
    if price - top <= min(CAUTION * gain, OVERPAY_CAP) and r.cash[p] - price >= RESERVE:
        return A_BID
    return A_PASS


@internal(cache=True)
def _auction_action(r, mask, rng):
    choice = _auction_choice(r, mask)
    if mask[A_BID] and mask[A_PASS] and uniform_float(rng) < ROLLOUT_FLIP:
        return A_PASS if choice == A_BID else A_BID
    return choice


@internal(cache=True)
def _legal_in(mask, lo, hi):
    for a in range(lo, hi):
        if mask[a]:
            return True
    return False


@internal(cache=True)
def _random_main_action(mask, rng):
    """A uniform family among those with a legal action, then a uniform action of it."""
    n = 0
    for lo, hi in _FAMILIES:
        n += _legal_in(mask, lo, hi)
    k = uniform_int(rng, n)
    for lo, hi in _FAMILIES:
        if _legal_in(mask, lo, hi):
            if k == 0:
                return lo + sample_legal(mask[lo:hi], rng)
            k -= 1
    return sample_legal(mask, rng)  # unreachable: the seat to move has a legal action


@njit(cache=True)
def _main_action(r, mask):
    """The best-scoring main-turn action for the seat to move (no allocation: it runs at every rollout step)."""
    p, n = r.active, r.num_players
    calls_left = _calls_left(r)
    best, best_score = -1, -np.inf
    if mask[A_CALL_DIVIDENDS]:
        mine = others = 0.0
        for c in range(N_COMPANIES):
            income = _income(r, c)
            mine += _share(r, p, c) * income
            for q in range(n):
                others += _share(r, q, c) * income if q != p else 0.0
        best, best_score = A_CALL_DIVIDENDS, mine - others / max(n - 1, 1) - 0.5  # calling also ends it sooner
    for c in range(N_COMPANIES):
        if mask[A_AUCTION + c]:
            top = top_value(r, c)
            gain = _dividends_gain(r, p, c, _income(r, c), calls_left)
            free = _all_others_pass(r, p, top, False) * (top + gain) if _free_if_all_pass(r) else 0.0
            score = max(free, gain if r.cash[p] >= top else 0.0) * AUCTION_WEIGHT
            if score > best_score:
                best, best_score = A_AUCTION + c, score
        if mask[A_BUILD + c]:
            reach = _reach(r, c)
            score = -1.0  # a complete network: building only uses the turn
            if reach >= 0:
                score = (CITY_INCOME + TOWN_INCOME) / 2 * calls_left * _share(r, p, c) / max(reach, 1)
            if score > best_score:
                best, best_score = A_BUILD + c, score
    for a in range(A_SPECIAL_INTEREST, A_CALL_DIVIDENDS):
        if not mask[a]:
            continue
        town, k = divmod(a - A_SPECIAL_INTEREST, N_COLOURS)
        h = TOWN_HEX[town]
        mine = 0.0
        for c in range(N_COMPANIES):
            mine += _share(r, p, c) if r.loco[c, h] else 0.0
        score = mine * (CITY_INCOME * colour_pay_probability(r.bag, k) - TOWN_INCOME) * calls_left - 1.0
        if score > best_score:
            best, best_score = a, score
    return best


@njit(cache=True)
def _build_action(r, mask, rng):
    """The placement nearest to a town or city company bld_company lacks; stop when none is within FAR."""
    c = r.bld_company
    best, best_dist = -1, 99
    for h in range(N_HEX):
        if not mask[A_PLACE + h]:
            continue
        for i in range(CUBE_SITE_HEX.shape[0]):
            t = CUBE_SITE_HEX[i]
            if not r.loco[c, t] and HEX_DISTANCE[h, t] < best_dist:
                best, best_dist = A_PLACE + h, HEX_DISTANCE[h, t]
    if mask[A_END_BUILD] and (best < 0 or best_dist > FAR):
        return A_END_BUILD
    return best if best >= 0 else sample_legal(mask, rng)


@njit(cache=True)
def rollout_action(s, mask, rng):
    """A legal action for the seat to move (``mask`` is its legal mask), drawn with the search's ``rng``."""
    r = s[0]
    if r.phase == PH_INITIAL_AUCTION or r.phase == PH_AUCTION:
        return _auction_action(r, mask, rng)
    if r.phase == PH_MAIN:
        best = -1 if uniform_float(rng) < ROLLOUT_EXPLORE else _main_action(r, mask)
        return best if best >= 0 else _random_main_action(mask, rng)
    if r.phase == PH_BUILD and uniform_float(rng) >= ROLLOUT_EXPLORE:
        return _build_action(r, mask, rng)
    return sample_legal(mask, rng)
