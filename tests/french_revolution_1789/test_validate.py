"""validate(s) for French Revolution 1789 records that enter from outside: real positions pass, each
corrupted field is named in the report (values written out here, not taken from the code under test)."""

from __future__ import annotations

import numpy as np
import pytest

from tabletop_zoo.kernels import french_revolution_1789 as k

AUCTION, ACTION, CHOOSE, TARGET, CHANCE, GAME_OVER = range(6)
CH_ARMY, CH_STEAL = 1, 2


def _play_until(phase: int, n: int = 4, seed: int = 0, skip: int = 0, when=None, max_games: int = 60) -> np.ndarray:
    """A record met in a random game (decisions and chance one at a time) in ``phase`` (and ``when(r)``),
    after ``skip`` earlier such records."""
    rng = np.random.default_rng(seed)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    ids, probs = np.zeros(k.NUM_CHANCE_OUTCOMES, np.int64), np.zeros(k.NUM_CHANCE_OUTCOMES, np.float64)
    for game in range(max_games):
        s = k.new_state(n, seed * 1000 + game)
        while True:
            if int(s[0]["phase"]) == phase and (when is None or when(s[0])):
                if skip == 0:
                    return s
                skip -= 1
            if k.is_over(s):
                break
            if k.is_chance(s):
                m = k.chance_outcomes(s, ids, probs)
                k.step_chance(s, int(ids[rng.integers(m)]))
                continue
            k.legal_mask(s, mask)
            k.step_decision(s, int(rng.choice(np.flatnonzero(mask))))
    raise AssertionError(f"no record in phase {phase} within {max_games} random games")


@pytest.fixture(scope="module")
def auction() -> np.ndarray:
    """Turn II's auction, the opening bid made (4 players)."""
    return _play_until(AUCTION, seed=1, when=lambda r: int(r["turn"]) == 1 and int(r["auc_high"]) >= 0)


@pytest.fixture(scope="module")
def action() -> np.ndarray:
    return _play_until(ACTION, seed=2, skip=6)


def _corrupt(s, field, value, index=None) -> list[str]:
    c = s.copy()
    if index is None:
        c[0][field] = value
    else:
        c[0][field][index] = value
    return k.validate(c)


def test_real_records_of_every_phase_pass(auction, action):
    assert k.validate(auction) == [] and k.validate(action) == []
    assert k.validate(k.new_state(5, 3, person_marks=True)) == []
    for phase in (CHOOSE, TARGET, CHANCE, GAME_OVER):
        s = _play_until(phase, seed=phase)
        assert k.validate(s) == [], k.state.PHASE_NAMES[phase]


# (field, index, value): one field out of its range in turn II's auction (4 players)
AUCTION_CORRUPTIONS = [
    ("num_players", None, 6),
    ("num_players", None, 1),
    ("phase", None, 6),
    ("phase", None, -1),
    ("turn", None, 5),
    ("turn", None, -1),
    ("person_marks", None, 2),
    ("decisions", None, -1),
    ("start_player", None, 4),
    ("rp", 0, -1),
    ("rp", 1, 61),
    ("rp", 4, 3),
    ("vp", 2, -1),
    ("vp", 2, 32000),
    ("supply", 3, 9),
    ("supply", 3, -1),
    ("city_owner", 0, 4),
    ("city_owner", 0, -2),
    ("city_army", 5, 3),
    ("city_str", 5, 5),
    ("city_str", 5, -1),
    ("cup", (1, 1), 4),
    ("cup", (0, 4), -1),
    ("regime", None, 7),
    ("votes", 3, -1),
    ("votes", 3, 30000),
    ("deck", 9, 32),
    ("deck", 9, -1),
    ("deck_pos", None, 8),
    ("deck_pos", None, 16),
    ("card_owner", 0, 4),
    ("card_owner", 0, -2),
    ("card_status", 0, 4),
    ("card_tilted", 0, 1),
    ("intr_loc", 0, 4),
    ("intr_loc", 0, -3),
    ("intr_known", 0, 32),
    ("pile_n", None, 15),
    ("pile_n", None, -1),
    ("pile", 13, 3),
    ("auc_card", None, 32),
    ("auc_card", None, -1),
    ("auc_bidder", None, 4),
    ("auc_bidder", None, -1),
    ("auc_high", None, 60),
    ("auc_high", None, -2),
    ("auc_high_bidder", None, 4),
    ("auc_passed", 0, 2),
    ("auc_passed", 4, 1),
    ("act_player", None, 4),
    ("act_passed", 1, 3),
    ("last_passer", None, 4),
    ("mv_eff", None, 3),
    ("mv_card", None, 32),
    ("mv_intr", None, 14),
    ("mv_stage", None, 1),
    ("mv_regime", None, 7),
    ("mv_city", None, 12),
    ("mv_person", None, 32),
    ("mv_player", None, 4),
    ("mv_army", None, 3),
    ("ch_kind", None, 1),
    ("ch_army", None, 3),
    ("ch_draws", None, 3),
    ("ch_dispatch", None, 2),
    ("ch_bonus", None, 2),
    ("last_draw", None, 5),
    ("last_success", None, 2),
]


