"""``KernelVecEnv``: many games of one kind as a stable-baselines3 ``VecEnv``, stepped in one numba call.

Each of ``num_envs`` records has one learning seat (rotating over episodes, like ``SingleSeatEnv``).
With uniformly random opponents the whole batch -- learner actions, opponents' moves, rewards,
observations, masks and the restart of finished games -- advances in a single numba call per step;
``action_masks()`` returns all masks at once (and ``env_method("action_masks")``, which sb3-contrib's
MaskablePPO calls, reads the same array). Any other opponents (heuristic, MCTS, frozen policies, pools) fall
back to a Python loop over ``SingleSeatEnv`` views with identical semantics. Finished games restart at once;
the last observation is in ``info["terminal_observation"]`` (the SB3 convention) and the seat's final score in
``info["score"]``. ``skip_forced=True`` (the default, as in ``SingleSeatEnv``) applies a learner's decisions
with one legal action without asking.

With random opponents a finished game restarts inside numba (``_fast.restart_seat``) with the draws
``SingleSeatEnv.reset`` would make from the view's generator (its PCG64 state lives in ``gens``), so env ``i``
still plays exactly ``SingleSeatEnv(game, num_players, seed=[seed, i])``'s games; the views are brought up to
date (generator, episode, seat, opponents) only when ``get_attr``, ``set_attr`` or ``env_method`` reach them.
The observation and action spaces are one pair per game, shared by every env and view.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces
from numba import njit
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from ... import registry
from ...kernels._common.dispatch import is_over, observe, returns, scores, step
from ...kernels._common.layout import observation_bounds
from ._actions import batch_actions, check_batch_legal
from ._fast import RANDOM_SEAT, advance_random, pcg64_row, pcg64_state, restart_seat, seat_view
from .single_seat import OpponentSpec, SingleSeatEnv

# The attributes of a view that the numba restarts change (a get_attr of any other reads the view as it is).
_RESTART_STATE = frozenset({"seat", "_rng", "_episode", "_agents", "_all_random", "np_random"})
_SPACES: dict = {}  # game id -> (observation Box, action Discrete), shared by every env of that game


def shared_spaces(kernel) -> tuple:
    """The game's ``(Box(0, inf, (OBS_SIZE,), float32), Discrete(NUM_ACTIONS))``, built once per game."""
    if kernel.GAME_ID not in _SPACES:
        _SPACES[kernel.GAME_ID] = (
            spaces.Box(*observation_bounds(kernel.OBS_PIECES), dtype=np.float32),
            spaces.Discrete(kernel.NUM_ACTIONS),
        )
    return _SPACES[kernel.GAME_ID]


@njit(cache=True, nogil=True)
def batch_step(records, actions, seats, rngs, mask, obs, masks, rewards, dones, value, skip_forced, restart, ended) -> None:  # fmt: skip
    """Learner actions, then random opponents (and forced learner moves), for every record; fills obs,
    masks, rewards, dones; a finished game leaves its last observation, scores and seat in ``ended`` and
    restarts (``restart``: the arguments of ``restart_seat`` after ``records``)."""
    final_obs, final_scores, final_seats = ended
    blank, num_players, args, gens, episodes, learner, opponent_seeds = restart
    for i in range(records.shape[0]):
        s = records[i : i + 1]
        step(s, actions[i])
        advance_random(s, seats[i], rngs[i], mask, skip_forced)
        dones[i] = is_over(s)
        rewards[i] = 0.0
        if dones[i]:
            returns(s, value)
            rewards[i] = value[seats[i]]
            observe(s, seats[i], final_obs[i])
            scores(s, final_scores[i])
            final_seats[i] = seats[i]
            seats[i] = restart_seat(
                i, records, blank, num_players, args, gens, episodes, learner, opponent_seeds, rngs, mask, skip_forced
            )
        seat_view(s, seats[i], obs[i], masks[i])


