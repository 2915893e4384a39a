"""Irish Gauge rules no other test checks by ID (spec shared/rules/irish_gauge.md §4-§5), with the spec's numbers."""

from __future__ import annotations

from tabletop_zoo.kernels import irish_gauge as k

from ._helpers import (
    BCD,
    BUILD,
    CALL_DIVIDENDS,
    CBSC,
    GSW,
    MGW,
    SPECIAL_INTEREST,
    WLW,
    cash,
    common_board,
    draw,
    give_cert,
    legal_ids,
    main_turn,
    play,
    set_network,
)


def test_a_main_turn_offers_exactly_the_four_actions():
    """IG-TURN-1: auction a share (ids 0-4), build track (5-9), place a special interest (10-39), call for
    dividends (40); nothing else (no placement, pass or bid) is legal at the start of a turn, and one action ends it."""
    s = common_board()
    set_network(s, MGW, ["H11", "H10", "H9", "H8", "H7"])  # MGW reaches Tullamore (town 4)
    give_cert(s, 0, MGW)
    main_turn(s, 0)
    legal = legal_ids(s)
    assert legal <= set(range(0, 41))
    assert {0, 1, 2, 3, 4} <= legal  # every stack still has certificates
    assert BUILD + MGW in legal and CALL_DIVIDENDS in legal
    assert {SPECIAL_INTEREST + 12, SPECIAL_INTEREST + 13, SPECIAL_INTEREST + 14} <= legal  # Tullamore, 3 colours
    play(s, CALL_DIVIDENDS, 0, decision=True)
    draw(s, 1, 1, 1)  # one action taken: the turn passes to the left
    assert k.to_move(s) == 1 and s[0]["active"] == 1


def test_a_certificate_gives_build_rights_and_dividends_only_to_its_holders():
    """IG-AUC-6: holding a company's certificate lets a player build for it and earns its dividends; EX-5's
    MGW network pays £8 over 3 shares (3 a share): P1 (2 shares) +6, P3 (1 share) +3, the others nothing."""
    s = common_board()
    set_network(s, MGW, ["H11", "G11", "F11", "H10", "H9", "H8", "H7"])
    main_turn(s, 0)
    assert BUILD + MGW not in legal_ids(s)  # P0 holds no MGW certificate
    give_cert(s, 1, MGW)
    give_cert(s, 1, MGW)
    give_cert(s, 3, MGW)
    give_cert(s, 0, CBSC)
    give_cert(s, 0, WLW)
    give_cert(s, 2, BCD)
    give_cert(s, 2, GSW)
    assert BUILD + MGW not in legal_ids(s)
    main_turn(s, 1)
    assert BUILD + MGW in legal_ids(s)  # P1 holds MGW
    main_turn(s, 0)
    before = cash(s)
    play(s, CALL_DIVIDENDS, 0, decision=True)
    draw(s, 0, 1, 2)  # pink, white, white
    assert [a - b for a, b in zip(cash(s), before)] == [0, 6, 0, 3]
