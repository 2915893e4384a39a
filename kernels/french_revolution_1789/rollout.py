"""Rollout policy for truncated search rollouts (the optional kernel hook ``rollout_action``).

Uniformly random rollouts misplay this game where it matters most: a random bid is uniform over every legal
price up to RP - 1, so a few auction steps spend a whole treasury and the evaluation after them mostly
measures who overpaid; and PASS, one legal action among many, ends a seat's action phase early. The policy:
- auction: bid the minimum legal price while it stays within the card's value (the ■ VP it can still score
  over the turns left, halved for uncertainty, + its ■ credit over the cards still to come + a bonus for a ◆
  ability and for an on-acquire effect — the same estimate the shipped heuristic bids by) and within 60 % of
  the bidder's RP; else pass. With probability ROLLOUT_FLIP the choice is flipped, so rollouts still sample
  other auction outcomes;
- action turn: a uniformly random legal action other than PASS (pass only when nothing else is legal);
- every other decision (regime action, targets): uniformly random.
With it IS-MCTS beats three heuristics clearly in the shared strength test, where with uniform rollouts it
does not.
"""

import numpy as np
from numba import njit

from .._common.jit import internal
from .._common.masks import sample_legal
from .._common.rng import uniform_float
from .._common.rng import uniform_int
from .actions import A_BID
from .actions import A_PASS
from .actions import N_BID
from .state import PH_ACTION
from .state import PH_AUCTION
from .tables import CARD_ABILITY
from .tables import CARD_ACQUIRE
from .tables import CARD_CREDIT
from .tables import CARD_SCORE
from .tables import N_CARDS
from .tables import N_TURNS

ROLLOUT_FLIP = 0.1  # chance of flipping a bid/pass choice
BID_RP_SHARE = 0.6  # never bid more than this share of the bidder's RP
_BEST_SCORE = CARD_SCORE.max(axis=1).astype(np.float64)


@njit(cache=True)
def card_value(r, c):
    """RP worth paying for card c now (see the module docstring)."""
    left = N_TURNS - r.turn
    value = _BEST_SCORE[c] * left * 0.5 + CARD_CREDIT[c] * (N_CARDS - r.deck_pos) * 0.6
    if CARD_ABILITY[c] >= 0:
        value += 2.0
    if CARD_ACQUIRE[c] >= 0:
        value += 3.0
    return value


@internal(cache=True)
def _auction_action(r, mask, rng):
    lowest = -1
    for k in range(N_BID):
        if mask[A_BID + k]:
            lowest = k
            break
    if lowest < 0:
        return A_PASS
    if not mask[A_PASS]:  # the opening bid (FR-AUC-2)
        return A_BID + lowest
    bid = lowest <= min(card_value(r, r.auc_card), BID_RP_SHARE * r.rp[r.auc_bidder])
    if uniform_float(rng) < ROLLOUT_FLIP:
        bid = not bid
    return A_BID + lowest if bid else A_PASS


@internal(cache=True)
def _acting_action(mask, rng):
    n = 0
    for a in range(mask.shape[0]):
        n += a != A_PASS and mask[a] != 0
    if n == 0:
        return A_PASS
    k = uniform_int(rng, n)
    for a in range(mask.shape[0]):
        if a != A_PASS and mask[a] != 0:
            if k == 0:
                return a
            k -= 1
    return A_PASS


@njit(cache=True)
def rollout_action(s, mask, rng):
    """A legal action for the seat to move (mask = its legal mask), drawn with the search's generator rng."""
    r = s[0]
    if r.phase == PH_AUCTION:
        return _auction_action(r, mask, rng)
    if r.phase == PH_ACTION:
        return _acting_action(mask, rng)
    return sample_legal(mask, rng)
