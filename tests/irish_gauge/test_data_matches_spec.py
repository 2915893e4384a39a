"""The package copy of the Irish Gauge data (kernels/irish_gauge/data/*.json, as loaded by k.tables)
matches the numbers of shared/rules/irish_gauge.md §2-§3, and is byte-identical to shared/data."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from tabletop_zoo.kernels import irish_gauge as k

from ._helpers import T

SHARED_DATA = Path("/work/shared/data/irish_gauge")
PACKAGE_DATA = Path(T.__file__).parent / "data"

# Spec §2.1 picture (`.` easy, `#` difficult, `t` town, `C` city, `M` major city); column c sits at
# character 4 + 3c.
PICTURE = """\
       1  2  3  4  5  6  7  8  9 10 11 12
  A                .  #  .  .  #  .  .  #
  B                .  #  #  C  #  .  .  #
  C                   .  .  .  #  .  .  M
  D             t  .  .  .  #  t  #  .  #
  E    #  .  #  #  .  .  .  .  .  .  .  #
  F    #  t  .  .  .  .  .  .  .  .  t
  G    #  .  .  .  .  .  .  .  .  .  .
  H    .  .  M  .  .  .  t  .  .  .  M
  I       .     .  .  .  #  .  .  .  #
  J          .  .  .  .  .  .  #  .  #  t
  K       .  t  .  #  #  .  .  .  .  .  t
  L    .  .  .  C  .  .  .  C  t  #  .
  M    .  #  #  .  .  .  #  .  C  .
  N    t  #  #  #  .  .
  O    #  #  .  C
  P       #
