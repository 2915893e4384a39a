"""Named observation pieces (OpenSpiel-style): build offsets once, unflatten observations by name."""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np


@dataclass(frozen=True)
class ObsPiece:
    name: str
    offset: int
    shape: tuple[int, ...]
    scale: str = ""  # how the raw quantity was scaled, for humans ("pounds / 100", "0/1", ...)
    per_seat: bool = False  # the first axis is a seat axis, relative to the observer (0 = me)

    @property
    def size(self) -> int:
        return prod(self.shape)


SEATS = "seats"  # marker for build_pieces: the piece's first axis is a relative seat axis


def build_pieces(spec: list[tuple]) -> tuple[tuple[ObsPiece, ...], int]:
    """Turn [(name, shape, scale[, SEATS]), ...] into pieces with consecutive offsets and the total size."""
    pieces, offset = [], 0
    for name, shape, scale, *marker in spec:
        piece = ObsPiece(name, offset, tuple(shape), scale, per_seat=marker == [SEATS])
        pieces.append(piece)
        offset += piece.size
    return tuple(pieces), offset


def offsets(pieces) -> dict[str, int]:
    return {p.name: p.offset for p in pieces}


def unflatten(pieces, obs: np.ndarray) -> dict[str, np.ndarray]:
    """Split a flat observation into named, shaped views."""
    return {p.name: obs[p.offset : p.offset + p.size].reshape(p.shape) for p in pieces}


def check_state_layout(dtype: np.dtype, expected: list[tuple[str, str, tuple[int, ...]]], itemsize: int) -> None:
    """Raise if a STATE dtype's field order, types or size changed (a silent layout change breaks saves)."""
    got = [(name, dtype.fields[name][0].base.str, dtype.fields[name][0].shape) for name in dtype.names]
    want = [(n, np.dtype(t).str, tuple(s)) for n, t, s in expected]
    if got != want or dtype.itemsize != itemsize:
        raise AssertionError(f"STATE layout changed: got {got} ({dtype.itemsize} B), want {want} ({itemsize} B)")
