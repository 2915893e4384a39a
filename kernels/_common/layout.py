"""Layouts declared once: a record from its field table, named observation pieces (OpenSpiel-style) with the scale
of each, their cuts, the one decoder of observations (``decode``) and the check that pins a record's layout."""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterator
from collections.abc import Mapping
from dataclasses import dataclass
from math import prod
from types import ModuleType

import numpy as np

# the largest value of a record field's integer type: the bound of a quantity no rule caps (an unlimited bank)
_TYPE_MAX = {t: float(np.iinfo(t).max) for t in ("int8", "int16", "int32", "uint8", "uint16", "uint32")}


@dataclass(frozen=True)
class ObsPiece:
    """A named piece of the flat observation: where it starts, its shape, and its scale. The encoder writes
    ``raw / divisor`` for a raw quantity (pounds, units, 0/1) between 0 and ``most``, so every entry lies in
    ``[0, most / divisor]``. A tuple ``divisor`` or ``most`` has one number per item of the last axis."""

    name: str
    offset: int
    shape: tuple[int, ...]
    unit: str = ""  # the raw quantity in words, for humans ("pounds", "0/1: seat holds the flag", ...)
    per_seat: bool = False  # the first axis is a seat axis, relative to the observer (0 = me)
    divisor: float | tuple[float, ...] = 1.0  # raw = value * divisor
    most: float | tuple[float, ...] = 1.0  # the largest raw quantity

    @property
    def size(self) -> int:
        return prod(self.shape)

    def high(self) -> np.ndarray:
        """The largest value of each entry (float32, the piece's shape): ``most / divisor``, rounded as the
        encoder rounds ``raw / divisor``, so a raw quantity within ``most`` never encodes above it."""
        top = np.asarray(self.most, np.float64) / np.asarray(self.divisor, np.float64)
        return np.broadcast_to(top.astype(np.float32), self.shape).copy()


SEATS = "seats"  # marker for ObsLayout.add: the piece's first axis is a relative seat axis


