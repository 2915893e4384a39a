"""Python-side validation shared by every kernel: clear errors for bad seeds, player counts, options and
state records (python/numpy, run once per record or option that enters from outside, never in hot loops).

A kernel's ``validate(s)`` is a table of bounds per field (``Bound``) checked in layers by ``check_layers``:
player count and phase first (every other bound depends on them), then every index and amount for the
record's phase, then the conservation invariants, then that the seat to move has a legal decision
(``no_dead_end``). A record that passes cannot make a kernel index out of bounds
(tests/contract/test_validate_fuzz.py).
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np


def check_seed(seed) -> int:
    """A seed is an int in [0, 2**64); anything else is a clear error."""
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an int in [0, 2**64), got {seed!r} ({type(seed).__name__})")
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed must be an int in [0, 2**64), got {seed}")
    return int(seed)


def check_player_count(num_players, minimum: int, maximum: int, game_name: str) -> int:
    """``num_players`` as an int in minimum..maximum, or a clear error naming the game's range."""
    if isinstance(num_players, bool) or not isinstance(num_players, numbers.Integral):
        raise TypeError(f"num_players must be an int, got {num_players!r}")
    if not minimum <= num_players <= maximum:
        raise ValueError(f"{game_name} is played by {minimum} to {maximum} players, got {num_players}")
    return int(num_players)


# --- state records that enter from outside (set_state, replays, OpenSpiel, pickles) -------------------
#
# Contract: every kernel exports ``validate(s) -> list[str]``. ``s`` is a shape-(1,) record of the
# kernel's STATE dtype holding ANY bytes; validate never raises and calls numba kernels only once
# its bounds hold. It returns one line per problem, naming the field, its bad value and the allowed range (e.g.
# "auc_company = 9, allowed -1..4 in phase AUCTION"); an empty list means the record is safe to hand
# to every kernel function: nothing that passes can make a kernel index out of bounds. It checks, in
# layers, stopping at the first layer with problems (later bounds depend on earlier fields):
#   1. num_players and phase (every other bound depends on them),
#   2. every index field in range for its phase, every count and amount within its bounds,
#   3. the game's check_invariants (conservation), run only on a record whose indexes are all valid.
#   4. (usually) no_dead_end: the seat to move has a legal action; layers 3-4 may call the game's
#      kernels, since the bounds before them make that safe.
# Each game writes its bounds as a table of ``Bound`` rows and calls ``check_layers``.

Limit = int | float | np.ndarray | Callable[[np.void], Any]
MAX_LISTED = 3  # bad elements listed per field; the rest are counted


@dataclass(frozen=True)
class Bound:
    """Every element of record field ``field`` lies in ``lo..hi`` (inclusive).

    ``lo``/``hi`` are numbers, arrays broadcasting to the field's shape (per-element limits), or
    functions of the record value ``r`` (e.g. ``last_seat``). ``seats``: the field's first axis is the
    seat; only the first ``num_players`` rows are range-checked and the rows of empty seats must equal
    ``empty``. ``when``: a function of ``r``; the bound applies only where it is true (a phase), and
    ``where`` names that condition in the message."""

    field: str
    lo: Limit
    hi: Limit
    seats: bool = False
    empty: int | None = 0
    when: Callable[[np.void], bool] | None = None
    where: str = ""


# hi of a running counter (turns, decisions): a record at it still has room for a whole game of
# increments before int32 wraps (every game's MAX_GAME_LENGTH is < 2**20), so play never overflows it.
COUNTER_MAX = int(np.iinfo(np.int32).max) - 2**20


def last_seat(r) -> int:
    """hi of a seat index: num_players - 1."""
    return int(r["num_players"]) - 1


def num_seats(r) -> int:
    """The record's player count, as a Python int."""
    return int(r["num_players"])


def in_phase(*phases) -> Callable[[np.void], bool]:
    """A ``Bound.when``: the record is in one of these phases."""
    return lambda r: int(r["phase"]) in phases


def outside_phase(*phases) -> Callable[[np.void], bool]:
    """A ``Bound.when``: the record is in none of these phases."""
    return lambda r: int(r["phase"]) not in phases


def phase_words(phase_names, prefix: str = "in phase ") -> Callable[..., str]:
    """A ``Bound.where`` writer naming phases by the game's PHASE_NAMES: ``"in phase AUCTION/BUILD"``."""
    return lambda *phases: prefix + "/".join(phase_names[p] for p in phases)


def check_bound(r, b: Bound) -> list[str]:
    """The problems of one Bound on record value ``r`` (empty when it holds or does not apply)."""
    if b.when is not None and not b.when(r):
        return []
    value = np.asarray(r[b.field])
    lo = b.lo(r) if callable(b.lo) else b.lo
    hi = b.hi(r) if callable(b.hi) else b.hi
    where = f" {b.where}" if b.where else ""
    bad = []
    if b.seats:
        n = int(r["num_players"])
        if b.empty is not None and value[n:].size and (value[n:] != b.empty).any():
            idx = np.argwhere(value[n:] != b.empty)[0]
            idx[0] += n
            bad.append(f"{b.field}{_index(idx)} = {_num(value[tuple(idx)])} on an empty seat, must be {b.empty}")
        value = value[:n]
        lo = _seat_rows(lo, n)
        hi = _seat_rows(hi, n)
    with np.errstate(invalid="ignore"):
        outside = ~((value >= lo) & (value <= hi))  # NaN is outside too
    if outside.any():
        lo_b, hi_b = np.broadcast_to(lo, value.shape), np.broadcast_to(hi, value.shape)
        places = np.argwhere(outside)
        for idx in places[:MAX_LISTED]:
            i = tuple(idx)
            bad.append(f"{b.field}{_index(idx)} = {_num(value[i])}, allowed {_num(lo_b[i])}..{_num(hi_b[i])}{where}")
        if len(places) > MAX_LISTED:
            bad.append(f"{b.field}: {len(places) - MAX_LISTED} more elements outside their range{where}")
    return bad


