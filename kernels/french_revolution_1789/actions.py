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

from .tables import (
    ARMY_NAMES,
    CARD_NAMES,
    CITY_IDS,
    EFF_NAMES,
    INTRIGUE_NAMES,
    N_CARDS,
    N_CITIES,
    N_INTRIGUE,
    N_RA,
    N_REGIMES,
    RA_IDS,
    REGIME_IDS,
    TABLES,
)

A_PASS = 0
A_BID = 1
N_BID = 61
A_SELECT = A_BID + N_BID
A_INTRIGUE = A_SELECT + N_CARDS
A_RA = A_INTRIGUE + N_INTRIGUE
A_ABILITY = A_RA + N_RA
A_CITY = A_ABILITY + 1
A_PERSON = A_CITY + N_CITIES
A_REGIME = A_PERSON + N_CARDS
A_PLAYER = A_REGIME + N_REGIMES
A_ARMY = A_PLAYER + 5
NUM_ACTIONS = A_ARMY + 2
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


def action_name(s, action: int) -> str:
    """A readable name of an action id (the record gives context: the selected card's ability)."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"invalid({a})"
    if a == A_PASS:
        return "PASS"
    if a < A_SELECT:
        return f"BID {a - A_BID}"
    if a < A_INTRIGUE:
        return f"SELECT_CARD {CARD_NAMES[a - A_SELECT]}"
    if a < A_RA:
        return f"PLAY_INTRIGUE {INTRIGUE_NAMES[a - A_INTRIGUE]}"
    if a < A_ABILITY:
        return f"REGIME_ACTION {RA_IDS[a - A_RA]}"
    if a == A_ABILITY:
        card = int(s[0]["mv_card"]) if s is not None else -1
        if card >= 0:
            from .tables import CARD_ABILITY

            return f"USE_ABILITY {EFF_NAMES[int(CARD_ABILITY[card])]} ({CARD_NAMES[card]})"
        return "USE_ABILITY"
    if a < A_PERSON:
        return f"TARGET_CITY {CITY_IDS[a - A_CITY]}"
    if a < A_REGIME:
        return f"TARGET_PERSON {CARD_NAMES[a - A_PERSON]}"
    if a < A_PLAYER:
        return f"TARGET_REGIME {REGIME_IDS[a - A_REGIME]}"
    if a < A_ARMY:
        return f"TARGET_PLAYER player_{a - A_PLAYER}"
    return f"TARGET_ARMY {ARMY_NAMES[a - A_ARMY + 1]}"
