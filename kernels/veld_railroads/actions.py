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

from .._common.actions import ActionLayout
from .tables import BID_CAP
from .tables import BOX_NAMES
from .tables import N_BOXES
from .tables import N_RAILROADS
from .tables import N_SECTIONS
from .tables import N_SETTLEMENTS
from .tables import RAILROAD_SHORT
from .tables import SEC_A
from .tables import SEC_B
from .tables import SEC_ONE_WAY
from .tables import SECTION_IDS
from .tables import SETTLEMENT_NAMES

_ACTIONS = ActionLayout()
A_BOX = _ACTIONS.add("BOX", N_BOXES)
A_BUILD_RAILROAD = _ACTIONS.add("BUILD_RAILROAD", N_RAILROADS)
A_OFFER_TREASURY = _ACTIONS.add("OFFER_TREASURY", N_RAILROADS)
A_OFFER_OWN = _ACTIONS.add("OFFER_OWN", N_RAILROADS)
A_SECTION = _ACTIONS.add("SECTION", N_SECTIONS)
A_SETTLEMENT = _ACTIONS.add("SETTLEMENT", N_SETTLEMENTS)
A_DONE = _ACTIONS.add("DONE")
A_PASS = _ACTIONS.add("PASS")
A_BID = _ACTIONS.add("BID", BID_CAP, first_arg=1)  # BID's argument is the dollars, 1..BID_CAP
A_BID0 = A_PASS  # BID[a] = A_BID0 + a, a = 1..BID_CAP
NUM_ACTIONS = _ACTIONS.size
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
# (family name, argument) of an action id, e.g. ("SECTION", 17); BID's argument is the dollars
action_family = _ACTIONS.family


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
