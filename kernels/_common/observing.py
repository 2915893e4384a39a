"""What every room's ``observe`` writes the same way: seats as the observer sees them, the opening every
observation shares (phase, seats at the table, seat to move) and one-hots of an index that may be absent."""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def relative_seat(r, seat, p):
    """Seat p as ``seat`` sees it in its observation: 0 is the observer, 1 the next seat clockwise, ... of the
    record's ``num_players``; seat -1 (a spectator) sees absolute seats. ``(p - seat) % n`` for seats of the
    table, without the division: observe asks this for every seat of every piece."""
    if seat < 0:
        return p
    i = p - seat
    return i + r.num_players if i < 0 else i


@njit(cache=True, inline="always")
def start_observation(r, seat, mover, out, phase_at, present_at, to_move_at):
    """Clear ``out`` and write what every game's observation starts with, at the room's offsets: the phase
    one-hot, the seats at the table and the seat to move (``mover``; none when it is negative: a chance event
    or the end), seats as ``seat`` sees them. Inlined: the offsets fold into the caller's code as constants."""
    out[:] = 0.0
    out[phase_at + r.phase] = 1.0
    for p in range(r.num_players):
        out[present_at + relative_seat(r, seat, p)] = 1.0
    if mover >= 0:
        out[to_move_at + relative_seat(r, seat, mover)] = 1.0


@njit(cache=True, inline="always")
def mark(out, at, i):
    """Set item i of the one-hot piece at ``at``, if there is one (i = -1, the record's "none", marks nothing)."""
    if i >= 0:
        out[at + i] = 1.0
