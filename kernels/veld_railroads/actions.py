"""Veld Railroads action ids: one ``Discrete(630)`` space for every seat and phase (spec §6).

| ids     | name                | meaning                                                         | phase                    |
|---------|---------------------|-----------------------------------------------------------------|--------------------------|
| 0-3     | BOX[b]              | move the locomotive: 0 build, 1 offer share, 2 develop, 3 pay   | CHOOSE_BOX               |
| 4-9     | BUILD_RAILROAD[r]   | railroad r builds (VR-BUILD-4)                                  | BUILD_CHOOSE_RAILROAD    |
| 10-15   | OFFER_TREASURY[r]   | offer a treasury share of r (VR-SHARE-1)                        | OFFER_CHOOSE             |
| 16-21   | OFFER_OWN[r]        | offer one of my own shares of r (VR-SHARE-1, VR-AUC-3)          | OFFER_CHOOSE             |
| 22-80   | SECTION[e]          | build section s00..s58                                          | BUILD_*_LEG, FIRST_SECTION |
| 81-127  | SETTLEMENT[s]       | develop settlement s (VR-DEV)                                   | DEVELOP_PICK             |
| 128     | DONE                | stop after leg 1 / stop developing                              | BUILD_SECOND_LEG, DEVELOP_PICK |
| 129     | PASS                | leave the auction for good (VR-AUC-1)                           | auctions                 |
| 130-629 | BID[a]              | bid a = id - 129 dollars, 1..500 (VR-AUC-4)                      | auctions                 |
"""

from .tables import (
    BID_CAP,
    BOX_NAMES,
    N_BOXES,
    N_RAILROADS,
    N_SECTIONS,
    N_SETTLEMENTS,
    RAILROAD_SHORT,
    SEC_A,
    SEC_B,
    SEC_ONE_WAY,
    SECTION_IDS,
    SETTLEMENT_NAMES,
)

A_BOX = 0
A_BUILD_RAILROAD = A_BOX + N_BOXES
A_OFFER_TREASURY = A_BUILD_RAILROAD + N_RAILROADS
A_OFFER_OWN = A_OFFER_TREASURY + N_RAILROADS
A_SECTION = A_OFFER_OWN + N_RAILROADS
A_SETTLEMENT = A_SECTION + N_SECTIONS
A_DONE = A_SETTLEMENT + N_SETTLEMENTS
A_PASS = A_DONE + 1
A_BID0 = A_PASS  # BID[a] = A_BID0 + a, a = 1..BID_CAP
A_BID = A_PASS + 1
NUM_ACTIONS = A_BID0 + BID_CAP + 1
assert (A_BUILD_RAILROAD, A_OFFER_TREASURY, A_OFFER_OWN, A_SECTION, A_SETTLEMENT, A_DONE, A_PASS, NUM_ACTIONS) == (
    4,
    10,
    16,
    22,
    81,
    128,
    129,
    630,
)

_FAMILIES = (
    ("BOX", A_BOX, N_BOXES),
    ("BUILD_RAILROAD", A_BUILD_RAILROAD, N_RAILROADS),
    ("OFFER_TREASURY", A_OFFER_TREASURY, N_RAILROADS),
    ("OFFER_OWN", A_OFFER_OWN, N_RAILROADS),
    ("SECTION", A_SECTION, N_SECTIONS),
    ("SETTLEMENT", A_SETTLEMENT, N_SETTLEMENTS),
    ("DONE", A_DONE, 1),
    ("PASS", A_PASS, 1),
    ("BID", A_BID, BID_CAP),
)


def action_family(action: int) -> tuple[str, int]:
    """(family name, argument) of an action id, e.g. (``"SECTION"``, 17); BID's argument is the dollars."""
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is out of range 0..{NUM_ACTIONS - 1}")
    for name, start, count in _FAMILIES:
        if start <= action < start + count:
            return name, action - start + (1 if name == "BID" else 0)
    raise AssertionError("unreachable")


def section_label(e: int) -> str:
    arrow = "->" if SEC_ONE_WAY[e] else "-"
    return f"{SECTION_IDS[e]} {SETTLEMENT_NAMES[SEC_A[e]]}{arrow}{SETTLEMENT_NAMES[SEC_B[e]]}"


def action_name(s, action: int) -> str:
    """Human-readable name of an action id (``s`` is accepted for the contract; names do not depend on it)."""
    family, arg = action_family(int(action))
    if family == "BOX":
        return f"BOX {BOX_NAMES[arg]}"
    if family in ("BUILD_RAILROAD", "OFFER_TREASURY", "OFFER_OWN"):
        return f"{family} {RAILROAD_SHORT[arg]}"
    if family == "SECTION":
        return f"SECTION {section_label(arg)}"
    if family == "SETTLEMENT":
        return f"DEVELOP {SETTLEMENT_NAMES[arg]}"
    if family == "BID":
        return f"BID ${arg}"
    return family
