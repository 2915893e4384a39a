"""Static French Revolution 1789 data: ``data/*.json`` compiled once into frozen numpy tables.

numba freezes module globals at compile time: never mutate these arrays. Card effects are not
hard-coded per card: every effect of ``cards.json`` (on-acquire effects, ◆ abilities, intrigue
effects) and every regime action of ``tables.json`` is compiled into one row of the effect table
``EFF`` (columns ``E_*``), interpreted by ``effects.py``.

Indices: card 0..31 and intrigue 0..13 = ``index`` in cards.json; city 0..11 = map.json; regime
0..6 and regime action 0..12 = tables.json; army 0 French, 1 coalition, 2 royalist.
"""

from __future__ import annotations

import numpy as np

from .._common.data import load_json

CARDS = load_json(__package__, "cards.json")
MAP = load_json(__package__, "map.json")
TABLES = load_json(__package__, "tables.json")

MIN_PLAYERS = TABLES["players"]["min"]
MAX_PLAYERS = TABLES["players"]["max"]
N_TURNS = TABLES["turns"]
TURN_LABELS = tuple(TABLES["turn_labels"])
RP_CAP = TABLES["rp_cap"]  # FR-GEN-4
INCOME = np.zeros(MAX_PLAYERS + 1, np.int16)  # FR-INC-1, by player count
for _n, _v in TABLES["income_by_player_count"].items():
    INCOME[int(_n)] = _v
DEALT = np.zeros(MAX_PLAYERS + 1, np.int8)  # setup 4: intrigue cards per player
for _n, _v in TABLES["intrigue_cards_dealt"].items():
    DEALT[int(_n)] = _v
SUPPORT_MARKERS = TABLES["support_markers_per_player"]
IMPRISONED_MARKERS = TABLES["markers"]["imprisoned"]
EXILED_MARKERS = TABLES["markers"]["exiled"]

# --- regimes -------------------------------------------------------------------------------------
_regimes = sorted(TABLES["regimes"], key=lambda x: x["index"])
REGIME_IDS: tuple[str, ...] = tuple(x["id"] for x in _regimes)
REGIME_INDEX = {rid: i for i, rid in enumerate(REGIME_IDS)}
N_REGIMES = len(REGIME_IDS)
START_REGIME = REGIME_INDEX[TABLES["start_regime"]]
REGIME_ABBR = ("AM", "CM", "REP", "TER", "DIR", "EMP", "EGA")

_ras = sorted(TABLES["regime_actions"], key=lambda x: x["index"])
RA_IDS: tuple[str, ...] = tuple(x["id"] for x in _ras)
RA_INDEX = {aid: i for i, aid in enumerate(RA_IDS)}
N_RA = len(RA_IDS)
MARK_SOLID, MARK_OPEN = 1, 2  # bit flags ◆ / ◇
RA_MARK = np.array([MARK_SOLID if a["mark"] == "solid" else MARK_OPEN for a in _ras], np.int8)
RA_NEEDS_EXILED = np.array([a["actor_status"] == "exiled" for a in _ras], np.uint8)  # FR-ACT-7
RA_COST = np.array([a["cost_rp"] for a in _ras], np.int16)
RA_VP = np.array([a["vp_to_actor"] for a in _ras], np.int16)

VOTE_TARGETS = np.zeros(N_REGIMES, np.int32)  # bitmask of the 【】 list (FR-RA-VOTE)
REGIME_ACTIONS = np.zeros((N_REGIMES, N_RA), np.uint8)  # FR-ACT-5: actions a regime allows
for _r in _regimes:
    for _t in _r["vote_targets"]:
        VOTE_TARGETS[_r["index"]] |= 1 << REGIME_INDEX[_t]
    for _a in _r["actions"]:
        REGIME_ACTIONS[_r["index"], RA_INDEX[_a]] = 1

_bands = TABLES["exile_scoring"]["bands"]
EXILE_VP = np.zeros(10, np.int16)  # FR-SCO-2: VP per exiled person by exile count 0..9
for _b in _bands:
    for _c in range(_b["min"], _b["max"] + 1):
        EXILE_VP[_c] = _b["vp"]

# --- map -----------------------------------------------------------------------------------------
_cities = sorted(MAP["cities"], key=lambda x: x["index"])
CITY_IDS: tuple[str, ...] = tuple(c["id"] for c in _cities)
CITY_INDEX = {cid: i for i, cid in enumerate(CITY_IDS)}
N_CITIES = len(CITY_IDS)
CITY_RP = np.array([c["rp"] for c in _cities], np.int16)
CITY_VP = np.array([c["vp"] for c in _cities], np.int16)
CITY_DEF = np.array([c["defence_bonus"] for c in _cities], np.int8)
CITY_EXILE_W = np.array([c["exile_count_weight"] for c in _cities], np.int8)
# bit 1 coalition, bit 2 royalist (same bits as ARMY masks below)
CITY_ELIG = np.array(
    [(2 if c["coalition_eligible"] else 0) | (4 if c["royalist_eligible"] else 0) for c in _cities], np.int8
)