"""
GLYPH = {".": "easy", "#": "difficult", "t": "town", "C": "city", "M": "major_city"}

# Spec §2.1 named-hex table: hex -> (index, name, class, starts with cube, home of)
NAMED = {
    "B8": (11, "Derry", "city", True, ()),
    "C12": (22, "Belfast", "major_city", True, ("BCD",)),
    "D4": (23, "Sligo", "town", False, ()),
    "D9": (28, "Monaghan", "town", False, ()),
    "F2": (45, "Castlebar", "town", False, ()),
    "F11": (54, "Drogheda", "town", False, ()),
    "H3": (68, "Galway", "major_city", True, ()),
    "H7": (72, "Tullamore", "town", False, ()),
    "H11": (76, "Dublin", "major_city", True, ("GSW", "MGW")),
    "J12": (95, "Wicklow", "town", False, ()),
    "K3": (97, "Shannon", "town", False, ()),
    "K12": (106, "Arklow", "town", False, ()),
    "L4": (110, "Limerick", "city", True, ("WLW",)),
    "L8": (114, "Kilkenny", "city", True, ()),
    "L9": (115, "New Ross", "town", False, ()),
    "M9": (126, "Waterford", "city", True, ()),
    "N1": (128, "Killarney", "town", False, ()),
    "O4": (137, "Cork", "city", True, ("CBSC",)),
}

# Spec §2.2 company table.
COMPANIES = [
    ("CBSC", "Cork, Bandon & South Coast Railway", "yellow", "O4", [7, 12, 17]),
    ("WLW", "Waterford, Limerick & Western Railway", "purple", "L4", [5, 10, 15, 19]),
    ("BCD", "Belfast & County Down Railway", "orange", "C12", [8, 13]),
    ("GSW", "Great Southern & Western Railway", "light blue", "H11", [4, 9, 14, 18]),
    ("MGW", "Midland Great Western Railway", "red", "H11", [6, 11, 16]),
]


def picture_terrain() -> dict[str, str]:
    out = {}
    for line in PICTURE.splitlines()[1:]:
        row = line[2]
        for col in range(1, 13):
            pos = 4 + 3 * col
            if pos < len(line) and line[pos] != " ":
                out[f"{row}{col}"] = GLYPH[line[pos]]
    return out


def test_hex_count_and_terrain_counts_spec_2_1():
    assert T.N_HEX == 139 == T.MAP["hex_count"] == len(T.MAP["hexes"])
    counts = Counter(T.TERRAIN_NAMES[t] for t in T.TERRAIN)
    assert counts == {"easy": 88, "difficult": 33, "town": 10, "city": 5, "major_city": 3}


def test_every_hex_matches_the_spec_picture_spec_2_1():
    pic = picture_terrain()
    assert len(pic) == 139
    assert set(T.HEX_IDS) == set(pic)
    for h, label in enumerate(T.HEX_IDS):
        assert T.TERRAIN_NAMES[T.TERRAIN[h]] == pic[label], label


def test_index_is_reading_order_spec_2_1():
    rows = "ABCDEFGHIJKLMNOP"
    order = sorted(picture_terrain(), key=lambda lab: (rows.index(lab[0]), int(lab[1:])))
    assert list(T.HEX_IDS) == order
    for hexobj in T.MAP["hexes"]:
        assert T.HEX_INDEX[hexobj["id"]] == hexobj["index"]
        assert hexobj["row"] + str(hexobj["col"]) == hexobj["id"]


def test_named_hex_table_spec_2_1():
    for label, (index, name, cls, cube, homes) in NAMED.items():
        assert T.HEX_INDEX[label] == index, label
        assert T.HEX_NAMES[index] == name
        assert T.TERRAIN_NAMES[T.TERRAIN[index]] == cls
        assert (label in T.MAP["starting_cube_cities"]) == cube
        assert tuple(c for c, home in T.MAP["homes"].items() if home == label) == homes
    named = {T.HEX_IDS[h] for h in range(T.N_HEX) if T.HEX_NAMES[h] is not None}
    assert named == set(NAMED)
    # every town/city/major is named; nothing else is
    assert named == {T.HEX_IDS[h] for h in range(T.N_HEX) if T.TERRAIN_NAMES[T.TERRAIN[h]] not in ("easy", "difficult")}


def test_town_index_order_and_city_lists_spec_2_1():
    towns = ["D4", "D9", "F2", "F11", "H7", "J12", "K3", "K12", "L9", "N1"]
    assert [T.HEX_IDS[h] for h in T.TOWN_HEX] == towns
    assert T.MAP["towns"] == towns
    assert sorted(T.MAP["cities"]) == sorted(["B8", "L4", "L8", "M9", "O4"])
    assert sorted(T.MAP["major_cities"]) == sorted(["C12", "H3", "H11"])
    assert sorted(T.HEX_IDS[h] for h in T.MAJOR_CITY_HEX) == ["C12", "H11", "H3"]
    # IG-SETUP-3: draw order
    assert [T.HEX_IDS[h] for h in T.STARTING_CUBE_HEX] == ["B8", "C12", "H3", "H11", "L4", "L8", "M9", "O4"]


def test_adjacency_is_axial_and_symmetric_spec_2_1():
    """Two hexes are adjacent exactly when they are axial neighbours (q = col, r = row - (col - col%2)/2)."""
    rows = "ABCDEFGHIJKLMNOP"

    def axial(label):
        col = int(label[1:])
        return col, rows.index(label[0]) - (col - col % 2) // 2

    by_axial = {axial(lab): lab for lab in T.HEX_IDS}
    offsets = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]
    for hexobj in T.MAP["hexes"]:
        assert (hexobj["q"], hexobj["r"]) == axial(hexobj["id"])
    for h, label in enumerate(T.HEX_IDS):
        q, r = axial(label)
        want = {by_axial[(q + dq, r + dr)] for dq, dr in offsets if (q + dq, r + dr) in by_axial}
        got = {T.HEX_IDS[g] for g in T.NEIGHBORS[h, : T.N_NEIGHBORS[h]]}
        assert got == want, label
        assert (T.NEIGHBORS[h, T.N_NEIGHBORS[h] :] == -1).all()
        for g in T.NEIGHBORS[h, : T.N_NEIGHBORS[h]]:
            assert h in T.NEIGHBORS[g, : T.N_NEIGHBORS[g]].tolist()


def test_homes_spec_2_2_IG_SETUP_1():
    """IG-SETUP-1."""
    assert list(T.COMPANY_IDS) == ["CBSC", "WLW", "BCD", "GSW", "MGW"]
    assert [T.HEX_IDS[h] for h in T.HOME_HEX] == ["O4", "L4", "C12", "H11", "H11"]
    assert T.MAP["homes"] == {"CBSC": "O4", "WLW": "L4", "BCD": "C12", "GSW": "H11", "MGW": "H11"}


def test_companies_and_share_values_spec_2_2():
    comps = sorted(T.COMPONENTS["companies"], key=lambda c: c["index"])
    for i, (cid, name, colour, home, values) in enumerate(COMPANIES):
        c = comps[i]
        assert (c["id"], c["name"], c["colour"].replace("_", " "), c["home"]) == (cid, name, colour, home)
        assert c["share_values"] == values
        assert c["locomotives"] == 19
        assert T.N_CERTS[i] == len(values)
        assert T.SHARE_VALUE[i, : len(values)].tolist() == values
    assert T.LOCOMOTIVES == 19 and T.COMPONENTS["locomotives_total"] == 95
    assert T.COMPONENTS["initial_auction_order"] == ["CBSC", "WLW", "BCD", "GSW", "MGW"]


def test_sixteen_certificates_spec_2_2():
    certs = T.COMPONENTS["share_certificates"]
    assert len(certs) == 16 == T.COMPONENTS["share_certificate_total"] == int(T.N_CERTS.sum())
    for cid, _name, _colour, _home, values in COMPANIES:
        mine = sorted((c for c in certs if c["company"] == cid), key=lambda c: c["stack_position"])
        assert [c["value"] for c in mine] == values
        assert [c["stack_position"] for c in mine] == list(range(len(values)))
        assert [c["id"] for c in mine] == [f"{cid}_{i + 1}" for i in range(len(values))]
        assert values == sorted(values)  # IG-SETUP-2: lowest value on top


def test_cubes_and_bag_after_setup_IG_SETUP_3_4():
    """IG-SETUP-3, IG-SETUP-4."""
    cubes = T.COMPONENTS["dividend_cubes"]
    assert cubes["colours"] == ["black", "pink", "white"]
    assert (cubes["per_colour"], cubes["total"]) == (10, 30)
    assert (cubes["setup_bag_per_colour"], cubes["setup_bag_total"], cubes["setup_cubes_drawn_to_cities"]) == (4, 12, 8)
    assert (cubes["reserve_added_after_setup_per_colour"], cubes["bag_total_at_game_start"]) == (6, 22)
    assert T.COMPONENTS["drawn_cube_track"] == {"rows": 8, "cubes_per_row": 3}
    for n in (3, 4, 5):
        for seed in range(5):
            s = k.new_state(n, seed)
            assert int(s[0]["bag"].sum()) == 22


def test_players_and_money_spec_2_2_IG_SETUP_5():
    """IG-SETUP-5."""
    assert T.COMPONENTS["players"] == {"min": 3, "max": 5}
    assert T.COMPONENTS["starting_money_per_player"] == {"3": 20, "4": 20, "5": 20}
    assert T.COMPONENTS["bank"]["unlimited"] is True


def test_build_costs_half_points_IG_BLD_3_7():
    """IG-BLD-3, IG-BLD-7."""
    b = T.COMPONENTS["build"]
    assert b["build_points_per_action"] == 3 and b["minimum_spend"] == 1
    assert b["cost_empty"] == {"easy": 1.0, "town": 1.0, "city": 1.0, "major_city": 1.0, "difficult": 2.0}
    assert b["cost_if_other_company_present"] == {
        "easy": 1.5,
        "town": 1.5,
        "city": 1.5,
        "major_city": 1.5,
        "difficult": None,
    }
    assert b["cost_in_half_points"] == {
        "empty_non_difficult": 2,
        "shared_non_difficult": 3,
        "difficult_empty": 4,
        "budget": 6,
    }
    assert (T.COST_EMPTY, T.COST_SHARED, T.COST_DIFFICULT, T.BUILD_BUDGET) == (2, 3, 4, 6)


def test_dividend_constants_IG_DIV_1_5_6():
    """IG-DIV-1, IG-DIV-5, IG-DIV-6."""
    d = T.COMPONENTS["dividends"]
    assert (d["cubes_drawn_per_call"], d["paying_city_income"], d["town_income"]) == (3, 4, 2)
    assert (T.CUBES_PER_CALL, T.CITY_INCOME, T.TOWN_INCOME) == (3, 4, 2)
    assert (d["major_city_bonus"], d["major_city_bonus_published"]) == (0, 12)
    assert (T.MAJOR_CITY_BONUS_SEED, T.MAJOR_CITY_BONUS_PUBLISHED) == (0, 12)
    assert sorted(d["major_city_bonus_hexes"]) == ["C12", "H11", "H3"]
    assert k.new_state(3, 0)[0]["major_city_bonus"] == 0
    assert k.new_state(3, 0, ruleset="published")[0]["major_city_bonus"] == 12


def test_dividend_disk_table_is_ceil_IG_DISK_1():
    """IG-DISK-1."""
    table = T.COMPONENTS["dividend_disk_table"]
    assert table["shares_sold_columns"] == [1, 2, 3, 4]
    assert [row["income"] for row in table["rows"]] == list(range(0, 85, 2))
    for row in table["rows"]:
        assert row["per_share"] == [math.ceil(row["income"] / n) for n in (1, 2, 3, 4)], row


def test_package_data_is_loaded_from_the_package():
    import json

    assert json.loads((PACKAGE_DATA / "map.json").read_text(encoding="utf-8")) == T.MAP
    assert json.loads((PACKAGE_DATA / "components.json").read_text(encoding="utf-8")) == T.COMPONENTS


@pytest.mark.skipif(not SHARED_DATA.is_dir(), reason="shared/data/irish_gauge is not present")
def test_package_data_byte_identical_to_shared():
    shared = sorted(p.name for p in SHARED_DATA.glob("*.json"))
    package = sorted(p.name for p in PACKAGE_DATA.glob("*.json"))
    # layout.json (map coordinates for the rgb_array picture) is ours, not the shared game data
    assert shared == ["components.json", "map.json"] and package == sorted(shared + ["layout.json"])
    for name in shared:
        assert (SHARED_DATA / name).read_bytes() == (PACKAGE_DATA / name).read_bytes(), name


def test_start_tables_consistent_with_state_dtype():
    s = k.new_state(5, 0)
    assert s[0]["loco"].shape == (5, 139)
    assert s[0]["cert_owner"].shape == (5, int(np.max(T.N_CERTS)))
