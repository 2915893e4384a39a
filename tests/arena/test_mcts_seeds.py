"""MCTSAgent takes every seed in [0, 2**64) in every game, in any order within one process.

numba types a Python int >= 2**63 as uint64 and cannot convert it for an int64 specialisation compiled
earlier, so the agent hands the kernels numpy uint64 seeds (the arena died on this in FR and Kremlin)."""

import pytest

import tabletop_zoo
from tabletop_zoo import arena
from tabletop_zoo.agents import make_agent
from tabletop_zoo.agents.mcts import MCTSAgent

GAMES = sorted(tabletop_zoo.GAMES)
SEEDS = [1, 2**63 - 1, 2**63, 2**63 + 12345, 2**64 - 1]


@pytest.mark.parametrize("game", GAMES)
def test_mcts_moves_with_seeds_on_both_sides_of_2_63(game):
    env = tabletop_zoo.make_env(game)
    env.reset(seed=2**64 - 1)
    k = env.kernel
    if k.INFORMATION == "imperfect":  # compile the small-int specialisation first, as an earlier caller would
        k.determinize(env.get_state().copy(), 0, 7)
    for seed in SEEDS:
        agent = MCTSAgent(simulations=4, rollout_depth=2, seed=seed).bind(env)
        obs, _, _, _, _ = env.last()
        action = agent.act(obs["observation"], obs["action_mask"])
        assert obs["action_mask"][action] == 1
        env.step(action)


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, "x", True])
def test_mcts_refuses_a_seed_outside_the_range(bad):
    with pytest.raises((ValueError, TypeError), match="seed must be an int in"):
        make_agent("mcts", "irish_gauge", seed=bad)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(simulations="x"), "simulations must be an integer >= 1, got 'x'"),
        (dict(simulations=1.5), "simulations must be an integer >= 1, got 1.5"),
        (dict(simulations=0), "simulations must be an integer >= 1, got 0"),
        (dict(rollout_depth=-1), "rollout_depth must be an integer >= 0"),
        (dict(c=float("nan")), "c must be a finite number >= 0"),
        (dict(c=-0.5), "c must be a finite number >= 0"),
        (dict(threads=True), "threads must be an integer >= 1, got True"),
    ],
)
def test_mcts_parameters_are_checked_by_type_and_range(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        MCTSAgent(**kwargs)


def test_mcts_takes_whole_floats():
    assert MCTSAgent(simulations=3.0).simulations == 3


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_mcts_arena_runs_at_every_count_with_seeds_near_the_top(game, tmp_path):
    for n in tabletop_zoo.player_counts(game):
        for run_seed in (2**63 - 3, 2**64 - 1):
            summary = arena.run(
                game,
                ["mcts:simulations=3,rollout_depth=2", "random"],
                num_players=n,
                games=2,
                seed=run_seed,
                out=tmp_path / f"{n}-{run_seed}",
                workers=1,
                progress=False,
            )
            assert summary["games"] == 2
