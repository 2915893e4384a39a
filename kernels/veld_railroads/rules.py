"""Veld Railroads entry points: setup, whose move, legal masks, stepping, end and scores.

``step`` is a flat dispatch over the action ranges of ``actions.py`` to the ``do_*`` function of each
move family, then ``settle`` resolves the transient phases (end of turn, next setup auction);
``legal_mask`` fills each range from its ``valid_*`` function. Records are shape-(1,) arrays of dtype
``STATE``; ``r = s[0]`` is a view, so writes to ``r`` land in ``s``.
"""

import sys

import numpy as np
from numba import njit

from .._common.contract import TERMINAL
from .._common.jit import internal
from .._common.masks import clear
from .._common.rng import roll_die
from .._common.rng import seed_rng
from .._common.scoring import final_shares
from .._common.scoring import seat_values
from .._common.stepping import make_step_and_mask
from .._common.stepping import phase_is
from .actions import A_BID0
from .actions import A_BUILD_RAILROAD
from .actions import A_DONE
from .actions import A_OFFER_OWN
from .actions import A_OFFER_TREASURY
from .actions import A_PASS
from .actions import A_SECTION
from .actions import A_SETTLEMENT
from .auction import do_bid
from .auction import do_pass
from .auction import start_auction
from .auction import valid_auction
from .build import build_choices
from .build import choose_railroad
from .build import do_done_after_leg1
from .build import do_first_leg
from .build import do_free_section
from .build import do_second_leg
from .build import start_build
from .build import valid_first_legs
from .build import valid_second_legs
from .develop import do_develop
from .develop import do_develop_done
from .develop import start_develop
from .develop import valid_develop
from .network import section_legal
from .state import AUC_OWN
from .state import AUC_TREASURY
from .state import PH_AUCTION_BID
from .state import PH_BUILD_CHOOSE_RAILROAD
from .state import PH_BUILD_FIRST_LEG
from .state import PH_BUILD_SECOND_LEG
from .state import PH_CHOOSE_BOX
from .state import PH_DEVELOP_PICK
from .state import PH_END_OF_TURN
from .state import PH_FIRST_SECTION
from .state import PH_GAME_OVER
from .state import PH_OFFER_CHOOSE
from .state import PH_SETUP_AUCTION
from .state import PH_SETUP_NEXT
from .state import PH_ZASM_AUCTION_BID
from .tables import BOX_BUILD
from .tables import BOX_DEVELOP
from .tables import BOX_OFFER
from .tables import DIE_MULTIPLIER
from .tables import DIE_SIDES
from .tables import N_RAILROADS
from .tables import N_SECTIONS
from .tables import SHARES_PER_RAILROAD
from .turn import end_of_turn
from .turn import setup_next
from .turn import take_box
from .turn import valid_boxes
from .turn import valid_offers


# --- setup ---------------------------------------------------------------------------------------
@njit(cache=True)
def init_state(s, num_players, seed, ruleset, repeat_metro, start_cash):
    """§3 on a zeroed record: cash, shares, die-rolled treasuries, then the first initial auction."""
    r = s[0]
    seed_rng(r.rng, seed)
    r.ruleset = ruleset
    r.repeat_metro = repeat_metro
    r.num_players = num_players
    for p in range(num_players):
        r.cash[p] = start_cash  # §3 step 2
    for p in range(r.loco_box.shape[0]):
        r.loco_box[p] = -1  # VR-LOCO-4: no locomotive on the board yet
    for rr in range(N_RAILROADS):
        r.treasury_shares[rr] = SHARES_PER_RAILROAD  # §3 step 3
        roll = roll_die(r.rng, DIE_SIDES) * DIE_MULTIPLIER[rr]  # §3 step 4: ZASM doubled
        r.treasury_cash[rr] = roll
        r.treasury_start[rr] = roll
    for e in range(N_SECTIONS):
        r.section_owner[e] = -1
    for i in range(r.dev_picked.shape[0]):
        r.dev_picked[i] = -1
    r.bld_railroad = r.bld_builder = r.bld_leg1 = r.bld_far = -1  # no build, auction or first section under way
    r.auc_railroad = r.auc_seller = r.auc_high_bidder = -1
    r.fs_railroad = r.fs_player = -1
    r.row = 1
    r.setup_k = -1
    r.phase = PH_SETUP_NEXT
    # §3 step 5: auction 0 (CFM), opened by player_0, who can bid: with no section built the minimum is the $1 floor
    # (VR-SHARE-3). Nothing transient follows, so this is settle's first step alone: without settle's tree (the end
    # of a turn) in it, a cold first use optimises that tree once, in the step.
    setup_next(r)