def _seat_rows(limit, n):
    limit = np.asarray(limit)
    return limit[:n] if limit.ndim and limit.shape[0] > n else limit


def _num(x):
    return np.asarray(x).item()


def _index(idx) -> str:
    return "[" + ", ".join(str(int(i)) for i in idx) + "]" if len(idx) else ""


def check_layers(s, dtype: np.dtype, layers, invariants: Callable[[np.ndarray], list[str]] | None = None) -> list[str]:
    """A game's validate(): the record's shape and dtype, then each layer of checks in order, stopping at
    the first layer with problems. A layer is a sequence of ``Bound`` rows (checked on ``s[0]``) and
    functions ``s -> list[str]`` (run only once every earlier layer holds, so they may index with the
    fields checked before, and call the game's kernels). The usual last layers are the game's
    ``check_invariants`` and ``no_dead_end(...)``; ``invariants``, if given, is one more last layer."""
    if not isinstance(s, np.ndarray) or s.dtype != dtype or s.shape != (1,):
        return [
            (
                f"state must be a shape-(1,) record of dtype STATE ({dtype.itemsize} bytes), got "
                f"{type(s).__name__} {getattr(s, 'shape', '')}"
            )
        ]
    r = s[0]
    for layer in layers:
        bad = []
        for check in layer:
            bad += check_bound(r, check) if isinstance(check, Bound) else check(s)
        if bad:
            return bad
    return list(invariants(s)) if invariants is not None else []


def no_dead_end(to_move: Callable, legal_mask: Callable, num_actions: int, phase_names) -> Callable:
    """A layer check: the seat to move has at least one legal action (else no agent could move again).
    Uses the game's own kernels, so put it after the layers that make them safe to call."""

    def check(s) -> list[str]:
        seat = int(to_move(s))
        if seat < 0:
            return []
        mask = np.zeros(num_actions, np.uint8)
        legal_mask(s, mask)
        if not mask.any():
            return [f"seat {seat} is to move in phase {phase_names[int(s[0]['phase'])]} but has no legal action"]
        return []

    return check


def high_bid_affordable(auction_phases, phase_names, rule: str) -> Callable:
    """A layer check for auction games: during an auction the high bid is at most its bidder's cash (a
    bid is legal only up to the bidder's cash, and the winner pays it; above it, cash would go negative)."""

    def check(s) -> list[str]:
        r = s[0]
        bidder = int(r["auc_high_bidder"])
        if int(r["phase"]) not in auction_phases or bidder < 0:
            return []
        bid, cash = int(r["auc_high_bid"]), int(r["cash"][bidder])
        if bid > cash:
            return [
                f"auc_high_bid = {bid} in phase {phase_names[int(r['phase'])]} but its bidder, seat {bidder}, "
                f"holds {cash}: allowed 0..{cash} ({rule})"
            ]
        return []

    return check


def record_from(kernel, state, num_players: int | None = None, source: str = "state") -> np.ndarray:
    """A writable copy of ``state`` (a record or its ``tobytes()``) after checking its size, dtype,
    player count and ``kernel.validate``; ValueError listing every problem otherwise. ``source`` names
    where the record came from in the message (e.g. "replay line 3")."""
    game = kernel.GAME_ID
    if isinstance(state, (bytes, bytearray, memoryview)):
        if len(state) != kernel.STATE.itemsize:
            raise ValueError(f"{source}: a {game} state is {kernel.STATE.itemsize} bytes, got {len(state)}")
        state = np.frombuffer(state, dtype=kernel.STATE)
    if not isinstance(state, np.ndarray) or state.dtype != kernel.STATE or state.shape != (1,):
        raise ValueError(
            f"{source}: must be a shape-(1,) record of the {game} STATE dtype (from get_state()) "
            f"or its tobytes(), got {type(state).__name__}"
        )
    record = np.frombuffer(bytearray(state.tobytes()), kernel.STATE).reshape(1)  # the copy we check is the copy we use
    problems = kernel.validate(record)
    if problems:
        listed = "; ".join(problems[:20]) + (f"; ... and {len(problems) - 20} more" if len(problems) > 20 else "")
        raise ValueError(f"{source}: invalid {game} state ({len(problems)} problem(s)): {listed}")
    if num_players is not None and int(record[0]["num_players"]) != num_players:
        raise ValueError(
            f"{source}: the record is a {int(record[0]['num_players'])}-player game of {game}; this env "
            f"has {num_players} players"
        )
    return record


# --- options --------------------------------------------------------------------------------------------


def check_int_option(name: str, value, dtype, lo: int | None = None, hi: int | None = None) -> int:
    """An integer game option that must fit the record field storing it (``dtype``) and lie in lo..hi
    (default: the dtype's whole range); a clear ValueError naming what is allowed otherwise."""
    info = np.iinfo(dtype)
    lo = info.min if lo is None else max(lo, info.min)
    hi = info.max if hi is None else min(hi, info.max)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not lo <= value <= hi:
        raise ValueError(f"{name} must be an int in {lo}..{hi} (stored as {np.dtype(dtype).name}), got {value!r}")
    return int(value)


def check_options_mapping(options) -> dict:
    """``reset(options=...)``: None or a dict; anything else is a clear TypeError."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict of game options (or None), got {options!r} ({type(options).__name__})")
    return dict(options)
