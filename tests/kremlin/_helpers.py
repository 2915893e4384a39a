"""Helpers for the Kremlin / "Magne!" rule tests (spec: shared/rules/kremlin.md).

Positions are built by writing record fields directly (after a complete allocation); the turn flow is
then entered at a named stage, every decision goes through ``step_decision`` and every d20 through the
explicit chance API with a fixed face.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tabletop_zoo.kernels import kremlin as k
from tabletop_zoo.kernels.kremlin import board, flow

ST = k.state
T = k.tables

# Action ids written out from the spec §6 table.
SELECT_GAMER = 0
SELECT_POST = 26
DONE = 299
OPPOSE = 300
SUPPORT = 301
RUMOUR_A = 302
RUMOUR_B = 303
CHANCE_SEAT = -1
TERMINAL_SEAT = -2


def declare(g: int, v: int) -> int:
    return 39 + 10 * g + (v - 1)


def G(label: int) -> int:
    """Gamer index of G01..G26 (G01 = 0)."""
    return label - 1


@njit(cache=True)
def _advance(s, st):
    flow.advance(s[0], st)


@njit(cache=True)
def _open(s, cont):
    r = s[0]
    flow.advance(r, flow.open_window(r, cont))


@njit(cache=True)
def _send_away(s, g):
    board.send_away(s[0], g)


@njit(cache=True)
def _recompute(s, g):
    board.recompute_controller(s[0], g)


def run(s, stage):
    _advance(s, stage)


def open_window(s, cont):
    _open(s, cont)


def send_away(s, g):
    _send_away(s, g)


def sheet(fixed: dict[int, int], avoid=()) -> np.ndarray:
    """A full sheet (values 10..1 once) with the given {gamer: value}; the rest on G26, G25, ..."""
    out = np.zeros(T.N_GAMERS, np.int8)
    for g, v in fixed.items():
        out[g] = v
    free = [g for g in range(T.N_GAMERS - 1, 0, -1) if g not in fixed and g not in avoid]
    for v in range(10, 0, -1):
        if v not in fixed.values():
            out[free.pop(0)] = v
    return out


def game(n: int = 3, sheets=None, turn: int = 1, **options) -> np.ndarray:
    """A record after the allocation (sheets[p] = {gamer: value}), board as in spec §3, nothing run yet."""
    s = k.new_state(n, 0, **options)
    r = s[0]
    sheets = sheets or [{} for _ in range(n)]
    mentioned = set()
    for sh in sheets:
        mentioned |= set(sh)
    for p in range(n):
        r["assigned"][p] = sheet(sheets[p], avoid=mentioned)
    r["assign_seat"] = n
    r["turn"] = turn
    r["start_player"] = (turn - 1) % n
    return s


def control(s, p: int, g: int, v: int = 1) -> None:
    """Seat p publicly controls gamer g with a declaration of v (its sheet is raised if needed)."""
    r = s[0]
    r["assigned"][p, g] = max(int(r["assigned"][p, g]), v)
    r["counter"] += 1
    r["declared"][p, g] = v
    r["stamp"][p, g] = r["counter"]
    _recompute(s, g)


def vacate(s, g: int, where: int = T.LOC_CIV) -> None:
    r = s[0]
    if r["loc"][g] < T.N_POSTS:
        r["holder"][r["loc"][g]] = -1
    r["loc"][g] = where


def put(s, g: int, post: int) -> None:
    r = s[0]
    vacate(s, g)
    if r["holder"][post] >= 0:
        vacate(s, int(r["holder"][post]))
    r["holder"][post] = g
    r["loc"][g] = post


def legal(s) -> set[int]:
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, mask)
    return set(np.flatnonzero(mask).tolist())


def play(s, action: int, seat: int | None = None) -> None:
    """Apply a decision, asserting it is legal (and, if given, that ``seat`` is to move)."""
    if seat is not None:
        assert k.to_move(s) == seat, (k.to_move(s), seat, k.PHASE_NAMES[s[0]["phase"]])
    assert action in legal(s), (action, k.action_name(s, action), k.PHASE_NAMES[s[0]["phase"]])
    k.step_decision(s, action)


def roll(s, face: int) -> None:
    """Resolve the pending d20 with a fixed face through the chance API."""
    assert k.is_chance(s) and k.to_move(s) == CHANCE_SEAT
    ids = np.zeros(k.NUM_CHANCE_OUTCOMES, np.int64)
    probs = np.zeros(k.NUM_CHANCE_OUTCOMES, np.float64)
    n = k.chance_outcomes(s, ids, probs)
    assert face - 1 in ids[:n]
    k.step_chance(s, face - 1)


def pass_window(s) -> None:
    """Every seat passes the open window (only this one: a following window stays open)."""
    if s[0]["phase"] != ST.PH_WINDOW:
        return
    cont, turn = int(s[0]["dw_cont"]), int(s[0]["turn"])
    while s[0]["phase"] == ST.PH_WINDOW and int(s[0]["dw_cont"]) == cont and int(s[0]["turn"]) == turn:
        play(s, DONE)


def phase(s) -> str:
    return k.PHASE_NAMES[int(s[0]["phase"])]
