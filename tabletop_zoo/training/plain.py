"""What a checkpoint may hold: tensors and plain Python values, so ``torch.load(weights_only=True)`` reads it and
loading a file never runs code from it (a pickle can name any callable to run).

numpy arrays travel as tensors (``from_numpy``: no copy on the way out), a batch of game records (a kernel's
``STATE``) as its bytes, a numpy generator as its ``bit_generator.state`` (a dict of str and int) and a heuristic
agent as the state of its generator, its only state.
"""

from __future__ import annotations

import numpy as np
import torch


def tensor(a: np.ndarray) -> torch.Tensor:
    """A copy of a numeric array as a tensor (arrays that arrive from Ray share one buffer, which
    ``torch.save`` refuses when tensors view it as different types). Unsigned integers wider than a byte travel as
    the signed type of their width (Ray cannot send torch's uint16-64 tensors); ``load_array`` views them back."""
    a = np.array(a, order="C")
    if a.dtype.kind == "u" and a.itemsize > 1:
        a = a.view(f"i{a.itemsize}")
    return torch.from_numpy(a)


def load_array(into: np.ndarray, t: torch.Tensor) -> None:
    """Write ``tensor(a)`` back into an array shaped and typed as ``a``."""
    into[...] = t.numpy().view(into.dtype)


def array(t: torch.Tensor) -> np.ndarray:
    """The array ``tensor`` made, as a new array (a resumed run never writes into the loaded file's buffers)."""
    return t.numpy().copy()


def record_bytes(records: np.ndarray) -> torch.Tensor:
    """A record array's bytes (uint8, one row per record)."""
    return torch.from_numpy(np.ascontiguousarray(records).view(np.uint8).reshape(len(records), -1).copy())


def load_records(into: np.ndarray, data: torch.Tensor) -> None:
    """Write ``record_bytes`` back into a record array of the same kernel and length."""
    target = into.view(np.uint8).reshape(len(into), -1)
    if tuple(data.shape) != target.shape:
        raise ValueError(
            f"the checkpoint's game records are {tuple(data.shape)} bytes, this kernel's {target.shape}: "
            "it was written by another version of the game"
        )
    target[...] = data.numpy()


def heuristic_state(agent) -> dict:
    """A heuristic agent's state: its generator's (refused if the heuristic has gained other state, which would
    otherwise be lost silently on resume)."""
    if set(vars(agent)) != {"rng"}:
        raise TypeError(f"{type(agent).__name__} keeps state besides its rng ({sorted(vars(agent))}): save it too")
    return agent.rng.bit_generator.state


def restore_heuristic(heuristic_class, state: dict):
    """A heuristic agent of ``heuristic_class`` with the generator state ``heuristic_state`` gave."""
    agent = heuristic_class(seed=0)
    agent.rng.bit_generator.state = state
    return agent


def heuristics_state(heuristics: dict) -> list:
    """The heuristics playing seats, ``{(game, seat): agent}``, as ``[[game, seat, generator state], ...]``."""
    return [[int(i), int(seat), heuristic_state(agent)] for (i, seat), agent in heuristics.items()]


def restore_heuristics(heuristic_class, rows: list) -> dict:
    return {(i, seat): restore_heuristic(heuristic_class, state) for i, seat, state in rows}


def stacked(rows: list[tuple], widths: tuple[int, ...], dtypes: tuple) -> list[torch.Tensor]:
    """Rows of equal-shaped arrays ``(a, b, ...)`` as one tensor per column (``widths``: each column's length, so
    no rows still gives the right shapes)."""
    return [
        tensor(np.array([r[j] for r in rows], dtype).reshape(-1, width))
        for j, (width, dtype) in enumerate(zip(widths, dtypes, strict=True))
    ]


def unstacked(columns: list[torch.Tensor]) -> list[tuple]:
    """``stacked``'s rows back, each a tuple of arrays."""
    arrays = [array(c) for c in columns]
    return [tuple(a[i].copy() for a in arrays) for i in range(len(arrays[0]))]


def cloned(state):
    """``state`` with every tensor copied into its own storage (tensors that arrive from Ray share one buffer,
    which ``torch.save`` refuses when they view it as different types)."""
    if isinstance(state, torch.Tensor):
        return state.clone()
    if isinstance(state, dict):
        return {k: cloned(v) for k, v in state.items()}
    if isinstance(state, (list, tuple)):
        return type(state)(cloned(v) for v in state)
    return state
