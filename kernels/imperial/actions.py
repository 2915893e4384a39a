"""Imperial action ids: one ``Discrete(801)`` space for every seat (spec §6).

| ids     | name              | meaning                                                               |
|---------|-------------------|-----------------------------------------------------------------------|
| 0-7     | RONDEL[s]         | move the nation's marker to rondel space s (IMP-RON-*)                |
| 8       | PASS              | skip factory / finish import / end maneuver (DONE) / decline a fight / keep factory / skip purchase |
| 9-38    | BUILD_FACTORY[h]  | build in home province h (IMP-FAC-1)                                  |
| 39-68   | IMPORT_ARMY[h]    | import one army into home province h (IMP-IMP-2)                      |
| 69-98   | IMPORT_FLEET[h]   | import one fleet into port province h (IMP-IMP-2)                     |
| 99-152  | SELECT_ORIGIN[r]  | pick a region holding an unacted unit with a legal move (IMP-MAN-*)   |
| 153-206 | SELECT_DEST[r]    | destination: a sea moves a fleet, land moves an army (IMP-FLT/ARM-*)  |
| 207-215 | SELECT_SEA[k]     | next sea (region 45 + k) of a transport chain (IMP-ARM-4/6)           |
| 216-245 | TOGGLE_STANCE[h]  | flip the stance of the mover's armies in foreign province h (IMP-STN-2)|
| 246/247 | HOSTILE/FRIENDLY  | stance of the army that just entered a foreign home province (IMP-STN-1)|
| 248-253 | FIGHT[n]          | fight nation n (mover), or accept the fight (asked defender: n = mover)|
| 254-259 | ASK[n]            | mover asks nation n next (IMP-CMB-2)                                  |
| 260     | DESTROY_FACTORY   | IMP-DST-1 under optional destruction (ruleset "published")            |
| 261-800 | BUY[n,k,t]        | 261 + 90n + 10(k-1) + t: bond k of nation n, t = 0 new or returned own bond t < k (IMP-BND-1) |
"""

from .._common.actions import ActionLayout
from .tables import FIRST_SEA
from .tables import N_BONDS
from .tables import N_HOME
from .tables import N_NATIONS
from .tables import N_REGIONS
from .tables import N_SEAS
from .tables import NATION_IDS
from .tables import REGION_IDS
from .tables import RONDEL_IDS

_ACTIONS = ActionLayout()
A_RONDEL = _ACTIONS.add("RONDEL", 8)
A_PASS = _ACTIONS.add("PASS")
A_BUILD = _ACTIONS.add("BUILD_FACTORY", N_HOME)
A_IMPORT_ARMY = _ACTIONS.add("IMPORT_ARMY", N_HOME)
A_IMPORT_FLEET = _ACTIONS.add("IMPORT_FLEET", N_HOME)
A_ORIGIN = _ACTIONS.add("SELECT_ORIGIN", N_REGIONS)
A_DEST = _ACTIONS.add("SELECT_DEST", N_REGIONS)
A_SEA = _ACTIONS.add("SELECT_SEA", N_SEAS)
A_TOGGLE = _ACTIONS.add("TOGGLE_STANCE", N_HOME)
A_HOSTILE = _ACTIONS.add("HOSTILE")
A_FRIENDLY = _ACTIONS.add("FRIENDLY")
A_FIGHT = _ACTIONS.add("FIGHT", N_NATIONS)
A_ASK = _ACTIONS.add("ASK", N_NATIONS)
A_DESTROY = _ACTIONS.add("DESTROY_FACTORY")
N_BUY = N_NATIONS * N_BONDS * 10
A_BUY = _ACTIONS.add("BUY", N_BUY)
NUM_ACTIONS = _ACTIONS.size
assert (A_BUILD, A_IMPORT_ARMY, A_IMPORT_FLEET, A_ORIGIN, A_DEST, A_SEA, A_TOGGLE) == (9, 39, 69, 99, 153, 207, 216)
assert (A_HOSTILE, A_FRIENDLY, A_FIGHT, A_ASK, A_DESTROY, A_BUY, NUM_ACTIONS) == (246, 247, 248, 254, 260, 261, 801)
# (family name, argument) of an action id, e.g. ("SELECT_DEST", region index); ValueError outside 0..800
action_family = _ACTIONS.family


def buy_id(n: int, k: int, t: int = 0) -> int:
    """Action id of buying bond k (1..9) of nation n, returning own bond t (0 = none)."""
    return A_BUY + 90 * n + 10 * (k - 1) + t


def action_name(s, action: int) -> str:
    """Human-readable name of an action id (record ``s`` may be None)."""
    from .tables import BOND_COST

    family, arg = action_family(int(action))
    if family == "RONDEL":
        return f"RONDEL {RONDEL_IDS[arg]}"
    if family in ("BUILD_FACTORY", "IMPORT_ARMY", "IMPORT_FLEET", "SELECT_ORIGIN", "SELECT_DEST", "TOGGLE_STANCE"):
        return f"{family} {REGION_IDS[arg]}"
    if family == "SELECT_SEA":
        return f"SELECT_SEA {REGION_IDS[FIRST_SEA + arg]}"
    if family in ("FIGHT", "ASK"):
        return f"{family} {NATION_IDS[arg]}"
    if family == "BUY":
        n, rest = divmod(arg, 90)
        k, t = divmod(rest, 10)
        price = int(BOND_COST[k]) - (int(BOND_COST[t - 1]) if t else 0)
        trade = f" returning bond {t}" if t else ""
        return f"BUY {NATION_IDS[n]} bond {k + 1}{trade} for {price}m"
    return family
