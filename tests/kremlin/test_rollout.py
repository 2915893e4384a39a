"""The rollout policy of Kremlin's search (kernels/kremlin/rollout.py, the hook ``rollout_action``): the
heuristic agent's strategy over the record, with a tenth of the decisions uniformly random."""

import numpy as np
import pytest

from tabletop_zoo.agents import make_agent
from tabletop_zoo.kernels._common.rng import seed_rng
from tabletop_zoo.kernels.kremlin import rollout

from ._helpers import DONE, OPPOSE, ST, SUPPORT, G, declare, k

# every player count, and the options that change who may act, whom one may expel or declare on, and the end
GAMES = (
    (3, {}),
    (4, {}),
    (5, {}),
    (6, {}),
    (4, {"traits": True}),  # KRM-OPT-1..8
    (5, {"random_placement": True, "turn_limit_ranking": True}),  # KRM-SET-1 variant, KRM-END-3 option
    (6, {"traits": True, "turn_limit": 3}),
)
POSITIONS = 10_000  # per line of GAMES


def _rng(seed: int) -> np.ndarray:
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    return rng


def _positions(n: int, opts: dict, count: int, heuristic_share: float = 0.0):
    """(record, mask) at ``count`` decisions of games played at random (or partly by the heuristic)."""
    rng = np.random.default_rng(n)
    heuristic = make_agent("heuristic", "kremlin", seed=1)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    seen, game = 0, 0
    while seen < count:
        s = k.new_state(n, game, **opts)
        game += 1
        while not k.is_over(s) and seen < count:
            k.legal_mask(s, mask)
            yield s, mask
            seen += 1
            if rng.random() < heuristic_share:
                obs = np.zeros(k.OBS_SIZE, np.float32)
                k.observe(s, int(k.to_move(s)), obs)
                k.step(s, heuristic.act(obs, mask.view(np.int8).copy()))
            else:
                k.step(s, int(rng.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize(("n", "opts"), GAMES)
def test_rollout_action_is_legal_and_deterministic(n, opts):
    """A legal action at every decision of random games (every count, with options), the same one again from
    the same generator state."""
    policy, phases = _rng(n), set()
    for s, mask in _positions(n, opts, POSITIONS):
        again = policy.copy()
        a = k.rollout_action(s, mask, policy)
        assert mask[a], (ST.PHASE_NAMES[s[0]["phase"]], k.action_name(s, a))
        assert k.rollout_action(s, mask, again) == a and np.array_equal(again, policy)
        phases.add(int(s[0]["phase"]))
    assert {ST.PH_ASSIGN, ST.PH_WINDOW, ST.PH_VOTE, ST.PH_EXP_TARGET, ST.PH_PER_A_SRC} <= phases


def test_before_exploration_it_plays_exactly_the_heuristic():
    """The policy reads only the mover's sheet and the public board, so it must choose as the heuristic does from
    its observation at every decision but two: the allocation (KRM-SET-4), whose noise comes from each one's own
    generator, and the chairman's choice of whom to move (KRM-PER-1), where the policy skips moves the chairman
    cannot pay for (KRM-GEN-2) and the heuristic does not."""
    heuristic = make_agent("heuristic", "kremlin", seed=1)
    skip = (ST.PH_ASSIGN, ST.PH_PER_A_SRC)
    seen = {}
    for n, opts in GAMES[:4]:
        for s, mask in _positions(n, opts, 3000, heuristic_share=0.7):
            phase = int(s[0]["phase"])
            if phase in skip or mask.sum() < 2:
                continue
            obs = np.zeros(k.OBS_SIZE, np.float32)
            seat = int(k.to_move(s))
            k.observe(s, seat, obs)
            expected = heuristic.act(obs, mask.view(np.int8).copy())
            got = rollout._choice(s[0], seat, mask, _rng(0))
            assert got == expected, (ST.PHASE_NAMES[phase], k.action_name(s, expected), k.action_name(s, got))
            seen[phase] = seen.get(phase, 0) + 1
    assert seen[ST.PH_WINDOW] > 1000 and seen[ST.PH_VOTE] > 100 and seen[ST.PH_EXP_TARGET] > 20, seen


def _window_position():
    """4 players after the allocation, the window before the expulsion phase open (KRM-DW-1 a)."""
    s, mask = next((s, m) for s, m in _positions(4, {}, 10**5) if s[0]["phase"] == ST.PH_WINDOW)
    r = s[0]
    r["dw_cont"] = ST.C_EXPULSION
    r["declared"][:] = 0
    r["burned"][:] = 0
    r["controller"][:] = -1
    return s, r


def test_a_window_seizes_the_acting_post_with_just_enough_points():
    """KRM-DW-2, KRM-INF-2/4: before the expulsion, Planning (P01, G02) acts (KRM-GEN-6), so the mover declares one
    point more than the best rival declaration on it, and passes when it cannot beat that."""
    s, r = _window_position()
    p = int(r["dw_seat"])
    rival = (p + 1) % 4
    r["assigned"][p, :] = 0
    r["assigned"][p, G(2)] = 6
    r["declared"][rival, G(2)] = 4
    r["controller"][G(2)] = rival
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, mask)
    assert rollout._choice(r, p, mask, _rng(0)) == declare(G(2), 5)
    r["declared"][rival, G(2)] = 6  # a tie goes to the earlier declarer (KRM-INF-4): 7 is needed, 6 is all
    k.legal_mask(s, mask)
    assert rollout._choice(r, p, mask, _rng(0)) == DONE


@pytest.mark.parametrize(("trial", "votes"), [(True, (OPPOSE, SUPPORT, SUPPORT)), (False, (SUPPORT, OPPOSE, SUPPORT))])
def test_votes_keep_the_movers_gamer_and_stop_a_rivals(trial, votes):
    """KRM-RUM-3: acquit one's own defendant, convict any other; KRM-ELE-3: oppose only a rival's nominee. Votes
    for a defendant or nominee of the mover, of a rival, of nobody."""
    s, r = _window_position()
    p = int(r["dw_seat"])
    r["phase"] = ST.PH_VOTE
    r["rumour_mode"] = 2 if trial else 0
    r["target"] = G(3)
    for owner, vote in zip((p, (p + 1) % 4, -1), votes, strict=True):
        r["controller"][G(3)] = owner
        assert rollout._ballot(r, p) == vote, owner


def test_expulsion_tries_a_rivals_gamer_only_at_fair_odds():
    """KRM-EXP-2: a member (d20 >= 6, 75 %) of a rival is expelled, the mover's own never; a senior (14, 35 %)
    is not worth the 3 SP a failure costs (KRM-EXP-3)."""
    s, r = _window_position()
    p = int(r["dw_seat"])
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    mask[DONE] = 1
    mask[G(3)] = mask[G(10)] = mask[G(11)] = 1  # P02 senior, P09 and P10 members
    r["controller"][G(3)] = r["controller"][G(10)] = (p + 1) % 4
    r["controller"][G(11)] = p
    assert rollout._expel(r, p, mask) == G(10)
    r["controller"][G(10)] = p
    assert rollout._expel(r, p, mask) == DONE


def test_a_tenth_of_the_decisions_are_random():
    """ROLLOUT_EXPLORE of the decisions are uniform over the legal actions (which now and then hit the rule's)."""
    s, mask = next((s, m) for s, m in _positions(4, {}, 10**5) if s[0]["phase"] == ST.PH_WINDOW and m.sum() > 20)
    best = rollout._choice(s[0], int(k.to_move(s)), mask, _rng(0))
    policy, draws = _rng(3), 4000
    share = sum(k.rollout_action(s, mask, policy) != best for _ in range(draws)) / draws
    assert 0.8 * rollout.ROLLOUT_EXPLORE < share <= rollout.ROLLOUT_EXPLORE + 0.02
