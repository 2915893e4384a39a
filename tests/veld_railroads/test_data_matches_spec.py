"""The shipped data (kernels/veld_railroads/data) matches the spec's tables (spec §2, §3, VR-BORDER-1)."""

from __future__ import annotations

import json
import pathlib
from collections import deque

from ._helpers import CFM, CMR, CSAR, CTRD, IDX, NATAL, ZASM, T

SHARED = pathlib.Path("/work/shared/data/veld_railroads")
SPEC_SECTIONS = """s00 cape_town worcester|s01 cape_town malmesbury|s02 worcester beaufort_west|s03 beaufort_west de_aar|
s04 de_aar kimberley|s05 de_aar naauwpoort|s06 kimberley vryburg|s07 vryburg mafeking|s08 port_elizabeth alicedale|
s09 port_elizabeth graaff_reinet|s10 alicedale cradock|s11 alicedale east_london|s12 graaff_reinet naauwpoort|
s13 cradock naauwpoort|s14 naauwpoort stormberg|s15 east_london queenstown|s16 queenstown stormberg|
s17 naauwpoort springfontein|s18 stormberg springfontein|s19 kimberley bloemfontein|s20 kimberley jagersfontein|
s21 durban verulam|s22 durban pietermaritzburg|s23 pietermaritzburg estcourt|s24 estcourt ladysmith|
s25 ladysmith newcastle|s26 ladysmith harrismith|s27 bloemfontein springfontein|s28 springfontein jagersfontein|
s29 bloemfontein brandfort|s30 brandfort kroonstad|s31 kroonstad bethlehem|s32 bethlehem harrismith|
s33 newcastle volksrust|s34 kroonstad vereeniging|s35 kroonstad klerksdorp|s36 kimberley klerksdorp|
s37 mafeking zeerust|s38 johannesburg pretoria|s39 johannesburg krugersdorp|s40 johannesburg springs|
s41 johannesburg heidelberg|s42 johannesburg vereeniging|s43 johannesburg potchefstroom|s44 pretoria krugersdorp|
s45 pretoria pietersburg|s46 pretoria middelburg|s47 springs heidelberg|s48 springs middelburg|
s49 heidelberg volksrust|s50 krugersdorp potchefstroom|s51 potchefstroom klerksdorp|s52 krugersdorp zeerust|
s53 middelburg waterval_boven|s54 waterval_boven nelspruit|s55 nelspruit komatipoort|
s56 lourenco_marques ressano_garcia|s57 ressano_garcia komatipoort|s58 lourenco_marques goba"""
SPEC_ONE_WAY = {2: "worcester", 26: "ladysmith", 33: "newcastle", 57: "ressano_garcia"}
SPEC_BORDERS = {
    17: "CC-OF",
    18: "CC-OF",
    19: "CC-OF",
    20: "CC-OF",
    26: "NT-OF",
    33: "TV-NT",
    34: "TV-OF",
    35: "TV-OF",
    36: "TV-CC",
    37: "TV-CC",
    57: "TV-MZ",
}
SPEC_CLOSED = {
    1: {"TV-NT", "TV-OF", "TV-CC"},
    2: {"TV-OF", "TV-CC"},
    3: {"TV-CC"},
    4: set(),
    5: set(),
    6: set(),
    7: set(),
    8: set(),
}
TYPE_LADDERS = {"commercial": [2, 4], "railway_base": [2, 3], "station": [1, 2], "agricultural": [1, 3]}


def test_kernel_copy_equals_shared_data():
    # CI and every checkout have ../shared beside the project; without it this check cannot be made
    assert SHARED.exists(), f"the shared data folder {SHARED} is missing: clone the project beside ../shared"
    for name in ("map.json", "tables.json"):
        ours = pathlib.Path(T.__file__).parent / "data" / name
        assert json.loads(ours.read_text()) == json.loads((SHARED / name).read_text())


def test_counts():
    assert (T.N_SETTLEMENTS, T.N_SECTIONS, T.N_RAILROADS) == (47, 59, 6)
    assert T.SHARES_PER_RAILROAD == 5 and T.N_ROWS == 8 and T.ROW_LENGTH == 36


def test_settlement_indices_match_spec_table():
    assert {T.SETTLEMENT_IDS[i]: i for i in range(47)} == IDX


