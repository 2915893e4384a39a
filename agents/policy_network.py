"""The self-play policy network and its files, beside the agent that plays them (``policy_agent.py``).

The network is SB3's default ``MlpPolicy`` for MaskablePPO: separate actor and critic MLPs of two tanh
layers of 64, orthogonal initialisation (gain sqrt(2) for hidden layers, 0.01 for the logits, 1 for the
value), so throughput and learning compare like for like. Illegal actions get probability 0 (their logits
are masked before the softmax). Both see only the deciding seat's own observation.

``policy.pt`` (``policy_blob`` / ``load_policy``) holds what playing needs: the game, the sizes, the layer
widths and the actor's weights. ``SelfPlayPolicy.predict`` answers in SB3's shape, so ``PolicyAgent`` can
play either kind of model. The self-play trainer (``tabletop_zoo/selfplay``) imports the network and the
formats from here; no agent imports a trainer.
"""

from __future__ import annotations

import math
import pathlib

import numpy as np
import torch
from torch import nn

from .az.network import load_plain

POLICY_FORMAT = "tabletop_zoo.selfplay.policy/1"
CHECKPOINT_FORMAT = "tabletop_zoo.selfplay.checkpoint/2"  # /1 held numpy objects: read only by unpickling


def mlp(sizes: list[int], out_gain: float) -> nn.Sequential:
    """Linear + tanh layers with SB3's orthogonal initialisation; no activation after the last layer."""
    layers: list[nn.Module] = []
    for j in range(len(sizes) - 1):
        linear = nn.Linear(sizes[j], sizes[j + 1])
        last = j == len(sizes) - 2
        nn.init.orthogonal_(linear.weight, out_gain if last else math.sqrt(2))
        nn.init.zeros_(linear.bias)
        layers.append(linear)
        if not last:
            layers.append(nn.Tanh())
    return nn.Sequential(*layers)


class ActorCritic(nn.Module):
    """``actor(obs) -> logits[NUM_ACTIONS]`` and ``critic(obs) -> value``, separate MLPs (SB3's default)."""

    def __init__(self, obs_size: int, num_actions: int, hidden: tuple[int, ...] = (64, 64)):
        super().__init__()
        self.obs_size, self.num_actions, self.hidden = int(obs_size), int(num_actions), tuple(int(h) for h in hidden)
        self.actor = mlp([self.obs_size, *self.hidden, self.num_actions], 0.01)
        self.critic = mlp([self.obs_size, *self.hidden, 1], 1.0)

    @torch.no_grad()
    def act(
        self,
        obs: np.ndarray,
        mask: np.ndarray,
        generator: torch.Generator | None,
        deterministic: bool = False,
        with_value: bool = True,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """Actions (sampled with ``generator``, or the most likely legal one), their log-probabilities and
        the values (None without ``with_value``: seats that only play skip the critic), for a batch of
        observations and uint8/bool masks."""
        o = torch.from_numpy(obs)
        legal = torch.from_numpy(np.asarray(mask, bool))
        logits = self.actor(o).masked_fill(~legal, -math.inf)
        logp_all = torch.log_softmax(logits, -1)
        if deterministic:
            action = logits.argmax(-1)
        else:  # inverse CDF with an explicit generator: the worker's own draws (same on every backend), and
            # cheaper than torch.multinomial on small batches
            cdf = logp_all.exp().cumsum(-1)
            u = torch.rand(cdf.shape[0], 1, generator=generator) * cdf[:, -1:]
            # the first index where the CDF exceeds u is where it rises: a legal action (u < total)
            action = torch.searchsorted(cdf, u, right=True).squeeze(-1)
        logp = logp_all.gather(-1, action[:, None]).squeeze(-1)
        value = self.critic(o).squeeze(-1).numpy() if with_value else None
        return action.numpy(), logp.numpy(), value

    @torch.no_grad()
    def value(self, obs: np.ndarray) -> np.ndarray:
        return self.critic(torch.from_numpy(obs)).squeeze(-1).numpy()

    def config(self) -> dict:
        return {"obs_size": self.obs_size, "num_actions": self.num_actions, "hidden": list(self.hidden)}


def policy_blob(net: ActorCritic, game_id: str, num_players: int, meta: dict) -> dict:
    """What ``policy.pt`` holds: tensors and plain values only."""
    return {
        "format": POLICY_FORMAT,
        "game": game_id,
        "num_players": num_players,
        "network": net.config(),
        "actor": net.actor.state_dict(),
        "critic": net.critic.state_dict(),
        "meta": meta,
    }


class SelfPlayPolicy:
    """A saved self-play policy with SB3's ``predict(obs, action_masks=..., deterministic=...)`` face."""

    def __init__(self, net: ActorCritic, game_id: str, num_players: int, meta: dict):
        self.net, self.game_id, self.num_players, self.meta = net, game_id, num_players, meta
        self._generator = torch.Generator().manual_seed(0)

    def set_random_seed(self, seed: int) -> None:
        self._generator.manual_seed(int(seed))

    def predict(self, observation, action_masks, deterministic: bool = True):
        obs = np.asarray(observation, np.float32).reshape(1, self.net.obs_size)
        mask = np.asarray(action_masks, bool).reshape(1, self.net.num_actions)
        if not mask.any():
            raise ValueError("the action mask has no legal action: this seat is not to move")
        action, _, _ = self.net.act(obs, mask, self._generator, deterministic, with_value=False)
        return int(action[0]), None


def load_policy(path: str | pathlib.Path, data=None) -> SelfPlayPolicy:
    """Load ``policy.pt`` (or a trainer ``checkpoint.pt``) written by the self-play trainer (``data``: the file's
    contents when already read; ``path`` then only names it in errors). Tensors and plain values only: a file
    that needs unpickling is refused, never run."""
    if data is None:
        data = load_plain(path, f"a self-play policy file (format {POLICY_FORMAT!r})")
    if isinstance(data, dict) and data.get("format") == CHECKPOINT_FORMAT:
        data = data["policy"]
    if not isinstance(data, dict) or data.get("format") != POLICY_FORMAT:
        raise ValueError(f"{path} is not a self-play policy file (expected format {POLICY_FORMAT!r})")
    cfg = data["network"]
    net = ActorCritic(cfg["obs_size"], cfg["num_actions"], tuple(cfg["hidden"]))
    net.actor.load_state_dict(data["actor"])
    net.critic.load_state_dict(data["critic"])
    net.eval()
    return SelfPlayPolicy(net, data["game"], data["num_players"], data.get("meta", {}))
