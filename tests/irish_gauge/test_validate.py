"""validate(s) for Irish Gauge records from outside: real positions pass, each corruption is named with its
field, value and allowed range (values written out here, not taken from the code under test)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_zoo.kernels import irish_gauge as k

MAIN, AUCTION, BUILD = 1, 2, 3


def _records(n=3, seed=0, games=2):
    rng = np.random.default_rng(seed)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    for g in range(games):
        s = k.new_state(n + g % 3, seed * 100 + g)
        while not k.is_over(s):
            yield s.copy()
            k.legal_mask(s, mask)
            k.step(s, int(rng.choice(np.flatnonzero(mask))))
        yield s.copy()


def _first(phase):
    return next(s for s in _records() if int(s[0]["phase"]) == phase)


def test_real_records_pass():
    assert all(k.validate(s) == [] for s in _records(games=3))


@pytest.mark.parametrize(
    "field, value, phase, message",
    [
        ("active", 7, MAIN, "active = 7, allowed 0..2"),
        ("active", -3, MAIN, "active = -3, allowed 0..2"),
        ("auc_company", 9, AUCTION, "auc_company = 9, allowed 0..4 in an auction phase"),  # IG-AUC-1
        ("auc_bidder", 5, AUCTION, "auc_bidder = 5, allowed 0..2"),
        ("bld_company", -1, BUILD, "bld_company = -1, allowed 0..4 in phase BUILD"),  # IG-BLD-2
        ("phase", 6, MAIN, "phase = 6, allowed 0..5"),
        ("num_players", 2, MAIN, "num_players = 2, allowed 3..5"),
        ("drawn_rows", 8, MAIN, "drawn_rows = 8 with"),  # IG-DIV-2: the remaining calls need track rows
    ],
)
def test_each_corruption_is_named(field, value, phase, message):
    s = _first(phase)
    s[0][field] = value
    problems = k.validate(s)
    assert any(p.startswith(message) for p in problems), problems


def test_array_fields_name_their_element():
    s = _first(MAIN)
    s[0]["cube"][17] = 3
    s[0]["cert_owner"][2, 3] = 0  # BCD has only 2 certificates: position 3 must stay -1 (IG-SETUP-2)
    problems = k.validate(s)
    assert "cube[17] = 3, allowed -1..2" in problems
    assert "cert_owner[2, 3] = 0, allowed -1..-1" in problems


def test_a_seat_without_legal_moves_is_rejected():
    """IG-AUC-2 (published): an opener who cannot afford the opening bid has no legal action."""
    s = k.new_state(3, 1, ruleset="published")
    s[0]["cash"][int(s[0]["auc_bidder"])] = 0
    s[0]["bank_in"] += 20  # keep the money ledger balanced: only the dead end is wrong
    s[0]["phase"] = AUCTION
    problems = k.validate(s)
    assert any("has no legal action" in p for p in problems), problems


def _after_first_dividends():
    return next(s for s in _records() if int(s[0]["phase"]) == MAIN and int(s[0]["drawn_rows"]) >= 1)


def test_the_drawn_track_is_filled_row_by_row():
    """IG-DIV-2: rows before drawn_rows hold the calls' cubes, rows after it are empty."""
    s = _after_first_dividends()
    s[0]["drawn_rows"] = 0  # the next call would overwrite a row and lose its cubes
    assert any(p.startswith("drawn track has cubes at or after row drawn_rows = 0") for p in k.validate(s))
    s = _after_first_dividends()
    s[0]["drawn"][0] = -1
    assert any(p.startswith("drawn track row 0 = [-1, -1, -1]") for p in k.validate(s))


def test_the_initial_auction_sells_each_company_once_in_order():
    """IG-INIT-4: a mid-game record set back to INITIAL_AUCTION would sell past a company's stack."""
    s = _first(MAIN)
    s[0]["phase"] = 0
    s[0]["auc_company"] = 4
    assert any(p.startswith("next_cert = ") and "INITIAL_AUCTION" in p for p in k.validate(s)), k.validate(s)


def test_counters_leave_room_for_a_whole_game():
    s = _first(MAIN)
    s[0]["decisions"] = np.iinfo(np.int32).max  # one more decision would wrap to a negative count
    assert any(p.startswith(f"decisions = {np.iinfo(np.int32).max}, allowed 0..") for p in k.validate(s))


@pytest.mark.parametrize("ruleset", ["seed", "published"])
def test_a_high_bid_above_the_bidders_cash_is_refused(ruleset):
    """IG-AUC-3: a bid is legal up to the bidder's cash; a record above it would leave the winner in debt."""
    rng = np.random.default_rng(5)
    s = k.new_state(3, 5, ruleset=ruleset)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    while int(s[0]["auc_high_bidder"]) < 0:
        k.legal_mask(s, mask)
        k.step(s, int(rng.choice(np.flatnonzero(mask))))
    assert k.validate(s) == []
    seat = int(s[0]["auc_high_bidder"])
    s[0]["auc_high_bid"] = int(s[0]["cash"][seat]) + 1
    assert any(p.startswith("auc_high_bid = ") and f"seat {seat}, holds" in p for p in k.validate(s)), k.validate(s)
