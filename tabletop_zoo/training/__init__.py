"""Training: four sibling trainers on one base.

- ``sb3``: ``train_sb3``, stable-baselines3's MaskablePPO learning one seat (``KernelVecEnv``).
- ``selfplay``: ``train_selfplay`` / ``SelfPlayTrainer``, PPO where every seat of a numba batch of games learns
  (``batch``: the games, one numba ``advance`` per step; ``pool``: who plays each seat; ``rollout``: per-seat
  trajectories and GAE; ``inference``: the rollout's forwards in numba; ``ppo``: TorchRL's ``ClipPPOLoss`` on
  plain tensors).
- ``az``: ``train_az`` / ``AZTrainer``, AlphaZero-style self-play with the batched search of ``agents/az``
  (``az_worker``: a worker's share of the games in flight).
- ``imitate``: ``train_imitate``, Expert Iteration's step: az's network learns a teacher's moves and outcomes.

What they share is ``run`` (the run folder, checkpoints and resume, torch's threads, the curve and log files),
``evaluate`` (seat-rotated evaluation games in numba), ``config`` (option checks), ``workers`` (local or Ray
worker groups) and ``plain`` (what a checkpoint holds: tensors and plain values, so loading one never unpickles;
``convert`` turns a 0.1 checkpoint, which held pickled objects, into one). The files an agent plays are defined
beside that agent (``agents/policy_network.py``, ``agents/az/network.py``): no agent imports a trainer.
"""

from ..agents.policy_network import load_policy
from .az import AZConfig, train_az
from .imitate import train_imitate
from .pool import DEFAULT_POOL, parse_pool
from .sb3 import train_sb3
from .selfplay import SelfPlayConfig, SelfPlayTrainer, train_selfplay

TRAINERS = {"maskable_ppo": train_sb3, "selfplay": train_selfplay, "az": train_az, "imitate": train_imitate}

__all__ = [
    "DEFAULT_POOL",
    "TRAINERS",
    "AZConfig",
    "SelfPlayConfig",
    "SelfPlayTrainer",
    "load_policy",
    "parse_pool",
    "train_az",
    "train_imitate",
    "train_sb3",
    "train_selfplay",
]
