"""Veld Railroads rules no other test checks by ID (spec shared/rules/veld_railroads.md §5-§6), with the spec's
numbers and action ids."""

from __future__ import annotations

from ._helpers import (
    BID,
    BOX_BUILD,
    BOX_DEVELOP,
    BOX_OFFER,
    BOX_PAY,
    BUILD_RAILROAD,
    CFM,
    CMR,
    CSAR,
    DONE,
    OFFER_OWN,
    OFFER_TREASURY,
    PASS,
    SECTION,
    ST,
    blank_main,
    cash,
    give_sections,
    give_shares,
    k,
    legal_ids,
    legal_sections,
    play,
)


def test_one_action_track_shared_by_every_player():
    """VR-TRACK-1: one track for all: P0's build (+3) and P1's develop (+5) advance the same row position."""
    s = blank_main(4, row=2, position=10)
    give_sections(s, CSAR, [27])
    give_shares(s, 0, CSAR)  # P0 controls CSAR
    play(s, BOX_BUILD, seat=0)
    play(s, BUILD_RAILROAD + CSAR, seat=0)
    play(s, SECTION + min(legal_sections(s)), seat=0)
    if s[0]["phase"] == ST.PH_BUILD_SECOND_LEG:
        play(s, DONE, seat=0)
    assert s[0]["position"] == 13 and k.to_move(s) == 1
    play(s, BOX_DEVELOP, seat=1)
    assert s[0]["position"] == 18 and s[0]["row"] == 2


def test_a_turn_is_a_locomotive_move_to_a_box():
    """VR-LOCO-1: on a turn the only choices are the four boxes (ids 0-3): no pass, no direct action."""
    s = blank_main(4, row=1)
    give_sections(s, CSAR, [27])
    give_shares(s, 0, CSAR)
    assert legal_ids(s) <= {BOX_BUILD, BOX_OFFER, BOX_DEVELOP, BOX_PAY} and PASS not in legal_ids(s)
    assert {BOX_BUILD, BOX_OFFER, BOX_DEVELOP, BOX_PAY} == legal_ids(s)


def test_a_railroad_without_income_pays_nothing():
    """VR-DIV-6: CFM has no track (income 0): its two shareholders receive $0 when dividends are paid."""
    s = blank_main(4, row=2)
    give_shares(s, 1, CFM, 2)
    play(s, BOX_PAY, seat=0)
    assert cash(s) == [50, 50, 50, 50]


def test_valuation_is_five_dollars_a_section_and_sets_the_minimum_bid():
    """VR-GEN-5 (with VR-SHARE-3): CMR with 3 sections is valued $15; a treasury share's minimum bid is
    15 / 5 = $3, so BID_2 is masked and BID_3 legal."""
    s = blank_main(4, row=2)
    give_sections(s, CMR, [9, 12, 17])
    play(s, BOX_OFFER, seat=0)
    play(s, OFFER_TREASURY + CMR, seat=0)
    assert BID(2) not in legal_ids(s) and BID(3) in legal_ids(s)


def test_bids_stop_at_five_hundred_dollars():
    """VR-AUC-4: bids are $1..$500 (ids 130-629, the last action id): a bidder with $900 may bid 500, not more."""
    assert k.NUM_ACTIONS == 630 and BID(500) == 629
    s = blank_main(4, row=2, cash=900)
    play(s, BOX_OFFER, seat=0)
    play(s, OFFER_TREASURY + CMR, seat=0)
    legal = legal_ids(s)
    assert BID(500) in legal and max(legal) == 629


def _auction(s, bids: dict[int, int]) -> None:
    """Run the open auction: each seat in ``bids`` bids its amount once when it may, everyone else passes."""
    while s[0]["phase"] != ST.PH_CHOOSE_BOX:
        seat = int(k.to_move(s))
        amount = bids.pop(seat, None)
        play(s, PASS if amount is None else BID(amount), seat=seat)


def test_shares_are_unlimited_and_never_return_to_a_treasury():
    """VR-SHARE-4: a player already holding 4 CSAR shares buys a fifth; an own share sold goes to the buyer
    and the treasury keeps the count it had."""
    s = blank_main(4, row=2)
    give_sections(s, CSAR, [27])
    give_shares(s, 0, CSAR, 4)
    left = int(s[0]["treasury_shares"][CSAR])
    play(s, BOX_OFFER, seat=0)
    play(s, OFFER_TREASURY + CSAR, seat=0)
    _auction(s, {0: 1})
    assert s[0]["holdings"][0, CSAR] == 5 and s[0]["treasury_shares"][CSAR] == left - 1
    t = blank_main(4, row=2)
    give_sections(t, CMR, [9])
    give_shares(t, 0, CMR, 1)
    cmr_left = int(t[0]["treasury_shares"][CMR])
    play(t, BOX_OFFER, seat=0)
    play(t, OFFER_OWN + CMR, seat=0)
    _auction(t, {2: 1})
    assert t[0]["holdings"][0, CMR] == 0 and t[0]["holdings"][2, CMR] == 1
    assert t[0]["treasury_shares"][CMR] == cmr_left and cash(t)[0] == 51


def test_no_branch_lines_in_the_action_space():
    """VR-BRANCH-1: branch lines are out of scope: every action id is in the spec's §6 ranges (boxes, railroad,
    offers, 59 sections, 47 settlements, DONE, PASS, 500 bids) and no action is named after a branch line."""
    assert (4 + 6 + 6 + 6 + 59 + 47 + 1 + 1 + 500) == k.NUM_ACTIONS
    s = blank_main(4, row=1)
    names = [k.action_name(s, a).lower() for a in range(k.NUM_ACTIONS)]
    assert not any("branch" in n for n in names)


def test_some_borders_are_never_closed():
    """VR-BORDER-2: Cape-OFS and Transvaal-Mozambique are open in row 1, when Transvaal-Natal, -OFS and -Cape are
    closed: CMR at Naauwpoort may build s17 (Naauwpoort-Springfontein), CFM at Ressano Garcia s57 (to Komatipoort)."""
    for rr, owned, across in ((CMR, [9, 12], 17), (CFM, [56, 58], 57)):
        s = blank_main(4, row=1)
        give_sections(s, rr, owned)
        give_shares(s, 0, rr)
        play(s, BOX_BUILD, seat=0)
        play(s, BUILD_RAILROAD + rr, seat=0)
        assert across in legal_sections(s)
