"""Static Imperial data: ``data/*.json`` loaded once into frozen numpy tables.

numba freezes module globals at compile time, so these arrays are constants: never mutate them.

Region index = ``map.json`` index: 0-29 home provinces (nation n owns 5n..5n+4, turn order AH, IT,
FR, GB, GE, RU), 30-44 neutral land, 45-53 seas (sea index = region - 45). Region sets are uint64
bitmasks (bit r = region r); sea sets are bitmasks over region bits too.
"""

from __future__ import annotations

import numpy as np

from .._common.data import load_json

MAP = load_json(__package__, "map.json")
TABLES = load_json(__package__, "tables.json")

NATION_IDS: tuple[str, ...] = tuple(TABLES["nation_turn_order"])
NATION_NAMES: tuple[str, ...] = tuple(n["name"] for n in MAP["nations"])
N_NATIONS = len(NATION_IDS)
N_REGIONS = len(MAP["regions"])
N_HOME = 30
FIRST_NEUTRAL = 30
FIRST_SEA = 45
N_SEAS = N_REGIONS - FIRST_SEA
REGION_IDS: tuple[str, ...] = tuple(r["id"] for r in MAP["regions"])
REGION_INDEX: dict[str, int] = {r["id"]: r["index"] for r in MAP["regions"]}
assert [r["index"] for r in MAP["regions"]] == list(range(N_REGIONS)) == list(range(54))
REGION_NAMES: tuple[str, ...] = tuple(r.get("city") or r.get("name") or r["id"] for r in MAP["regions"])
KIND_HOME, KIND_NEUTRAL, KIND_SEA = 0, 1, 2
REGION_KIND = np.array([("home", "neutral", "sea").index(r["kind"]) for r in MAP["regions"]], dtype=np.int8)
# owner nation of a home province, -1 otherwise
HOME_NATION = np.array([NATION_IDS.index(r["nation"]) if r["nation"] else -1 for r in MAP["regions"]], np.int8)
for _h in range(N_HOME):
    assert HOME_NATION[_h] == _h // 5
assert (REGION_KIND[:30] == KIND_HOME).all() and (REGION_KIND[30:45] == KIND_NEUTRAL).all()
assert (REGION_KIND[45:] == KIND_SEA).all()

FT_ARMAMENTS, FT_SHIPYARD = 0, 1
FACTORY_TYPE = np.array(
    [("armaments", "shipyard").index(r["factory_type"]) if r["factory_type"] else -1 for r in MAP["regions"]], np.int8
)
PORT_SEA = np.array([REGION_INDEX[r["port_sea"]] if r["port_sea"] else -1 for r in MAP["regions"]], np.int8)
START_FACTORY = np.array([bool(r["start_factory"]) for r in MAP["regions"]], np.uint8)


def _mask(ids) -> np.uint64:
    m = 0
    for x in ids:
        m |= 1 << REGION_INDEX[x]
    return np.uint64(m)


LAND_ADJ = np.array([_mask(r["adjacent_land"]) for r in MAP["regions"]], np.uint64)  # land neighbours
SEA_ADJ = np.array([_mask(r["adjacent_sea"]) for r in MAP["regions"]], np.uint64)  # sea neighbours
RAIL_ADJ = np.array([_mask(r["rail_neighbors"]) for r in MAP["regions"]], np.uint64)  # IMP-ARM-2
HOME_MASK = np.array([_mask(n["home_provinces"]) for n in MAP["nations"]], np.uint64)
SEA_MASK = np.uint64(((1 << N_REGIONS) - 1) ^ ((1 << FIRST_SEA) - 1))
LAND_MASK = np.uint64((1 << FIRST_SEA) - 1)
NEUTRAL_MASK = np.uint64(((1 << FIRST_SEA) - 1) ^ ((1 << FIRST_NEUTRAL) - 1))
EDGES = [(REGION_INDEX[a], REGION_INDEX[b]) for a, b in MAP["edges"]]

