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


SEATS = "seats"  # marker for ObsLayout.add: the piece's first axis is a relative seat axis


class ObsLayout:
    """A kernel's observation pieces, declared once in vector order. ``add`` returns the piece's offset, so the
    ``O_*`` constants the encoder writes at stay plain ints that numba reads as globals (as
    ``actions.ActionLayout.add`` returns a family's first id):

        _OBS = ObsLayout()
        O_PHASE = _OBS.add("phase_onehot", (N_PHASES,), "0/1")
        O_CASH = _OBS.add("cash_by_seat", (S,), "pounds / 100", SEATS)
        OBS_PIECES, OBS_SIZE = _OBS.pieces, _OBS.size
    """

    def __init__(self) -> None:
        self._pieces: list[ObsPiece] = []
        self.size = 0  # floats so far: OBS_SIZE once every piece is added

    def add(self, name: str, shape: tuple[int, ...], scale: str, *marker: str) -> int:
        """Append piece ``name`` of ``shape`` (``scale`` says how its raw quantity was scaled; ``SEATS`` marks a
        first axis of seats relative to the observer) and return its offset."""
        if any(p.name == name for p in self._pieces) or list(marker) not in ([], [SEATS]):
            raise ValueError(f"observation piece {name!r}: needs a new name and no marker but SEATS, got {marker}")
        piece = ObsPiece(name, self.size, tuple(int(n) for n in shape), scale, per_seat=bool(marker))
        self._pieces.append(piece)
        self.size += piece.size
        return piece.offset

    @property
    def pieces(self) -> tuple[ObsPiece, ...]:
        return tuple(self._pieces)


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
