"""``KernelVecEnv``: many games of one kind as a stable-baselines3 ``VecEnv``, stepped in one numba call.

Each of ``num_envs`` records has one learning seat (rotating over episodes, like ``SingleSeatEnv``).
With uniformly random opponents the whole batch -- learner actions, opponents' moves, rewards,
observations and masks -- advances in a single numba call per step; ``action_masks()`` returns all
masks at once (and ``env_method("action_masks")``, which sb3-contrib's MaskablePPO calls, reads the same
array). Any other opponents (heuristic, MCTS, frozen policies, pools) fall back to a Python loop over
``SingleSeatEnv`` views with identical semantics. Finished games restart at once; the last observation
is in ``info["terminal_observation"]`` (the SB3 convention) and the seat's final score in
``info["score"]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from tabletop_zoo import registry

from ...kernels._common.dispatch import is_over, legal_mask, observe, returns, step
from ._fast import advance_random
from .single_seat import SingleSeatEnv


@njit(cache=True, nogil=True)
def batch_step(records, actions, seats, rng, mask, obs, masks, rewards, dones, value):
    """Learner actions, then random opponents, for every record; fills obs, masks, rewards, dones."""
    for i in range(records.shape[0]):
        s = records[i:i + 1]
        step(s, actions[i])
        advance_random(s, seats[i], rng, mask)
        dones[i] = is_over(s)
        rewards[i] = 0.0
        if dones[i]:
            returns(s, value)
            rewards[i] = value[seats[i]]
        observe(s, seats[i], obs[i])
        legal_mask(s, masks[i])


class KernelVecEnv(VecEnv):
    def __init__(self, game: str = "irish_gauge", num_envs: int = 8, num_players: int | None = None,
                 opponents="random", seed: int = 0, **options):
        self.game_id = registry._canonical(game)
        self.kernel = k = registry.kernel(self.game_id)
        probe = SingleSeatEnv(self.game_id, num_players, opponents="random", **options)
        super().__init__(num_envs, probe.observation_space, probe.action_space)
        self.num_players, self.options = probe.num_players, probe.options
        self.native = isinstance(opponents, str) and opponents == "random"
        self._rng = np.random.default_rng(seed)
        self.records = np.zeros(num_envs, k.STATE)
        self.seats = np.zeros(num_envs, np.int64)
        self.episodes = np.zeros(num_envs, np.int64)
        self.obs = np.zeros((num_envs, k.OBS_SIZE), np.float32)
        self.masks = np.zeros((num_envs, k.NUM_ACTIONS), np.uint8)
        self._policy_rng = np.array([self._rng.integers(2**63)], np.uint64)
        self._scratch = np.zeros(k.NUM_ACTIONS, np.uint8)
        self._value = np.zeros(k.MAX_PLAYERS, np.float64)
        self._actions = np.zeros(num_envs, np.int64)
        self.views = None if self.native else [
            SingleSeatEnv(self.game_id, num_players, opponents=opponents, seed=int(self._rng.integers(2**63)),
                          **options) for _ in range(num_envs)]

    # --- the VecEnv protocol ---------------------------------------------------------------------
    def reset(self):
        for i in range(self.num_envs):
            self._restart(i)
        return self.obs.copy()

    def _restart(self, i: int) -> None:
        k = self.kernel
        if self.views is not None:
            self.obs[i], info = self.views[i].reset(seed=int(self._rng.integers(2**63)))
            self.seats[i] = info["seat"]
            self.masks[i] = self.views[i].action_masks()
            return
        self.seats[i] = (i + self.episodes[i]) % self.num_players  # rotate the learner's seat
        self.episodes[i] += 1
        self.records[i] = k.new_state(self.num_players, int(self._rng.integers(2**63)), **self.options)[0]
        s = self.records[i:i + 1]
        advance_random(s, self.seats[i], self._policy_rng, self._scratch)
        k.observe(s, self.seats[i], self.obs[i])
        k.legal_mask(s, self.masks[i])

    def step_async(self, actions) -> None:
        self._actions = np.asarray(actions, np.int64).reshape(self.num_envs)

    def step_wait(self):
        rewards = np.zeros(self.num_envs, np.float32)
        dones = np.zeros(self.num_envs, np.bool_)
        infos = [{} for _ in range(self.num_envs)]
        if self.views is None:
            legal = self.masks[np.arange(self.num_envs), self._actions]
            if not legal.all():
                bad = int(np.flatnonzero(legal == 0)[0])
                raise ValueError(f"illegal action {self._actions[bad]} in env {bad} (seat {self.seats[bad]})")
            batch_step(self.records, self._actions, self.seats, self._policy_rng, self._scratch, self.obs,
                       self.masks, rewards, dones, self._value)
            for i in np.flatnonzero(dones):
                scores = np.zeros(self.kernel.MAX_PLAYERS, np.int64)
                self.kernel.scores(self.records[i:i + 1], scores)
                infos[i] = {"terminal_observation": self.obs[i].copy(), "seat": int(self.seats[i]),
                            "score": int(scores[self.seats[i]])}
                self._restart(i)
        else:
            for i, view in enumerate(self.views):
                self.obs[i], rewards[i], dones[i], _, info = view.step(self._actions[i])
                if dones[i]:
                    infos[i] = {**info, "terminal_observation": self.obs[i].copy()}
                    self._restart(i)
                else:
                    self.masks[i] = view.action_masks()
        return self.obs.copy(), rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """All learners' legal-action masks, shape (num_envs, NUM_ACTIONS), in one call."""
        return self.masks.astype(bool)

    def env_method(self, method_name, *args, indices=None, **kwargs):
        rows = self._indices(indices)
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in rows]
        if self.views is not None:
            return [getattr(self.views[i], method_name)(*args, **kwargs) for i in rows]
        raise AttributeError(f"KernelVecEnv has no per-env method {method_name!r}")

    def get_attr(self, attr_name, indices=None):
        rows = self._indices(indices)
        if attr_name == "action_masks":
            return [self.action_masks] * len(rows)
        if hasattr(self, attr_name):
            return [getattr(self, attr_name)] * len(rows)
        raise AttributeError(attr_name)

    def set_attr(self, attr_name, value, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(self._indices(indices))

    def close(self) -> None:
        pass

    def _indices(self, indices):
        if indices is None:
            return list(range(self.num_envs))
        return [indices] if isinstance(indices, int) else list(indices)
