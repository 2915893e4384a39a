"""Helpers for the Imperial rule tests (spec: shared/rules/imperial.md).

Positions are built by writing record fields directly; actions are then driven through the kernel
(``play`` asserts the action is legal for the seat the test expects to be moving). Action ids are
written out from the spec's §6 table rather than imported from the kernel.
"""

from __future__ import annotations

import numpy as np

from tabletop_zoo.kernels import imperial as k

T = k.tables
ST = k.state

AH, IT, FR, GB, GE, RU = range(6)
NATION = {"AH": AH, "IT": IT, "FR": FR, "GB": GB, "GE": GE, "RU": RU}

# spec §6
RONDEL = 0
PASS = 8
BUILD = 9
IMPORT_ARMY = 39
IMPORT_FLEET = 69
ORIGIN = 99
DEST = 153
SEA = 207
TOGGLE = 216
HOSTILE = 246
FRIENDLY = 247
FIGHT = 248
ASK = 254
DESTROY = 260
BUY = 261

FACTORY_SP, PROD1, MAN1, INVESTOR, IMPORT_SP, PROD2, MAN2, TAXATION = range(8)
COST = {1: 2, 2: 4, 3: 6, 4: 9, 5: 12, 6: 16, 7: 20, 8: 25, 9: 30}


def buy(n: int, bond: int, ret: int = 0) -> int:
    return BUY + 90 * n + 10 * (bond - 1) + ret


def rg(name: str) -> int:
    return T.REGION_INDEX[name]


def sea_action(name: str) -> int:
    return SEA + rg(name) - 45


def mask_of(s) -> np.ndarray:
    m = np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, m)
    return m


def legal_ids(s) -> set[int]:
    return set(np.flatnonzero(mask_of(s)).tolist())


def play(s, action: int, seat: int | None = None) -> None:
    if seat is not None:
        assert k.to_move(s) == seat, f"expected seat {seat} to move, got {k.to_move(s)}"
    assert mask_of(s)[action] == 1, (
        f"action {action} ({k.action_name(s, action)}) is not legal; phase "
        f"{k.PHASE_NAMES[s[0]['phase']]}, legal {[k.action_name(s, a) for a in legal_ids(s)][:20]}"
    )
    k.step(s, action)


def blank(num_players: int, **options):
    """A record after setup, then emptied: no bonds, no flags, no cash, treasuries 0, no factories.

    The caller sets what the scenario needs; the ledger is reset so that check_invariants' money
    equation holds for the new cash/treasury values (set_money)."""
    s = k.new_state(num_players, 0, **options)
    r = s[0]
    r["bond_owner"][:] = -1
    r["flag"][:] = -1
    r["cash"][:] = 0
    r["treasury"][:] = 0
    r["factory"][:] = 0
    r["investor_card"] = 0
    return s


def give_bond(s, seat: int, n: int, bond: int) -> None:
    s[0]["bond_owner"][n, bond - 1] = seat


def fix_ledger(s) -> None:
    """Make the bank ledger agree with the cash and treasuries written by a test."""
    r = s[0]
    n = int(r["num_players"])
    total = int(r["cash"][:n].sum()) + int(r["treasury"].sum())
    r["bank_in"] = 0
    r["bank_out"] = total - int(T.START_CASH[n]) * n
    if r["bank_out"] < 0:
        r["bank_in"] = -int(r["bank_out"])
        r["bank_out"] = 0


def set_chips(s, n: int, regions) -> None:
    r = s[0]
    for x in regions:
        r["chip"][rg(x) if isinstance(x, str) else x] = n
    r["chips_left"][n] = int(r["chips_per_nation"]) - int(np.count_nonzero(r["chip"] == n))


def turn_to(s, n: int, pos: int = -1) -> None:
    """Make it nation n's rondel decision with its marker at pos."""
    r = s[0]
    r["nation"] = n
    r["rondel_pos"][n] = pos
    r["phase"] = ST.PH_RONDEL


def to_maneuver(s, n: int) -> None:
    """Nation n moves Factory(0) -> Maneuver(2) (free, no Investor passed)."""
    turn_to(s, n, FACTORY_SP)
    play(s, RONDEL + MAN1)
    assert s[0]["phase"] == ST.PH_MOVE


def dests(s) -> set[str]:
    m = mask_of(s)
    return {T.REGION_IDS[i - DEST] for i in np.flatnonzero(m) if DEST <= i < DEST + 54}


def deal_seed(num_players: int, deal: list[str]) -> int:
    """A seed whose flag deal gives seat i the card deal[i] (found by trying seeds)."""
    for seed in range(200_000):
        s = k.new_state(num_players, seed)
        owners = s[0]["bond_owner"]
        if all(owners[NATION[c], 3] == i for i, c in enumerate(deal)) and sum(
            1 for c in NATION.values() if owners[c, 3] >= 0
        ) == len(deal):
            return seed
    raise AssertionError("no seed found")
