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
from .._common.masks import clear
from .._common.rng import roll_die, seed_rng
from .._common.scoring import final_shares, seat_values
from .._common.stepping import make_step_and_mask
from .actions import (
    A_BID0,
    A_BUILD_RAILROAD,
    A_DONE,
    A_OFFER_OWN,
    A_OFFER_TREASURY,
    A_PASS,
    A_SECTION,
    A_SETTLEMENT,
)
from .auction import do_bid, do_pass, start_auction, valid_auction
from .build import (
    build_choices,
    choose_railroad,
    do_done_after_leg1,
    do_first_leg,
    do_free_section,
    do_second_leg,
    start_build,
    valid_first_legs,
    valid_second_legs,
)
from .develop import do_develop, do_develop_done, start_develop, valid_develop
from .network import section_legal
from .state import (
    AUC_OWN,
    AUC_TREASURY,
    PH_AUCTION_BID,
    PH_BUILD_CHOOSE_RAILROAD,
    PH_BUILD_FIRST_LEG,
    PH_BUILD_SECOND_LEG,
    PH_CHOOSE_BOX,
    PH_DEVELOP_PICK,
    PH_END_OF_TURN,
    PH_FIRST_SECTION,
    PH_GAME_OVER,
    PH_OFFER_CHOOSE,
    PH_SETUP_AUCTION,
    PH_SETUP_NEXT,
    PH_ZASM_AUCTION_BID,
)
from .tables import (
    BOX_BUILD,
    BOX_DEVELOP,
    BOX_OFFER,
    DIE_MULTIPLIER,
    DIE_SIDES,
    N_RAILROADS,
    N_SECTIONS,
    SHARES_PER_RAILROAD,
)
from .turn import end_of_turn, setup_next, take_box, valid_boxes, valid_offers


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
    r.bld_railroad = -1
    r.bld_builder = -1
    r.bld_leg1 = -1
    r.bld_far = -1
    r.auc_railroad = -1
    r.auc_seller = -1
    r.auc_high_bidder = -1
    r.fs_railroad = -1
    r.fs_player = -1
    r.row = 1
    r.setup_k = -1
    r.phase = PH_SETUP_NEXT
    settle(r)  # §3 step 5: auction 0 (CFM), opened by player_0


@njit(cache=True)
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
@njit(cache=True)
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


@njit(cache=True)
def is_over(s):
    return s[0].phase == PH_GAME_OVER


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
@njit(cache=True)
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
