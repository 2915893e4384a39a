"""Irish Gauge rules entry points: setup, whose move, legal masks, stepping, chance, end and scores.

``step_decision`` is a flat dispatch over the action ranges of ``actions.py`` to the ``do_*`` function
of each move family; ``legal_mask`` fills each range from its ``valid_*`` function. Records are
shape-(1,) arrays of dtype ``STATE``; ``r = s[0]`` is a view, so writes to ``r`` land in ``s``.
"""

import sys

import numpy as np
from numba import njit

from .._common.contract import CHANCE
from .._common.contract import TERMINAL
from .._common.jit import internal
from .._common.masks import clear
from .._common.rng import bag_draw
from .._common.rng import seed_rng
from .._common.rng import uniform_int
from .._common.scoring import final_shares
from .._common.scoring import seat_values
from .._common.stepping import make_chance_step
from .._common.stepping import make_step_and_mask
from .._common.stepping import phase_is
from .actions import A_AUCTION
from .actions import A_BID
from .actions import A_BUILD
from .actions import A_CALL_DIVIDENDS
from .actions import A_END_BUILD
from .actions import A_PASS
from .actions import A_PLACE
from .actions import A_SPECIAL_INTEREST
from .auction import do_bid
from .auction import do_pass
from .auction import start_auction
from .auction import valid_auction
from .auction import valid_start_auction
from .build import do_place
from .build import end_build
from .build import start_build
from .build import valid_placements
from .build import valid_start_build
from .dividends import DRAW_OUTCOMES
from .dividends import cubes_to_draw
from .dividends import draw_outcome_probs
from .dividends import resolve_dividends
from .special_interest import do_special_interest
from .special_interest import valid_special_interests
from .state import PH_AUCTION
from .state import PH_BUILD
from .state import PH_DIVIDEND_DRAW
from .state import PH_GAME_OVER
from .state import PH_INITIAL_AUCTION
from .state import PH_MAIN
from .tables import HOME_HEX
from .tables import LOCOMOTIVES
from .tables import N_COLOURS
from .tables import N_COMPANIES
from .tables import RESERVE_PER_COLOUR
from .tables import SETUP_BAG_PER_COLOUR
from .tables import SHARE_VALUE
from .tables import STARTING_CUBE_HEX


# --- setup ---------------------------------------------------------------------------------------
@njit(cache=True)
def init_state(s, num_players, seed, ruleset, major_city_bonus, start_cash):
    """IG-SETUP-1..6 on a zeroed record: homes, stacks, cubes, cash, start player, first auction."""
    r = s[0]
    seed_rng(r.rng, seed)
    r.ruleset = ruleset
    r.major_city_bonus = major_city_bonus
    r.num_players = num_players
    for c in range(N_COMPANIES):
        r.loco[c, HOME_HEX[c]] = 1  # IG-SETUP-1
        r.supply[c] = LOCOMOTIVES - 1
        r.next_cert[c] = 0  # IG-SETUP-2: lowest value on top
        for k in range(r.cert_owner.shape[1]):
            r.cert_owner[c, k] = -1
    for h in range(r.cube.shape[0]):
        r.cube[h] = -1
    for k in range(N_COLOURS):
        r.bag[k] = SETUP_BAG_PER_COLOUR  # IG-SETUP-3: 12 cubes, 4 of each colour
    for i in range(STARTING_CUBE_HEX.shape[0]):
        r.cube[STARTING_CUBE_HEX[i]] = bag_draw(r.rng, r.bag)  # drawn in map.json order (chosen)
    for k in range(N_COLOURS):
        r.bag[k] += RESERVE_PER_COLOUR  # IG-SETUP-4: 22 cubes in the bag
    for row in range(r.drawn.shape[0]):
        for j in range(r.drawn.shape[1]):
            r.drawn[row, j] = -1
    for p in range(num_players):
        r.cash[p] = start_cash  # IG-SETUP-5
    r.start_player = uniform_int(r.rng, num_players)  # IG-SETUP-6
    r.active = r.start_player
    r.bld_company = -1
    start_auction(r, 0, r.start_player, True)  # IG-INIT-1: CBSC first, opened by the start player


# --- whose decision, what is legal ---------------------------------------------------------------
@njit(cache=True)
def to_move(s):
    r = s[0]
    if r.phase == PH_INITIAL_AUCTION or r.phase == PH_AUCTION:
        return np.int64(r.auc_bidder)
    if r.phase == PH_MAIN or r.phase == PH_BUILD:
        return np.int64(r.active)
    if r.phase == PH_DIVIDEND_DRAW:
        return np.int64(CHANCE)
    return np.int64(TERMINAL)


is_over = phase_is(PH_GAME_OVER)
is_chance = phase_is(PH_DIVIDEND_DRAW)