# --- nations, units ------------------------------------------------------------------------------
_limits = TABLES["components"]["unit_limits"]
UNIT_LIMIT = np.array([[_limits[n]["armies"], _limits[n]["fleets"]] for n in NATION_IDS], np.int8)  # [n, army/fleet]
TAX_CHIPS_SEED = TABLES["components"]["tax_chips_per_nation"]  # 10 (IMP-CHP-4)
TAX_CHIPS_PUBLISHED = TABLES["components"]["tax_chips_per_nation_alternative"]  # 15 (IMP-OPT-2)
MAX_TAX_CHIPS = 30  # the largest tax_chips_per_nation option

# --- bonds (index k-1 for bond number k) ---------------------------------------------------------
N_BONDS = len(TABLES["bonds"]["table"])
BOND_COST = np.array([b["cost"] for b in TABLES["bonds"]["table"]], np.int32)
BOND_INTEREST = np.array([b["interest"] for b in TABLES["bonds"]["table"]], np.int32)

# --- tax chart, power --------------------------------------------------------------------------
_tax = TABLES["tax_chart"]
TAX_MIN_POS = _tax["min_position"]  # 5
TAX_MAX_POS = _tax["max_position"]  # 15
TAX_START_POS = _tax["initial_position"]
TAX_CAP = _tax["tax_revenue_cap"]  # 20
POWER_MAX = TABLES["power_track"]["max"]  # 25
MULTIPLIER = np.zeros(POWER_MAX + 1, np.int32)
for _row in TABLES["power_track"]["multiplier_by_range"]:
    MULTIPLIER[_row["min"] : _row["max"] + 1] = _row["multiplier"]

# --- rondel ------------------------------------------------------------------------------------
RONDEL_IDS: tuple[str, ...] = tuple(sp["id"] for sp in TABLES["rondel"]["spaces"])
N_RONDEL = len(RONDEL_IDS)
SP_FACTORY, SP_PRODUCTION_1, SP_MANEUVER_1, SP_INVESTOR, SP_IMPORT, SP_PRODUCTION_2, SP_MANEUVER_2, SP_TAXATION = range(
    8
)
assert RONDEL_IDS == (
    "factory",
    "production_1",
    "maneuver_1",
    "investor",
    "import",
    "production_2",
    "maneuver_2",
    "taxation",
)
FREE_STEPS = TABLES["rondel"]["free_steps"]
MAX_STEPS = TABLES["rondel"]["max_steps"]
EXTRA_STEP_COST = TABLES["rondel"]["extra_step_cost"]

_costs = TABLES["costs"]
FACTORY_COST = _costs["factory"]
IMPORT_COST = _costs["import_per_unit"]
IMPORT_MAX = _costs["import_max_units"]
UPKEEP = _costs["upkeep_per_unit"]
TAX_PER_FACTORY = _costs["tax_per_unblocked_factory"]
TAX_PER_CHIP = _costs["tax_per_chip"]
INVESTOR_BONUS = _costs["investor_card_bonus"]
COMPENSATION = _costs["flag_loss_compensation"]
DESTROY_ARMIES = _costs["factory_destruction_armies"]

# --- setup ---------------------------------------------------------------------------------------
_cards = TABLES["flag_cards"]["cards"]
CARD_OWN_BOND = np.array([_cards[n]["own_bond"] for n in NATION_IDS], np.int8)
CARD_SECOND_NATION = np.array([NATION_IDS.index(_cards[n]["second_nation"]) for n in NATION_IDS], np.int8)
CARD_SECOND_BOND = np.array([_cards[n]["second_bond"] for n in NATION_IDS], np.int8)
MIN_PLAYERS, MAX_PLAYERS = 2, 6
START_CASH = np.zeros(MAX_PLAYERS + 1, np.int32)
for _n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
    START_CASH[_n] = TABLES["setup"][str(_n)]["starting_cash"]
# IMP-SET-3: fixed groups for 2 and 3 players, as nation bitmasks
GROUPS = np.zeros((MAX_PLAYERS + 1, 3), np.int8)
for _n in (2, 3):
    for _g, grp in enumerate(TABLES["setup"][str(_n)]["flag_card_groups"]):
        GROUPS[_n, _g] = sum(1 << NATION_IDS.index(x) for x in grp)
