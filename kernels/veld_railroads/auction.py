"""Share auctions (VR-SHARE-*, VR-AUC-*): the five initial auctions, offers and the ZASM auction.

Reads/writes: cash, holdings, treasury_shares, treasury_cash, auc_* fields, phase, fs_*, free_pending.
An auction that ends sets the phase to what follows (a free section, the next setup auction, or the
transient end of turn) and leaves the rest to rules.settle.
"""

from .._common.jit import internal
from .._common.seats import count_in
from .._common.seats import next_in
from .actions import A_BID0
from .actions import A_PASS
from .network import any_legal_section
from .state import AUC_OWN
from .state import AUC_SETUP
from .state import AUC_ZASM
from .state import PH_AUCTION_BID
from .state import PH_END_OF_TURN
from .state import PH_FIRST_SECTION
from .state import PH_SETUP_AUCTION
from .state import PH_SETUP_NEXT
from .state import PH_ZASM_AUCTION_BID
from .tables import BID_CAP
from .tables import MIN_BID_FLOOR
from .tables import MIN_BID_PER_SECTION


@internal(cache=True)
def minimum_bid(r, rr):
    """VR-SHARE-3: valuation / 5 = sections built, floor $1."""
    return max(MIN_BID_FLOOR, MIN_BID_PER_SECTION * r.n_sections[rr])


@internal(cache=True)
def _after_auction(r):
    """What follows a finished auction when no free section is due."""
    r.auc_railroad = -1
    r.phase = PH_SETUP_NEXT if r.auc_kind == AUC_SETUP else PH_END_OF_TURN


@internal(cache=True)
def start_free_section(r, rr, seat):
    """§3 step 6, VR-ZASM-3: seat picks rr's free section, if any section from its home is legal."""
    r.free_pending[rr] = 0
    if any_legal_section(r, rr):
        r.fs_railroad = rr
        r.fs_player = seat
        r.phase = PH_FIRST_SECTION
    else:
        r.phase = PH_SETUP_NEXT if r.setup_k < 5 else PH_END_OF_TURN  # nothing to build: skipped


@internal(cache=True)
def start_auction(r, rr, kind, opener):
    """Open an auction of one share of rr. Treasury kinds: the opener must bid (VR-AUC-2); if the opener
    cannot, the duty passes clockwise to the first seat with the minimum; if nobody can, the share stays
    unsold and rr's free section waits for its first buyer. Own share: opener = seller (VR-AUC-3)."""
    n = r.num_players
    r.auc_railroad = rr
    r.auc_kind = kind
    r.auc_min = minimum_bid(r, rr)
    r.auc_high_bid = 0
    r.auc_high_bidder = -1
    r.auc_seller = -1
    for p in range(r.auc_passed.shape[0]):
        r.auc_passed[p] = 0
    r.phase = PH_SETUP_AUCTION if kind == AUC_SETUP else (PH_ZASM_AUCTION_BID if kind == AUC_ZASM else PH_AUCTION_BID)
    if kind == AUC_OWN:
        r.auc_seller = opener
        r.auc_passed[opener] = 1  # VR-AUC-3: the seller does not bid
        r.auc_must_bid = 0
        r.auc_bidder = (opener + 1) % n
        return
    r.auc_must_bid = 1  # VR-AUC-2
    for i in range(n):
        p = (opener + i) % n
        if r.cash[p] >= r.auc_min:
            r.auc_bidder = p
            return
    r.free_pending[rr] = 1  # VR-AUC-2 edge: nobody has the minimum, the share stays unsold
    _after_auction(r)


@internal(cache=True)
def valid_auction(r, mask):
    """VR-AUC-1: BID(a) for max(min, high + 1) <= a <= min(cash, 500); PASS unless obliged (VR-AUC-2)."""
    if not r.auc_must_bid:
        mask[A_PASS] = 1
    lo = max(r.auc_min, r.auc_high_bid + 1)
    hi = min(r.cash[r.auc_bidder], BID_CAP)
    for a in range(lo, hi + 1):
        mask[A_BID0 + a] = 1


@internal(cache=True)
def _award(r):
    """VR-AUC-1: the last bidder in pays (treasury or seller) and takes the share."""
    rr = r.auc_railroad
    w = r.auc_high_bidder
    price = r.auc_high_bid
    r.cash[w] -= price
    r.holdings[w, rr] += 1
    if r.auc_kind == AUC_OWN:
        r.cash[r.auc_seller] += price  # VR-SHARE-1: proceeds to the selling player
        r.holdings[r.auc_seller, rr] -= 1
    else:
        r.treasury_cash[rr] += price  # VR-SHARE-1 / §3 step 5 / VR-ZASM-2: proceeds to the treasury
        r.treasury_shares[rr] -= 1
    kind = r.auc_kind
    r.auc_railroad = -1
    if kind == AUC_SETUP or kind == AUC_ZASM or r.free_pending[rr]:
        start_free_section(r, rr, w)  # §3 step 6, VR-ZASM-3 (or a free section still owed)
    else:
        r.phase = PH_END_OF_TURN


@internal(cache=True)
def _advance(r):
    """Close the auction if it is decided, else hand the decision to the next seat still in."""
    in_play = count_in(r.auc_passed, r.num_players)
    if r.auc_high_bidder >= 0 and in_play == 1:
        _award(r)  # VR-AUC-1: only the high bidder is left
        return
    if in_play == 0:
        _after_auction(r)  # VR-AUC-3: an own share nobody bid on stays with the seller
        return
    # VR-AUC-1: clockwise among seats still in, skipping the high bidder
    r.auc_bidder = next_in(r.auc_passed, r.auc_bidder, r.num_players, r.auc_high_bidder)


@internal(cache=True)
def do_bid(r, amount):
    r.auc_high_bid = amount
    r.auc_high_bidder = r.auc_bidder
    r.auc_must_bid = 0
    _advance(r)


@internal(cache=True)
def do_pass(r):
    r.auc_passed[r.auc_bidder] = 1  # VR-AUC-1: passing is for good
    _advance(r)
