"""The package copy of the Imperial data matches shared/rules/imperial.md §2 and shared/data."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tabletop_zoo.kernels import imperial as k

from ._helpers import T, rg

SHARED = Path("/work/shared/data/imperial")
PACKAGE = Path(T.__file__).parent / "data"


def test_package_copy_is_identical():
    for name in ("map.json", "tables.json"):
        if (SHARED / name).exists():
            assert (SHARED / name).read_bytes() == (PACKAGE / name).read_bytes()


def test_54_regions_30_home_15_neutral_9_seas():
    assert T.N_REGIONS == 54
    assert (T.REGION_KIND == 0).sum() == 30 and (T.REGION_KIND == 1).sum() == 15 and (T.REGION_KIND == 2).sum() == 9


def test_adjacency_is_symmetric_and_has_138_edges():
    adj = np.zeros((54, 54), bool)
    for x in range(54):
        for y in range(54):
            if (int(T.LAND_ADJ[x]) >> y) & 1 or (int(T.SEA_ADJ[x]) >> y) & 1:
                adj[x, y] = True
    assert (adj == adj.T).all() and not adj.diagonal().any()
    assert adj.sum() // 2 == 138 == len(T.EDGES)
    land = adj[:45, :45].sum() // 2
    sea_sea = adj[45:, 45:].sum() // 2
    assert (land, sea_sea, 138 - land - sea_sea) == (78, 10, 50)


def test_ports_and_factory_slots():
    assert (T.FACTORY_TYPE[:30] == 0).sum() == 15 and (T.FACTORY_TYPE[:30] == 1).sum() == 15
    for h in range(30):
        if T.FACTORY_TYPE[h] == 1:
            assert T.PORT_SEA[h] >= 45 and (int(T.SEA_ADJ[h]) >> int(T.PORT_SEA[h])) & 1
        else:
            assert T.PORT_SEA[h] == -1
    assert T.PORT_SEA[rg("naples")] == rg("western_mediterranean")  # IMP-FLT-1
    starts = {T.REGION_IDS[h] for h in range(30) if T.START_FACTORY[h]}
    assert starts == {
        "vienna",
        "budapest",
        "rome",
        "naples",
        "paris",
        "bordeaux",
        "london",
        "liverpool",
        "berlin",
        "hamburg",
        "moscow",
        "odessa",
    }


def test_map_details_of_OQ_12_and_transport_pairs():
    def land(a, b):
        return bool((int(T.LAND_ADJ[rg(a)]) >> rg(b)) & 1)

    assert land("vienna", "genoa") and land("vienna", "munich") and land("munich", "belgium")
    assert land("prague", "danzig") and land("prague", "warsaw") and land("turkey", "bulgaria")
    for a, b in (("dublin", "edinburgh"), ("spain", "morocco"), ("denmark", "sweden")):
        assert not land(a, b)
    assert int(T.LAND_ADJ[rg("dublin")]) == 0 and int(T.RAIL_ADJ[rg("dublin")]) == 0


def test_tables_bonds_units_rondel():
    assert T.BOND_COST.tolist() == [2, 4, 6, 9, 12, 16, 20, 25, 30]
    assert T.BOND_INTEREST.tolist() == list(range(1, 10))
    assert T.UNIT_LIMIT.tolist() == [[10, 6], [8, 8], [8, 8], [6, 10], [8, 8], [8, 8]]
    assert T.CARD_SECOND_NATION.tolist() == [4, 3, 0, 5, 1, 2]  # AH->GE, IT->GB, FR->AH, GB->RU, GE->IT, RU->FR
    assert T.MULTIPLIER.tolist() == [0] * 5 + [1] * 5 + [2] * 5 + [3] * 5 + [4] * 5 + [5]
    assert (T.FREE_STEPS, T.MAX_STEPS, T.EXTRA_STEP_COST, T.TAX_CHIPS_SEED, T.TAX_CHIPS_PUBLISHED) == (3, 6, 2, 10, 15)


def test_action_space_is_the_spec_discrete_801():
    assert k.NUM_ACTIONS == 801
    assert (
        k.buy_id(5, 9, 8) == 799 and k.action_name(None, k.buy_id(2, 5, 2)) == "BUY FR bond 5 returning bond 2 for 8m"
    )


def test_state_layout_pinned():
    assert k.STATE.itemsize == k.state.STATE_ITEMSIZE == 1221
    assert k.STATE.names[0] == "rng"