# --- armies --------------------------------------------------------------------------------------
FRENCH, COALITION, ROYALIST = 0, 1, 2
ARMY_NAMES = ("french", "coalition", "royalist")
MAX_STRENGTH = 4
ARMY_UNITS = np.zeros((3, MAX_STRENGTH + 1), np.int8)  # units of each army by strength
for _a, _name in enumerate(ARMY_NAMES):
    for _u in TABLES["armies"][_name]["units"]:
        ARMY_UNITS[_a, _u["strength"]] += 1
N_UNITS = np.array([ARMY_UNITS[a].sum() for a in range(3)], np.int8)
FRENCH_UNIT_STRENGTHS = np.array(sorted(u["strength"] for u in TABLES["armies"]["french"]["units"]), np.int8)

# --- history cards -------------------------------------------------------------------------------
_hist = sorted(CARDS["history_cards"], key=lambda x: x["index"])
CARD_IDS: tuple[str, ...] = tuple(c["id"] for c in _hist)
CARD_NAMES: tuple[str, ...] = tuple(c["name_en"] for c in _hist)
CARD_INDEX = {cid: i for i, cid in enumerate(CARD_IDS)}
N_CARDS = len(CARD_IDS)
CARD_DECK = np.array([c["deck"] - 1 for c in _hist], np.int8)
CARD_PERSON = np.array([c["kind"] == "person" for c in _hist], np.uint8)
CARD_MARKS = np.array(
    [(MARK_SOLID if "solid" in c["marks"] else 0) | (MARK_OPEN if "open" in c["marks"] else 0) for c in _hist], np.int8
)
CARD_VOTES = np.array([c["votes"] for c in _hist], np.int8)
CARD_CREDIT = np.array([c["credit"] for c in _hist], np.int8)
CARD_SCORE = np.zeros((N_CARDS, N_REGIMES), np.int8)  # ■ VP by regime (FR-SCO-1)
for _c in _hist:
    for _sc in _c["scoring"]:
        CARD_SCORE[_c["index"], REGIME_INDEX[_sc["regime"]]] = _sc["vp"]
DECK_IDS = ("I", "II", "III", "IV", "V")
DECK_SIZE = np.array([len(CARDS["decks"][d]) for d in DECK_IDS], np.int8)
DECK_START = np.zeros(N_TURNS + 1, np.int8)  # deck d occupies positions DECK_START[d]..DECK_START[d+1]-1
DECK_START[1:] = np.cumsum(DECK_SIZE)
DECK_CARDS = np.array([CARD_INDEX[x] for d in DECK_IDS for x in CARDS["decks"][d]], np.int8)

_intr = sorted(CARDS["intrigue_cards"], key=lambda x: x["index"])
INTRIGUE_IDS: tuple[str, ...] = tuple(c["id"] for c in _intr)
INTRIGUE_NAMES: tuple[str, ...] = tuple(c["name_en"] for c in _intr)
N_INTRIGUE = len(INTRIGUE_IDS)

# --- the effect table ----------------------------------------------------------------------------
# Operations: 0..12 are the regime actions themselves (same index as tables.json), the rest are the
# effect types of cards.json.
(
    OP_GAIN_VP,
    OP_GAIN_RP,
    OP_OTHERS_LOSE_RP,
    OP_PLAYER_LOSE_VP,
    OP_PLACE_VOTES,
    OP_REMOVE_VOTES,
    OP_PLACE_SUPPORT,
    OP_DISPATCH,
    OP_DRAW_INTRIGUE,
    OP_STEAL,
    OP_KILL,
    OP_FREE_OWN,
) = range(N_RA, N_RA + 12)
OP_VOTE, OP_CAMPAIGN, OP_NOBLES, OP_ARREST, OP_EXILE, OP_EXECUTE, OP_RELEASE, OP_RETURN = range(8)
OP_INSTIGATE, OP_FINANCE, OP_EXPEDITION, OP_NATIONALISE, OP_ASSASSIN = range(8, 13)
_TYPE_OP = {
    "gain_vp": OP_GAIN_VP,
    "gain_rp": OP_GAIN_RP,
    "others_lose_rp": OP_OTHERS_LOSE_RP,
    "target_player_lose_vp": OP_PLAYER_LOSE_VP,
    "place_votes": OP_PLACE_VOTES,
    "remove_votes": OP_REMOVE_VOTES,
    "place_support": OP_PLACE_SUPPORT,
    "dispatch": OP_DISPATCH,
    "draw_intrigue": OP_DRAW_INTRIGUE,
    "steal_intrigue": OP_STEAL,
    "kill_person": OP_KILL,
    "free_own_imprisoned": OP_FREE_OWN,
    "instigate": OP_INSTIGATE,
}

D_REGIME, D_CITY, D_PERSON, D_PLAYER, D_ARMY = range(5)
DECISION_NAMES = ("regime", "city", "person", "player", "army_if_dual")
_DEC = {"regime": D_REGIME, "city": D_CITY, "person": D_PERSON, "player": D_PLAYER, "army_if_dual": D_ARMY}
ARMY_ANY = 2 | 4  # army masks use bit (1 << army)

