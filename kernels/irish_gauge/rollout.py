"""Rollout policy for truncated search rollouts (the optional kernel hook ``rollout_action``).

Uniformly random rollouts misplay Irish Gauge where its worth is decided: a random bid is uniform over
every affordable price, so a few auctions spend a seat's cash far above the certificates' printed values
(worth lost for good: IG-SCORE-1 counts a certificate at its printed value); and on a main turn the 20
special-interest placements outnumber the other 11 choices, so random turns mostly place cubes. The policy:
- auction: bid the minimum while it does not exceed the certificate's printed value (at that price a
  certificate costs no worth), else pass; with probability ROLLOUT_FLIP the choice is flipped, so rollouts
  still sample other auction outcomes. An opener who must bid (IG-AUC-2, published) bids the minimum;
- main turn: a uniform family (auction, build, special interest, call dividends) among those with a legal
  action, then a uniform action of it;
- every other decision (placements while building): uniformly random.
"""

from numba import njit

from .._common.masks import sample_legal
from .._common.rng import uniform_float, uniform_int
from .actions import A_AUCTION, A_BID, A_BUILD, A_CALL_DIVIDENDS, A_PASS, A_PLACE, A_SPECIAL_INTEREST
from .auction import min_bid, top_value
from .state import PH_AUCTION, PH_INITIAL_AUCTION, PH_MAIN

ROLLOUT_FLIP = 0.1  # chance of flipping a bid/pass choice
# the main turn's action families, as [start, end) id ranges
_FAMILIES = (
    (A_AUCTION, A_BUILD),
    (A_BUILD, A_SPECIAL_INTEREST),
    (A_SPECIAL_INTEREST, A_CALL_DIVIDENDS),
    (A_CALL_DIVIDENDS, A_PLACE),
)


@njit(cache=True)
def _auction_action(r, mask, rng):
    if not mask[A_BID]:
        return A_PASS  # cannot afford the minimum (IG-AUC-5)
    if not mask[A_PASS]:
        return A_BID  # IG-AUC-2 (published): the opener must bid
    bid = min_bid(r) <= top_value(r, r.auc_company)
    if uniform_float(rng) < ROLLOUT_FLIP:
        bid = not bid
    return A_BID if bid else A_PASS


@njit(cache=True)
def _legal_in(mask, lo, hi):
    for a in range(lo, hi):
        if mask[a]:
            return True
    return False


@njit(cache=True)
def _main_action(mask, rng):
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
def rollout_action(s, mask, rng):
    """A legal action for the seat to move (``mask`` is its legal mask), drawn with the search's ``rng``."""
    r = s[0]
    if r.phase == PH_INITIAL_AUCTION or r.phase == PH_AUCTION:
        return _auction_action(r, mask, rng)
    if r.phase == PH_MAIN:
        return _main_action(mask, rng)
    return sample_legal(mask, rng)
