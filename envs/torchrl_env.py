"""``TorchRLVecEnv``: a ``make_vec`` batch as a TorchRL ``EnvBase`` (``vec.torchrl()``; needs torchrl).

Batch-locked with ``batch_size=[num_envs]``. Keys: ``observation`` (float32[B, OBS_SIZE], the seat to move's own
view), ``action_mask`` (bool[B, NUM_ACTIONS]), ``current_player`` (int64[B]), ``action`` (int64[B], one per
lane), ``reward`` (float32[B, num_players]: every seat's reward for the step, so a shared policy credits each
seat), ``done``/``terminated``/``truncated`` (bool[B, 1]). ``rand_action`` draws legal actions from the
tensordict's ``action_mask`` (as TorchRL's tic-tac-toe does), so ``check_env_specs`` and random rollouts play
legal moves; the action spec itself carries no mask, which changes every step.

Resets follow TorchRL's convention: a finished lane reports ``done`` with its last position in ``("next",
"observation")`` (as the seat that acted sees it) and no legal action, and the next ``reset`` with ``"_reset"``
gives its new game. The batch has already started that game inside the step (``make_vec``'s autoreset), so such a
reset only hands it over; a reset without ``"_reset"`` restarts every lane (``set_seed`` picks the seeds).
"""

from __future__ import annotations

import numpy as np
import torch
from tensordict import TensorDict, TensorDictBase
from torchrl.data.tensor_specs import Binary, Bounded, Categorical, Composite, Unbounded
from torchrl.envs import EnvBase

from ..kernels._common.layout import observation_bounds
from .vector import VecGames


def _observation_bounds(kernel, lanes: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Each lane's observation bounds from the kernel's layout table, as (low, high) tensors of (lanes, OBS_SIZE)."""
    return tuple(torch.from_numpy(a).expand(lanes, -1) for a in observation_bounds(kernel.OBS_PIECES))


class TorchRLVecEnv(EnvBase):
    """The batch ``vec`` behind TorchRL's ``EnvBase`` (see the module docstring)."""

    batch_locked = True

    def __init__(self, vec: VecGames, device: str = "cpu") -> None:
        vec.need_observations("the TorchRL env")
        super().__init__(device=device, batch_size=torch.Size([vec.num_envs]))
        self.vec = vec
        self._seed: int | None = None
        self._started = False
        b, k, n = vec.num_envs, vec.kernel, vec.num_players
        self.observation_spec = Composite(
            observation=Bounded(*_observation_bounds(k, b), shape=(b, k.OBS_SIZE), dtype=torch.float32, device=device),
            action_mask=Binary(n=k.NUM_ACTIONS, shape=(b, k.NUM_ACTIONS), dtype=torch.bool, device=device),
            current_player=Categorical(n=n, shape=(b,), dtype=torch.int64, device=device),
            shape=(b,),
            device=device,
        )
        self.action_spec = Categorical(n=k.NUM_ACTIONS, shape=(b,), dtype=torch.int64, device=device)
        self.reward_spec = Unbounded(shape=(b, n), dtype=torch.float32, device=device)
        done = Categorical(n=2, shape=(b, 1), dtype=torch.bool, device=device)
        self.done_spec = Composite(
            done=done, terminated=done.clone(), truncated=done.clone(), shape=(b,), device=device
        )

    def _set_seed(self, seed: int | None) -> None:
        self._seed = None if seed is None else int(seed) % 2**64

    def _reset(self, tensordict: TensorDictBase | None = None, **kwargs) -> TensorDictBase:
        partial = tensordict is not None and "_reset" in tensordict.keys()
        if not (partial and self._started):  # a full reset: every lane starts a new game
            self.vec.reset(self._seed)
            self._started = True
        named = self.vec._named  # the lanes that were done already hold their next game (autoreset)
        td = self._decision(named["obs"], named["masks"], named["seats"])
        zeros = torch.zeros(self.batch_size + (1,), dtype=torch.bool, device=self.device)
        td.update({"done": zeros, "terminated": zeros.clone(), "truncated": zeros.clone()})
        return td

    def _step(self, tensordict: TensorDictBase) -> TensorDictBase:
        acting = self.vec.current_seats()
        out = self.vec.step(tensordict.get("action").cpu().numpy())
        ended = out.terminated | out.truncated
        obs = np.where(ended[:, None], self.vec.final.observation, out.observation)
        mask = np.where(ended[:, None], 0, out.action_mask)  # a finished game has no move until its reset
        td = self._decision(obs, mask, np.where(ended, acting, out.current_player))
        terminated = torch.tensor(out.terminated, device=self.device).unsqueeze(-1)
        truncated = torch.tensor(out.truncated, device=self.device).unsqueeze(-1)
        td.update(
            {
                "reward": torch.tensor(out.rewards, dtype=torch.float32, device=self.device),
                "done": terminated | truncated,
                "terminated": terminated,
                "truncated": truncated,
            }
        )
        return td

    def _decision(self, obs: np.ndarray, mask: np.ndarray, seats: np.ndarray) -> TensorDict:
        return TensorDict(
            {
                "observation": torch.tensor(obs, dtype=torch.float32, device=self.device),
                # copies: the batch's buffers change with its next step, a tensordict keeps what it was given
                "action_mask": torch.tensor(np.asarray(mask, bool), device=self.device),
                "current_player": torch.tensor(np.asarray(seats, np.int64), device=self.device),
            },
            batch_size=self.batch_size,
            device=self.device,
        )

    def rand_action(self, tensordict: TensorDictBase | None = None) -> TensorDictBase:
        """A uniformly random legal action per lane (from ``tensordict["action_mask"]`` when given)."""
        if tensordict is None:
            tensordict = TensorDict(batch_size=self.batch_size, device=self.device)
        spec = self.action_spec.clone()
        mask = tensordict.get("action_mask", None)
        if mask is not None and mask.any(-1).all():
            spec.update_mask(mask)
        tensordict.set(self.action_key, spec.rand())
        return tensordict
