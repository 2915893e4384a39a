"""A batch of games stepped in numba, every seat played by the caller: the loop behind ``make_vec``.

Each lane of the batch is one game record (``records[i]``) that this module steps, restarts and observes
without returning to Python: ``run_lanes`` starts every lane's game or applies one action per lane, then (if asked) the decisions that
have a single legal action, and restarts a lane whose game ended or hit the decision limit in the same call.
Everything a lane needs lives in the arrays of the ``lanes`` tuple (``LANE_ARRAYS`` names them in order), so
one call steps the whole batch; ``run_lanes_parallel`` is the same loop spread over numba's threads (``prange``): lanes are
independent, so the result is the same for any thread count.

Seeds: lane ``i`` draws each new game's seed from its own generator ``rngs[i]`` (``rng.next_u64``), and
``seeds[i]`` keeps the seed of the game it plays, so any lane's game is the AEC env's ``reset(seed)``
followed by the same actions (chance comes from the record's own generator, as in the env).
"""

from __future__ import annotations

from numba import njit
from numba import prange

from .dispatch import init_state
from .dispatch import legal_mask
from .dispatch import observe
from .dispatch import returns
from .dispatch import scores
from .dispatch import step_and_mask
from .dispatch import to_move
from .jit import internal
from .masks import count_legal
from .masks import nth_legal
from .prefetch import prefetch_row
from .prefetch import prefetch_row_for_write
from .rng import next_u64

ENDED, CUT = 1, 2  # why a lane's game is over: it ended by the rules (terminated) or at the decision limit (truncated)
NO_SEAT = -1  # seats[i] after a step whose restarted game could not reach a decision (never, by the contract)
MAX_RESTARTS = 8  # new games one lane may start in one step: a game that ends in its forced opening is a bug
# The per-lane arrays, in the order of the ``lanes`` tuple every function here takes.
LANE_ARRAYS = (
    "rngs",  # uint64[B, 1]: the lane's generator of game seeds
    "seeds",  # uint64[B]: the seed of the game the lane plays
    "masks",  # uint8[B, NUM_ACTIONS]: the legal mask of the seat to move
    "obs",  # float32[B, OBS_SIZE]: that seat's own observation (B x 0: the batch observes nothing)
    "seats",  # int64[B]: the seat to move
    "rewards",  # float64[B, num_players]: what this step paid each seat (at the end of a game: its returns)
    "terminated",  # bool[B]: the game that was played ended by the rules in this step (the lane restarted)
    "truncated",  # bool[B]: ... or reached the decision limit (the lane restarted)
    "length",  # int64[B]: decisions so far in the lane's game
    "forced",  # int64[B]: forced decisions applied in this step (skip_forced)
    "final_seed",  # uint64[B]: where terminated or truncated: the finished game's seed ...
    "final_length",  # int64[B]: ... its decisions ...
    "final_scores",  # int64[B, MAX_PLAYERS]: ... its scores ...
    "final_returns",  # float64[B, MAX_PLAYERS]: ... its returns (0 when cut) ...
    "final_obs",  # float32[B, OBS_SIZE]: ... and its last position seen by the seat that acted in this step (or B x 0)
)


@njit(cache=True, nogil=True, inline="always")
def observing(lanes):
    """The batch writes observations: its observation rows have room for one (a batch made without
    observations has rows of width 0, and a step then costs what the rules and masks cost)."""
    return lanes[3].shape[1] > 0


@internal(cache=True, nogil=True)
def _start(i, records, blank, num_players, args, rngs, seeds, masks, length):
    """Lane ``i`` starts a new game with the next seed of its generator; returns the seat to move."""
    s = records[i : i + 1]
    s[0] = blank[0]  # a record copy: an array copy's shape check would compile numba's string formatting
    seeds[i] = next_u64(rngs[i])
    init_state(s, num_players, seeds[i], args)
    length[i] = 0
    legal_mask(s, masks[i])
    return to_move(s)


@internal(cache=True, nogil=True)
def _play_forced(i, s, seat, skip_forced, limit, masks, length, forced):
    """With ``skip_forced``, apply lane ``i``'s decisions that have one legal action (no choice: not asked)
    until a real choice, the end of the game or the decision limit; returns the seat to move (< 0: over)."""
    while seat >= 0 and skip_forced and count_legal(masks[i]) == 1 and length[i] != limit:
        seat = step_and_mask(s, nth_legal(masks[i], 0), masks[i])
        length[i] += 1
        forced[i] += 1
    return seat


@internal(cache=True, nogil=True)
def _finish(i, s, num_players, why, acting, lanes):
    """Lane ``i``'s game is over (``why``: ENDED or CUT): its rewards (the rules' returns; 0 at the limit, as in
    the env) and what the caller keeps of it after the restart: seed, length, scores, returns and the last
    position as ``acting`` (the seat whose action ended it) sees it."""
    seeds, rewards, terminated, truncated, length = lanes[1], lanes[5], lanes[6], lanes[7], lanes[8]
    final_seed, final_length, final_scores, final_returns = lanes[10:14]
    terminated[i] = why == ENDED
    truncated[i] = why == CUT
    final_returns[i, :] = 0.0
    if why == ENDED:
        returns(s, final_returns[i])
        for p in range(num_players):
            rewards[i, p] = final_returns[i, p]
    final_seed[i] = seeds[i]
    final_length[i] = length[i]
    scores(s, final_scores[i])
    if observing(lanes):
        observe(s, acting, lanes[14][i])


