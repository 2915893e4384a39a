"""French Revolution 1789 rules no other test checks by ID (spec shared/rules/french_revolution_1789.md §2, §5),
with the spec's numbers."""

import numpy as np

from ._helpers import (
    AM,
    ARREST,
    CAMPAIGN,
    COALITION,
    DEAD,
    EXILE,
    EXILED,
    FRENCH,
    IMPRISONED,
    LILLE,
    LYON,
    NANTES,
    NOBLES,
    PARIS,
    PASS,
    RA,
    REGIME,
    REP,
    ROYALIST,
    SELECT,
    ST,
    STRASBOURG,
    VOTE,
    T,
    action_state,
    card,
    give,
    k,
    legal,
    mark,
    pass_all,
    play,
    set_unit,
)


def _returns(s, n):
    out = np.zeros(k.MAX_PLAYERS)
    k.returns(s, out)
    return out[:n].tolist()


def test_a_tie_on_vp_and_rp_shares_the_win():
    """FR-GEN-2 (and FR-GEN-1's RP tie-break): after turn V, equal VP and RP share the win; equal VP alone is
    decided by RP."""
    s = action_state(3, regime=AM, turn=4)
    s[0]["vp"][:3], s[0]["rp"][:3] = [5, 5, 4], [7, 7, 9]
    pass_all(s, [0, 1, 2])
    assert k.is_over(s) and _returns(s, 3) == [0.5, 0.5, 0.0]
    s = action_state(3, regime=AM, turn=4)
    s[0]["vp"][:3], s[0]["rp"][:3] = [5, 5, 4], [7, 8, 9]
    pass_all(s, [0, 1, 2])
    assert _returns(s, 3) == [0.0, 1.0, 0.0]


def test_a_dead_person_is_out_of_the_game():
    """FR-GEN-5: a dead card cannot act and scores nothing: under AM, Louis XVI (AM 5) dead and Marie Antoinette
    (AM 3) free give their owner 3 VP."""
    s = action_state(3, regime=AM)
    lx, ma = give(s, "louis_xvi", 0, DEAD), give(s, "marie_antoinette", 0)
    m = legal(s)
    assert not m[SELECT + lx] and m[SELECT + ma]
    pass_all(s, [0, 1, 2])
    assert s[0]["regime"] == AM and s[0]["vp"][:3].tolist() == [3, 0, 0]


def test_the_start_player_acts_first_then_clockwise_one_action_a_turn():
    """FR-ACT-1: D holds the start player card and acts first; one regime action ends its turn; then A, B, C."""
    s = action_state(4, regime=AM, actor=3)
    lx = give(s, "louis_xvi", 3)
    assert k.to_move(s) == 3
    play(s, 3, SELECT + lx, RA + VOTE, REGIME + AM)
    assert s[0]["votes"][AM] == 3  # Louis XVI has 3 votes
    for seat in (0, 1, 2):
        assert k.to_move(s) == seat
        play(s, seat, PASS)
    assert k.to_move(s) == 3


def test_only_the_regimes_listed_actions_whatever_the_persons_marks():
    """FR-ACT-5: under Absolute Monarchy only vote and win over the nobles (§2.1), for Marie Antoinette (◆ only)
    as for Barnave (◇ only); under Constitutional Monarchy Barnave may also campaign, arrest and exile."""
    s = action_state(3, regime=AM)
    ma, bar = give(s, "marie_antoinette", 0), give(s, "barnave", 0)
    give(s, "lafayette", 1)  # someone to arrest
    for person in (ma, bar):
        s[0]["phase"], s[0]["mv_card"] = ST.PH_ACTION, -1
        play(s, 0, SELECT + person)
        assert np.flatnonzero(legal(s)[RA : RA + 13]).tolist() == [VOTE, NOBLES]
    s = action_state(3, regime=1)  # Constitutional Monarchy
    bar = give(s, "barnave", 0)
    give(s, "lafayette", 1)
    play(s, 0, SELECT + bar)
    assert {VOTE, CAMPAIGN, NOBLES, ARREST, EXILE} <= set(np.flatnonzero(legal(s)[RA : RA + 13]).tolist())


