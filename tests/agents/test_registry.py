"""Agents are registered once (``agents/registry.py``): every name builds its class, and specs read its parameters."""

from __future__ import annotations

import pytest

from tabletop_zoo.agents import AGENTS, agent_class, agent_parameters, make_agent, parse_agent_spec


def test_every_agent_builds_from_the_table(game_id):
    for name in ("random", "heuristic", "mcts", "az"):
        agent = make_agent(name, game_id, seed=1)
        assert isinstance(agent, agent_class(name, game_id)) and callable(agent.act)
    with pytest.raises(ValueError, match="policy agent needs path="):
        make_agent("policy", game_id)  # a model file is its only required input


def test_the_parameters_a_spec_may_set_are_the_classes_own():
    assert agent_parameters("mcts") == ["simulations", "rollout_depth", "c", "threads", "seconds"]
    assert "simulations" in agent_parameters("az") and "game_id" not in agent_parameters("az")
    assert agent_parameters("random") == []
    assert set(AGENTS) == {"random", "heuristic", "mcts", "policy", "az"}
    with pytest.raises(ValueError, match=r"unknown parameter\(s\) \['depth'\] for agent 'mcts'; allowed: simulations"):
        parse_agent_spec("mcts:depth=3", "irish_gauge")


@pytest.mark.parametrize("name", ["genius", None, 3])
def test_an_unknown_agent_lists_the_names(name):
    with pytest.raises(ValueError, match="unknown agent .*; available agents: az, heuristic, mcts, policy, random"):
        make_agent(name, "irish_gauge")


def test_the_heuristic_needs_its_game():
    with pytest.raises(ValueError, match="the heuristic agent is per game: pass game_id"):
        make_agent("heuristic")
    assert agent_parameters("heuristic") == []  # the shared base's parameters, for every game
