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


_CUTS: dict[int, tuple] = {}  # id of a piece list -> (the list, its cuts); the list is kept, so its id stays its own


def _cuts(pieces) -> tuple[tuple[str, slice, tuple[int, ...]], ...]:
    hit = _CUTS.get(id(pieces))
    if hit is None or hit[0] is not pieces:
        hit = _CUTS[id(pieces)] = (pieces, tuple((p.name, slice(p.offset, p.offset + p.size), p.shape) for p in pieces))
    return hit[1]


def unflatten(pieces, obs: np.ndarray) -> dict[str, np.ndarray]:
    """Split a flat observation into named, shaped views (the cuts worked out once per piece list: heuristics
    call this for every decision)."""
    return {name: obs[cut].reshape(shape) for name, cut, shape in _cuts(pieces)}


def check_state_layout(dtype: np.dtype, expected: list[tuple[str, str, tuple[int, ...]]], itemsize: int) -> None:
    """Raise if a STATE dtype's field order, types or size changed (a silent layout change breaks saves)."""
    got = [(name, dtype.fields[name][0].base.str, dtype.fields[name][0].shape) for name in dtype.names]
    want = [(n, np.dtype(t).str, tuple(s)) for n, t, s in expected]
    if got != want or dtype.itemsize != itemsize:
        raise AssertionError(f"STATE layout changed: got {got} ({dtype.itemsize} B), want {want} ({itemsize} B)")