def test_every_card_of_deck_one_is_sold_in_turn_one():
    """FR-AUC-1: turn I auctions deck I (8 cards: Louis XVI, Marie Antoinette, Lafayette, Barnave among them)
    card by card until it is empty; every card is sold and no card of a later deck is."""
    s = k.new_state(3, 11)
    rng = np.random.default_rng(0)
    while s[0]["phase"] != ST.PH_ACTION:  # random bids (they rise strictly, so every auction ends)
        if k.is_chance(s):
            k.step_chance(s, k.sample_chance(s))
        else:
            k.step_decision(s, int(rng.choice(np.flatnonzero(legal(s)))))
    owned = {name for name in T.CARD_IDS if s[0]["card_owner"][card(name)] >= 0}
    assert len(owned) == 8
    assert {"louis_xvi", "marie_antoinette", "lafayette", "barnave"} <= owned
    assert all(T.CARD_DECK[card(name)] == 0 for name in owned)


def test_french_units_on_every_city_other_armies_wait_in_their_cups():
    """FR-ARMY-1: at setup each of the 12 cities holds one French unit face up; the 10 coalition units (three 1s,
    four 2s, three 3s) and the 6 royalist units (two 1s, three 2s, one 3) are all in their cups; the 18 French
    units (five 1s, six 2s, five 3s, two 4s) are on the map or in the French cup."""
    for n, seed in ((2, 0), (5, 7)):
        r = k.new_state(n, seed)[0]
        assert r["city_army"].tolist() == [FRENCH] * 12
        assert r["cup"][COALITION].tolist() == [0, 3, 4, 3, 0]
        assert r["cup"][ROYALIST].tolist() == [0, 2, 3, 1, 0]
        on_map = np.bincount(r["city_str"], minlength=5)
        assert (on_map + r["cup"][FRENCH]).tolist() == [0, 5, 6, 5, 2]


def _ex5_scoring(persons: bool, exiles: bool, cities: bool) -> tuple[int, int]:
    """Example 5's board (Republic, coalition units in Paris, Lille, Strasbourg) scored in turn V with only the chosen
    parts present for A: its VP and RP gains."""
    s = action_state(3, regime=REP, turn=4)
    for city in (PARIS, LILLE, STRASBOURG):
        set_unit(s, city, COALITION, 2)
    set_unit(s, NANTES, ROYALIST, 1)
    r = s[0]
    r["rp"][0], r["vp"][0] = 14, 6
    if exiles:
        give(s, "louis_xvi", 0, EXILED)
        give(s, "marie_antoinette", 0, EXILED)
    if persons:
        give(s, "orleans", 0, IMPRISONED)
        give(s, "tennis_court_oath", 0)
    if cities:
        mark(s, PARIS, 0)
        mark(s, LYON, 0)
    pass_all(s, [0, 1, 2])
    assert k.is_over(s) and r["regime"] == REP
    return int(r["vp"][0]) - 6, int(r["rp"][0]) - 14


def test_the_three_scoring_parts_are_simultaneous():
    """FR-SCO-4 (with FR-SCO-1..3): on Example 5's board A's persons (Orléans imprisoned, Tennis Court Oath) score
    alone, its two exiles (exile count 4: 2 VP each) alone, its cities (Paris, Lyon) alone; scored together the gains
    are exactly the sum, 10 VP and 5 RP (Example 5: 6 -> 16 VP, 14 -> 19 RP), so no part sees another's result."""
    persons, exiles = _ex5_scoring(True, False, False), _ex5_scoring(False, True, False)
    cities = _ex5_scoring(False, False, True)
    assert exiles == (4, 0) and persons[1] == 0 and persons[0] > 0 and cities[0] > 0 and cities[1] == 5
    assert _ex5_scoring(True, True, True) == (persons[0] + exiles[0] + cities[0], 5) == (10, 5)