def test_sections_match_spec_listing():
    for line in SPEC_SECTIONS.replace("\n", "").split("|"):
        sid, a, b = line.split()
        e = int(sid[1:])
        assert T.SECTION_IDS[e] == sid
        assert (T.SEC_A[e], T.SEC_B[e]) == (IDX[a], IDX[b]), sid


def test_one_way_sections_VR_BUILD_2():
    """VR-BUILD-2."""
    assert {e for e in range(59) if T.SEC_ONE_WAY[e]} == set(SPEC_ONE_WAY)
    for e, start in SPEC_ONE_WAY.items():
        assert T.SEC_A[e] == IDX[start]


def test_border_sections_and_closures_VR_BORDER_1():
    got = {e: T.BORDER_IDS[T.SEC_BORDER[e]] for e in range(59) if T.SEC_BORDER[e] >= 0}
    assert got == SPEC_BORDERS
    for row, closed in SPEC_CLOSED.items():
        assert {T.BORDER_IDS[b] for b in range(T.N_BORDERS) if T.BORDER_CLOSED[row - 1, b]} == closed


def test_ladders_and_types_spec_2_1():
    for i, x in enumerate(T.SETTLEMENTS):
        ladder = list(T.LADDER[i, : T.MAX_DEV[i] + 1])
        if x["type"] == "metropolis":
            continue
        assert ladder == TYPE_LADDERS[x["type"]], x["id"]
    assert list(T.LADDER[IDX["bloemfontein"], :4]) == [3, 4, 5, 6] and T.MAX_DEV[IDX["bloemfontein"]] == 3
    assert list(T.LADDER[IDX["johannesburg"], :9]) == list(range(2, 11)) and T.MAX_DEV[IDX["johannesburg"]] == 8


def test_railroads_homes_and_dice_spec_2_2():
    homes = {
        CFM: "lourenco_marques",
        CSAR: "bloemfontein",
        NATAL: "durban",
        CTRD: "cape_town",
        CMR: "port_elizabeth",
        ZASM: "johannesburg",
    }
    for rr, home in homes.items():
        assert T.HOME[rr] == IDX[home]
    assert list(T.DIE_MULTIPLIER) == [1, 1, 1, 1, 1, 2]
    assert list(T.INITIAL_AUCTION_ORDER) == [CFM, CSAR, NATAL, CTRD, CMR]
    assert T.START_CASH == {"3": 100, "4": 75, "5": 60, "6": 50}


def test_boxes_and_costs_VR_TRACK_2_VR_LOCO_2_VR_BUILD_3():
    """VR-TRACK-2, VR-LOCO-2, VR-BUILD-3."""
    assert list(T.BOX_COST[:3]) == [3, 4, 5]
    assert list(T.BOX_CAPACITY[1:]) == [3, 2, 2]
    assert (T.COST_SINGLE, T.COST_DOUBLE, T.COST_BOER_SINGLE, T.ZASM_UNCONNECTED_MULTIPLIER) == (5, 15, 7, 2)
    assert T.BOER_WAR_ROW == 4 and T.DEV_PAID_COST == 3 and T.BID_CAP == 500


def _graph():
    adj = {i: [] for i in range(47)}
    for line in SPEC_SECTIONS.replace("\n", "").split("|"):
        sid, a, b = line.split()
        e = int(sid[1:])
        adj[IDX[a]].append(IDX[b])
        if e not in SPEC_ONE_WAY:
            adj[IDX[b]].append(IDX[a])
    return adj


def _distance(adj, start, goal):
    seen, queue = {start: 0}, deque([start])
    while queue:
        v = queue.popleft()
        for w in adj[v]:
            if w not in seen:
                seen[w] = seen[v] + 1
                queue.append(w)
    return seen.get(goal), seen


def test_map_facts_spec_2_3():
    undirected = {i: [] for i in range(47)}
    for e in range(59):
        undirected[int(T.SEC_A[e])].append(int(T.SEC_B[e]))
        undirected[int(T.SEC_B[e])].append(int(T.SEC_A[e]))
    assert len(_distance(undirected, 0, 0)[1]) == 47  # connected
    assert T.DEGREE[IDX["johannesburg"]] == 6
    adj = _graph()
    want = {CSAR: 4, CFM: 7, NATAL: 7, CTRD: 7, CMR: 7}
    for rr, d in want.items():
        assert _distance(adj, int(T.HOME[rr]), IDX["johannesburg"])[0] == d
