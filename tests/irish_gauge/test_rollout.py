"""The rollout policy of Irish Gauge's search (kernels/irish_gauge/rollout.py, the hook ``rollout_action``)."""

import numpy as np

from tabletop_zoo.kernels._common.rng import seed_rng
from tabletop_zoo.kernels.irish_gauge import rollout

from ._helpers import (
    AUCTION,
    BID,
    BUILD,
    CALL_DIVIDENDS,
    PASS,
    PLACE,
    SPECIAL_INTEREST,
    ST,
    k,
)

FAMILIES = ((AUCTION, BUILD), (BUILD, SPECIAL_INTEREST), (SPECIAL_INTEREST, CALL_DIVIDENDS), (CALL_DIVIDENDS, PLACE))


def _rng(seed: int) -> np.ndarray:
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    return rng


def test_rollout_action_is_legal_and_bids_only_the_minimum_along_random_games():
    rng = np.random.default_rng(0)
    policy = _rng(7)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    for n, ruleset in ((3, "seed"), (4, "published"), (5, "seed")):
        s = k.new_state(n, n, ruleset=ruleset)
        while not k.is_over(s):
            k.legal_mask(s, mask)
            a = k.rollout_action(s, mask, policy)
            assert mask[a], (a, k.action_name(s, a))
            if s[0]["phase"] in (ST.PH_INITIAL_AUCTION, ST.PH_AUCTION):
                assert a in (PASS, BID)  # never above the minimum
            k.step(s, int(rng.choice(np.flatnonzero(mask))))


def _auction_bids(s, draws: int = 2000) -> float:
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, mask)
    assert mask[PASS] and mask[BID]
    policy = _rng(1)
    return sum(k.rollout_action(s, mask, policy) == BID for _ in range(draws)) / draws


def test_it_bids_up_to_the_printed_value_and_passes_above_it():
    """A certificate at its printed value costs no worth (IG-SCORE-1): bid the minimum then; above it pass.
    ROLLOUT_FLIP (10 %) of the choices are flipped."""
    s = k.new_state(4, 0)  # the first initial auction: the minimum bid is the printed value (IG-INIT-2)
    assert _auction_bids(s) > 1 - 2 * rollout.ROLLOUT_FLIP
    r = s[0]
    r["auc_high_bidder"] = (r["auc_bidder"] + 1) % 4
    r["auc_high_bid"] = k.tables.SHARE_VALUE[r["auc_company"], r["next_cert"][r["auc_company"]]]
    assert _auction_bids(s) < 2 * rollout.ROLLOUT_FLIP  # the minimum is now one above the printed value


def _main_turn_with_every_family(mask) -> np.ndarray:
    """A main turn, reached by random play, at which all four action families are legal."""
    rng = np.random.default_rng(4)
    s = k.new_state(4, 4)
    while not k.is_over(s):
        k.legal_mask(s, mask)
        if s[0]["phase"] == ST.PH_MAIN and all(mask[lo:hi].any() for lo, hi in FAMILIES):
            return s
        k.step(s, int(rng.choice(np.flatnonzero(mask))))
    raise AssertionError("no main turn offered every family")


def test_a_main_turn_picks_a_family_uniformly_then_an_action_of_it():
    """The special interests (up to twenty) must not crowd out auctions, builds and the dividend call."""
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    s = _main_turn_with_every_family(mask)
    policy = _rng(3)
    draws = 4000
    counts = dict.fromkeys(FAMILIES, 0)
    for _ in range(draws):
        a = k.rollout_action(s, mask, policy)
        assert mask[a]
        counts[next(f for f in FAMILIES if f[0] <= a < f[1])] += 1
    for share in (c / draws for c in counts.values()):
        assert abs(share - 1 / len(FAMILIES)) < 0.03