@internal(cache=True, nogil=True)
def _settle(i, seat, acting, records, blank, num_players, args, skip_forced, limit, lanes):
    """After ``acting``'s decision: play forced ones if asked; restart lane ``i`` when its game is over (the first
    game to end in this call gives the rewards); observe for the seat to move."""
    rngs, seeds, masks, obs, seats, _, terminated, truncated, length, forced = lanes[:10]
    s = records[i : i + 1]
    restarts = 0
    while True:
        seat = _play_forced(i, s, seat, skip_forced, limit, masks, length, forced)
        why = ENDED if seat < 0 else (CUT if length[i] == limit else 0)
        if why == 0:
            break
        if restarts == MAX_RESTARTS:  # only a game that ends in its forced opening gets here
            seat = NO_SEAT
            break
        if not (terminated[i] or truncated[i]):
            _finish(i, s, num_players, why, acting, lanes)
        seat = _start(i, records, blank, num_players, args, rngs, seeds, masks, length)
        restarts += 1
    seats[i] = seat
    if seat >= 0 and observing(lanes):
        observe(s, seat, obs[i])


@internal(cache=True, nogil=True)
def _lane(i, start, action, records, blank, num_players, args, skip_forced, limit, lanes):
    """One lane: a new game (``start``) or ``action`` applied, then on to the next decision (``_settle``)."""
    rngs, seeds, masks, _, seats, rewards, terminated, truncated, length, forced = lanes[:10]
    rewards[i, :] = 0.0
    terminated[i] = False
    truncated[i] = False
    forced[i] = 0
    if start:
        seat = _start(i, records, blank, num_players, args, rngs, seeds, masks, length)
        acting = seat
    else:
        acting = seats[i]
        seat = step_and_mask(records[i : i + 1], action, masks[i])
        length[i] += 1
    _settle(i, seat, acting, records, blank, num_players, args, skip_forced, limit, lanes)


@njit(cache=True, nogil=True, inline="always")
def _prefetch_lane(i, records, lanes):
    """Start loading lane ``i``'s record, mask and observation row while the lane before it is played."""
    prefetch_row(records, i)
    prefetch_row_for_write(lanes[2], i)
    prefetch_row_for_write(lanes[3], i)


@internal(cache=True, nogil=True)
def _without_seat(seats):
    """The first lane left without a seat to move (``NO_SEAT``: its new games ended in their forced openings, which
    the kernel contract rules out), or -1: the entries' check, so that the caller needs no pass of its own."""
    for i in range(seats.shape[0]):
        if seats[i] < 0:
            return i
    return -1


# One entry point from Python for starting and stepping: numba optimises each entry with the whole rules tree it
# calls, so a second entry (a separate start) would cost a second compile of the game.
@njit(cache=True, nogil=True)
def run_lanes(start, records, actions, blank, num_players, args, skip_forced, limit, lanes):
    """Every lane starts a new game (``start``) or applies ``actions[i]`` (legal, checked by the caller), then
    moves on to its next decision, forced ones played if asked; returns ``_without_seat`` (-1: every lane has one)."""
    n = records.shape[0]
    for i in range(n):
        if i + 1 < n:
            _prefetch_lane(i + 1, records, lanes)
        _lane(i, start, actions[i], records, blank, num_players, args, skip_forced, limit, lanes)
    return _without_seat(lanes[4])


@njit(cache=True, nogil=True, parallel=True)
def run_lanes_parallel(start, records, actions, blank, num_players, args, skip_forced, limit, lanes):
    """``run_lanes`` with the lanes spread over numba's threads (``numba.set_num_threads``)."""
    n = records.shape[0]
    for i in prange(n):
        if i + 1 < n:
            _prefetch_lane(i + 1, records, lanes)
        _lane(i, start, actions[i], records, blank, num_players, args, skip_forced, limit, lanes)
    return _without_seat(lanes[4])


@njit(cache=True, nogil=True)
def first_illegal(masks, actions):
    """The first lane whose action is outside ``0..NUM_ACTIONS - 1`` or illegal for its seat to move (-1: none):
    the caller's check before a step, one pass with no temporary arrays."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= masks.shape[1] or masks[i, a] == 0:
            return i
    return -1


@njit(cache=True, nogil=True)
def observe_every_seat(records, num_players, out):
    """``out[i, p]``: seat ``p``'s own observation of lane ``i`` (for centralised critics)."""
    for i in range(records.shape[0]):
        for p in range(num_players):
            observe(records[i : i + 1], p, out[i, p])
