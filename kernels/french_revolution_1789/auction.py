"""The card auction: FR-AUC-1..6."""

from .._common.jit import internal
from .._common.seats import count_in
from .._common.seats import next_in
from .actions import A_BID
from .actions import A_PASS
from .effects import apply_effects
from .phases import reveal_next
from .phases import start_action_phase
from .state import ST_FREE
from .state import ST_IMPRISONED
from .tables import CARD_ACQUIRE
from .tables import CARD_CREDIT
from .tables import DECK_START
from .tables import N_CARDS


@internal(cache=True)
def credit(r, p):
    """FR-AUC-4: ■ credit of p's non-exiled, non-dead cards (imprisoned persons and events count)."""
    total = 0
    for c in range(N_CARDS):
        if r.card_owner[c] == p and r.card_status[c] <= ST_IMPRISONED:  # free or imprisoned
            total += CARD_CREDIT[c]
    return total


@internal(cache=True)
def valid_bids(r, mask):
    p = r.auc_bidder
    top = r.rp[p] - 1  # FR-AUC-3: bid <= RP - 1
    if r.auc_high < 0:  # the opening bid: BID only (FR-AUC-2)
        if top < 0:
            mask[A_BID] = 1  # safeguard: an opener with 0 RP bids 0
        for k in range(0, top + 1):
            mask[A_BID + k] = 1
        return
    mask[A_PASS] = 1
    for k in range(r.auc_high + 1, top + 1):
        mask[A_BID + k] = 1


@internal(cache=True)
def settle(r):
    """FR-AUC-4..6: pay bid - credit (>= 0), take the card, on-acquire effects, start player card."""
    w = r.auc_high_bidder
    c = r.auc_card
    r.rp[w] -= max(0, r.auc_high - credit(r, w))  # FR-AUC-4
    r.card_owner[c] = w  # FR-AUC-5
    r.card_status[c] = ST_FREE
    if CARD_ACQUIRE[c] >= 0:
        r.mv_card = -1
        r.mv_regime = -1
        apply_effects(r, w, CARD_ACQUIRE[c])  # FR-AUC-5 (no decisions, no chance)
    r.start_player = w  # FR-AUC-6
    if r.deck_pos < DECK_START[r.turn + 1]:
        reveal_next(r, w)
    else:
        start_action_phase(r)


@internal(cache=True)
def do_bid(r, k):
    r.auc_high = k
    r.auc_high_bidder = r.auc_bidder
    # everyone else passed before the opening bid cannot happen; kept safe
    if count_in(r.auc_passed, r.num_players) == 1:
        settle(r)
        return
    r.auc_bidder = next_in(r.auc_passed, r.auc_bidder, r.num_players)  # FR-AUC-2: clockwise


@internal(cache=True)
def do_pass(r):
    r.auc_passed[r.auc_bidder] = 1  # FR-AUC-2: out for this card
    if count_in(r.auc_passed, r.num_players) == 1:
        settle(r)
        return
    r.auc_bidder = next_in(r.auc_passed, r.auc_bidder, r.num_players)  # FR-AUC-2: clockwise
