"""Action checks of the single-seat and vector wrappers: clear errors before anything reaches a kernel.

numba does no bounds checking, and numpy reads ``mask[-1]`` as the last action's mask, so an action
must be an integer in 0..NUM_ACTIONS-1 and legal before ``step`` sees it. The vector check is one
vectorised pass over the batch (no Python loop on the hot path).
"""

from __future__ import annotations

import numbers

import numpy as np


def check_learner_action(action, mask: np.ndarray, seat: int) -> int:
    """The learner's action as an int, or ValueError/TypeError naming it and what is allowed."""
    n = mask.shape[0]
    if isinstance(action, np.ndarray) and action.shape in ((), (1,)):
        action = action.reshape(()).item()
    if isinstance(action, bool) or not isinstance(action, (numbers.Integral, np.integer)):
        raise TypeError(f"action must be an int in 0..{n - 1}, got {action!r} ({type(action).__name__})")
    action = int(action)
    if not 0 <= action < n:
        raise ValueError(f"action {action} is out of range: the action space is Discrete({n}), ids 0..{n - 1}")
    if not mask[action]:
        legal = np.flatnonzero(mask)
        raise ValueError(f"illegal action {action} for the learner (seat {seat}); legal: {legal.tolist()}")
    return action


def batch_actions(actions, num_envs: int, num_actions: int) -> np.ndarray:
    """``actions`` as int64[num_envs]; TypeError for non-integer values, ValueError naming the first env
    whose action is outside 0..num_actions-1 (e.g. -1, which numpy would read as the last action)."""
    raw = np.asarray(actions)
    if raw.size != num_envs:
        raise ValueError(f"expected {num_envs} actions (one per env), got shape {raw.shape}")
    raw = raw.reshape(num_envs)
    if raw.dtype.kind not in "iu":
        if raw.dtype.kind != "f" or not np.all(np.isfinite(raw) & (raw == np.round(raw))):
            raise TypeError(f"actions must be integers in 0..{num_actions - 1}, got {raw.tolist()[:8]} ({raw.dtype})")
    ids = raw.astype(np.int64)
    bad = (ids < 0) | (ids >= num_actions)
    if bad.any():
        i = int(np.argmax(bad))
        raise ValueError(
            f"action {ids[i]} in env {i} is out of range: the action space is Discrete({num_actions}), "
            f"ids 0..{num_actions - 1}"
        )
    return ids


def check_batch_legal(actions: np.ndarray, masks: np.ndarray, seats: np.ndarray) -> None:
    """ValueError naming the first env whose (in-range) action is illegal, with its legal actions."""
    legal = masks[np.arange(actions.shape[0]), actions]
    if not legal.all():
        i = int(np.argmin(legal))
        raise ValueError(
            f"illegal action {actions[i]} in env {i} (seat {seats[i]}); legal there: "
            f"{np.flatnonzero(masks[i]).tolist()}"
        )