@internal(cache=True)
def settle(r):
    """Resolve the transient phases until a seat has a decision (or the game is over)."""
    while True:
        if r.phase == PH_END_OF_TURN:
            end_of_turn(r)
        elif r.phase == PH_SETUP_NEXT:
            setup_next(r)
        else:
            return


# --- whose decision, what is legal ---------------------------------------------------------------
@internal(cache=True)
def to_move_r(r):
    ph = r.phase
    if ph == PH_SETUP_AUCTION or ph == PH_AUCTION_BID or ph == PH_ZASM_AUCTION_BID:
        return np.int64(r.auc_bidder)
    if ph == PH_FIRST_SECTION:
        return np.int64(r.fs_player)
    if ph == PH_BUILD_FIRST_LEG or ph == PH_BUILD_SECOND_LEG:
        return np.int64(r.bld_builder)  # VR-BUILD-4: the builder picks the sections
    if ph == PH_GAME_OVER:
        return np.int64(TERMINAL)
    return np.int64(r.active)


@njit(cache=True)
def to_move(s):
    return to_move_r(s[0])


is_over = phase_is(PH_GAME_OVER)


@njit(cache=True)
def legal_mask(s, out):
    """Fill out (uint8/int8[NUM_ACTIONS]) with the legal actions of the seat to move; all 0 when over."""
    r = s[0]
    clear(out)
    ph = r.phase
    if ph == PH_CHOOSE_BOX:
        valid_boxes(r, out)
    elif ph == PH_SETUP_AUCTION or ph == PH_AUCTION_BID or ph == PH_ZASM_AUCTION_BID:
        valid_auction(r, out)
    elif ph == PH_FIRST_SECTION:
        for e in range(N_SECTIONS):
            if section_legal(r, r.fs_railroad, e):  # §3 step 6, VR-ZASM-3
                out[A_SECTION + e] = 1
    elif ph == PH_BUILD_CHOOSE_RAILROAD:
        build_choices(r, r.active, out)
    elif ph == PH_BUILD_FIRST_LEG:
        valid_first_legs(r, out)
    elif ph == PH_BUILD_SECOND_LEG:
        valid_second_legs(r, out)
        out[A_DONE] = 1  # VR-DBL-4
    elif ph == PH_OFFER_CHOOSE:
        valid_offers(r, out)
    elif ph == PH_DEVELOP_PICK:
        valid_develop(r, out)


# --- stepping ------------------------------------------------------------------------------------
@internal(cache=True)
def _do_box(r, b):
    take_box(r, b)
    if b == BOX_BUILD:
        start_build(r)
    elif b == BOX_OFFER:
        r.phase = PH_OFFER_CHOOSE
    elif b == BOX_DEVELOP:
        start_develop(r)
    else:
        r.phase = PH_END_OF_TURN  # VR-TRACK-2: pay dividends filled the row


@njit(cache=True)
def step(s, action):
    """Apply one legal decision and everything automatic that follows it."""
    r = s[0]
    r.decisions += 1
    if action < A_BUILD_RAILROAD:
        _do_box(r, action)
    elif action < A_OFFER_TREASURY:
        choose_railroad(r, action - A_BUILD_RAILROAD)
    elif action < A_OFFER_OWN:
        start_auction(r, action - A_OFFER_TREASURY, AUC_TREASURY, r.active)  # VR-SHARE-1
    elif action < A_SECTION:
        start_auction(r, action - A_OFFER_OWN, AUC_OWN, r.active)  # VR-SHARE-1, VR-AUC-3
    elif action < A_SETTLEMENT:
        e = action - A_SECTION
        if r.phase == PH_FIRST_SECTION:
            do_free_section(r, e)
        elif r.phase == PH_BUILD_FIRST_LEG:
            do_first_leg(r, e)
        else:
            do_second_leg(r, e)
    elif action < A_DONE:
        do_develop(r, action - A_SETTLEMENT)
    elif action == A_DONE:
        if r.phase == PH_BUILD_SECOND_LEG:
            do_done_after_leg1(r)
        else:
            do_develop_done(r)
    elif action == A_PASS:
        do_pass(r)
    else:
        do_bid(r, action - A_BID0)
    settle(r)


# the contract's step_and_mask: step, then the next mask, calling this module's functions directly
step_and_mask = make_step_and_mask(sys.modules[__name__])


# --- end and scores ------------------------------------------------------------------------------
@njit(cache=True)
def scores(s, out):
    """VR-END-2: the score is cash."""
    seat_values(s[0].cash, s[0].num_players, out)


@njit(cache=True)
def returns(s, out):
    """Terminal rewards: 1/k to each of the k seats tied for the most cash (§8), else 0."""
    final_shares(s[0].cash, s[0].num_players, s[0].phase == PH_GAME_OVER, out)
