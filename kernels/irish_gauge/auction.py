"""Auctions: the five initial auctions (IG-INIT-*) and main-game share auctions (IG-AUC-*).

Reads/writes: cash, held, next_cert, phase, active, auc_* fields.
"""

from numba import njit

from .._common.jit import internal
from .._common.seats import count_in
from .._common.seats import next_in
from .actions import A_BID
from .actions import A_PASS
from .actions import N_BID
from .state import PH_AUCTION
from .state import PH_INITIAL_AUCTION
from .state import PH_MAIN
from .state import RULESET_PUBLISHED
from .tables import N_CERTS
from .tables import N_COMPANIES
from .tables import SHARE_VALUE
from .turn import end_turn


@internal(cache=True)
def top_value(r, c):
    """Printed value of company c's top certificate (its minimum bid and final value)."""
    return SHARE_VALUE[c, r.next_cert[c]]


@internal(cache=True)
def min_bid(r):
    """Smallest legal bid: the printed value before any bid, else high bid + 1 (IG-INIT-2, IG-AUC-3)."""
    if r.auc_high_bidder < 0:
        return top_value(r, r.auc_company)
    return r.auc_high_bid + 1


@njit(cache=True)
def current_min_bid(s):
    return min_bid(s[0])


@internal(cache=True)
def start_auction(r, c, opener, initial):
    r.phase = PH_INITIAL_AUCTION if initial else PH_AUCTION
    r.auc_company = c
    r.auc_opener = opener
    r.auc_bidder = opener
    r.auc_high_bid = 0
    r.auc_high_bidder = -1
    for seat in range(r.auc_passed.shape[0]):
        r.auc_passed[seat] = 0


@internal(cache=True)
def _opening_decision(r):
    return r.auc_high_bidder < 0 and r.auc_bidder == r.auc_opener and r.auc_passed[r.auc_opener] == 0


@internal(cache=True)
def valid_auction(r, mask):
    """Mask for the bidder due: PASS, and BID[j] iff min_bid + j <= cash (IG-AUC-5)."""
    # IG-AUC-2: under the published rules the opener of a main-game auction must bid.
    must_bid = r.phase == PH_AUCTION and r.ruleset == RULESET_PUBLISHED and _opening_decision(r)
    if not must_bid:
        mask[A_PASS] = 1
    room = r.cash[r.auc_bidder] - min_bid(r)
    for j in range(min(room + 1, N_BID)):
        mask[A_BID + j] = 1


@internal(cache=True)
def _award(r, seat, price):
    """IG-INIT-4 / IG-AUC-4: pay the bank, take the top certificate; then the auction's sequel."""
    c = r.auc_company
    r.cash[seat] -= price
    r.bank_in += price
    r.held[seat, c] += 1
    r.cert_owner[c, r.next_cert[c]] = seat
    r.next_cert[c] += 1
    r.auc_company = -1
    if r.phase == PH_INITIAL_AUCTION:
        if c + 1 < N_COMPANIES:
            start_auction(r, c + 1, seat, True)  # IG-INIT-4: the receiver opens the next one
        else:
            # IG-INIT-5: the holder of the CBSC certificate takes the first turn.
            for p in range(r.num_players):
                if r.held[p, 0] > 0:
                    r.active = p
            r.phase = PH_MAIN
    else:
        end_turn(r)  # IG-TURN-2: an auction never changes who is active next


@internal(cache=True)
def _advance(r):
    """Close the auction if it is decided, else hand the decision to the next seat still in."""
    in_play = count_in(r.auc_passed, r.num_players)
    if r.auc_high_bidder >= 0 and in_play == 1:
        _award(r, r.auc_high_bidder, r.auc_high_bid)  # IG-INIT-4, IG-AUC-4
        return
    if in_play == 0:
        _award(r, r.auc_opener, 0)  # IG-INIT-3 / IG-AUC-2 (seed): everyone passed, free to the opener
        return
    r.auc_bidder = next_in(r.auc_passed, r.auc_bidder, r.num_players)  # IG-INIT-2, IG-AUC-3: clockwise, skipping passes


@internal(cache=True)
def do_bid(r, j):
    r.auc_high_bid = min_bid(r) + j
    r.auc_high_bidder = r.auc_bidder
    _advance(r)


@internal(cache=True)
def do_pass(r):
    r.auc_passed[r.auc_bidder] = 1  # a passed seat cannot re-enter (IG-INIT-2, IG-AUC-3)
    _advance(r)


@internal(cache=True)
def valid_start_auction(r, c):
    """IG-AUC-1: the stack is not empty; IG-AUC-2 (published): the opener can afford the opening bid."""
    if r.next_cert[c] >= N_CERTS[c]:
        return False
    if r.ruleset == RULESET_PUBLISHED and r.cash[r.active] < top_value(r, c):
        return False
    return True
