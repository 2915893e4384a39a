"""Static Kremlin / "Magne!" data: ``data/*.json`` loaded once into frozen numpy tables.

numba freezes module globals at compile time, so these arrays are constants: never mutate them.
Gamer index g = 0..25 (G01 = 0, falling experience); post index k = 0..12 (P00 = chairman, rank order);
locations: 0..12 posts, LOC_CIV = 13, LOC_OTH = 14, LOC_RET = 15.
"""

from __future__ import annotations

import numpy as np

from .._common.data import load_json

GAMERS_JSON = load_json(__package__, "gamers.json")
POSTS_JSON = load_json(__package__, "posts.json")
TABLES_JSON = load_json(__package__, "tables.json")

MIN_PLAYERS = TABLES_JSON["players"]["min"]
MAX_PLAYERS = TABLES_JSON["players"]["max"]

# --- gamers --------------------------------------------------------------------------------------
_gamers = sorted(GAMERS_JSON["gamers"], key=lambda g: g["index"])
N_GAMERS = len(_gamers)
GAMER_IDS: tuple[str, ...] = tuple(g["id"] for g in _gamers)
GAMER_INDEX = {gid: i for i, gid in enumerate(GAMER_IDS)}
EXPERIENCE = np.array([g["experience"] for g in _gamers], dtype=np.int16)
ASSIGNABLE = np.array([g["influence_assignable"] for g in _gamers], dtype=np.uint8)
START_BROKE = np.array([g["start_broke_markers"] for g in _gamers], dtype=np.int8)
GAMER_LABELS = {theme: tuple(g["labels"][theme] for g in _gamers) for theme in ("magne_ja", "magne_en", "kremlin_en")}

# --- posts and locations -------------------------------------------------------------------------
_posts = sorted(POSTS_JSON["posts"], key=lambda p: p["index"])
N_POSTS = len(_posts)
POST_IDS: tuple[str, ...] = tuple(p["id"] for p in _posts)
LEVEL = np.array([p["level_index"] for p in _posts], dtype=np.int8)  # 0 chairman, 1 senior, 2 junior, 3 member
LV_CHAIRMAN, LV_SENIOR, LV_JUNIOR, LV_MEMBER = 0, 1, 2, 3
EXPEL_THRESHOLD = np.array([p["expel_threshold"] for p in _posts], dtype=np.int8)
IS_OFFICER = np.array([p["is_officer"] for p in _posts], dtype=np.uint8)
N_OFFICERS = int(IS_OFFICER.sum())  # P00..P07
POST_LABELS = {theme: tuple(p["labels"][theme] for p in _posts) for theme in ("magne_ja", "magne_en", "kremlin_en")}
LOC_CIV, LOC_OTH, LOC_RET = N_POSTS, N_POSTS + 1, N_POSTS + 2
N_LOCS = N_POSTS + 3
LOCATION_IDS = POST_IDS + tuple(loc["id"] for loc in POSTS_JSON["locations"])
LOCATION_LABELS = {
    theme: POST_LABELS[theme] + tuple(loc["labels"][theme] for loc in POSTS_JSON["locations"])
    for theme in ("magne_ja", "magne_en", "kremlin_en")
}
START_LOC = np.array(
    [POST_IDS.index(g["start_location"]) if g["start_location"] in POST_IDS else LOC_CIV for g in _gamers],
    dtype=np.int8,
)

# --- influence -----------------------------------------------------------------------------------
INFLUENCE_VALUES = np.array(TABLES_JSON["influence"]["values"], dtype=np.int8)  # 10..1
N_VALUES = len(INFLUENCE_VALUES)
MAX_VALUE = int(INFLUENCE_VALUES.max())
TOTAL_INFLUENCE = int(INFLUENCE_VALUES.sum())  # 55 per player

