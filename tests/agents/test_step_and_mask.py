"""The search's one-mask path: ``step_and_mask`` is ``step`` then ``legal_mask``, in every game, and
Imperial's mask-free forced-decision test agrees with the mask (IMP-TURN-4)."""

import numpy as np

import tabletop_zoo
from tabletop_zoo.kernels._common.record import copy_record
from tabletop_zoo.kernels.imperial import rules as imperial_rules

STEPS = 400  # decisions per random game checked


def test_step_and_mask_is_step_then_legal_mask(game_n):
    game, n = game_n
    k = tabletop_zoo.kernel(game)
    rng = np.random.default_rng(n)
    s = k.new_state(n, 11)
    mask, fused = np.zeros(k.NUM_ACTIONS, np.uint8), np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, mask)
    for _ in range(STEPS):
        if k.is_over(s):
            break
        a = int(rng.choice(np.flatnonzero(mask)))
        twin = copy_record(s)
        seat = k.step_and_mask(twin, a, fused)
        k.step(s, a)
        k.legal_mask(s, mask)
        assert s.tobytes() == twin.tobytes(), f"{game}: step_and_mask left another record after {a}"
        assert np.array_equal(mask, fused) and seat == k.to_move(s)


def test_imperial_forced_action_matches_the_mask():
    """IMP-TURN-4: forced_action(r) is the single legal action exactly when the mask has one."""
    k = tabletop_zoo.kernel("imperial")
    seen = set()
    for n, ruleset in ((2, "seed"), (4, "published"), (6, "seed")):
        rng = np.random.default_rng(n)
        s = k.new_state(n, 5, ruleset=ruleset)
        mask = np.zeros(k.NUM_ACTIONS, np.uint8)
        for _ in range(1500):
            if k.is_over(s):
                break
            k.legal_mask(s, mask)
            legal = np.flatnonzero(mask)
            # the states agents see are settled; probe the forced ones by applying without settling
            r = s[0]
            assert imperial_rules.forced_action(r) == imperial_rules._single_legal(mask)
            a = int(rng.choice(legal))
            imperial_rules.apply_action(r, a)
            k.legal_mask(s, mask)
            forced = imperial_rules.forced_action(r)
            assert forced == imperial_rules._single_legal(mask), k.PHASE_NAMES[r["phase"]]
            if forced >= 0:
                seen.add(k.PHASE_NAMES[r["phase"]])
            imperial_rules.settle_forced(r)
            k.legal_mask(s, mask)
    assert len(seen) >= 3, seen  # the check met real forced decisions, not only free choices
