"""Layouts declared once: a record from its field table, named observation pieces (OpenSpiel-style) and their
cuts, and the check that pins a record's layout."""

from __future__ import annotations

from collections import namedtuple
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
    """A kernel's observation pieces, declared once in vector order, as a table (``from_table``) or piece by piece
    (``add``, which returns the piece's offset). ``offsets`` names every piece's offset, so the encoder writes at
    ``O.cash_by_seat + i`` with the piece's own name, and numba reads the constant as it reads an int global:

        PIECES = '''
        | piece        | shape        | per seat | scale        |
        |--------------|--------------|----------|--------------|
        | phase_onehot | (N_PHASES,)  |          | 0/1          |
        | cash_by_seat | (S,)         | yes      | pounds / 100 |
        '''
        _OBS = ObsLayout.from_table(PIECES, S=MAX_SEATS, N_PHASES=N_PHASES)
        O = _OBS.offsets
        OBS_PIECES, OBS_SIZE = _OBS.pieces, _OBS.size
    """

    @classmethod
    def from_table(cls, table: str, **dims: int) -> ObsLayout:
        """The pieces of a Markdown table, in its order: a shape's axes are ints or names from ``dims``; ``yes``
        under *per seat* marks a first axis of seats relative to the observer (0 = me)."""
        layout = cls()
        for line, (name, shape, per_seat, scale) in _table_rows(
            "observation", table, ("piece", "shape", "per seat", "scale")
        ):
            if per_seat not in ("", "yes") or not name.isidentifier() or not scale:
                raise ValueError(f"observation table row {line!r}: needs a name, a scale and per seat yes or blank")
            layout.add(name, _axes(shape, dims, line), scale, *[SEATS] * (per_seat == "yes"))
        return layout

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

    @property
    def offsets(self) -> tuple[int, ...]:
        """A named tuple of the pieces' offsets: ``offsets.cash_by_seat`` is where piece ``cash_by_seat`` starts."""
        return namedtuple("Offsets", [p.name for p in self._pieces])(*(p.offset for p in self._pieces))


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


_FIELD_TYPES = frozenset(
    ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64")
)


def record_from_table(table: str, **dims: int) -> np.dtype:
    """The record dtype a kernel's field table describes, fields in table order. The table is the one place a
    field is written: a Markdown table with a header, a rule and one row per field,

        | field          | dtype, shape | meaning (rule IDs)                     |
        |----------------|--------------|----------------------------------------|
        | rng            | uint64 (1,)  | the game's SplitMix64 counter          |
        | armies, fleets | int8 (N, R)  | units per nation and region            |

    A row may name several fields of one type (comma-separated); a shape's axes are ints or names from
    ``dims`` (``N=N_NATIONS``), so the table reads like the rules and the sizes stay the tables'. Types carry
    their width (``int8``, not ``int``); every field needs a meaning."""
    fields: list[tuple[str, str, tuple[int, ...]]] = []
    for line, (names, typed_shape, meaning) in _table_rows("field", table, ("field", "dtype, shape", "meaning")):
        kind, _, shape = typed_shape.partition(" ")
        if kind not in _FIELD_TYPES:
            raise ValueError(f"field table row {line!r}: type {kind!r} is not one of {sorted(_FIELD_TYPES)}")
        if not meaning:
            raise ValueError(f"field table row {line!r}: every field needs a meaning")
        axes = _axes(shape.strip(), dims, line)
        for name in (n.strip() for n in names.split(",")):
            if not name.isidentifier() or any(f[0] == name for f in fields):
                raise ValueError(f"field table row {line!r}: field {name!r} is not a new identifier")
            fields.append((name, kind, axes))
    return np.dtype(fields)


def _table_rows(what: str, table: str, columns: tuple[str, ...]):
    """(line, cells) for each row of a Markdown table whose header starts with ``columns`` (the last column may
    hold ``|``)."""
    rows = [line.strip() for line in table.strip().splitlines()]
    if (
        len(rows) < 3
        or _cells(rows[0], len(columns))[: len(columns) - 1] != list(columns[:-1])
        or set(rows[1]) - set("|-: ")
    ):
        raise ValueError(f"the {what} table must start with | {' | '.join(columns)} | and a rule, then its rows")
    for line in rows[2:]:
        cells = _cells(line, len(columns))
        if not line.startswith("|") or len(cells) != len(columns) or not cells[0]:
            raise ValueError(f"{what} table row {line!r}: needs | {' | '.join(columns)} |")
        yield line, cells


def _cells(line: str, n: int) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|", n - 1)]


def _axes(shape: str, dims: dict[str, int], line: str) -> tuple[int, ...]:
    """``(S, C)`` -> (5, 5) with ``dims`` S=5, C=5; ``""`` -> () (a scalar field)."""
    if not shape:
        return ()
    if not (shape.startswith("(") and shape.endswith(")")):
        raise ValueError(f"table row {line!r}: shape {shape!r} is not a parenthesised tuple like (S,)")
    axes = [a.strip() for a in shape[1:-1].split(",") if a.strip()]
    unknown = [a for a in axes if not a.isdigit() and a not in dims]
    if unknown:
        raise ValueError(f"table row {line!r}: axis {unknown[0]!r} is neither an int nor one of {sorted(dims)}")
    return tuple(int(a) if a.isdigit() else int(dims[a]) for a in axes)


def check_state_layout(dtype: np.dtype, expected: list[tuple[str, str, tuple[int, ...]]], itemsize: int) -> None:
    """Raise if a STATE dtype's field order, types or size changed (a silent layout change breaks saves)."""
    got = [(name, dtype.fields[name][0].base.str, dtype.fields[name][0].shape) for name in dtype.names]
    want = [(n, np.dtype(t).str, tuple(s)) for n, t, s in expected]
    if got != want or dtype.itemsize != itemsize:
        raise AssertionError(f"STATE layout changed: got {got} ({dtype.itemsize} B), want {want} ({itemsize} B)")
