"""The action track and locomotives (VR-TRACK-1..5, VR-LOCO-1..5), the end of a turn: the ZASM
opening (VR-ZASM-1/2), the row-end payout and the game end (VR-DIV, VR-END-1).

Reads/writes: row, position, loco_box, active, turn, phase, opened, zasm_trigger, setup_k.
"""

from .._common.jit import internal
from .actions import A_BOX
from .actions import A_OFFER_OWN
from .actions import A_OFFER_TREASURY
from .auction import minimum_bid
from .auction import start_auction
from .develop import any_eligible
from .dividends import row_end_payout
from .state import AUC_SETUP
from .state import AUC_ZASM
from .state import PH_CHOOSE_BOX
from .state import PH_GAME_OVER
from .tables import BOX_CAPACITY
from .tables import BOX_COST
from .tables import BOX_DEVELOP
from .tables import BOX_MAY_REPEAT
from .tables import BOX_OFFER
from .tables import FILL_TO_END
from .tables import INITIAL_AUCTION_ORDER
from .tables import JOHANNESBURG
from .tables import LADDER
from .tables import N_BOXES
from .tables import N_INITIAL_AUCTIONS
from .tables import N_RAILROADS
from .tables import N_ROWS
from .tables import ROW_LENGTH
from .tables import ZASM
from .tables import ZASM_JOHANNESBURG_INCOME


@internal(cache=True)
def offer_treasury_ok(r, p, rr):
    """VR-SHARE-1/2: an opened railroad's treasury share whose minimum bid p can pay (p opens)."""
    return r.opened[rr] == 1 and r.treasury_shares[rr] > 0 and r.cash[p] >= minimum_bid(r, rr)


@internal(cache=True)
def any_offer(r, p):
    for rr in range(N_RAILROADS):
        if offer_treasury_ok(r, p, rr) or r.holdings[p, rr] > 0:
            return True
    return False


@internal(cache=True)
def valid_offers(r, mask):
    """OFFER_CHOOSE mask: treasury shares (VR-SHARE-2) and the acting player's own shares (VR-SHARE-1)."""
    p = r.active
    for rr in range(N_RAILROADS):
        if offer_treasury_ok(r, p, rr):
            mask[A_OFFER_TREASURY + rr] = 1
        if r.holdings[p, rr] > 0:
            mask[A_OFFER_OWN + rr] = 1


@internal(cache=True)
def box_open(r, p, b):
    """VR-LOCO-2/3/5: the box is not full of others' locomotives, is not p's box (build excepted) and
    its action has a legal use."""
    if r.loco_box[p] == b and not BOX_MAY_REPEAT[b]:
        return False  # VR-LOCO-3
    others = 0
    for q in range(r.num_players):
        if q != p and r.loco_box[q] == b:
            others += 1
    if others >= BOX_CAPACITY[b]:
        return False  # VR-LOCO-2
    if b == BOX_OFFER:
        return any_offer(r, p)  # VR-LOCO-5
    if b == BOX_DEVELOP:
        return any_eligible(r)  # VR-LOCO-5
    return True


@internal(cache=True)
def valid_boxes(r, mask):
    p = r.active
    for b in range(N_BOXES):
        if box_open(r, p, b):
            mask[A_BOX + b] = 1


@internal(cache=True)
def take_box(r, b):
    """VR-LOCO-1, VR-TRACK-2: move the locomotive and advance the track by the box's cost."""
    r.loco_box[r.active] = b
    if BOX_COST[b] == FILL_TO_END:
        r.position = ROW_LENGTH  # pay dividends fills the row
    else:
        r.position += BOX_COST[b]


@internal(cache=True)
def zasm_due(r):
    """VR-ZASM-1: ZASM opens once a section touches Johannesburg or its income reaches 6."""
    if r.opened[ZASM]:
        return False
    return r.zasm_trigger == 1 or LADDER[JOHANNESBURG, r.dev_level[JOHANNESBURG]] >= ZASM_JOHANNESBURG_INCOME


@internal(cache=True)
def end_of_turn(r):
    """VR-TRACK-3/4: after the action, (a) the ZASM opening, (b) the row-end payout, (c) next seat."""
    if zasm_due(r):
        r.opened[ZASM] = 1  # VR-ZASM-1 fires once
        start_auction(r, ZASM, AUC_ZASM, r.active)  # VR-ZASM-2: the player who just finished opens
        return
    r.turn += 1
    if r.position >= ROW_LENGTH:
        row_end_payout(r)  # VR-TRACK-3: boxes past 36 are lost
        if r.row == N_ROWS:
            r.phase = PH_GAME_OVER  # VR-END-1: the 8th payout ends the game
            return
        r.row += 1
        r.position = 0
    r.active = (r.active + 1) % r.num_players  # VR-TRACK-4
    r.phase = PH_CHOOSE_BOX


@internal(cache=True)
def setup_next(r):
    """§3 steps 5-8: the next initial auction (opened by player k mod N), then player_0's first turn."""
    r.setup_k += 1
    if r.setup_k < N_INITIAL_AUCTIONS:
        rr = INITIAL_AUCTION_ORDER[r.setup_k]
        r.opened[rr] = 1  # VR-GEN-3
        start_auction(r, rr, AUC_SETUP, r.setup_k % r.num_players)
        return
    r.row = 1
    r.position = 0
    r.active = 0
    r.phase = PH_CHOOSE_BOX