@njit(cache=True, nogil=True)
def restart_all(records, seats, rngs, mask, obs, masks, skip_forced, restart) -> None:
    """Every env starts its next episode (``SingleSeatEnv.reset()`` of each view, inside numba)."""
    blank, num_players, args, gens, episodes, learner, opponent_seeds = restart
    for i in range(records.shape[0]):
        seats[i] = restart_seat(
            i, records, blank, num_players, args, gens, episodes, learner, opponent_seeds, rngs, mask, skip_forced
        )
        seat_view(records[i : i + 1], seats[i], obs[i], masks[i])


class KernelVecEnv(VecEnv):
    """Env ``i`` behaves exactly like ``SingleSeatEnv(game, num_players, opponents, seed=[seed, i])``."""

    def __init__(
        self,
        game: str = registry.DEFAULT_GAME,
        num_envs: int = 8,
        num_players: int | None = None,
        opponents: OpponentSpec = "random",
        seed: int = 0,
        skip_forced: bool = True,
        **options,
    ) -> None:
        self.views = [
            SingleSeatEnv(game, num_players, opponents=opponents, seed=[seed, i], skip_forced=skip_forced, **options)
            for i in range(num_envs)
        ]
        self.skip_forced = skip_forced
        first = self.views[0]
        self.kernel = k = first.kernel
        observation_space, action_space = shared_spaces(k)
        for view in self.views:  # one pair per game, not one per env
            view.observation_space, view.action_space = observation_space, action_space
        super().__init__(num_envs, observation_space, action_space)
        self.render_mode = None
        self.game_id, self.num_players = first.game_id, first.num_players
        self.native = isinstance(opponents, str) and opponents == "random"
        # The views' records and opponent generators live in these arrays, so one numba call steps them all.
        self.records = np.zeros(num_envs, k.STATE)
        self.rngs = np.zeros((num_envs, 1), np.uint64)
        for i, view in enumerate(self.views):
            view._s = self.records[i : i + 1]
            view._policy_rng = self.rngs[i]
        self.seats = np.zeros(num_envs, np.int64)
        self.obs = np.zeros((num_envs, k.OBS_SIZE), np.float32)
        self.masks = np.zeros((num_envs, k.NUM_ACTIONS), np.uint8)
        self._scratch = np.zeros(k.NUM_ACTIONS, np.uint8)
        self._value = np.zeros(k.MAX_PLAYERS, np.float64)
        self._actions = np.zeros(num_envs, np.int64)
        # Native restarts (random opponents): each view's generator, episode count, learner seat and opponent
        # seeds, held for numba (the views are updated from them when reached: ``_push``/``_pull``).
        self.gens = np.stack([pcg64_row(view._rng) for view in self.views])
        self.episodes = np.zeros(num_envs, np.int64)
        self.learner = np.full(num_envs, RANDOM_SEAT, np.int64)
        self.opponent_seeds = np.zeros((num_envs, max(self.num_players - 1, 1)), np.uint64)
        self._restart_args = (
            np.zeros(1, k.STATE),
            self.num_players,
            k.game_args(self.num_players, **first.options),
            self.gens,
            self.episodes,
            self.learner,
            self.opponent_seeds,
        )
        self._ended = (
            np.zeros((num_envs, k.OBS_SIZE), np.float32),
            np.zeros((num_envs, k.MAX_PLAYERS), np.int64),
            np.zeros(num_envs, np.int64),
        )
        self._views_stale = False  # the numba restarts moved on since the views were last brought up to date

    # --- the VecEnv protocol ---------------------------------------------------------------------
    def reset(self) -> np.ndarray:
        """A new episode in every env: the learners' observations, float32[num_envs, OBS_SIZE]."""
        if self.native:
            restart_all(
                self.records, self.seats, self.rngs, self._scratch, self.obs, self.masks, self.skip_forced,
                self._restart_args,
            )  # fmt: skip
            self._views_stale = True
        else:
            for i in range(self.num_envs):
                self._restart(i)
        return self.obs.copy()

    def _restart(self, i: int) -> None:
        view = self.views[i]
        self.obs[i], info = view.reset()
        self.seats[i] = info["seat"]
        self.masks[i] = view.action_masks()

    def step_async(self, actions: np.ndarray) -> None:
        """Take one action per env (checked here: integers in range; legality is checked by ``step_wait``)."""
        self._actions = batch_actions(actions, self.num_envs, self.kernel.NUM_ACTIONS)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict]]:
        """Step every env: ``(observations, rewards, dones, infos)``, SB3's convention (a finished game restarts;
        its last observation is ``infos[i]["terminal_observation"]``). An illegal action raises ``ValueError``."""
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, np.bool_)
        infos = [{} for _ in range(self.num_envs)]
        if self.native:
            check_batch_legal(self._actions, self.masks, self.seats)
            batch_step(
                self.records,
                self._actions,
                self.seats,
                self.rngs,
                self._scratch,
                self.obs,
                self.masks,
                rewards,
                dones,
                self._value,
                self.skip_forced,
                self._restart_args,
                self._ended,
            )
            final_obs, final_scores, final_seats = self._ended
            for i in np.flatnonzero(dones):
                seat = int(final_seats[i])
                infos[i] = {
                    "seat": seat,
                    "score": int(final_scores[i, seat]),
                    "scores": final_scores[i, : self.num_players].tolist(),
                    "terminal_observation": final_obs[i].copy(),
                }
                self._views_stale = True
        else:
            for i, view in enumerate(self.views):
                self.obs[i], rewards[i], dones[i], _, infos[i] = view.step(self._actions[i])
                self.masks[i] = view.action_masks()
            for i in np.flatnonzero(dones):
                infos[i]["terminal_observation"] = self.obs[i].copy()
                self._restart(i)
        return self.obs.copy(), rewards, dones, infos

    # --- the views, brought up to date with the numba restarts when reached ------------------------
    def _push(self) -> None:
        """Each view's generator, episode count, seat and opponents as the numba restarts left them."""
        if not (self.native and self._views_stale):
            return
        from tabletop_zoo.agents import make_agent

        for i, view in enumerate(self.views):
            view._rng.bit_generator.state = pcg64_state(self.gens[i])
            view._episode = int(self.episodes[i])
            if self.episodes[i]:
                view.seat = seat = int(self.seats[i])
                others = [make_agent("random", self.game_id, seed=int(x)) for x in self.opponent_seeds[i]]
                view._agents = others[: self.num_players - 1]
                view._agents.insert(seat, None)
                view._all_random = True
        self._views_stale = False

    def _pull(self) -> None:
        """What a view call may have changed (a ``reset``, a fixed ``learner_seat``) back into the numba arrays."""
        if not self.native:
            return
        for i, view in enumerate(self.views):
            self.gens[i] = pcg64_row(view._rng)
            self.episodes[i] = view._episode
            self.seats[i] = view.seat
            self.learner[i] = RANDOM_SEAT if view.learner_seat == "rotate" else view.learner_seat

    def action_masks(self) -> np.ndarray:
        """All learners' legal-action masks, shape (num_envs, NUM_ACTIONS), in one call."""
        return self.masks.astype(bool)

    def env_method(self, method_name: str, *args, indices=None, **kwargs) -> list:
        """Call ``method_name`` on the views of ``indices`` (all by default); ``action_masks`` reads the batch."""
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        self._push()
        try:
            return [getattr(self.views[i], method_name)(*args, **kwargs) for i in rows]
        finally:
            self._pull()

    def get_attr(self, attr_name: str, indices=None) -> list:
        """An attribute of the views of ``indices`` (all by default), up to date with the numba restarts."""
        if attr_name in _RESTART_STATE:
            self._push()
        return [getattr(self.views[i], attr_name) for i in self._indices(indices)]

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        """Set an attribute on the views of ``indices`` (all by default)."""
        self._push()
        for i in self._indices(indices):
            setattr(self.views[i], attr_name, value)
        self._pull()

    def env_is_wrapped(self, wrapper_class: type, indices=None) -> list[bool]:
        """No view is wrapped (they are ``SingleSeatEnv`` themselves)."""
        return [False] * len(self._indices(indices))

    def close(self) -> None:
        """Nothing to release: the batch holds arrays only."""

    def _indices(self, indices):
        if indices is None:
            return list(range(self.num_envs))
        return [indices] if isinstance(indices, int) else list(indices)