class ObsLayout:
    """A kernel's observation pieces, declared once in vector order, as a table (``from_table``) or piece by piece
    (``add``, which returns the piece's offset). ``offsets`` names every piece's offset and ``divisors`` its
    divisor, so the encoder writes at ``O.cash_by_seat + i`` the value ``r.cash[p] / D.cash_by_seat`` with the
    piece's own name, and numba reads both constants as it reads an int or a float global:

        PIECES = '''
        | piece        | shape       | per seat | divisor | max   | unit   |
        |--------------|-------------|----------|---------|-------|--------|
        | phase_onehot | (N_PHASES,) |          | 1       | 1     | 0/1    |
        | cash_by_seat | (S,)        | yes      | 100     | int32 | pounds |
        '''
        S = MAX_SEATS
        O, D, OBS_PIECES, OBS_SIZE = ObsLayout.from_table(PIECES, state, globals()).exports()
        # N_PHASES from the room's state module, S from the observe module's own globals

    *divisor*: raw = value * divisor. *max*: the largest raw quantity, where a rule or a table caps it, or the
    integer type of the record field that holds it (``int32``: an unlimited bank). Each is a number, a name
    from the namespaces or dims (a kernel constant: a number, or an array with one number per item of the last
    axis) or a tuple of those, one per item of the last axis; the encoder divides by the same constant.
    """

    @classmethod
    def from_table(cls, table: str, *namespaces: ModuleType | Mapping[str, object], **dims) -> ObsLayout:
        """The pieces of a Markdown table, in its order: a shape's axes are ints or names from ``dims`` or the
        upper-case numeric constants of ``namespaces`` (modules or dicts such as ``globals()``; a later one and
        ``dims`` win); ``yes`` under *per seat* marks a first axis of seats relative to the observer (0 = me)."""
        dims = {**_constants(namespaces), **dims}
        layout = cls()
        columns = ("piece", "shape", "per seat", "divisor", "max", "unit")
        for line, (name, shape, per_seat, divisor, most, unit) in _table_rows("observation", table, columns):
            if per_seat not in ("", "yes") or not name.isidentifier() or not unit:
                raise ValueError(f"observation table row {line!r}: needs a name, a unit and per seat yes or blank")
            layout.add(
                name,
                _axes(shape, dims, line),
                unit,
                *[SEATS] * (per_seat == "yes"),
                divisor=_scale(divisor, dims, line, "divisor"),
                most=_scale(most, dims, line, "max"),
            )
        return layout

    def __init__(self) -> None:
        self._pieces: list[ObsPiece] = []
        self.size = 0  # floats so far: OBS_SIZE once every piece is added

    def add(
        self,
        name: str,
        shape: tuple[int, ...],
        unit: str,
        *marker: str,
        divisor: float | tuple[float, ...] = 1.0,
        most: float | tuple[float, ...] = 1.0,
    ) -> int:
        """Append piece ``name`` of ``shape`` whose raw quantity (in ``unit``, at most ``most``) is encoded as
        ``raw / divisor`` (``SEATS`` marks a first axis of seats relative to the observer); return its offset."""
        if any(p.name == name for p in self._pieces) or list(marker) not in ([], [SEATS]):
            raise ValueError(f"observation piece {name!r}: needs a new name and no marker but SEATS, got {marker}")
        shape = tuple(int(n) for n in shape)
        for what, v in (("divisor", divisor), ("max", most)):
            items = v if isinstance(v, tuple) else (v,)
            if isinstance(v, tuple) and (not shape or len(v) != shape[-1]):
                raise ValueError(f"observation piece {name!r}: a {what} tuple needs one number per item of {shape}")
            if not all(x > 0 for x in items):
                raise ValueError(f"observation piece {name!r}: {what} {v} must be positive")
        piece = ObsPiece(name, self.size, shape, unit, bool(marker), divisor, most)
        self._pieces.append(piece)
        self.size += piece.size
        return piece.offset

    def exports(self) -> tuple[tuple[int, ...], tuple, tuple[ObsPiece, ...], int]:
        """What an observe module binds, in the order ``O, D, OBS_PIECES, OBS_SIZE``: the named offsets and
        divisors, the pieces and the vector's size."""
        return self.offsets, self.divisors, self.pieces, self.size

    @property
    def pieces(self) -> tuple[ObsPiece, ...]:
        return tuple(self._pieces)

    @property
    def offsets(self) -> tuple[int, ...]:
        """A named tuple of the pieces' offsets: ``offsets.cash_by_seat`` is where piece ``cash_by_seat`` starts."""
        return namedtuple("Offsets", [p.name for p in self._pieces])(*(p.offset for p in self._pieces))

    @property
    def divisors(self) -> tuple:
        """A named tuple of the pieces' divisors: the encoder writes ``raw / divisors.cash_by_seat``."""
        return namedtuple("Divisors", [p.name for p in self._pieces])(*(p.divisor for p in self._pieces))


