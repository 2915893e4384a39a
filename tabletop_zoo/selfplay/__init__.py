"""Self-play PPO at the speed of the kernels: every seat of a numba batch of games learns.

- ``batch``: ``BatchGames`` (records, seat kinds, one numba ``advance`` per step for the whole batch).
- ``pool``: who plays each seat (current policy, past snapshots, heuristic, random).
- ``rollout``: ``RolloutWorker`` (per-seat trajectories, win-share credit, GAE).
- ``network``: SB3-shaped actor-critic, ``policy.pt`` save/load.
- ``inference``: ``RolloutPolicy``, the rollout's forwards in numba (sparse first layer, legal-only sampling).
- ``ppo``: TorchRL's ``ClipPPOLoss`` objective on plain tensors, minibatch updates.
- ``trainer``: ``train_selfplay`` / ``SelfPlayTrainer`` (local or Ray workers, evaluation, checkpoints, resume).
- ``az``: ``train_az`` / ``AZTrainer``, AlphaZero-style self-play with the batched search of ``agents/az``;
  ``az_worker``: ``AZWorker`` (a share of its games in flight, searched with the weights it is sent).
- ``workers``: the worker groups both trainers use (``LocalWorkers``, ``RayWorkers``).
- ``plain``: what a checkpoint holds (tensors and plain values: loading one never unpickles); ``convert``: a 0.1
  checkpoint, which held pickled objects, converted for ``--resume``.
"""

from ..agents.policy_network import load_policy
from .pool import DEFAULT_POOL, parse_pool
from .trainer import SelfPlayConfig, SelfPlayTrainer, train_selfplay

__all__ = ["DEFAULT_POOL", "SelfPlayConfig", "SelfPlayTrainer", "load_policy", "parse_pool", "train_selfplay"]
