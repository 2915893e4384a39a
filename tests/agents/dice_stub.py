"""A minimal explicit-chance kernel for testing that a search samples chance as the kernel says.

Three seats; seat 0 rolls a loaded die (its one action), faces 0, 1, 2 with the probabilities of
``chance_outcomes``, drawn from the record's RNG by ``step``; the seat whose number comes up wins (return 1,
the others 0). So a search's mean value per seat after the roll is the frequency of each face.
Only the parts of the kernel contract the searches use are implemented.
"""

import numpy as np
from numba import njit

from tabletop_zoo.kernels._common.rng import seed_rng, weighted_index

GAME_ID = "dice_stub"
MIN_PLAYERS = MAX_PLAYERS = 3
NUM_ACTIONS = 1
INFORMATION = "perfect"
FACE_WEIGHTS = np.array([5, 3, 2], np.int64)
OBS_SIZE = 4
STATE = np.dtype([("rng", np.uint64, (1,)), ("face", np.int8), ("num_players", np.int8)])


def new_state(seed=0):
    s = np.zeros(1, STATE)
    s[0]["face"] = -1
    s[0]["num_players"] = 3
    seed_rng(s[0]["rng"], np.uint64(seed))
    return s


def chance_outcomes():
    """The die's faces and their probabilities."""
    return np.arange(3), FACE_WEIGHTS / FACE_WEIGHTS.sum()


@njit(cache=True)
def to_move(s):
    return -2 if s[0].face >= 0 else 0


@njit(cache=True)
def is_over(s):
    return s[0].face >= 0


@njit(cache=True)
def legal_mask(s, out):
    out[0] = 0 if s[0].face >= 0 else 1


@njit(cache=True)
def step(s, action):
    s[0].face = weighted_index(s[0].rng, FACE_WEIGHTS)


@njit(cache=True)
def step_and_mask(s, action, mask):
    step(s, action)
    legal_mask(s, mask)
    return to_move(s)


@njit(cache=True)
def returns(s, out):
    out[:] = 0.0
    out[s[0].face] = 1.0


@njit(cache=True)
def observe(s, seat, out):
    out[:] = 0.0
    out[s[0].face + 1] = 1.0