# columns of EFF
E_OP, E_AMOUNT, E_ARMY, E_REGIMES, E_CITIES, E_FLAG, E_DRAWS, E_NEXT, E_NDEC, E_DEC0 = range(10)
E_COLS = E_DEC0 + 3
# E_FLAG bits
F_NO_ARMY = 1  # place_support: illegal where a coalition/royalist unit stands
F_SELF_DIES = 2  # kill_person: the acting card dies too
F_NO_TILT = 4  # Pitt's Gold: the exiled person does not tilt
F_OWN_EXILED_ACTOR = 8  # instigate by a chosen own exiled person (Pitt's Gold)

_rows: list[list[int]] = []
EFF_NAMES: list[str] = []


def _army_mask(name: str) -> int:
    return {"any": ARMY_ANY, "coalition": 2, "royalist": 4}[name]


def _row(effect: dict | None, decisions: list[str], name: str, ra: int | None = None) -> int:
    """Append one compiled effect row; returns its index."""
    row = [0] * E_COLS
    row[E_NEXT] = -1
    row[E_DRAWS] = 1
    if ra is not None:
        row[E_OP] = ra
        if ra == OP_INSTIGATE:
            row[E_ARMY] = ARMY_ANY
    else:
        t = effect["type"]
        if t == "regime_action":
            row[E_OP] = RA_INDEX[effect["action"]]
            if row[E_OP] == OP_INSTIGATE:
                row[E_ARMY] = ARMY_ANY
        else:
            row[E_OP] = _TYPE_OP[t]
            row[E_AMOUNT] = effect.get("amount", effect.get("votes", effect.get("max", effect.get("bonus", 0))))
            if t == "kill_person":
                row[E_AMOUNT] = effect["vp"]
                row[E_FLAG] |= F_SELF_DIES if effect["self_dies"] else 0
                assert effect["owner"] == "other" and set(effect["statuses"]) == {"free", "imprisoned"}
            if t == "place_votes":
                targets = effect["targets"]
                row[E_REGIMES] = (
                    (1 << N_REGIMES) - 1 if targets == "any" else sum(1 << REGIME_INDEX[x] for x in targets)
                )
            if t == "place_support":
                row[E_CITIES] = sum(1 << CITY_INDEX[x] for x in effect["cities"])
                row[E_FLAG] |= F_NO_ARMY if effect["require_no_army"] else 0
                assert effect["replace_other"]
            if t == "dispatch":
                row[E_ARMY] = _army_mask(effect["target_army"])
            if t == "instigate":
                row[E_ARMY] = _army_mask(effect["army"])
                row[E_DRAWS] = effect["draws"]
                if effect["actor"] == "own_exiled_person":
                    row[E_FLAG] |= F_OWN_EXILED_ACTOR
                if not effect.get("tilt_actor", True):
                    row[E_FLAG] |= F_NO_TILT
            if t in ("draw_intrigue", "steal_intrigue"):
                row[E_AMOUNT] = effect["count"]
                assert effect["count"] == 1
    row[E_NDEC] = len(decisions)
    for i, d in enumerate(decisions):
        row[E_DEC0 + i] = _DEC[d]
    _rows.append(row)
    EFF_NAMES.append(name)
    return len(_rows) - 1


for _a in _ras:  # rows 0..12: the regime actions
    _row(None, _a["decisions"], _a["id"], ra=_a["index"])

CARD_ABILITY = np.full(N_CARDS, -1, np.int16)  # effect row of a card's ◆ ability (FR-ACT-8)
CARD_ACQUIRE = np.full(N_CARDS, -1, np.int16)  # first effect row of its on-acquire effects (FR-AUC-5)
for _c in _hist:
    if _c["ability"] is not None:
        CARD_ABILITY[_c["index"]] = _row(_c["ability"]["effect"], _c["ability"]["decisions"], _c["ability"]["id"])
    _prev = -1
    for _e in _c["on_acquire"]:
        _i = _row(_e, [], f"{_c['id']}:on_acquire")
        if _prev < 0:
            CARD_ACQUIRE[_c["index"]] = _i
        else:
            _rows[_prev][E_NEXT] = _i
        _prev = _i
INTRIGUE_EFFECT = np.full(N_INTRIGUE, -1, np.int16)  # first effect row of each intrigue card (FR-ACT-9)
for _c in _intr:
    _prev = -1
    for _k, _e in enumerate(_c["effects"]):
        _i = _row(_e, _c["decisions"] if _k == 0 else [], _c["id"])
        if _prev < 0:
            INTRIGUE_EFFECT[_c["index"]] = _i
        else:
            _rows[_prev][E_NEXT] = _i
        _prev = _i
EFF = np.array(_rows, np.int32)
N_EFF = EFF.shape[0]
EFF_NAMES = tuple(EFF_NAMES)

# FR-RA-EXPED: persons with a Dispatch ability
CARD_DISPATCH = np.array(
    [CARD_PERSON[c] and CARD_ABILITY[c] >= 0 and EFF[CARD_ABILITY[c], E_OP] == OP_DISPATCH for c in range(N_CARDS)],
    np.uint8,
)