# --- dice, expulsion, SP ---------------------------------------------------------------------------
DIE_SIDES = TABLES_JSON["die"]["sides"] if "sides" in TABLES_JSON["die"] else 20
PART_TIME_MOD = TABLES_JSON["expulsion"]["modifiers"]["target_on_part_time"]  # -3
OTHER_CIRCLE_MOD = TABLES_JSON["expulsion"]["modifiers"]["trait_other_circle_member"]  # -2
_c = TABLES_JSON["sp_costs"]
SP_EXP_SUCCESS = _c["expulsion_success"]
SP_EXP_FAILURE = _c["expulsion_failure"]
SP_TOGGLE = _c["suspicion_place"]
SP_RUM_A = _c["rumour_A_send_member"]
SP_TRIAL = _c["rumour_B_trial_guilty"]
SP_ELE_REJECT = _c["election_per_rejected_vote"]
SP_PER_LEVEL = _c["personnel_A_per_gamer_changing_level"]
SP_PER_B = _c["personnel_B_per_promotion"]
SP_PER_C = _c["personnel_C_per_promotion"]
SP_RECALL = _c["recall_per_gamer"]
SENSITIVE_MULT = _c["trait_stress_sensitive_multiplier"]
RETIRE_AGE = TABLES_JSON["limits"]["retire_if_experience_plus_sp_at_least"]  # 96
MAX_AGE_AFTER_POWER = TABLES_JSON["limits"]["max_experience_plus_sp_after_power"]  # 95
RETIRE_BROKE = TABLES_JSON["limits"]["retire_at_broke_markers"]  # 3
OPPOSERS_TO_REJECT = TABLES_JSON["trial"]["acquitted_if_opposers_at_least"]  # 2 (trial and election)
_sp = TABLES_JSON["speech"]
SPEECH_THRESHOLD = np.array(
    [0, _sp["threshold_by_broke_markers"]["1"], _sp["threshold_by_broke_markers"]["2"]], dtype=np.int8
)  # 0 = automatic
SPEECH_SP = np.array([_sp["sp_after_speech_by_broke_markers"][str(b)] for b in range(3)], dtype=np.int8)
SPEECHES_TO_WIN = _sp["successes_to_win"]

# --- delegation orders (post indices) -------------------------------------------------------------
_d = TABLES_JSON["delegation_orders"]
DELEGATION_EXPULSION = np.array([POST_IDS.index(p) for p in _d["expulsion"]], dtype=np.int8)
DELEGATION_RUMOUR = np.array([POST_IDS.index(p) for p in _d["rumour"]], dtype=np.int8)
DELEGATION_ELECTION = np.array([POST_IDS.index(p) for p in _d["election"]], dtype=np.int8)

# --- finance tables: FINANCE[table, age - 50] = (retire_max, plus2_max, plus1_max, minus1_min) -----
FIN_MIN_AGE = 50
_ft = TABLES_JSON["finance_tables"]
FINANCE = np.zeros((2, 46, 4), dtype=np.int8)
for _t, _name in enumerate(("normal", "part_time")):
    for _row in _ft[_name]:
        FINANCE[_t, _row["age"] - FIN_MIN_AGE] = (
            _row["retire_max"],
            _row["plus2_max"],
            _row["plus1_max"],
            _row["minus1_min"],
        )

TURN_LIMIT_DEFAULT = TABLES_JSON["game"]["turn_limit_default"]

# --- optional traits (KRM-OPT-*) -----------------------------------------------------------------
TRAIT_NAMES = (
    "poor",
    "enemy_of",
    "ally_of",
    "clique",
    "inconspicuous",
    "stress_sensitive",
    "midway_break",
    "other_circle_member",
    "other_interest",
)
(
    TR_POOR,
    TR_ENEMY,
    TR_ALLY,
    TR_CLIQUE,
    TR_INCONSPICUOUS,
    TR_SENSITIVE,
    TR_MIDWAY,
    TR_OTHER_CIRCLE,
    TR_OTHER_INTEREST,
) = range(len(TRAIT_NAMES))
_ta = GAMERS_JSON["optional_traits"]["default_assignment"]
TRAIT = np.zeros((N_GAMERS, len(TRAIT_NAMES)), dtype=np.uint8)  # flag per gamer
ENEMY = np.full(N_GAMERS, -1, dtype=np.int8)  # partner of an enemy_of pair
ALLY = np.full(N_GAMERS, -1, dtype=np.int8)  # X -> Y of an ally_of pair
CLIQUE = np.full(N_GAMERS, -1, dtype=np.int8)  # clique group index
for _name in ("poor", "inconspicuous", "stress_sensitive", "midway_break", "other_circle_member", "other_interest"):
    for _gid in _ta[_name]:
        TRAIT[GAMER_INDEX[_gid], TRAIT_NAMES.index(_name)] = 1
for _a, _b in _ta["enemy_of"]:
    ENEMY[GAMER_INDEX[_a]], ENEMY[GAMER_INDEX[_b]] = GAMER_INDEX[_b], GAMER_INDEX[_a]
    TRAIT[GAMER_INDEX[_a], TR_ENEMY] = TRAIT[GAMER_INDEX[_b], TR_ENEMY] = 1
for _x, _y in _ta["ally_of"]:
    ALLY[GAMER_INDEX[_x]] = GAMER_INDEX[_y]
    TRAIT[GAMER_INDEX[_x], TR_ALLY] = 1
for _i, _grp in enumerate(_ta["clique"]):
    for _gid in _grp:
        CLIQUE[GAMER_INDEX[_gid]] = _i
        TRAIT[GAMER_INDEX[_gid], TR_CLIQUE] = 1

THEMES = ("magne", "kremlin")
PHASE_LABELS = TABLES_JSON["labels"]["phases"]
