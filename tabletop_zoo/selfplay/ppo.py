"""The PPO update: TorchRL's ``ClipPPOLoss`` over minibatches of the rollout's samples.

Advantages are normalised per minibatch (as SB3 does), the critic loss is L2 on GAE's value targets, the
gradient norm is clipped and Adam steps once per minibatch. Minibatch order comes from the trainer's
numpy generator, so the update is reproducible and resumable.
"""

from __future__ import annotations

import numpy as np
import torch

from .network import ActorCritic, torchrl_modules


class PPOUpdate:
    def __init__(self, net: ActorCritic, lr: float, clip: float, ent_coef: float, vf_coef: float, max_grad_norm: float):
        from torchrl.objectives import ClipPPOLoss

        actor, critic = torchrl_modules(net)
        self.loss = ClipPPOLoss(
            actor,
            critic,
            clip_epsilon=clip,
            entropy_coeff=ent_coef,
            critic_coeff=vf_coef,
            loss_critic_type="l2",
            normalize_advantage=True,
        )
        self.loss.set_keys(
            sample_log_prob="sample_log_prob", advantage="advantage", value_target="value_target", action="action"
        )
        self.net = net
        self.optimizer = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
        self.max_grad_norm = max_grad_norm

    def __call__(self, data: dict, epochs: int, minibatch: int, rng: np.random.Generator) -> dict:
        """``epochs`` passes over ``data`` (numpy arrays from the workers) in shuffled minibatches."""
        from tensordict import TensorDict

        n = data["action"].shape[0]
        td = TensorDict(
            {
                "observation": torch.from_numpy(data["obs"]),
                "action_mask": torch.from_numpy(data["mask"]),
                "action": torch.from_numpy(data["action"]),
                "sample_log_prob": torch.from_numpy(data["logp"]),
                "advantage": torch.from_numpy(data["advantage"])[:, None],
                "value_target": torch.from_numpy(data["value_target"])[:, None],
            },
            batch_size=[n],
        )
        stats = {"loss_objective": 0.0, "loss_critic": 0.0, "entropy": 0.0, "kl_approx": 0.0}
        steps = 0
        for _ in range(epochs):
            order = torch.from_numpy(rng.permutation(n))
            for start in range(0, n, minibatch):
                idx = order[start : start + minibatch]
                if idx.numel() < 2:  # a one-sample tail cannot be normalised
                    continue
                out = self.loss(td[idx])
                total = out["loss_objective"] + out["loss_critic"] + out["loss_entropy"]
                self.optimizer.zero_grad(set_to_none=True)
                total.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), self.max_grad_norm)
                self.optimizer.step()
                for key in stats:
                    stats[key] += float(out[key].detach())
                steps += 1
        return {key: value / max(steps, 1) for key, value in stats.items()}
