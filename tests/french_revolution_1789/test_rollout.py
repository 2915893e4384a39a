"""The rollout policy (optional kernel hook ``rollout_action``) and its dispatch from generic search code."""

import numpy as np
from numba import njit

from tabletop_zoo.kernels import veld_railroads
from tabletop_zoo.kernels._common import dispatch
from tabletop_zoo.kernels._common.masks import sample_legal
from tabletop_zoo.kernels._common.rng import seed_rng
from tabletop_zoo.kernels.french_revolution_1789 import rollout

from ._helpers import BID, PASS, ST, k


def _lowest_bid(mask) -> int:
    bids = np.flatnonzero(mask[BID : BID + 61])
    return int(bids[0]) if bids.size else -1


def test_rollout_action_is_legal_and_shaped_along_random_games():
    """Every answer is legal; a bid is always the lowest legal one; PASS in the action phase only when
    nothing else is legal."""
    rng = np.random.default_rng(0)
    policy_rng = np.zeros(1, np.uint64)
    seed_rng(policy_rng, 7)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    for n in (2, 4, 5):
        s = k.new_state(n, n)
        while not k.is_over(s):
            k.legal_mask(s, mask)
            a = k.rollout_action(s, mask, policy_rng)
            assert mask[a], (a, k.action_name(s, a))
            phase = s[0]["phase"]
            if phase == ST.PH_AUCTION and a != PASS:
                assert a - BID == _lowest_bid(mask)
            if phase == ST.PH_ACTION and a == PASS:
                assert mask.sum() == 1
            k.step(s, int(rng.choice(np.flatnonzero(mask))))


def test_rollout_bids_within_the_card_value_and_passes_above_it():
    """At a bidding decision the policy bids the minimum while it is within min(card value, 60 % of RP),
    else passes; ROLLOUT_FLIP (10 %) of the choices are flipped."""
    s = k.new_state(4, 3)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    policy_rng = np.zeros(1, np.uint64)
    seed_rng(policy_rng, 1)
    k.legal_mask(s, mask)
    while mask[PASS] == 0:  # past the compulsory opening bid
        k.step(s, BID + _lowest_bid(mask))
        k.legal_mask(s, mask)
    r = s[0]
    limit = min(rollout.card_value(r, r["auc_card"]), rollout.BID_RP_SHARE * r["rp"][r["auc_bidder"]])
    for high, expect_bid in ((int(limit) - 1, True), (int(limit) + 1, False)):
        t = s.copy()
        t[0]["auc_high"] = high
        k.legal_mask(t, mask)
        bids = sum(k.rollout_action(t, mask, policy_rng) != PASS for _ in range(2000))
        share = bids / 2000
        assert (share > 0.85) if expect_bid else (share < 0.15), (high, limit, share)


@njit(cache=True)
def _through_dispatch(s, mask, seed, n):
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    out = np.zeros(n, np.int64)
    for i in range(n):
        out[i] = dispatch.rollout_action(s, mask, rng)
    return out


@njit(cache=True)
def _uniform(mask, seed, n):
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    out = np.zeros(n, np.int64)
    for i in range(n):
        out[i] = sample_legal(mask, rng)
    return out


@njit(cache=True)
def _french_hook(s, mask, seed, n):
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    out = np.zeros(n, np.int64)
    for i in range(n):
        out[i] = rollout.rollout_action(s, mask, rng)
    return out


def test_dispatch_uses_the_hook_and_falls_back_to_uniform():
    """Generic search code reaches this kernel's hook; a kernel without one (Veld Railroads) keeps uniformly random
    rollouts draw for draw, so the search behaves exactly as before the hook existed."""
    s = k.new_state(4, 0)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, mask)
    assert (_through_dispatch(s, mask, 5, 50) == _french_hook(s, mask, 5, 50)).all()
    assert not hasattr(veld_railroads, "rollout_action")
    ks = veld_railroads.new_state(4, 0)
    kmask = np.zeros(veld_railroads.NUM_ACTIONS, np.uint8)
    veld_railroads.legal_mask(ks, kmask)
    assert (_through_dispatch(ks, kmask, 5, 50) == _uniform(kmask, 5, 50)).all()
    assert dispatch.rollout_action(ks, kmask, np.zeros(1, np.uint64)) in np.flatnonzero(kmask)
