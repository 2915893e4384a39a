"""A minimal hidden-information kernel for testing IS-MCTS: Kuhn poker (2 players, cards J < Q < K).

Each seat antes 1 and holds one secret card. Seat 0 checks (0) or bets (1); facing a check, seat 1
checks (showdown for 1) or bets; facing a bet, a seat folds (0) or calls (1) (showdown for 2).
Only the parts of the kernel contract the search uses are implemented.
"""

import numpy as np
from numba import njit

from tabletop_zoo.kernels._common.rng import seed_rng, uniform_int

GAME_ID = "kuhn_stub"
MIN_PLAYERS = MAX_PLAYERS = 2
NUM_ACTIONS = 2
INFORMATION = "imperfect"
CHECK_OR_FOLD, BET_OR_CALL = 0, 1
OBS_SIZE = 3 + 2 * 3
STATE = np.dtype(
    [
        ("rng", np.uint64, (1,)),
        ("num_players", np.int8),  # always 2: the field every record has (searches and standings read it)
        ("card", np.int8, (2,)),
        ("history", np.int8, (3,)),
        ("n_moves", np.int8),
        ("over", np.int8),
        ("payoff", np.int8, (2,)),
    ]
)


def new_state(cards=None, seed=0):
    s = np.zeros(1, STATE)
    s[0]["num_players"] = 2
    s[0]["history"][:] = -1
    _deal(s, seed)
    if cards is not None:
        s[0]["card"][:] = cards
    return s


@njit(cache=True)
def _deal(s, seed):
    r = s[0]
    seed_rng(r.rng, seed)
    r.card[0] = uniform_int(r.rng, 3)
    r.card[1] = (r.card[0] + 1 + uniform_int(r.rng, 2)) % 3


@njit(cache=True)
def to_move(s):
    return -2 if s[0].over else s[0].n_moves % 2


@njit(cache=True)
def is_over(s):
    return s[0].over == 1


@njit(cache=True)
def legal_mask(s, out):
    out[0] = out[1] = 0 if s[0].over else 1


@njit(cache=True)
def _settle(r, winner, stake):
    r.over = 1
    r.payoff[winner] = stake
    r.payoff[1 - winner] = -stake


@njit(cache=True)
def step(s, action):
    r = s[0]
    seat = r.n_moves % 2
    r.history[r.n_moves] = action
    r.n_moves += 1
    showdown = 0 if r.card[0] > r.card[1] else 1
    h0, h1 = r.history[0], r.history[1]
    if r.n_moves == 2:
        if h0 == CHECK_OR_FOLD and h1 == CHECK_OR_FOLD:
            _settle(r, showdown, 1)
        elif h0 == BET_OR_CALL:
            if h1 == BET_OR_CALL:
                _settle(r, showdown, 2)
            else:
                _settle(r, 0, 1)  # seat 1 folded to the bet
    elif r.n_moves == 3:  # check, bet, then seat 0 folds or calls
        if action == BET_OR_CALL:
            _settle(r, showdown, 2)
        else:
            _settle(r, 1 - seat, 1)


@njit(cache=True)
def step_and_mask(s, action, mask):
    """step, then the next seat's legal mask (the search carries the mask through this call)."""
    step(s, action)
    legal_mask(s, mask)
    return to_move(s)


@njit(cache=True)
def returns(s, out):
    for p in range(2):
        out[p] = (s[0].payoff[p] + 2) / 4.0  # chips won, mapped to 0..1


@njit(cache=True)
def evaluate(s, out):
    if s[0].over:
        returns(s, out)
    else:
        out[0] = out[1] = 0.5


@njit(cache=True)
def determinize(s, seat, seed):
    """Resample the other seat's card from the two cards ``seat`` does not hold."""
    r = s[0]
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    r.card[1 - seat] = (r.card[seat] + 1 + uniform_int(rng, 2)) % 3


@njit(cache=True)
def observe(s, seat, out):
    out[:] = 0.0
    out[s[0].card[seat]] = 1.0
    for i in range(3):
        if s[0].history[i] >= 0:
            out[3 + 2 * i + s[0].history[i]] = 1.0
