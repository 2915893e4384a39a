"""Helpers shared by the Veld Railroads rule tests (spec: shared/rules/veld_railroads.md).

Positions are built by writing record fields directly; every action is then driven through the kernel
(``play`` asserts the action is legal for the seat the test expects to be moving). Ids below are
written out from the spec's §6 table rather than imported from the kernel.
"""

from __future__ import annotations

import numpy as np

from tabletop_zoo.kernels import veld_railroads as k

T = k.tables
ST = k.state

# Railroad indices (spec §2.2).
CFM, CSAR, NATAL, CTRD, CMR, ZASM = 0, 1, 2, 3, 4, 5

# Action ids (spec §6).
BOX_BUILD, BOX_OFFER, BOX_DEVELOP, BOX_PAY = 0, 1, 2, 3
BUILD_RAILROAD = 4
OFFER_TREASURY = 10
OFFER_OWN = 16
SECTION = 22
SETTLEMENT = 81
DONE = 128
PASS = 129


def BID(amount: int) -> int:
    return 129 + amount


TERMINAL_SEAT = -2

# Settlement indices (spec §2.3 table).
SETTLEMENT_ROWS = """0 cape_town 1 malmesbury 2 worcester 3 beaufort_west 4 de_aar 5 kimberley 6 vryburg 7 mafeking
8 port_elizabeth 9 graaff_reinet 10 alicedale 11 cradock 12 naauwpoort 13 east_london 14 queenstown 15 stormberg
16 durban 17 verulam 18 pietermaritzburg 19 estcourt 20 ladysmith 21 newcastle 22 bloemfontein 23 springfontein
24 jagersfontein 25 brandfort 26 kroonstad 27 bethlehem 28 harrismith 29 johannesburg 30 pretoria 31 krugersdorp
32 springs 33 heidelberg 34 vereeniging 35 potchefstroom 36 klerksdorp 37 volksrust 38 middelburg 39 waterval_boven
40 nelspruit 41 komatipoort 42 pietersburg 43 zeerust 44 lourenco_marques 45 ressano_garcia 46 goba""".split()
IDX = {SETTLEMENT_ROWS[i + 1]: int(SETTLEMENT_ROWS[i]) for i in range(0, len(SETTLEMENT_ROWS), 2)}
JOBURG = IDX["johannesburg"]


def sec(n: int) -> int:
    """Action id of section s<n>."""
    return SECTION + n


def settle(name: str) -> int:
    """Action id of developing a settlement."""
    return SETTLEMENT + IDX[name]


def mask_of(s) -> np.ndarray:
    m = np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, m)
    return m


def legal_ids(s) -> set[int]:
    return set(np.flatnonzero(mask_of(s)).tolist())


def legal_sections(s) -> set[int]:
    return {a - SECTION for a in legal_ids(s) if SECTION <= a < SECTION + 59}


def play(s, action: int, seat: int | None = None) -> None:
    """Check that ``seat`` is to move and ``action`` is legal, then apply it."""
    if seat is not None:
        assert k.to_move(s) == seat, f"expected seat {seat} to move, got {k.to_move(s)}"
    assert mask_of(s)[action] == 1, f"action {action} ({k.action_name(s, action)}) is not legal"
    k.step(s, action)


def give_sections(s, rr: int, numbers) -> None:
    """Railroad rr owns sections s<numbers> (caches kept consistent); opens it."""
    r = s[0]
    for e in numbers:
        assert r["section_owner"][e] == -1
        r["section_owner"][e] = rr
        r["touch"][rr, T.SEC_A[e]] = 1
        r["touch"][rr, T.SEC_B[e]] = 1
        r["n_sections"][rr] += 1
    r["opened"][rr] = 1


def give_shares(s, seat: int, rr: int, count: int = 1) -> None:
    r = s[0]
    assert r["treasury_shares"][rr] >= count
    r["treasury_shares"][rr] -= count
    r["holdings"][seat, rr] += count
    r["opened"][rr] = 1


def blank_main(
    num_players: int = 4,
    row: int = 1,
    position: int = 0,
    active: int = 0,
    cash: int = 50,
    treasury: int = 20,
    **options,
):
    """A main-game position with no track, no shares sold, every railroad but ZASM opened, all treasuries
    ``treasury`` dollars, each seat ``cash`` dollars, ``active`` to choose a box in ``row``."""
    s = k.new_state(num_players, 0, **options)
    r = s[0]
    r["phase"] = ST.PH_CHOOSE_BOX
    r["setup_k"] = 5
    r["row"] = row
    r["position"] = position
    r["payouts"] = row - 1
    r["active"] = active
    r["cash"][:num_players] = cash
    r["treasury_cash"][:] = treasury
    r["treasury_start"][:] = treasury
    r["opened"][:] = [1, 1, 1, 1, 1, 0]
    r["auc_railroad"] = -1
    r["fs_railroad"] = -1
    r["fs_player"] = -1
    r["auc_passed"][:] = 0
    r["loco_box"][:] = -1
    return s


def set_income_ladder_level(s, name: str, level: int) -> None:
    s[0]["dev_level"][IDX[name]] = level


def cash(s) -> list[int]:
    r = s[0]
    return [int(x) for x in r["cash"][: r["num_players"]]]


def income(s) -> list[int]:
    out = np.zeros(6, np.int64)
    k.sum_income(s[0]["section_owner"], s[0]["dev_level"], out)
    return [int(x) for x in out]
