"""The agents by name: one table from name to class, and everything that reads it.

``make_agent("mcts", "irish_gauge", seed=3, simulations=200)`` builds any agent; ``agent_parameters`` lists the
keyword parameters its class takes (what an ``name:key=value`` spec may set). Classes are imported on first use,
so naming the agents imports neither numba search code nor torch.
"""

from __future__ import annotations

import importlib
import inspect
from typing import TYPE_CHECKING, NamedTuple

from ..kernels._common.validate import check_seed

if TYPE_CHECKING:
    from .base import Agent


class AgentEntry(NamedTuple):
    """Where an agent's class lives and how it is built."""

    module: str  # inside this package
    cls: str | None  # None: one class per game (the ``*Heuristic`` class of ``heuristics/<game>.py``)
    takes_game: bool  # its constructor takes ``game_id=`` (to load a file of that game, or check one)
    summary: str


AGENTS: dict[str, AgentEntry] = {
    "random": AgentEntry("random_agent", "RandomAgent", False, "uniformly random legal moves"),
    "heuristic": AgentEntry("heuristics", None, False, "the game's sensible-beginner player"),
    "mcts": AgentEntry("mcts", "MCTSAgent", False, "UCT / IS-MCTS in numba over the rules kernel"),
    "policy": AgentEntry("policy_agent", "PolicyAgent", True, "a trained model without search"),
    "az": AgentEntry("az.agent", "AZAgent", True, "PUCT search guided by a trained network"),
}
# Parameters every agent takes or is given by the library, never by a spec.
_GIVEN = ("self", "seed", "env", "game_id", "net")


def _entry(name: str) -> AgentEntry:
    try:
        return AGENTS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown agent {name!r}; available agents: {', '.join(sorted(AGENTS))}") from None


def heuristic_class(game_id: str) -> type:
    """The heuristic agent class of a game (the ``*Heuristic`` class of ``agents/heuristics/<game>.py``)."""
    try:
        module = importlib.import_module(f"{__package__}.heuristics.{game_id}")
    except ModuleNotFoundError:
        raise ValueError(f"no heuristic agent for {game_id!r} yet") from None
    classes = [v for k, v in vars(module).items() if k.endswith("Heuristic") and isinstance(v, type)]
    return classes[0]


def agent_class(name: str, game_id: str | None = None) -> type:
    """The class ``make_agent(name, game_id)`` builds (for the heuristic without a game: the shared base class,
    whose parameters every game's heuristic takes)."""
    entry = _entry(name)
    if entry.cls is None:
        if game_id is not None:
            return heuristic_class(game_id)
        from .heuristics._base import HeuristicAgent

        return HeuristicAgent
    return getattr(importlib.import_module(f"{__package__}.{entry.module}"), entry.cls)


def agent_parameters(name: str, game_id: str | None = None) -> list[str]:
    """The keyword parameters an agent accepts besides ``seed`` (for ``name:key=value`` specs)."""
    signature = inspect.signature(agent_class(name, game_id).__init__)
    return [p for p in signature.parameters if p not in _GIVEN]


def make_agent(name: str, game_id: str | None = None, seed: int | None = None, **kwargs) -> Agent:
    """An agent by name: ``random``, ``heuristic``, ``mcts``, ``policy`` or ``az`` (``AGENTS``); raises listing the
    names available.

    ``seed`` is None or an int in [0, 2**64); each agent checks its own parameters' types and ranges."""
    entry = _entry(name)
    if seed is not None:
        check_seed(seed)
    if entry.cls is None and game_id is None:
        raise ValueError(f"the {name} agent is per game: pass game_id")
    game = {"game_id": game_id} if entry.takes_game else {}
    return agent_class(name, game_id)(seed=seed, **game, **kwargs)
