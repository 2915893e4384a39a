"""The PPO update: TorchRL's clipped objective over shuffled minibatches of the rollout's samples.

``clipped_loss`` computes the terms of TorchRL's ``ClipPPOLoss`` (``normalize_advantage=True``,
``loss_critic_type="l2"``, masked-categorical policy) on plain tensors: the clipped surrogate on advantages
standardised per minibatch, the critic's L2 loss on GAE's value targets and the entropy bonus over the legal
actions. ``tests/training/test_ppo_loss.py`` checks its values and gradients against ``ClipPPOLoss`` itself.
It is written here because ``ClipPPOLoss`` spends as long again on bookkeeping as on the loss for this small
CPU network (a tensordict clone, distribution objects, ESS and ratio statistics per minibatch): 160-175 ms
against 95-115 ms per minibatch of 1024 in Irish Gauge, where the network's forward alone is 25-30 ms.
The masked softmax exponentiates only the legal logits (``legal_softmax``): exp of the huge negative values
that mask the illegal ones takes a slow path in torch (2.3 ms against 0.2 ms for a minibatch's 1024 x 222), and the
loss's forward and backward of a minibatch of 1024 take about 8% less time without it (one thread, Irish Gauge).
The gradient norm is clipped and Adam steps once per minibatch; minibatch order comes from the trainer's
numpy generator, so the update is reproducible and resumable.
"""

from __future__ import annotations

import math

import numpy as np
import torch

from ..agents.policy_network import ActorCritic


def legal_softmax(logits: torch.Tensor, legal: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(log-probabilities, probabilities) of the softmax over each row's legal actions. The illegal entries are 0 in
    both and get no gradient; only legal logits, shifted by the row's legal maximum, are exponentiated."""
    top = logits.masked_fill(~legal, -math.inf).amax(-1, keepdim=True).detach()
    shifted = (logits - top).masked_fill(~legal, 0.0)
    e = shifted.exp().masked_fill(~legal, 0.0)
    total = e.sum(-1, keepdim=True)
    return (shifted - total.log()).masked_fill(~legal, 0.0), e / total


def clipped_loss(
    net: ActorCritic,
    obs: torch.Tensor,
    legal: torch.Tensor,
    action: torch.Tensor,
    old_logp: torch.Tensor,
    advantage: torch.Tensor,
    value_target: torch.Tensor,
    clip: float,
    ent_coef: float,
    vf_coef: float,
    teacher: torch.Tensor | None = None,
    kick_coef: float = 0.0,
) -> dict[str, torch.Tensor]:
    """ClipPPOLoss's ``loss_objective``, ``loss_critic`` and ``loss_entropy`` (to be summed) and its
    logged ``entropy`` and ``kl_approx``, for one minibatch. With a ``teacher`` (its action at each sample) also
    ``loss_kickstart``: ``kick_coef`` times the cross-entropy of the policy to the teacher's choices (Schmitt et
    al. 2018, "Kickstarting Deep Reinforcement Learning", with a teacher that names one move)."""
    logp_all, probs = legal_softmax(net.actor(obs), legal)
    logp = logp_all.gather(-1, action[:, None]).squeeze(-1)
    adv = (advantage - advantage.mean()) / advantage.std().clamp_min(1e-6)
    log_ratio = logp - old_logp
    clipped = log_ratio.clamp(math.log1p(-clip), math.log1p(clip))
    ratio = log_ratio.exp()
    gain = torch.minimum(ratio * adv, clipped.exp() * adv)
    entropy = -(probs * logp_all).sum(-1)
    value = net.critic(obs).squeeze(-1)
    out = {
        "loss_objective": -gain.mean(),
        "loss_critic": vf_coef * (value - value_target).pow(2).mean(),
        "loss_entropy": -ent_coef * entropy.mean(),
        "entropy": entropy.detach().mean(),
        "kl_approx": (-log_ratio).detach().mean(),
        "kl_k3": (ratio - 1 - log_ratio).detach().mean(),  # >= 0: SB3's target_kl estimate
    }
    if teacher is not None:
        out["loss_kickstart"] = -kick_coef * logp_all.gather(-1, teacher[:, None]).mean()
    return out


class PPOUpdate:
    def __init__(
        self,
        net: ActorCritic,
        lr: float,
        clip: float,
        ent_coef: float,
        vf_coef: float,
        max_grad_norm: float,
        target_kl: float = 0.0,
    ):
        self.net = net
        self.target_kl = target_kl  # > 0: stop an update once a minibatch's KL from the rollout policy passes 1.5x it
        self.clip, self.ent_coef, self.vf_coef = clip, ent_coef, vf_coef
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
        self.max_grad_norm = max_grad_norm

    def __call__(
        self, data: dict, epochs: int, minibatch: int, rng: np.random.Generator, kick_coef: float = 0.0
    ) -> dict:
        """``epochs`` passes over ``data`` (numpy arrays from the workers) in shuffled minibatches; with
        ``kick_coef`` > 0 also towards ``data["teacher"]``'s choices (``clipped_loss``)."""
        n = data["action"].shape[0]
        keys = ("obs", "mask", "action", "logp", "advantage", "value_target", *(("teacher",) if kick_coef else ()))
        tensors = [torch.from_numpy(data[key]) for key in keys]
        stats = {"loss_objective": 0.0, "loss_critic": 0.0, "loss_kickstart": 0.0, "entropy": 0.0, "kl_approx": 0.0}
        steps = 0
        for _ in range(epochs):
            order = torch.from_numpy(rng.permutation(n))
            for start in range(0, n, minibatch):
                idx = order[start : start + minibatch]
                if idx.numel() < 2:  # a one-sample tail cannot be normalised
                    continue
                batch = [t[idx] for t in tensors]
                teacher = batch.pop() if kick_coef else None
                out = clipped_loss(self.net, *batch, self.clip, self.ent_coef, self.vf_coef, teacher, kick_coef)
                if self.target_kl and float(out["kl_k3"]) > 1.5 * self.target_kl:
                    return self._mean(stats, steps, stopped=True)  # SB3's early stop: the policy moved far enough
                total = out["loss_objective"] + out["loss_critic"] + out["loss_entropy"] + out.get("loss_kickstart", 0)
                self.optimizer.zero_grad(set_to_none=True)
                total.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.max_grad_norm)
                self.optimizer.step()
                for key in stats:
                    stats[key] += float(out[key].detach()) if key in out else 0.0
                steps += 1
        return self._mean(stats, steps, stopped=False)

    @staticmethod
    def _mean(stats: dict, steps: int, stopped: bool) -> dict:
        return {
            **{key: value / max(steps, 1) for key, value in stats.items()},
            "minibatches": steps,
            "kl_stop": stopped,
        }