@pytest.mark.parametrize("field, index, value", AUCTION_CORRUPTIONS)
def test_each_corrupted_field_is_named(auction, field, index, value):
    problems = _corrupt(auction, field, value, index)
    assert problems, f"{field}[{index}] = {value} accepted"
    assert any(p.startswith(field) for p in problems), problems


def test_FR_AUC_2_the_bidders_are_still_in(auction):
    bidder, high_bidder = int(auction[0]["auc_bidder"]), int(auction[0]["auc_high_bidder"])
    assert any(p.startswith("auc_bidder") for p in _corrupt(auction, "auc_passed", 1, bidder))
    assert any(p.startswith("auc_high_bidder") for p in _corrupt(auction, "auc_passed", 1, high_bidder))
    assert any(p.startswith("auc_high_bidder") for p in _corrupt(auction, "auc_high_bidder", bidder))


def test_FR_AUC_3_the_high_bid_was_affordable(auction):
    high_bidder = int(auction[0]["auc_high_bidder"])
    c = auction.copy()
    c[0]["rp"][high_bidder] = 0
    c[0]["auc_high"] = 0  # a bid of 0 with 0 RP: more than RP - 1
    assert any(p.startswith("auc_high") and "FR-AUC-3" in p for p in k.validate(c))


def test_FR_AUC_1_the_auctioned_card_is_the_revealed_one(auction):
    other = int(auction[0]["deck"][0])  # a card of deck I, sold in turn I
    assert any(p.startswith("auc_card") for p in _corrupt(auction, "auc_card", other))


def test_FR_ACT_2_the_acting_seat_has_not_passed(action):
    assert any(p.startswith("act_player") for p in _corrupt(action, "act_passed", 1, int(action[0]["act_player"])))
    assert any(p.startswith("mv_city") for p in _corrupt(action, "mv_city", 3))  # no move under way


def test_FR_ACT_1_the_selected_card_is_the_actors():
    s = _play_until(CHOOSE, seed=3)
    seat = int(s[0]["act_player"])
    other_card = int(np.flatnonzero((s[0]["card_owner"] >= 0) & (s[0]["card_owner"] != seat))[0])
    assert any(p.startswith("mv_card") for p in _corrupt(s, "mv_card", other_card))
    assert any(p.startswith("mv_card") for p in _corrupt(s, "mv_card", -1))


def test_FR_RA_INSTIGATE_a_unit_draw_has_its_city_and_units():
    s = _play_until(CHANCE, seed=4, when=lambda r: int(r["ch_kind"]) == CH_ARMY)
    assert any(p.startswith("mv_city") for p in _corrupt(s, "mv_city", -1))
    assert any(p.startswith("ch_draws") for p in _corrupt(s, "ch_draws", 0))
    army = int(s[0]["ch_army"])
    c = s.copy()
    c[0]["cup"][army] = 0
    assert any(p.startswith(f"cup[{army}]") for p in k.validate(c))


def test_FR_RA_decisions_made_so_far_are_set():
    s = _play_until(TARGET, seed=5, when=lambda r: int(r["mv_stage"]) == 0)
    assert any(p.startswith("mv_stage") for p in _corrupt(s, "mv_stage", 3))
    e = int(s[0]["mv_eff"])
    assert any(p.startswith("mv_eff") for p in _corrupt(s, "mv_eff", 54 if e != 54 else 53))


def test_FR_ACT_6_dead_end_is_reported():
    s = _play_until(CHOOSE, seed=6, when=lambda r: k.tables.CARD_PERSON[int(r["mv_card"])] == 1)
    problems = _corrupt(s, "card_status", 1, int(s[0]["mv_card"]))  # imprisoned persons cannot act
    assert any("CHOOSE" in p and "no legal action" in p for p in problems), problems


def test_wrong_shape_or_dtype_and_random_bytes_never_raise():
    assert k.validate(np.zeros(2, k.STATE)) and k.validate(np.zeros(1, np.int64))
    rng = np.random.default_rng(0)
    for _ in range(200):
        raw = np.frombuffer(rng.integers(0, 256, k.STATE.itemsize, dtype=np.uint8).tobytes(), k.STATE).copy()
        problems = k.validate(raw)
        assert problems and all(isinstance(p, str) and p for p in problems)
