"""Agents: the ``Agent`` protocol and players for every game, by name in ``registry.AGENTS``.

- ``RandomAgent``: uniformly random legal moves.
- ``heuristic``: one sensible-beginner agent per game, ``agents/heuristics/<game>.py``.
- ``MCTSAgent``: UCT / IS-MCTS in numba over the rules kernel (``agents/mcts``).
- ``PolicyAgent``: a trained model without search (``policy:path=model.zip``, ``policy.pt`` or an az network).
- ``AZAgent``: PUCT search guided by a trained network (``az:path=az.pt``, ``agents/az``).
"""

from __future__ import annotations

from .base import Agent
from .random_agent import RandomAgent
from .registry import AGENTS, agent_class, agent_parameters, heuristic_class, make_agent
from .spec import AgentSpec, check_agent_spec, parse_agent_spec, split_specs


def __getattr__(name):  # lazy: importing numba search code only when asked for
    if name == "MCTSAgent":
        from .mcts import MCTSAgent

        return MCTSAgent
    raise AttributeError(name)


__all__ = [
    "Agent",
    "RandomAgent",
    "MCTSAgent",
    "AGENTS",
    "make_agent",
    "agent_class",
    "heuristic_class",
    "agent_parameters",
    "AgentSpec",
    "parse_agent_spec",
    "check_agent_spec",
    "split_specs",
]
