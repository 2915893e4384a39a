"""Imperial rules no other test checks by ID (spec shared/rules/imperial.md §3-§5), with the spec's numbers."""

from __future__ import annotations

import numpy as np

from ._helpers import (
    AH,
    BUILD,
    DEST,
    FACTORY_SP,
    FIGHT,
    GB,
    GE,
    IT,
    MAN1,
    ORIGIN,
    PASS,
    PROD2,
    RONDEL,
    RU,
    T,
    blank,
    dests,
    k,
    legal_ids,
    play,
    rg,
    set_chips,
    to_maneuver,
    turn_to,
)

SEAS_FROM = 45  # region indices 45-53 are the nine seas (spec §2.1)


def test_the_rondel_has_eight_spaces_in_order():
    """IMP-RON-1: 0 Factory, 1 Production, 2 Maneuver, 3 Investor, 4 Import, 5 Production, 6 Maneuver, 7 Taxation."""
    s = blank(4)
    names = [k.action_name(s, RONDEL + i).lower() for i in range(8)]
    for name, word in zip(
        names, ("factory", "production", "maneuver", "investor", "import", "production", "maneuver", "taxation")
    ):
        assert word in name, names


def test_nation_markers_may_share_a_space():
    """IMP-RON-4: with AH's marker on Maneuver (2), IT may move onto Maneuver too."""
    s = blank(4)
    r = s[0]
    r["flag"][:] = 0
    r["rondel_pos"][AH] = MAN1
    turn_to(s, IT, FACTORY_SP)
    assert RONDEL + MAN1 in legal_ids(s)
    play(s, RONDEL + MAN1, 0)
    assert r["rondel_pos"][AH] == MAN1 == r["rondel_pos"][IT]


def test_building_a_factory_is_optional():
    """IMP-FAC-3: on Factory with 5 in the treasury AH may build (Prague has no factory) or PASS, which keeps the 5."""
    s = blank(4)
    r = s[0]
    r["flag"][AH] = 0
    r["treasury"][AH] = 5
    turn_to(s, AH)
    play(s, RONDEL + FACTORY_SP, 0)
    legal = legal_ids(s)
    assert PASS in legal and BUILD + rg("prague") in legal
    play(s, PASS, 0)
    assert r["treasury"][AH] == 5 and r["factory"][rg("prague")] == 0


def test_tax_chips_per_nation_by_ruleset():
    """IMP-OPT-2: 10 tax chips per nation under "seed", 15 under "published", or as given; all in supply at setup."""
    for options, chips in (({}, 10), ({"ruleset": "published"}, 15), ({"tax_chips_per_nation": 12}, 12)):
        r = k.new_state(4, 0, **options)[0]
        assert r["chips_per_nation"] == chips and r["chips_left"].tolist() == [chips] * 6


def test_armies_never_stop_at_sea():
    """IMP-ARM-5: an Italian army in Rome may go to land regions only."""
    s = blank(4)
    r = s[0]
    r["flag"][IT] = 0
    r["armies"][IT, rg("rome")] = 1
    to_maneuver(s, IT)
    play(s, ORIGIN + rg("rome"), 0)
    d = dests(s)
    assert d and all(T.REGION_INDEX[x] < SEAS_FROM for x in d)


def test_fleets_never_enter_land_and_share_seas():
    """IMP-FLT-3, IMP-FLT-4: a British fleet in the North Sea may go only to seas, one of them the English Channel
    where a German fleet already is."""
    s = blank(4)
    r = s[0]
    r["flag"][GB], r["flag"][GE] = 0, 1
    r["fleets"][GB, rg("north_sea")] = 1
    r["fleets"][GE, rg("english_channel")] = 1
    to_maneuver(s, GB)
    play(s, ORIGIN + rg("north_sea"), 0)
    d = dests(s)
    assert "english_channel" in d and all(T.REGION_INDEX[x] >= SEAS_FROM for x in d)


