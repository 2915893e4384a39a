"""Static Veld Railroads data: ``data/*.json`` loaded once into frozen numpy tables.

numba freezes module globals at compile time, so these arrays are constants: never mutate them.
Settlement index = ``map.json`` settlement position (0..46), section index = ``s00..s58`` (0..58),
railroad index 0..5 = CFM, CSAR, Natal, CTR&D, Cape Midland, ZASM; rows are 1-based as in the spec
(row r uses index r - 1 of the per-row tables); region index 0..4 = CC, NT, OF, TV, MZ.
"""

from __future__ import annotations

import numpy as np

from .._common.data import load_json

MAP = load_json(__package__, "map.json")
TABLES = load_json(__package__, "tables.json")

# --- regions and borders --------------------------------------------------------------------------
REGION_IDS: tuple[str, ...] = tuple(g["id"] for g in MAP["regions"])
BORDER_IDS: tuple[str, ...] = tuple(b["id"] for b in MAP["borders"])
N_BORDERS = len(BORDER_IDS)
N_ROWS = TABLES["action_track"]["rows"]  # 8
ROW_LENGTH = TABLES["action_track"]["row_length"]  # 36
# BORDER_CLOSED[row - 1, border] = 1 while that border may not be crossed (VR-BORDER-1), from tables.json.
BORDER_CLOSED = np.zeros((N_ROWS, N_BORDERS), dtype=np.uint8)
for _row in TABLES["rows"]:
    for _b in _row["closed_borders"]:
        BORDER_CLOSED[_row["row"] - 1, BORDER_IDS.index(_b)] = 1
for _b in MAP["borders"]:  # map.json states the same closures per border; they must agree
    assert sorted(_b["closed_rows"]) == [r + 1 for r in range(N_ROWS) if BORDER_CLOSED[r, BORDER_IDS.index(_b["id"])]]

# --- settlements ----------------------------------------------------------------------------------
SETTLEMENTS = MAP["settlements"]
N_SETTLEMENTS = len(SETTLEMENTS)
assert [x["index"] for x in SETTLEMENTS] == list(range(N_SETTLEMENTS))
SETTLEMENT_IDS: tuple[str, ...] = tuple(x["id"] for x in SETTLEMENTS)
SETTLEMENT_NAMES: tuple[str, ...] = tuple(x["name"] for x in SETTLEMENTS)
SETTLEMENT_INDEX: dict[str, int] = {x["id"]: x["index"] for x in SETTLEMENTS}
TYPE_NAMES = ("commercial", "railway_base", "station", "agricultural", "metropolis")
SET_TYPE = np.array([TYPE_NAMES.index(x["type"]) for x in SETTLEMENTS], dtype=np.int8)
SET_REGION = np.array([REGION_IDS.index(x["region"]) for x in SETTLEMENTS], dtype=np.int8)
MAX_LADDER = max(len(x["income_ladder"]) for x in SETTLEMENTS)  # 9 (Johannesburg 2..10)
# LADDER[s, level] = income at dev_level level (padded with the top value); MAX_DEV[s] = last level.
LADDER = np.zeros((N_SETTLEMENTS, MAX_LADDER), dtype=np.int16)
MAX_DEV = np.zeros(N_SETTLEMENTS, dtype=np.int8)
for _x in SETTLEMENTS:
    _lad = _x["income_ladder"]
    LADDER[_x["index"], : len(_lad)] = _lad
    LADDER[_x["index"], len(_lad) :] = _lad[-1]
    MAX_DEV[_x["index"]] = len(_lad) - 1
JOHANNESBURG = SETTLEMENT_INDEX["johannesburg"]  # 29
BLOEMFONTEIN = SETTLEMENT_INDEX["bloemfontein"]  # 22

# --- sections -------------------------------------------------------------------------------------
SECTIONS = MAP["sections"]
N_SECTIONS = len(SECTIONS)
assert [e["index"] for e in SECTIONS] == list(range(N_SECTIONS))
SECTION_IDS: tuple[str, ...] = tuple(e["id"] for e in SECTIONS)
SEC_A = np.array([SETTLEMENT_INDEX[e["a"]] for e in SECTIONS], dtype=np.int16)
SEC_B = np.array([SETTLEMENT_INDEX[e["b"]] for e in SECTIONS], dtype=np.int16)
SEC_ONE_WAY = np.array([1 if e["one_way"] else 0 for e in SECTIONS], dtype=np.uint8)
SEC_BORDER = np.array([BORDER_IDS.index(e["border"]) if e["border"] else -1 for e in SECTIONS], dtype=np.int8)
for _e in SECTIONS:  # a border section joins two regions, and only border sections do
    _ra, _rb = SET_REGION[SETTLEMENT_INDEX[_e["a"]]], SET_REGION[SETTLEMENT_INDEX[_e["b"]]]
    assert (_ra != _rb) == (_e["border"] is not None)
# Incidence: INCIDENT[s, :DEGREE[s]] = sections touching settlement s.
DEGREE = np.zeros(N_SETTLEMENTS, dtype=np.int8)
for _e in range(N_SECTIONS):
    DEGREE[SEC_A[_e]] += 1
    DEGREE[SEC_B[_e]] += 1
MAX_DEGREE = int(DEGREE.max())
INCIDENT = np.full((N_SETTLEMENTS, MAX_DEGREE), -1, dtype=np.int16)
_fill = np.zeros(N_SETTLEMENTS, dtype=np.int64)
for _e in range(N_SECTIONS):
    for _s in (SEC_A[_e], SEC_B[_e]):
        INCIDENT[_s, _fill[_s]] = _e
        _fill[_s] += 1

