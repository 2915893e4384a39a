"""A batch of games of one kind, stepped in numba, with every seat played by a chosen kind of player.

``BatchGames`` owns ``num_envs`` state records in one array (a batch = an array of records) and a seat
table ``kinds[env, seat]``: the current policy (``LEARNER``), a frozen snapshot (``SNAPSHOT + j``), the
game's heuristic (``HEURISTIC``) or a uniformly random player (``RANDOM``). One numba call, ``advance``,
applies the pending actions of a set of games and then plays, inside numba, every forced decision (a
single legal action: it is applied, never asked for, so it is never a training sample) and every
random seat, until each game waits for a non-forced decision of a seat that Python must answer (policy
or heuristic) or is over. After the call ``seats[i]`` is that seat (or ``-2`` when game ``i`` is over),
``masks[i]`` its legal mask and ``obs[i]`` its own observation: all masks and observations of the batch
in two arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..kernels._common.dispatch import is_over, legal_mask, observe, step_and_mask, to_move
from ..kernels._common.masks import count_legal, nth_legal, sample_legal
from ..kernels._common.rng import seed_rng
from . import plain

LEARNER, RANDOM, HEURISTIC, SNAPSHOT = 0, 1, 2, 3  # seat kinds; SNAPSHOT + j is snapshot j of the pool
OVER = -2  # seats[i] once game i has ended


@njit(cache=True, nogil=True)
def advance(records, rows, apply, actions, kinds, rngs, masks, obs, seats, movers, forced):
    """For each game in ``rows``: apply ``actions[i]`` (if ``apply``), then play forced decisions and random
    seats until a seat of another kind must choose or the game is over; fill ``seats``, ``masks``, ``obs``
    and ``movers`` (the seat that made the last decision applied). ``forced[0]`` counts forced decisions."""
    for r in range(rows.shape[0]):
        i = rows[r]
        s = records[i : i + 1]
        m = masks[i]
        if apply:
            movers[i] = seats[i]
            seat = step_and_mask(s, actions[i], m)
        else:
            legal_mask(s, m)
            seat = to_move(s)
        while seat >= 0 and not is_over(s):
            n = count_legal(m)
            if n == 1:  # forced: applied without asking anyone, so never a sample
                forced[0] += 1
                movers[i] = seat
                seat = step_and_mask(s, nth_legal(m, 0), m)
            elif kinds[i, seat] == RANDOM:
                movers[i] = seat
                seat = step_and_mask(s, sample_legal(m, rngs[i]), m)
            else:
                break
        if is_over(s):
            seats[i] = OVER
        else:
            seats[i] = seat
            observe(s, seat, obs[i])


class BatchGames:
    """``num_envs`` games of ``kernel`` with ``num_players`` seats; see the module docstring."""

    def __init__(self, kernel, num_envs: int, num_players: int, options: dict):
        k = self.kernel = kernel
        self.num_envs, self.num_players, self.options = num_envs, num_players, dict(options)
        self.records = np.zeros(num_envs, k.STATE)
        self.kinds = np.full((num_envs, k.MAX_PLAYERS), LEARNER, np.int64)
        self.rngs = np.zeros((num_envs, 1), np.uint64)
        self.masks = np.zeros((num_envs, k.NUM_ACTIONS), np.uint8)
        self.obs = np.zeros((num_envs, k.OBS_SIZE), np.float32)
        self.seats = np.full(num_envs, OVER, np.int64)
        self.movers = np.full(num_envs, -1, np.int64)
        self.actions = np.zeros(num_envs, np.int64)
        self.forced = np.zeros(1, np.int64)
        self._value = np.zeros(k.MAX_PLAYERS, np.float64)
        self._all = np.arange(num_envs, dtype=np.int64)

    def start(self, i: int, game_seed: int, policy_seed: int, kinds) -> None:
        """Set up game ``i`` (seat kinds ``kinds``) and play it up to its first non-forced Python decision."""
        self.records[i : i + 1] = self.kernel.new_state(self.num_players, game_seed, **self.options)
        self.kinds[i, :] = RANDOM
        self.kinds[i, : self.num_players] = kinds
        seed_rng(self.rngs[i], np.uint64(policy_seed))
        rows = np.array([i], np.int64)
        self._advance(rows, False)

    def step(self, rows: np.ndarray) -> None:
        """Apply ``self.actions[rows]`` (each legal for its game's pending seat) and advance those games."""
        rows = np.asarray(rows, np.int64)
        legal = self.masks[rows, self.actions[rows]]
        if not legal.all():
            bad = int(rows[np.flatnonzero(legal == 0)[0]])
            raise ValueError(
                f"illegal action {self.actions[bad]} in game {bad} (seat {self.seats[bad]}); legal: "
                f"{np.flatnonzero(self.masks[bad]).tolist()}"
            )
        self._advance(rows, True)

    def _advance(self, rows: np.ndarray, apply: bool) -> None:
        """``advance`` over the batch's arrays (``apply``: play ``self.actions[rows]`` first), then ``_check``."""
        arrays = (self.actions, self.kinds, self.rngs, self.masks, self.obs, self.seats, self.movers, self.forced)
        advance(self.records, rows, apply, *arrays)
        self._check(rows)

    def _check(self, rows: np.ndarray) -> None:
        waiting = rows[self.seats[rows] >= 0]
        empty = waiting[self.masks[waiting].sum(1) == 0]
        if empty.size:  # the kernel contract says this cannot happen; never hand an empty mask to a policy
            raise RuntimeError(f"game {int(empty[0])} waits for seat {self.seats[empty[0]]} with no legal action")

    def returns(self, i: int) -> np.ndarray:
        """Final rewards (win shares) of game ``i``'s seats."""
        self.kernel.returns(self.records[i : i + 1], self._value)
        return self._value[: self.num_players].copy()

    def scores(self, i: int) -> np.ndarray:
        out = np.zeros(self.kernel.MAX_PLAYERS, np.int64)
        self.kernel.scores(self.records[i : i + 1], out)
        return out[: self.num_players]

    def observe(self, i: int, seat: int) -> np.ndarray:
        out = np.zeros(self.kernel.OBS_SIZE, np.float32)
        self.kernel.observe(self.records[i : i + 1], seat, out)
        return out

    def get_state(self) -> dict:
        """Tensors only (``plain.py``): the records as their bytes, every other array as a tensor."""
        state = {name: plain.tensor(getattr(self, name)) for name in STATE_ARRAYS}
        return {"records": plain.record_bytes(self.records), **state}

    def set_state(self, state: dict) -> None:
        plain.load_records(self.records, state["records"])
        for name in STATE_ARRAYS:
            plain.load_array(getattr(self, name), state[name])


STATE_ARRAYS = ("kinds", "rngs", "masks", "obs", "seats", "movers", "forced")  # besides the records


def random_positions(
    kernel, num_players: int, num: int, max_moves: int, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Observations and bool masks of ``num`` decisions, each from its own game after a random number (up to
    ``max_moves``) of uniformly random moves: what a policy's forward sees in play (sparse observations, few legal
    moves), for tests and the training bench."""
    games = BatchGames(kernel, num, num_players, {})
    rng = np.random.default_rng(seed)
    learners = np.full(num_players, LEARNER)
    for i in range(num):
        games.start(i, i, 1000 + i, learners)
    stop = rng.integers(0, max_moves + 1, num)
    for move in range(max_moves):
        rows = np.flatnonzero(stop > move)
        games.actions[rows] = [rng.choice(np.flatnonzero(games.masks[i])) for i in rows]
        games.step(rows)
        for i in rows[games.seats[rows] == OVER]:
            games.start(i, num + i, int(rng.integers(2**31)), learners)
    return games.obs.copy(), games.masks.astype(bool)
