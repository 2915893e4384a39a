"""French Revolution 1789 action ids: one ``Discrete(180)`` space for every seat (spec §6).

| ids     | name              | meaning                                                        |
|---------|-------------------|----------------------------------------------------------------|
| 0       | PASS              | pass in bidding; pass for the rest of the action phase         |
| 1-61    | BID_k             | bid k = id - 1 (0..60) (FR-AUC-2/3)                            |
| 62-93   | SELECT_CARD_i     | activate own history card i = id - 62 (FR-ACT-1)               |
| 94-107  | PLAY_INTRIGUE_j   | play intrigue card j = id - 94 (FR-ACT-9)                      |
| 108-120 | REGIME_ACTION_a   | regime action a = id - 108 (vote 0 ... assassin 12, FR-ACT-5)  |
| 121     | USE_ABILITY       | use the selected card's ◆ ability (FR-ACT-8)                   |
| 122-133 | TARGET_CITY_c     | city c = id - 122                                              |
| 134-165 | TARGET_PERSON_i   | history card i = id - 134                                      |
| 166-172 | TARGET_REGIME_r   | regime r = id - 166                                            |
| 173-177 | TARGET_PLAYER_p   | seat p = id - 173                                              |
| 178-179 | TARGET_ARMY       | 178 coalition, 179 royalist                                    |
"""

from .._common.actions import ActionLayout
from .tables import ARMY_NAMES
from .tables import CARD_NAMES
from .tables import CITY_IDS
from .tables import EFF_NAMES
from .tables import INTRIGUE_NAMES
from .tables import N_CARDS
from .tables import N_CITIES
from .tables import N_INTRIGUE
from .tables import N_RA
from .tables import N_REGIMES
from .tables import RA_IDS
from .tables import REGIME_IDS
from .tables import TABLES

_ACTIONS = ActionLayout()
A_PASS = _ACTIONS.add("PASS")
N_BID = 61
A_BID = _ACTIONS.add("BID", N_BID)
A_SELECT = _ACTIONS.add("SELECT_CARD", N_CARDS)
A_INTRIGUE = _ACTIONS.add("PLAY_INTRIGUE", N_INTRIGUE)
A_RA = _ACTIONS.add("REGIME_ACTION", N_RA)
A_ABILITY = _ACTIONS.add("USE_ABILITY")
A_CITY = _ACTIONS.add("TARGET_CITY", N_CITIES)
A_PERSON = _ACTIONS.add("TARGET_PERSON", N_CARDS)
A_REGIME = _ACTIONS.add("TARGET_REGIME", N_REGIMES)
A_PLAYER = _ACTIONS.add("TARGET_PLAYER", 5)
A_ARMY = _ACTIONS.add("TARGET_ARMY", 2)
NUM_ACTIONS = _ACTIONS.size
assert (A_SELECT, A_INTRIGUE, A_RA, A_ABILITY, A_CITY, A_PERSON, A_REGIME, A_PLAYER, A_ARMY, NUM_ACTIONS) == (
    62,
    94,
    108,
    121,
    122,
    134,
    166,
    173,
    178,
    180,
)
assert NUM_ACTIONS == TABLES["action_space"]["size"]


# the label of each family's argument (USE_ABILITY's comes from the record)
_LABELS = {
    "BID": range(N_BID),
    "SELECT_CARD": CARD_NAMES,
    "PLAY_INTRIGUE": INTRIGUE_NAMES,
    "REGIME_ACTION": RA_IDS,
    "TARGET_CITY": CITY_IDS,
    "TARGET_PERSON": CARD_NAMES,
    "TARGET_REGIME": REGIME_IDS,
    "TARGET_PLAYER": [f"player_{p}" for p in range(5)],
    "TARGET_ARMY": ARMY_NAMES[1:],  # ARMY_NAMES[0] is no army
}


def action_name(s, action: int) -> str:
    """A readable name of an action id (the record gives context: the selected card's ability)."""
    a = int(action)
    family, arg = _ACTIONS.family(a)  # raises for an id outside 0..NUM_ACTIONS-1, as every room does
    if family == "USE_ABILITY":
        card = int(s[0]["mv_card"]) if s is not None else -1
        if card >= 0:
            from .tables import CARD_ABILITY

            return f"USE_ABILITY {EFF_NAMES[int(CARD_ABILITY[card])]} ({CARD_NAMES[card]})"
    if family in _LABELS:
        return f"{family} {_LABELS[family][arg]}"
    return family