# --- railroads ------------------------------------------------------------------------------------
RAILROADS = sorted(MAP["railroads"], key=lambda x: x["index"])
RAILROAD_IDS: tuple[str, ...] = tuple(x["id"] for x in RAILROADS)
assert RAILROAD_IDS == tuple(TABLES["railroad_order"])
RAILROAD_SHORT: tuple[str, ...] = tuple(x["short"] for x in RAILROADS)
N_RAILROADS = len(RAILROAD_IDS)
ZASM = RAILROAD_IDS.index("zasm")  # 5
HOME = np.array([SETTLEMENT_INDEX[x["home"]] for x in RAILROADS], dtype=np.int16)
DIE_MULTIPLIER = np.array([TABLES["treasury_start"]["multiplier"][x] for x in RAILROAD_IDS], dtype=np.int8)
DIE_SIDES = TABLES["treasury_start"]["die_sides"]
INITIAL_AUCTION_ORDER = np.array([RAILROAD_IDS.index(x) for x in TABLES["initial_auction_order"]], dtype=np.int8)
N_INITIAL_AUCTIONS = INITIAL_AUCTION_ORDER.shape[0]  # 5
SHARES_PER_RAILROAD = TABLES["shares_per_railroad"]  # 5

# --- players, money, bids -------------------------------------------------------------------------
MIN_PLAYERS = TABLES["players"]["min"]
MAX_PLAYERS = TABLES["players"]["max"]
START_CASH: dict[str, int] = TABLES["starting_cash"]
BID_CAP = TABLES["bid_cap_action_space"]  # 500 (VR-AUC-4)
MIN_BID_FLOOR = TABLES["minimum_bid"]["floor"]  # 1 (VR-SHARE-3)
MIN_BID_PER_SECTION = TABLES["minimum_bid"]["per_section"]  # valuation / 5 = sections

# --- action boxes (VR-TRACK-2, VR-LOCO-2) ----------------------------------------------------------
BOX_NAMES = ("build", "offer_share", "develop", "pay_dividends")
N_BOXES = len(BOX_NAMES)
BOX_BUILD, BOX_OFFER, BOX_DEVELOP, BOX_DIVIDENDS = 0, 1, 2, 3
FILL_TO_END = -1
BOX_COST = np.array(
    [
        FILL_TO_END if TABLES["actions"][b]["box_cost"] == "fill_to_end" else TABLES["actions"][b]["box_cost"]
        for b in BOX_NAMES
    ],
    dtype=np.int8,
)
UNLIMITED = 127
BOX_CAPACITY = np.array(
    [UNLIMITED if TABLES["actions"][b]["capacity"] is None else TABLES["actions"][b]["capacity"] for b in BOX_NAMES],
    dtype=np.int8,
)
BOX_MAY_REPEAT = np.array([1 if TABLES["actions"][b]["may_repeat"] else 0 for b in BOX_NAMES], dtype=np.uint8)

# --- rows (VR-TRACK-5, VR-DIV) ---------------------------------------------------------------------
ERA_NAMES = ("normal", "boer_war", "reconstruction")
ROW_ERA = np.array([ERA_NAMES.index(x["era"]) for x in TABLES["rows"]], dtype=np.int8)
DIV_NAMES = ("normal", "reconstruction", "final")
ROW_DIVIDEND = np.array([DIV_NAMES.index(x["dividend"]) for x in TABLES["rows"]], dtype=np.int8)
DIV_NORMAL, DIV_RECONSTRUCTION, DIV_FINAL = 0, 1, 2
ERA_NORMAL, ERA_BOER_WAR, ERA_RECONSTRUCTION = 0, 1, 2
BOER_WAR_ROW = [x["row"] for x in TABLES["rows"] if x["era"] == "boer_war"][0]  # 4
_df = TABLES["dividend_formulas"]
NORMAL_DIVISOR = _df["normal"]["divisor"]  # 5, rounded up (VR-DIV-2)
RECONSTRUCTION_DIVISOR = _df["reconstruction"]["divisor"]  # 10, rounded down (VR-DIV-3)
SPECIAL_DIVISOR = _df["special_johannesburg"]["divisor"]  # 5, rounded up (VR-DIV-5)

# --- build costs (VR-BUILD-3, VR-BOER-1) -------------------------------------------------------------
_bc = TABLES["build_costs"]
COST_SINGLE = _bc["single"]  # 5
COST_DOUBLE = _bc["double"]  # 15
ZASM_UNCONNECTED_MULTIPLIER = _bc["zasm_unconnected_multiplier"]  # 2
COST_BOER_SINGLE = _bc["boer_war_single"]  # 7
SECTION_VALUATION = _bc["section_valuation"]  # 5 (VR-GEN-5)

# --- develop (VR-DEV-3/4) -----------------------------------------------------------------------------
_dv = TABLES["develop"]
DEV_FREE_NORMAL = _dv["normal"]["free"]  # 1
DEV_FREE_BOER = _dv["boer_war"]["free"]  # 2
DEV_PAID = _dv["normal"]["paid"]  # 1
DEV_PAID_COST = _dv["normal"]["paid_cost"]  # 3
assert _dv["auto_develop_if_paid_unused"] == "johannesburg" == _dv["unconnected_exception"]
MAX_PICKS = DEV_FREE_BOER + DEV_PAID  # 3

# --- ZASM (VR-ZASM-1) -----------------------------------------------------------------------------------
ZASM_JOHANNESBURG_INCOME = TABLES["zasm_opening"]["johannesburg_income_at_least"]  # 6
