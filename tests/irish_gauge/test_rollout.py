"""The rollout policy of Irish Gauge's search (kernels/irish_gauge/rollout.py, the hook ``rollout_action``):
the heuristic agent's strategy over the record, with a few flipped or random decisions."""

import numpy as np
import pytest

from tabletop_zoo.agents import make_agent
from tabletop_zoo.kernels._common.rng import seed_rng
from tabletop_zoo.kernels.irish_gauge import rollout

from ._helpers import BID, PASS, ST, k

GAMES = ((3, "seed"), (4, "published"), (5, "seed"), (4, "seed"))


def _rng(seed: int) -> np.ndarray:
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    return rng


def _positions(games_each: int = 6):
    """(record, mask) at every decision of games played half by the heuristic, half at random."""
    rng = np.random.default_rng(0)
    heuristic = make_agent("heuristic", "irish_gauge", seed=1)
    for n, ruleset in GAMES:
        for g in range(games_each):
            s = k.new_state(n, g, ruleset=ruleset)
            mask = np.zeros(k.NUM_ACTIONS, np.uint8)
            while not k.is_over(s):
                k.legal_mask(s, mask)
                yield s, mask
                obs = np.zeros(k.OBS_SIZE, np.float32)
                k.observe(s, int(k.to_move(s)), obs)
                if rng.random() < 0.5:
                    k.step(s, int(rng.choice(np.flatnonzero(mask))))
                else:
                    k.step(s, heuristic.act(obs, mask.view(np.int8).copy()))


def test_rollout_action_is_legal_and_bids_only_the_minimum():
    policy = _rng(7)
    for s, mask in _positions(3):
        a = k.rollout_action(s, mask, policy)
        assert mask[a], (a, k.action_name(s, a))
        if s[0]["phase"] in (ST.PH_INITIAL_AUCTION, ST.PH_AUCTION):
            assert a in (PASS, BID)  # never above the minimum


def test_before_flips_and_exploration_it_plays_exactly_the_heuristic():
    """Irish Gauge hides nothing, so the heuristic's observation holds the record: both must choose alike at
    every auction (IG-INIT-3, IG-AUC-2/5), main turn (IG-DIV-4/5 odds) and placement."""
    heuristic = make_agent("heuristic", "irish_gauge", seed=1)
    choices = {
        ST.PH_INITIAL_AUCTION: lambda r, mask: rollout._auction_choice(r, mask),
        ST.PH_AUCTION: lambda r, mask: rollout._auction_choice(r, mask),
        ST.PH_MAIN: lambda r, mask: rollout._main_action(r, mask),
        ST.PH_BUILD: lambda r, mask: rollout._build_action(r, mask, _rng(0)),
    }
    seen = dict.fromkeys(choices, 0)
    for s, mask in _positions():
        phase = int(s[0]["phase"])
        obs = np.zeros(k.OBS_SIZE, np.float32)
        k.observe(s, int(k.to_move(s)), obs)
        expected = heuristic.act(obs, mask.view(np.int8).copy())
        assert choices[phase](s[0], mask) == expected, (ST.PHASE_NAMES[phase], k.action_name(s, expected))
        seen[phase] += 1
    assert min(seen.values()) > 200, seen


def _share_differing(s, mask, best: int, draws: int = 4000) -> float:
    policy = _rng(3)
    return sum(k.rollout_action(s, mask, policy) != best for _ in range(draws)) / draws


@pytest.mark.parametrize("phase", [ST.PH_AUCTION, ST.PH_MAIN])
def test_a_tenth_of_the_choices_are_flipped_or_random(phase):
    """ROLLOUT_FLIP of the bid-or-pass choices are flipped; ROLLOUT_EXPLORE of the main turns are a uniform
    family, then a uniform action of it (which is the best one now and then)."""
    s, mask = next((s, m) for s, m in _positions() if s[0]["phase"] == phase and m[PASS] == m[BID])
    if phase == ST.PH_AUCTION:
        share = _share_differing(s, mask, rollout._auction_choice(s[0], mask))
        assert share == pytest.approx(rollout.ROLLOUT_FLIP, abs=0.02)
    else:
        share = _share_differing(s, mask, rollout._main_action(s[0], mask))
        assert 0.5 * rollout.ROLLOUT_EXPLORE < share <= rollout.ROLLOUT_EXPLORE + 0.02


def test_the_opener_passes_for_a_certificate_nobody_else_can_pay():
    """IG-INIT-3: an initial auction that everyone passes gives the opener the certificate for nothing; when
    no other seat can afford the printed value (IG-AUC-5), passing is the heuristic's choice."""
    s = k.new_state(4, 0)
    r = s[0]
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, mask)
    assert r["phase"] == ST.PH_INITIAL_AUCTION and mask[PASS] and mask[BID]
    assert rollout._auction_choice(r, mask) == BID  # everyone can pay: bid the printed value
    for q in range(4):
        if q != r["auc_bidder"]:
            r["cash"][q] = 0
    assert rollout._auction_choice(r, mask) == PASS
