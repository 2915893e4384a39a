"""validate(s) for Veld Railroads records from outside: real positions pass, each corruption is named with
its field, value and allowed range (values written out here, not taken from the code under test)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_zoo.kernels import veld_railroads as k

SETUP_AUCTION, CHOOSE_BOX, BUILD_FIRST_LEG, DEVELOP_PICK = 0, 2, 4, 8


def _records(games=2, seed=0):
    rng = np.random.default_rng(seed)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    for g in range(games):
        s = k.new_state(3 + g % 4, seed * 100 + g)
        while not k.is_over(s):
            yield s.copy()
            k.legal_mask(s, mask)
            k.step(s, int(rng.choice(np.flatnonzero(mask))))
        yield s.copy()


def _first(phase):
    return next(s for s in _records(games=6) if int(s[0]["phase"]) == phase and int(s[0]["num_players"]) == 3)


def test_real_records_pass():
    assert all(k.validate(s) == [] for s in _records(games=3))


@pytest.mark.parametrize(
    "field, value, phase, message",
    [
        ("active", 7, CHOOSE_BOX, "active = 7, allowed 0..2"),  # VR-TRACK-4
        ("row", 9, CHOOSE_BOX, "row = 9, allowed 1..8"),  # VR-TRACK-1
        ("phase", 11, CHOOSE_BOX, "phase = 11, allowed 0..10"),  # END_OF_TURN is transient
        ("auc_railroad", -1, SETUP_AUCTION, "auc_railroad = -1, allowed 0..5 in phase SETUP_AUCTION"),
        ("auc_min", 0, SETUP_AUCTION, "auc_min = 0, allowed 1..500 in phase"),  # VR-SHARE-3: floor $1
        ("bld_railroad", 6, BUILD_FIRST_LEG, "bld_railroad = 6, allowed 0..5 in phase BUILD_FIRST_LEG"),
        ("bld_builder", -1, BUILD_FIRST_LEG, "bld_builder = -1, allowed 0..2 in phase"),  # VR-BUILD-4
        ("dev_picks", 3, DEVELOP_PICK, "dev_picks = 3 in phase DEVELOP_PICK"),  # VR-DEV-3/4
    ],
)
def test_each_corruption_is_named(field, value, phase, message):
    s = _first(phase)
    s[0][field] = value
    problems = k.validate(s)
    assert any(p.startswith(message) for p in problems), problems


def test_array_fields_name_their_element():
    s = _first(CHOOSE_BOX)
    s[0]["dev_level"][0] = 40
    s[0]["section_owner"][3] = 6
    s[0]["loco_box"][5] = 2  # seat 5 is empty in a 3-player game
    problems = k.validate(s)
    assert any(p.startswith("dev_level[0] = 40, allowed 0..") for p in problems), problems
    assert "section_owner[3] = 6, allowed -1..5" in problems
    assert "loco_box[5] = 2 on an empty seat, must be -1" in problems


def test_payouts_follow_the_rows():
    """VR-END-1: one payout per finished row; a record whose count is off would pay past the 8th row."""
    s = next(s for s in _records() if int(s[0]["row"]) == 3)
    assert k.validate(s) == []
    s[0]["payouts"] = 7
    assert any(p.startswith("payouts = 7 in row 3: allowed 2") for p in k.validate(s)), k.validate(s)


def test_a_high_bid_above_the_bidders_cash_is_refused():
    """VR-AUC-1: bids go up to the bidder's cash; a record above it would leave the winner in debt."""
    s = next(s for s in _records() if int(s[0]["auc_high_bidder"]) >= 0)
    assert k.validate(s) == []
    seat = int(s[0]["auc_high_bidder"])
    s[0]["auc_high_bid"] = int(s[0]["cash"][seat]) + 1
    assert any(p.startswith("auc_high_bid = ") and f"seat {seat}, holds" in p for p in k.validate(s)), k.validate(s)