def observation_bounds(pieces) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)``: float32 arrays of the observation's size, every entry's least and largest value (the
    pieces' ``high()`` in vector order; every piece is at least 0), for a Box space or a bounded spec."""
    high = np.concatenate([p.high().ravel() for p in sorted(pieces, key=lambda p: p.offset)])
    return np.zeros_like(high), high


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


_READINGS: dict[int, tuple] = {}  # id of a piece list -> (the list, name -> (cut, shape, divisor or None))


def _reading(pieces) -> dict:
    hit = _READINGS.get(id(pieces))
    if hit is None or hit[0] is not pieces:
        plan = {}
        for p in pieces:
            divisor = None if p.divisor == 1.0 else np.asarray(p.divisor, np.float32)
            plan[p.name] = (slice(p.offset, p.offset + p.size), p.shape, divisor)
        hit = _READINGS[id(pieces)] = (pieces, plan)
    return hit[1]


class DecodedObservation(Mapping):
    """One observation read by piece name in the pieces' own units: ``o["cash"]`` is the piece, shaped, times
    its divisor (float32: the value the encoder divided, up to the float32 rounding of the division); a piece
    whose divisor is 1 (0/1 flags, fractions) is a view of the observation itself. Pieces are decoded when
    first asked for."""

    __slots__ = ("_obs", "_plan", "_done")

    def __init__(self, pieces, obs: np.ndarray) -> None:
        self._obs, self._plan, self._done = obs, _reading(pieces), {}

    def __getitem__(self, name: str) -> np.ndarray:
        got = self._done.get(name)
        if got is None:
            if name not in self._plan:
                raise KeyError(f"no observation piece {name!r}; the pieces are {', '.join(self._plan)}")
            cut, shape, divisor = self._plan[name]
            got = self._obs[cut].reshape(shape)
            got = self._done[name] = got if divisor is None else got * divisor
        return got

    def encoded(self, name: str) -> np.ndarray:
        """Piece ``name`` as the encoder wrote it (raw / divisor), shaped: a view of the observation."""
        cut, shape, _ = self._plan[name]
        return self._obs[cut].reshape(shape)

    def __iter__(self) -> Iterator[str]:
        return iter(self._plan)

    def __len__(self) -> int:
        return len(self._plan)


def decode(pieces, obs: np.ndarray) -> DecodedObservation:
    """The one decoder of observations: ``decode(OBS_PIECES, obs)["cash"]`` is each seat's cash in money, not
    the encoded ``cash / divisor`` (the divisors are the layout table's, so no reader repeats a scale)."""
    return DecodedObservation(pieces, np.asarray(obs, np.float32))


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


def _constants(namespaces: tuple[ModuleType | Mapping[str, object], ...]) -> dict[str, object]:
    """The upper-case names bound to numbers or arrays in ``namespaces``: the constants a table's cells may name."""
    numeric = (int, float, np.integer, np.floating, np.ndarray)
    found = {}
    for names in namespaces:
        names = vars(names) if isinstance(names, ModuleType) else names
        found.update(
            (k, v) for k, v in names.items() if k.isupper() and isinstance(v, numeric) and not isinstance(v, bool)
        )
    return found


def _known(dims: Mapping[str, object]) -> str:
    """The names a cell may use, for an error: listed when few, else counted (a kernel has dozens)."""
    return str(sorted(dims)) if len(dims) <= 12 else f"the {len(dims)} constants of the table's namespaces"


def _axes(shape: str, dims: dict[str, int], line: str) -> tuple[int, ...]:
    """``(S, C)`` -> (5, 5) with ``dims`` S=5, C=5; ``""`` -> () (a scalar field)."""
    if not shape:
        return ()
    if not (shape.startswith("(") and shape.endswith(")")):
        raise ValueError(f"table row {line!r}: shape {shape!r} is not a parenthesised tuple like (S,)")
    axes = [a.strip() for a in shape[1:-1].split(",") if a.strip()]
    unknown = [a for a in axes if not a.isdigit() and a not in dims]
    if unknown:
        raise ValueError(f"table row {line!r}: axis {unknown[0]!r} is neither an int nor one of {_known(dims)}")
    return tuple(int(a) if a.isdigit() else int(dims[a]) for a in axes)


def _scale(cell: str, dims: dict, line: str, what: str) -> float | tuple[float, ...]:
    """A divisor or max cell: a number, a name from ``dims`` (a number or a 1-D array: a tuple), an integer type
    (max only: its largest value) or ``(a, b, ...)`` of numbers and names, one per item of the last axis."""
    if cell.startswith("(") and cell.endswith(")"):
        return tuple(float(_scale(c.strip(), dims, line, what)) for c in cell[1:-1].split(",") if c.strip())
    if cell in dims:
        v = np.asarray(dims[cell], np.float64)
        return float(v) if v.ndim == 0 else tuple(float(x) for x in v)
    if what == "max" and cell in _TYPE_MAX:
        return _TYPE_MAX[cell]
    try:
        return float(cell)
    except ValueError:
        raise ValueError(
            f"observation table row {line!r}: {what} {cell!r} is not a number, one of {_known(dims)}"
            + (f" or an integer type {sorted(_TYPE_MAX)}" if what == "max" else "")
        ) from None


def check_state_layout(dtype: np.dtype, expected: list[tuple[str, str, tuple[int, ...]]], itemsize: int) -> None:
    """Raise if a STATE dtype's field order, types or size changed (a silent layout change breaks saves)."""
    got = [(name, dtype.fields[name][0].base.str, dtype.fields[name][0].shape) for name in dtype.names]
    want = [(n, np.dtype(t).str, tuple(s)) for n, t, s in expected]
    if got != want or dtype.itemsize != itemsize:
        raise AssertionError(f"STATE layout changed: got {got} ({dtype.itemsize} B), want {want} ({itemsize} B)")
