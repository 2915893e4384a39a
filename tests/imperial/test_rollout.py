"""The rollout policy of Imperial's search (kernels/imperial/rollout.py, the hook ``rollout_action``): the
heuristic agent's strategy over the record, with a tenth of the decisions uniformly random."""

import numpy as np
import pytest

from tabletop_zoo.agents import make_agent
from tabletop_zoo.kernels._common.layout import decode
from tabletop_zoo.kernels._common.rng import seed_rng
from tabletop_zoo.kernels.imperial import rollout

from ._helpers import DEST, FIGHT, ORIGIN, PASS, RONDEL, ST, TAXATION, k

# every player count, and the options that change what is legal (IMP-OPT-0..6)
GAMES = (
    (2, {}),
    (3, {"ruleset": "published"}),
    (4, {}),
    (5, {"ruleset": "published", "hidden_cash": True}),
    (6, {"home_tax_chips": False, "tax_chips_per_nation": 3}),
)


def _rng(seed: int) -> np.ndarray:
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    return rng


def _positions(num_players: int, options: dict, count: int):
    """``count`` (record, mask) pairs: every decision of games played half by the rollout policy, half at random."""
    rng, policy = np.random.default_rng(num_players), _rng(num_players)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    seen, game = 0, 0
    while True:
        s = k.new_state(num_players, game, **options)
        while not k.is_over(s):
            k.legal_mask(s, mask)
            yield s, mask
            seen += 1
            if seen == count:
                return
            legal = np.flatnonzero(mask)
            k.step(s, k.rollout_action(s, mask, policy) if rng.random() < 0.5 else int(rng.choice(legal)))
        game += 1


@pytest.mark.parametrize(("num_players", "options"), GAMES)
def test_rollout_action_is_legal_and_deterministic(num_players, options):
    """2,000 positions per player count (10,000 in all): a legal action, and the same one from the same
    generator state."""
    policy = _rng(11)
    for s, mask in _positions(num_players, options, 2000):
        before = policy.copy()
        a = k.rollout_action(s, mask, policy)
        assert mask[a], (a, k.action_name(s, a), ST.PHASE_NAMES[s[0]["phase"]])
        assert k.rollout_action(s, mask, before) == a and before[0] == policy[0]


def _heuristic_best(heuristic, s, mask) -> set[int]:
    """The actions the heuristic ranks first: its one choice, or in a maneuver (where it breaks ties with its
    own random draws) every origin or destination of the top score."""
    obs = np.zeros(k.OBS_SIZE, np.float32)
    k.observe(s, int(k.to_move(s)), obs)
    phase = ST.PHASE_NAMES[s[0]["phase"]]
    if phase not in ("MOVE_SELECT", "DEST"):
        return {heuristic.act(obs, mask.view(np.int8).copy())}
    o, n = decode(k.OBS_PIECES, obs), int(s[0]["nation"])
    base, score = (ORIGIN, heuristic._origin_score) if phase == "MOVE_SELECT" else (DEST, heuristic._dest_score)
    scores = {int(a): score(o, n, int(a) - base) for a in np.flatnonzero(mask) if base <= a < base + 54}
    top = max(scores.values())
    if phase == "MOVE_SELECT" and top <= 0:
        return {PASS}  # no unit worth moving: DONE
    return {a for a, v in scores.items() if v == top}


def test_without_exploration_it_plays_the_heuristic():
    """Imperial hides nothing the heuristic reads, so both choose alike at every rondel move (IMP-RON-3 costs,
    IMP-TAX-1/2/4 taxation), factory (IMP-FAC-1), import (IMP-IMP-1/2), maneuver (IMP-CHP-1/2 chips,
    IMP-ARM-4 seas, IMP-STN-1 stance, IMP-CMB-2/3 fights) and purchase (IMP-BND-1/2); a purchase may differ
    only between bonds that score the same, which the heuristic's rounded observation splits either way."""
    heuristic = make_agent("heuristic", "imperial", seed=1)
    tie_break = _rng(0)
    seen: dict[str, int] = {}
    for num_players, options in GAMES[1:4]:
        for s, mask in _positions(num_players, options, 700):
            best = _heuristic_best(heuristic, s, mask)
            a = rollout.policy_action(s[0], mask, tie_break)
            phase = ST.PHASE_NAMES[s[0]["phase"]]
            if phase == "BUY" and a not in best:
                (b,) = best
                assert b != PASS and rollout.buy_score(s[0], a) == pytest.approx(rollout.buy_score(s[0], b))
            else:
                assert a in best, (phase, k.action_name(s, a), [k.action_name(s, b) for b in best])
            seen[phase] = seen.get(phase, 0) + 1
    for phase in ("RONDEL", "FACTORY", "IMPORT", "MOVE_SELECT", "DEST", "STANCE", "FIGHT", "ANSWER", "BUY"):
        assert seen.get(phase, 0) >= 20, seen


def test_a_tenth_of_the_decisions_are_random():
    """ROLLOUT_EXPLORE of the decisions are uniform over the legal actions (which is the policy's own choice
    now and then): at a purchase with many affordable bonds, about that share differs from the policy's."""
    s, mask = next((s, m) for s, m in _positions(4, {}, 5000) if s[0]["phase"] == ST.PH_BUY and m.sum() > 40)
    best = rollout.policy_action(s[0], mask, _rng(0))
    policy = _rng(3)
    share = sum(k.rollout_action(s, mask, policy) != best for _ in range(4000)) / 4000
    assert 0.8 * rollout.ROLLOUT_EXPLORE < share <= rollout.ROLLOUT_EXPLORE + 0.02


def test_it_taxes_a_rich_nation_and_not_a_poor_one():
    """IMP-TAX-1/2/4: a nation whose tax fills the chart moves to Taxation three free steps away (IMP-RON-3),
    for the power points that are the game's clock and every bond's multiplier (IMP-SCR-1); at the starting
    tax of 4 the chart would not move and it does something else."""
    s = k.new_state(4, 0)
    r = s[0]
    n = int(r["nation"])
    r["rondel_pos"][n] = TAXATION - 3
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, mask)
    assert mask[RONDEL + TAXATION] and k.tax_revenue(r, n) == 4
    assert rollout.policy_action(r, mask, _rng(0)) != RONDEL + TAXATION
    r["chips_left"][n] = 0  # every chip on the board: tax 2 x 2 factories + 10 chips (IMP-TAX-1)
    assert k.tax_revenue(r, n) == 14
    assert rollout.policy_action(r, mask, _rng(0)) == RONDEL + TAXATION


def test_it_fights_only_a_weaker_side():
    """IMP-CMB-2/3: a battle destroys one unit of each side per pair, so the mover fights only where it
    outnumbers the defender."""
    heuristic_choice = {}
    for s, mask in _positions(4, {}, 20000):
        r = s[0]
        if r["phase"] != ST.PH_FIGHT:
            continue
        a = rollout.policy_action(r, mask, _rng(0))
        x, n = int(r["mv_region"]), int(r["nation"])
        if a != PASS:
            m = a - FIGHT
            assert r["armies"][n, x] + r["fleets"][n, x] > r["armies"][m, x] + r["fleets"][m, x]
        heuristic_choice[a == PASS] = True
        if len(heuristic_choice) == 2:
            return
    pytest.fail(f"fewer than both choices seen: {heuristic_choice}")
