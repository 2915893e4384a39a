"""Helpers shared by the Irish Gauge rule tests (spec: shared/rules/irish_gauge.md).

Positions are built by writing record fields directly; every action is then driven through the kernel
(``play`` asserts the action is legal for the seat the test expects to be moving).
"""

from __future__ import annotations

import numpy as np

from tabletop_zoo.kernels import irish_gauge as k

T = k.tables
ST = k.state

# Company indices (spec §2.2) and colour indices (spec §6).
CBSC, WLW, BCD, GSW, MGW = 0, 1, 2, 3, 4
BLACK, PINK, WHITE = 0, 1, 2

# Action ids (spec §6), written out from the table rather than imported from the kernel.
AUCTION = 0
BUILD = 5
SPECIAL_INTEREST = 10
CALL_DIVIDENDS = 40
PLACE = 41
END_BUILD = 180
PASS = 181
BID = 182

CHANCE_SEAT = -1
TERMINAL_SEAT = -2

# Spec §9: the common board of EX-4..EX-7.
COMMON_CUBES = {"C12": BLACK, "H11": PINK, "H3": WHITE, "B8": PINK, "L4": BLACK, "L8": WHITE, "M9": BLACK, "O4": PINK}
COMMON_BAG = (7, 7, 8)


def hx(label: str) -> int:
    return T.HEX_INDEX[label]


def place(label: str) -> int:
    return PLACE + hx(label)


def si(town: int, colour: int) -> int:
    return SPECIAL_INTEREST + 3 * town + colour


def mask_of(s) -> np.ndarray:
    m = np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, m)
    return m


def legal_ids(s) -> set[int]:
    return set(np.flatnonzero(mask_of(s)).tolist())


def play(s, action: int, seat: int | None = None, decision: bool = False) -> None:
    """Check that ``seat`` is to move and ``action`` is legal, then apply it."""
    if seat is not None:
        assert k.to_move(s) == seat, f"expected seat {seat} to move, got {k.to_move(s)}"
    assert mask_of(s)[action] == 1, f"action {action} ({k.action_name(s, action)}) is not legal"
    if decision:
        k.step_decision(s, action)
    else:
        k.step(s, action)


def outcome_id(black: int, pink: int, white: int) -> int:
    """The chance-outcome id whose DRAW_OUTCOMES row is (black, pink, white)."""
    rows = np.asarray(k.DRAW_OUTCOMES)
    hits = np.flatnonzero((rows[:, 0] == black) & (rows[:, 1] == pink) & (rows[:, 2] == white))
    assert hits.size == 1, (black, pink, white)
    return int(hits[0])


def pending_outcomes(s) -> dict[tuple[int, int, int], float]:
    ids = np.zeros(19, np.int64)
    probs = np.zeros(19, np.float64)
    n = k.chance_outcomes(s, ids, probs)
    return {tuple(int(x) for x in k.DRAW_OUTCOMES[ids[i]]): float(probs[i]) for i in range(n)}


def draw(s, black: int, pink: int, white: int) -> None:
    """Resolve the pending dividend draw with the given colour counts (must be a possible outcome)."""
    assert k.is_chance(s)
    assert k.to_move(s) == CHANCE_SEAT
    assert (black, pink, white) in pending_outcomes(s)
    k.step_chance(s, outcome_id(black, pink, white))


def give_cert(s, seat: int, c: int) -> int:
    """Hand company c's top certificate to seat, keeping held / cert_owner / next_cert consistent."""
    r = s[0]
    pos = int(r["next_cert"][c])
    assert r["cert_owner"][c, pos] == -1
    r["cert_owner"][c, pos] = seat
    r["held"][seat, c] += 1
    r["next_cert"][c] = pos + 1
    return pos


def set_network(s, c: int, labels) -> None:
    """Company c has locomotives exactly on these hexes; supply = 19 minus the pieces on the board."""
    r = s[0]
    r["loco"][c, :] = 0
    for label in labels:
        r["loco"][c, hx(label)] = 1
    r["supply"][c] = 19 - len(set(labels))


def main_turn(s, active: int) -> None:
    """Put the record in the MAIN phase with ``active`` to move and no auction/build pending."""
    r = s[0]
    r["phase"] = ST.PH_MAIN
    r["active"] = active
    r["auc_company"] = -1
    r["auc_high_bid"] = 0
    r["auc_high_bidder"] = -1
    r["auc_passed"][:] = 0
    r["bld_company"] = -1
    r["bld_budget"] = 0
    r["bld_placed"] = 0


def common_board(num_players: int = 4, seed: int = 0, **options):
    """Spec §9 common board: the 8 starting cubes as listed, bag black 7 / pink 7 / white 8, MAIN phase."""
    s = k.new_state(num_players, seed, **options)
    r = s[0]
    r["cube"][:] = -1
    for label, colour in COMMON_CUBES.items():
        r["cube"][hx(label)] = colour
    r["bag"][:] = COMMON_BAG
    main_turn(s, 0)
    return s


def ex4_board(num_players: int = 4, **options):
    """EX-4 networks on the common board; CBSC and WLW sold to P2, BCD and GSW to P0, MGW to P1 and P3."""
    s = common_board(num_players, **options)
    set_network(s, CBSC, ["O4"])
    set_network(s, WLW, ["L4"])
    set_network(s, BCD, ["C12", "C11", "D11", "E11", "F11"])
    set_network(s, GSW, ["H11", "H10", "G11"])
    set_network(s, MGW, ["H11", "H10", "H9", "H8", "H7"])
    give_cert(s, 2, CBSC)
    give_cert(s, 2, WLW)
    give_cert(s, 0, BCD)
    give_cert(s, 0, GSW)
    give_cert(s, 1, MGW)
    give_cert(s, 3, MGW)
    return s


def cash(s) -> list[int]:
    r = s[0]
    return [int(x) for x in r["cash"][: r["num_players"]]]


def scores(s) -> list[int]:
    out = np.zeros(5, np.int64)
    k.scores(s, out)
    return [int(x) for x in out[: s[0]["num_players"]]]


def returns(s) -> list[float]:
    out = np.zeros(5, np.float64)
    k.returns(s, out)
    return [float(x) for x in out[: s[0]["num_players"]]]


def stack_tops(s) -> list[int]:
    """Printed value of each company's top certificate (spec §2.2 share values), None when empty."""
    values = {CBSC: [7, 12, 17], WLW: [5, 10, 15, 19], BCD: [8, 13], GSW: [4, 9, 14, 18], MGW: [6, 11, 16]}
    out = []
    for c in range(5):
        pos = int(s[0]["next_cert"][c])
        out.append(values[c][pos] if pos < len(values[c]) else None)
    return out


_ROWS = "ABCDEFGHIJKLMNOP"
_AXIAL_OFFSETS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def axial(label: str) -> tuple[int, int]:
    """Spec §2.1: q = col, r = row_index - (col - col mod 2) / 2 (A = 0)."""
    col = int(label[1:])
    return col, _ROWS.index(label[0]) - (col - col % 2) // 2


def neighbours(label: str) -> set[str]:
    """Adjacent land hexes from the spec's axial rule (independent of the kernel's table)."""
    by_axial = {axial(lab): lab for lab in T.HEX_IDS}
    q, r = axial(label)
    return {by_axial[(q + dq, r + dr)] for dq, dr in _AXIAL_OFFSETS if (q + dq, r + dr) in by_axial}


def placements(s) -> set[str]:
    """Hex labels of the legal PLACE ids."""
    return {T.HEX_IDS[a - PLACE] for a in legal_ids(s) if PLACE <= a < PLACE + T.N_HEX}
