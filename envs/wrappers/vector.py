"""``KernelVecEnv``: many games of one kind as a stable-baselines3 ``VecEnv``, stepped in one numba call.

Each of ``num_envs`` records has one learning seat (rotating over episodes, like ``SingleSeatEnv``).
With uniformly random opponents the whole batch -- learner actions, opponents' moves, rewards,
observations and masks -- advances in a single numba call per step; ``action_masks()`` returns all
masks at once (and ``env_method("action_masks")``, which sb3-contrib's MaskablePPO calls, reads the same
array). Any other opponents (heuristic, MCTS, frozen policies, pools) fall back to a Python loop over
``SingleSeatEnv`` views with identical semantics. Finished games restart at once; the last observation
is in ``info["terminal_observation"]`` (the SB3 convention) and the seat's final score in
``info["score"]``. ``skip_forced=True`` (the default, as in ``SingleSeatEnv``) applies a learner's
decisions with one legal action without asking.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from ...kernels._common.dispatch import is_over, legal_mask, observe, returns, step
from ._actions import batch_actions, check_batch_legal
from ._fast import advance_random
from .single_seat import SingleSeatEnv


@njit(cache=True, nogil=True)
def batch_step(records, actions, seats, rngs, mask, obs, masks, rewards, dones, value, skip_forced):
    """Learner actions, then random opponents (and forced learner moves), for every record; fills obs,
    masks, rewards, dones."""
    for i in range(records.shape[0]):
        s = records[i : i + 1]
        step(s, actions[i])
        advance_random(s, seats[i], rngs[i], mask, skip_forced)
        dones[i] = is_over(s)
        rewards[i] = 0.0
        if dones[i]:
            returns(s, value)
            rewards[i] = value[seats[i]]
        observe(s, seats[i], obs[i])
        legal_mask(s, masks[i])


class KernelVecEnv(VecEnv):
    """Env ``i`` behaves exactly like ``SingleSeatEnv(game, num_players, opponents, seed=[seed, i])``."""

    def __init__(
        self,
        game: str = "irish_gauge",
        num_envs: int = 8,
        num_players: int | None = None,
        opponents="random",
        seed: int = 0,
        skip_forced: bool = True,
        **options,
    ):
        self.views = [
            SingleSeatEnv(game, num_players, opponents=opponents, seed=[seed, i], skip_forced=skip_forced, **options)
            for i in range(num_envs)
        ]
        self.skip_forced = skip_forced
        first = self.views[0]
        super().__init__(num_envs, first.observation_space, first.action_space)
        self.render_mode = None
        self.kernel = k = first.kernel
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

    # --- the VecEnv protocol ---------------------------------------------------------------------
    def reset(self):
        for i in range(self.num_envs):
            self._restart(i)
        return self.obs.copy()

    def _restart(self, i: int) -> None:
        view = self.views[i]
        self.obs[i], info = view.reset()
        self.seats[i] = info["seat"]
        self.masks[i] = view.action_masks()

    def step_async(self, actions) -> None:
        self._actions = batch_actions(actions, self.num_envs, self.kernel.NUM_ACTIONS)

    def step_wait(self):
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
            )
            for i in np.flatnonzero(dones):
                scores = np.zeros(self.kernel.MAX_PLAYERS, np.int64)
                self.kernel.scores(self.records[i : i + 1], scores)
                infos[i] = {
                    "seat": int(self.seats[i]),
                    "score": int(scores[self.seats[i]]),
                    "scores": scores[: self.num_players].tolist(),
                }
        else:
            for i, view in enumerate(self.views):
                self.obs[i], rewards[i], dones[i], _, infos[i] = view.step(self._actions[i])
                self.masks[i] = view.action_masks()
        for i in np.flatnonzero(dones):
            infos[i]["terminal_observation"] = self.obs[i].copy()
            self._restart(i)
        return self.obs.copy(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """All learners' legal-action masks, shape (num_envs, NUM_ACTIONS), in one call."""
        return self.masks.astype(bool)

    def env_method(self, method_name, *args, indices=None, **kwargs):
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        return [getattr(self.views[i], method_name)(*args, **kwargs) for i in rows]

    def get_attr(self, attr_name, indices=None):
        return [getattr(self.views[i], attr_name) for i in self._indices(indices)]

    def set_attr(self, attr_name, value, indices=None) -> None:
        for i in self._indices(indices):
            setattr(self.views[i], attr_name, value)

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(self._indices(indices))

    def close(self) -> None:
        pass

    def _indices(self, indices):
        if indices is None:
            return list(range(self.num_envs))
        return [indices] if isinstance(indices, int) else list(indices)
