"""Agents: the ``Agent`` protocol and players for every game.

- ``RandomAgent``: uniformly random legal moves.
- ``heuristic``: one sensible-beginner agent per game, ``agents/heuristics/<game>.py``.
- ``MCTSAgent``: UCT / IS-MCTS in numba over the rules kernel (``agents/mcts``).
- ``PolicyAgent``: a trained model without search (``policy:path=model.zip``, ``policy.pt`` or an az network).
- ``AZAgent``: PUCT search guided by a trained network (``az:path=az.pt``, ``agents/az``).
"""

from __future__ import annotations

import importlib
import inspect

from ..kernels._common.validate import check_seed
from .base import Agent
from .random_agent import RandomAgent
from .spec import AgentSpec, check_agent_spec, parse_agent_spec, split_specs


def heuristic_class(game_id: str):
    """The heuristic agent class of a game (the ``*Heuristic`` class of ``agents/heuristics/<game>.py``)."""
    try:
        module = importlib.import_module(f"{__name__}.heuristics.{game_id}")
    except ModuleNotFoundError:
        raise ValueError(f"no heuristic agent for {game_id!r} yet") from None
    classes = [v for k, v in vars(module).items() if k.endswith("Heuristic") and isinstance(v, type)]
    return classes[0]


def _policy(game_id: str | None, seed: int | None, **kwargs):
    from .policy_agent import PolicyAgent

    return PolicyAgent(seed=seed, game_id=game_id, **kwargs)


def _mcts(game_id: str | None, seed: int | None, **kwargs):
    from .mcts import MCTSAgent

    return MCTSAgent(seed=seed, **kwargs)


def _az(game_id: str | None, seed: int | None, **kwargs):
    from .az.agent import AZAgent

    return AZAgent(seed=seed, game_id=game_id, **kwargs)


# agent name -> factory(game_id, seed, **kwargs), used by the CLI, play_game and the arena
AGENTS = {
    "random": lambda game_id, seed, **kw: RandomAgent(seed=seed, **kw),
    "heuristic": lambda game_id, seed, **kw: heuristic_class(game_id)(seed=seed, **kw),
    "mcts": _mcts,
    "policy": _policy,
    "az": _az,
}


def _factory_class(name: str, game_id: str | None):
    if name == "random":
        return RandomAgent
    if name == "heuristic":  # every game's heuristic takes its base class's parameters
        from .heuristics._base import HeuristicAgent

        return heuristic_class(game_id) if game_id is not None else HeuristicAgent
    if name == "policy":
        from .policy_agent import PolicyAgent

        return PolicyAgent
    if name == "az":
        from .az.agent import AZAgent

        return AZAgent
    from .mcts import MCTSAgent

    return MCTSAgent


def agent_parameters(name: str, game_id: str | None = None) -> list[str]:
    """The keyword parameters an agent accepts besides ``seed`` (for ``name:key=value`` specs)."""
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; available agents: {', '.join(sorted(AGENTS))}")
    signature = inspect.signature(_factory_class(name, game_id).__init__)
    return [p for p in signature.parameters if p not in ("self", "seed", "env", "game_id", "net")]


def make_agent(name: str, game_id: str | None = None, seed: int | None = None, **kwargs):
    """An agent by name (``random``, ``heuristic``, ``mcts``, ``policy``); raises listing the names available.

    ``seed`` is None or an int in [0, 2**64); each agent checks its own parameters' types and ranges."""
    if seed is not None:
        check_seed(seed)
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; available agents: {', '.join(sorted(AGENTS))}")
    if name == "heuristic" and game_id is None:
        raise ValueError("the heuristic agent is per game: pass game_id")
    return AGENTS[name](game_id, seed, **kwargs)


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
    "heuristic_class",
    "agent_parameters",
    "AgentSpec",
    "parse_agent_spec",
    "check_agent_spec",
    "split_specs",
]