@internal(cache=True)
def _valid_main(r, mask):
    """IG-TURN-1: the four actions of a main turn."""
    for c in range(N_COMPANIES):
        if valid_start_auction(r, c):
            mask[A_AUCTION + c] = 1
        if valid_start_build(r, c):
            mask[A_BUILD + c] = 1
    valid_special_interests(r, mask)
    mask[A_CALL_DIVIDENDS] = 1  # IG-TURN-3: always legal, the bag is non-empty in MAIN


@njit(cache=True)
def legal_mask(s, out):
    """Fill out (uint8[NUM_ACTIONS]) with the legal actions of the seat to move; all 0 otherwise."""
    r = s[0]
    clear(out)
    if r.phase == PH_MAIN:
        _valid_main(r, out)
    elif r.phase == PH_INITIAL_AUCTION or r.phase == PH_AUCTION:
        valid_auction(r, out)
    elif r.phase == PH_BUILD:
        valid_placements(r, r.bld_company, r.bld_budget, out)
        if r.bld_placed >= 1:
            out[A_END_BUILD] = 1  # IG-BLD-2: at least one placement first


# --- stepping ------------------------------------------------------------------------------------
@njit(cache=True)
def step_decision(s, action):
    """Apply one legal decision; a dividend call stops at the chance node PH_DIVIDEND_DRAW."""
    r = s[0]
    r.decisions += 1
    if action < A_BUILD:
        start_auction(r, action - A_AUCTION, r.active, False)  # IG-AUC-1
    elif action < A_SPECIAL_INTEREST:
        start_build(r, action - A_BUILD)
    elif action < A_CALL_DIVIDENDS:
        t, k = divmod(action - A_SPECIAL_INTEREST, N_COLOURS)
        do_special_interest(r, t, k)
    elif action == A_CALL_DIVIDENDS:
        r.phase = PH_DIVIDEND_DRAW  # IG-DIV-1: the draw is a chance event
    elif action < A_END_BUILD:
        do_place(r, action - A_PLACE)
    elif action == A_END_BUILD:
        end_build(r)  # IG-BLD-9
    elif action == A_PASS:
        do_pass(r)
    else:
        do_bid(r, action - A_BID)


@njit(cache=True)
def chance_outcomes(s, out_ids, out_probs):
    """Pending chance outcomes (ids into DRAW_OUTCOMES) and their exact probabilities; returns count."""
    if not is_chance(s):
        return 0
    return draw_outcome_probs(s[0].bag, out_ids, out_probs)


@njit(cache=True)
def step_chance(s, outcome):
    """Apply a chosen dividend draw (an id from chance_outcomes) and pay (IG-DIV-2..7)."""
    r = s[0]
    counts = DRAW_OUTCOMES[outcome]
    for k in range(N_COLOURS):
        r.bag[k] -= counts[k]
    resolve_dividends(r, counts)


@njit(cache=True)
def sample_chance(s):
    """Draw the pending outcome from the record RNG (cube by cube, as from the real bag)."""
    r = s[0]
    # IG-DIV-1 cube by cube from the bag itself (as draw_dividend_cubes), then the cubes go back: step_chance
    # takes them out; no scratch bag is allocated on this per-step path
    c0, c1, c2 = 0, 0, 0
    for _ in range(cubes_to_draw(r.bag)):
        k = bag_draw(r.rng, r.bag)
        c0 += k == 0
        c1 += k == 1
        c2 += k == 2
    r.bag[0] += c0
    r.bag[1] += c1
    r.bag[2] += c2
    for o in range(DRAW_OUTCOMES.shape[0]):
        t = DRAW_OUTCOMES[o]
        if t[0] == c0 and t[1] == c1 and t[2] == c2:
            return o
    return -1  # unreachable: every draw of 1..3 cubes is in DRAW_OUTCOMES


# step: a decision, then every chance event it opens, drawn from the record RNG
step = make_chance_step(sys.modules[__name__])


# the contract's step_and_mask: step, then the next mask, calling this module's functions directly
step_and_mask = make_step_and_mask(sys.modules[__name__])


# --- end and scores ------------------------------------------------------------------------------
@njit(cache=True)
def scores(s, out):
    """IG-SCORE-1: cash + printed values of the certificates each seat holds."""
    r = s[0]
    seat_values(r.cash, r.num_players, out)
    for c in range(N_COMPANIES):
        for k in range(r.cert_owner.shape[1]):
            if r.cert_owner[c, k] >= 0:
                out[r.cert_owner[c, k]] += SHARE_VALUE[c, k]


@njit(cache=True)
def returns(s, out):
    """Terminal rewards: 1/k to each of the k seats tied for the highest worth (IG-SCORE-2), else 0."""
    worth = np.zeros(out.shape[0], np.int64)
    scores(s, worth)
    final_shares(worth, s[0].num_players, s[0].phase == PH_GAME_OVER, out)
