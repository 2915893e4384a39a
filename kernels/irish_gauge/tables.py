"""Static Irish Gauge data: ``data/*.json`` loaded once into frozen numpy tables.

numba freezes module globals at compile time, so these arrays are constants: never mutate them.
Hex index = ``map.json`` index (reading order by row, then column); company index 0..4 =
CBSC, WLW, BCD, GSW, MGW; colour index 0..2 = black, pink, white.
"""

from __future__ import annotations

import numpy as np

from .._common.data import load_json

MAP = load_json(__package__, "map.json")
COMPONENTS = load_json(__package__, "components.json")

# --- terrain -------------------------------------------------------------------------------------
T_EASY, T_DIFFICULT, T_TOWN, T_CITY, T_MAJOR = 0, 1, 2, 3, 4
TERRAIN_NAMES = ("easy", "difficult", "town", "city", "major_city")

N_HEX = MAP["hex_count"]
HEX_IDS: tuple[str, ...] = tuple(h["id"] for h in MAP["hexes"])
HEX_NAMES: tuple[str | None, ...] = tuple(h["name"] for h in MAP["hexes"])
HEX_INDEX: dict[str, int] = {h["id"]: h["index"] for h in MAP["hexes"]}
assert [h["index"] for h in MAP["hexes"]] == list(range(N_HEX))

TERRAIN = np.array([TERRAIN_NAMES.index(h["terrain"]) for h in MAP["hexes"]], dtype=np.int8)

# Adjacency as a padded table: NEIGHBORS[h, :N_NEIGHBORS[h]] (no hexside is blocked on this map).
NEIGHBORS = np.full((N_HEX, 6), -1, dtype=np.int16)
N_NEIGHBORS = np.zeros(N_HEX, dtype=np.int8)
for _h in MAP["hexes"]:
    _nb = [HEX_INDEX[x] for x in _h["neighbors"]]
    NEIGHBORS[_h["index"], : len(_nb)] = _nb
    N_NEIGHBORS[_h["index"]] = len(_nb)


def _hex_distances() -> np.ndarray:
    """All-pairs hex distances (steps over land) by breadth-first search."""
    dist = np.full((N_HEX, N_HEX), 99, np.int16)
    for src in range(N_HEX):
        dist[src, src] = 0
        frontier = [src]
        while frontier:
            nxt = []
            for h in frontier:
                for g in NEIGHBORS[h, : N_NEIGHBORS[h]]:
                    if dist[src, g] == 99:
                        dist[src, g] = dist[src, h] + 1
                        nxt.append(g)
            frontier = nxt
    return dist


HEX_DISTANCE = _hex_distances()  # [hex, hex] steps over land: how far a build is from a town or city

TOWN_HEX = np.array([HEX_INDEX[x] for x in MAP["towns"]], dtype=np.int16)  # town index t -> hex
N_TOWNS = TOWN_HEX.shape[0]
STARTING_CUBE_HEX = np.array([HEX_INDEX[x] for x in MAP["starting_cube_cities"]], dtype=np.int16)
MAJOR_CITY_HEX = np.array([HEX_INDEX[x] for x in MAP["major_cities"]], dtype=np.int16)
# Only towns and cities can ever hold a cube, so dividends only look at these 18 hexes.
CUBE_SITE_HEX = np.array(sorted(set(TOWN_HEX.tolist()) | set(STARTING_CUBE_HEX.tolist())), dtype=np.int16)

# --- companies and certificates ------------------------------------------------------------------
COMPANY_IDS: tuple[str, ...] = tuple(COMPONENTS["company_order"])
N_COMPANIES = len(COMPANY_IDS)
_companies = sorted(COMPONENTS["companies"], key=lambda c: c["index"])
assert tuple(c["id"] for c in _companies) == COMPANY_IDS
HOME_HEX = np.array([HEX_INDEX[c["home"]] for c in _companies], dtype=np.int16)
LOCOMOTIVES = _companies[0]["locomotives"]  # 19 per company, including the home one
MAX_CERTS = max(len(c["share_values"]) for c in _companies)
N_CERTS = np.array([len(c["share_values"]) for c in _companies], dtype=np.int8)
SHARE_VALUE = np.zeros((N_COMPANIES, MAX_CERTS), dtype=np.int16)  # [company, stack position]
for _c in _companies:
    SHARE_VALUE[_c["index"], : len(_c["share_values"])] = _c["share_values"]

# --- cubes, money, build, dividends --------------------------------------------------------------
COLOUR_NAMES: tuple[str, ...] = tuple(COMPONENTS["dividend_cubes"]["colours"])
N_COLOURS = len(COLOUR_NAMES)
CUBES_PER_COLOUR = COMPONENTS["dividend_cubes"]["per_colour"]
SETUP_BAG_PER_COLOUR = COMPONENTS["dividend_cubes"]["setup_bag_per_colour"]
RESERVE_PER_COLOUR = COMPONENTS["dividend_cubes"]["reserve_added_after_setup_per_colour"]
TRACK_ROWS = COMPONENTS["drawn_cube_track"]["rows"]
CUBES_PER_CALL = COMPONENTS["dividends"]["cubes_drawn_per_call"]
CITY_INCOME = COMPONENTS["dividends"]["paying_city_income"]
TOWN_INCOME = COMPONENTS["dividends"]["town_income"]
MAJOR_CITY_BONUS_SEED = COMPONENTS["dividends"]["major_city_bonus"]
MAJOR_CITY_BONUS_PUBLISHED = COMPONENTS["dividends"]["major_city_bonus_published"]

START_CASH = COMPONENTS["starting_money_per_player"]  # {"3": 20, "4": 20, "5": 20}
MIN_PLAYERS = COMPONENTS["players"]["min"]
MAX_PLAYERS = COMPONENTS["players"]["max"]

_half = COMPONENTS["build"]["cost_in_half_points"]
BUILD_BUDGET = _half["budget"]  # 3 BP = 6 half points
COST_EMPTY = _half["empty_non_difficult"]  # 1 BP
COST_SHARED = _half["shared_non_difficult"]  # 1.5 BP
COST_DIFFICULT = _half["difficult_empty"]  # 2 BP
