"""Agents: the ``Agent`` protocol and baseline players."""

from .base import Agent
from .random_agent import RandomAgent

# agent name -> factory(seed) used by the CLI and the arena
AGENTS = {"random": RandomAgent}


def make_agent(name: str, game_id: str | None = None, seed: int | None = None):
    """An agent by name (``random``); raises listing the names available."""
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; available agents: {', '.join(sorted(AGENTS))}")
    return AGENTS[name](seed=seed)


__all__ = ["Agent", "RandomAgent", "AGENTS", "make_agent"]
