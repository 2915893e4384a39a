"""The data tables match the spec's tables (shared/rules/french_revolution_1789.md §2)."""

from ._helpers import T, k


def test_counts_and_decks():
    assert (T.N_CARDS, T.N_INTRIGUE, T.N_CITIES, T.N_REGIMES, T.N_RA) == (32, 14, 12, 7, 13)
    assert T.DECK_SIZE.tolist() == [8, 7, 6, 6, 5]
    assert k.NUM_ACTIONS == 180


def test_income_markers_and_exile_bands():
    assert T.INCOME[2:6].tolist() == [18, 15, 12, 10] and T.RP_CAP == 60
    assert T.DEALT[2:6].tolist() == [3, 3, 2, 2]
    assert (T.SUPPORT_MARKERS, T.IMPRISONED_MARKERS, T.EXILED_MARKERS) == (8, 4, 4)
    assert T.EXILE_VP.tolist() == [0, 1, 1, 2, 2, 2, 3, 3, 3, 5]


def test_armies_spec_2_6():
    assert T.ARMY_UNITS[0].tolist() == [0, 5, 6, 5, 2]  # French: five 1s, six 2s, five 3s, two 4s
    assert T.ARMY_UNITS[1].tolist() == [0, 3, 4, 3, 0]  # coalition 3,2,2,3,2,3,1,2,1,1
    assert T.ARMY_UNITS[2].tolist() == [0, 2, 3, 1, 0]  # royalist 2,1,2,1,3,2


def test_map_spec_2_5():
    assert T.CITY_RP.tolist() == [3, 2, 1, 2, 2, 2, 1, 1, 1, 2, 2, 1]
    assert T.CITY_VP.tolist() == [2] + [1] * 11
    assert T.CITY_DEF.tolist() == [1] + [0] * 11
    assert T.CITY_EXILE_W.tolist() == [2, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0]
    coal = [(e >> 1) & 1 for e in T.CITY_ELIG]
    roy = [(e >> 2) & 1 for e in T.CITY_ELIG]
    assert coal == [1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 0]
    assert roy == [0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1]


def test_regime_actions_spec_2_1_and_2_2():
    assert T.REGIME_ACTIONS[0].nonzero()[0].tolist() == [0, 2]  # AM: vote, win over nobles
    assert T.REGIME_ACTIONS[6].nonzero()[0].tolist() == [0, 1, 3, 5, 8, 11]  # EGA
    assert T.RA_VP.tolist() == [0, 0, 0, 0, 0, 1, 2, 2, 0, 1, 2, 0, 1]
    assert T.RA_COST.tolist() == [0] * 9 + [4, 2, 0, 0]
    assert T.RA_NEEDS_EXILED.nonzero()[0].tolist() == [8]
    assert [T.VOTE_TARGETS[g] for g in range(7)] == [0b11, 0b110, 0b11100, 0b1011000, 0b110001, 0b100011, 0b1011000]


def test_cards_spec_2_3():
    c = T.CARD_INDEX
    assert T.CARD_SCORE[c["louis_xvi"], 0] == 5 and T.CARD_VOTES[c["louis_xvi"]] == 3
    assert T.CARD_SCORE[c["robespierre"]].tolist() == [0, 0, 2, 5, 0, 0, 0]
    assert T.CARD_CREDIT[c["tennis_court_oath"]] == 2 and T.CARD_CREDIT[c["barras"]] == 2
    assert T.CARD_DISPATCH.nonzero()[0].tolist() == [
        c[x] for x in ("lafayette", "dumouriez", "saint_just", "carnot", "napoleon", "hoche")
    ]
