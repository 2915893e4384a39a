"""Every heuristic has a strategy for every decision phase of its game, under every ruleset and option, at
every player count: over positions from random playouts it answers each phase with a legal action (its
``HeuristicAgent`` base raises on a phase without a handler or an illegal choice), and the playouts reach
every phase of the game's PHASE_NAMES that a seat decides."""

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo import registry
from tabletop_zoo.agents import heuristic_class
from tabletop_zoo.agents.heuristics._base import HeuristicAgent

# Phases no seat decides: chance events resolved by the kernel, bookkeeping stops, the end.
NOT_DECIDED = {
    "french_revolution_1789": {"CHANCE", "GAME_OVER"},
    "imperial": {"GAME_OVER"},
    "irish_gauge": {"DIVIDEND_DRAW", "GAME_OVER"},
    "kremlin": {"CHANCE", "GAME_OVER"},
    "veld_railroads": {"END_OF_TURN", "SETUP_NEXT", "GAME_OVER"},
}
OPTION_SETS = {
    "french_revolution_1789": [{}, {"person_marks": True}],
    "imperial": [{}, {"ruleset": "published"}, {"hidden_cash": True, "optional_factory_destruction": True}],
    "irish_gauge": [{}, {"ruleset": "published"}],
    "kremlin": [{}, {"traits": True, "random_placement": True}],
    "veld_railroads": [{}, {"repeat_metropolis_pick": True}],
}
CALLS_PER_PHASE = 6  # heuristic calls per phase, player count and option set (the playouts themselves are cheap)
GAMES_PER_OPTION_SET = 2


def visit(game: str, n: int, options: dict, seed: int, calls: dict, agent) -> None:
    """One random playout; ask the heuristic at decision points of phases it has answered few times."""
    k = tabletop_zoo.kernel(game)
    rng = np.random.default_rng(seed)
    s = k.new_state(n, seed, **options)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    obs = np.zeros(k.OBS_SIZE, np.float32)
    while not k.is_over(s) and not (hasattr(k, "is_truncated") and k.is_truncated(s)):
        k.legal_mask(s, mask)
        legal = np.flatnonzero(mask)
        phase = k.PHASE_NAMES[int(s[0]["phase"])]
        if calls.get(phase, 0) < CALLS_PER_PHASE and legal.size > 1:
            calls[phase] = calls.get(phase, 0) + 1
            seat = int(k.to_move(s))
            k.observe(s, seat, obs)
            a = agent.act(obs.copy(), mask.copy())
            assert mask[a], f"{game} {n}p {options}: illegal {a} in {phase}"
        k.step(s, int(legal[rng.integers(legal.size)]))


def test_every_heuristic_is_a_heuristic_agent(game_id):
    cls = heuristic_class(game_id)
    assert issubclass(cls, HeuristicAgent)
    expected = set(tabletop_zoo.kernel(game_id).PHASE_NAMES) - NOT_DECIDED[game_id]
    assert set(cls.decision_phases()) == expected


@pytest.mark.parametrize("game", sorted(NOT_DECIDED))
def test_heuristic_answers_every_phase(game):
    k = tabletop_zoo.kernel(game)
    agent = heuristic_class(game)(seed=0)
    seen: set[str] = set()
    for n in registry.player_counts(game):
        for i, options in enumerate(OPTION_SETS[game]):
            calls: dict[str, int] = {}
            for g in range(GAMES_PER_OPTION_SET):
                visit(game, n, options, 1000 * n + 10 * i + g, calls, agent)
            seen |= set(calls)
    assert seen == set(k.PHASE_NAMES) - NOT_DECIDED[game], (
        f"never decided with a choice: {sorted(set(k.PHASE_NAMES) - NOT_DECIDED[game] - seen)}"
    )


def test_an_illegal_choice_raises_naming_it():
    ig = tabletop_zoo.kernel("irish_gauge")
    agent = heuristic_class("irish_gauge")(seed=0)
    s = ig.new_state(3, 0)
    obs, mask = np.zeros(ig.OBS_SIZE, np.float32), np.zeros(ig.NUM_ACTIONS, np.uint8)
    ig.observe(s, ig.to_move(s), obs)
    mask[[ig.actions.A_AUCTION, ig.actions.A_CALL_DIVIDENDS]] = 1  # MAIN-phase actions in INITIAL_AUCTION
    with pytest.raises(ValueError, match="INITIAL_AUCTION"):
        agent.act(obs, mask)