def test_each_unit_moves_once_and_is_then_acted():
    """IMP-MAN-1, IMP-MAN-3: of two Italian armies in Rome, one moves to Florence: it is acted (Florence is no
    origin any more) while the other may still move."""
    s = blank(4)
    r = s[0]
    r["flag"][IT] = 0
    r["armies"][IT, rg("rome")] = 2
    to_maneuver(s, IT)
    play(s, ORIGIN + rg("rome"), 0)
    play(s, DEST + rg("florence"), 0)
    legal = legal_ids(s)
    assert ORIGIN + rg("florence") not in legal and ORIGIN + rg("rome") in legal


def test_a_chip_stays_when_its_units_leave():
    """IMP-CHP-3: an Italian chip on Rome stays after the Italian army there moves to Florence."""
    s = blank(4)
    r = s[0]
    r["flag"][IT] = 0
    r["armies"][IT, rg("rome")] = 2
    set_chips(s, IT, ["rome"])
    to_maneuver(s, IT)
    play(s, ORIGIN + rg("rome"), 0)
    play(s, DEST + rg("florence"), 0)
    assert r["armies"][IT, rg("rome")] == 1 and r["chip"][rg("rome")] == IT
    play(s, ORIGIN + rg("rome"), 0)
    play(s, DEST + rg("florence"), 0)
    assert r["armies"][IT, rg("rome")] == 0 and r["chip"][rg("rome")] == IT


def test_the_bank_never_runs_out():
    """IMP-SET-8: with the bank's ledger showing a million already paid out, passing Investor still pays the card
    holder 2 (5 - 4 for the move, + 2)."""
    s = blank(4)
    r = s[0]
    r["flag"][:] = 0
    r["cash"][0] = 5
    r["bank_out"] = 1_000_000
    turn_to(s, AH, FACTORY_SP)
    play(s, RONDEL + 5, 0)  # five steps: pays 4, passes Investor
    assert r["cash"][0] == 1 + 2 and r["bank_out"] > 1_000_000


def _supply(s, n: int) -> tuple[int, int]:
    """Nation n's (armies, fleets) in supply as the observation reports them (units / 10)."""
    from tabletop_zoo.kernels._common.layout import unflatten

    out = np.zeros(k.OBS_SIZE, np.float32)
    k.observe(s, 0, out)
    return tuple(int(round(10 * float(v))) for v in unflatten(k.OBS_PIECES, out)["supply"][n])


def test_destroyed_units_return_to_their_supply():
    """IMP-CMB-4: Austria-Hungary has all 10 of its armies on the board (3 in Vienna, 7 in Lemberg), so its Vienna
    factory produces nothing. One army moves to West Balkan and fights one of Italy's two armies there: both are
    destroyed and go back to their supplies (AH 1 army, Italy 8 - 1 = 7), so at AH's next Production Vienna
    produces an army again."""

    def board():
        s = blank(4)
        r = s[0]
        r["flag"][:] = [0, 1, 2, 3, 0, 1]
        r["factory"][rg("vienna")] = 1
        r["armies"][AH, rg("vienna")] = 3
        r["armies"][AH, rg("lemberg")] = 7
        r["armies"][IT, rg("west_balkan")] = 2
        r["armies"][RU, rg("west_balkan")] = 1
        return s

    s = board()
    assert _supply(s, AH) == (0, 6) and _supply(s, IT) == (6, 8)
    turn_to(s, AH, MAN1)
    play(s, RONDEL + PROD2, 0)
    assert s[0]["armies"][AH, rg("vienna")] == 3  # a full supply: nothing to produce
    s = board()
    r = s[0]
    to_maneuver(s, AH)
    play(s, ORIGIN + rg("vienna"), 0)
    play(s, DEST + rg("west_balkan"), 0)
    play(s, FIGHT + IT, 0)
    assert r["armies"][AH, rg("west_balkan")] == 0 and r["armies"][IT, rg("west_balkan")] == 1
    assert int(r["armies"][AH].sum()) == 9 and int(r["armies"][IT].sum()) == 1
    assert _supply(s, AH) == (1, 6) and _supply(s, IT) == (7, 8)
    play(s, PASS, 0)  # end the maneuver
    turn_to(s, AH, MAN1)
    play(s, RONDEL + PROD2, 0)
    assert r["armies"][AH, rg("vienna")] == 3 and int(r["armies"][AH].sum()) == 10
