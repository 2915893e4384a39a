"""Agent specs: ``name[:key=value,...]`` strings, as taken by ``play``, ``arena``, ``ladder`` and ``serve``.

    mcts:simulations=500,rollout_depth=10      heuristic      random      policy:path=model.zip

Values are read as int, then float, then ``true``/``false``, else kept as text; each agent checks the types
and ranges of its own parameters when it is built. ``parse_agent_spec`` checks the names; ``check_agent_spec``
also builds the agent once, so a bad value is refused before any game starts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .registry import AGENTS, agent_parameters, make_agent

if TYPE_CHECKING:
    from .base import Agent


@dataclass(frozen=True)
class AgentSpec:
    """An agent name and its keyword parameters (besides ``seed``)."""

    name: str
    params: dict = field(default_factory=dict)

    @property
    def label(self) -> str:
        """The canonical text of the spec (parameters sorted): how results name this agent."""
        if not self.params:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in sorted(self.params.items()))

    def build(self, game_id: str, seed: int | None = None) -> Agent:
        """A fresh agent for ``game_id``."""
        return make_agent(self.name, game_id, seed=seed, **self.params)


def parse_value(text: str) -> int | float | bool | str:
    """A parameter's text as int, then float, then ``true``/``false``, else the text itself."""
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text.lower(), text)


def split_spec(text: str) -> tuple[str, dict]:
    """``name:key=value,...`` as the name and its parameters (values read by ``parse_value``), unchecked; a
    parameter without ``=`` raises ValueError."""
    name, _, rest = text.strip().partition(":")
    params = {}
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"agent parameter {item!r} must look like key=value (in {text!r})")
        params[key.strip()] = parse_value(value.strip())
    return name.strip(), params


def parse_agent_spec(text: str, game_id: str | None) -> AgentSpec:
    """Parse a spec string; an unknown agent or parameter raises ValueError saying what is allowed."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"an agent spec must be a non-empty string like 'mcts:simulations=50', got {text!r}")
    name, params = split_spec(text)
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; available agents: {', '.join(sorted(AGENTS))}")
    allowed = agent_parameters(name, game_id)
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for agent {name!r}; allowed: {', '.join(allowed) or 'none'}")
    return AgentSpec(name, params)


def check_agent_spec(text: str, game_id: str) -> AgentSpec:
    """Parse a spec and build its agent once, so a bad parameter value fails here, with the spec named."""
    spec = parse_agent_spec(text, game_id)
    try:
        spec.build(game_id, seed=0)
    except (TypeError, ValueError, OSError) as e:
        raise ValueError(f"agent {text!r}: {e}") from None
    return spec


def split_specs(text: str) -> list[str]:
    """Split a comma-separated line-up into specs: 'mcts:simulations=5,rollout_depth=2,heuristic,random'.

    A comma followed by ``key=value`` continues the previous agent's parameters; ``;`` always separates
    agents (use it when a parameter value itself contains a comma)."""
    if ";" in text:
        return [p.strip() for p in text.split(";") if p.strip()]
    parts: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            continue
        if parts and "=" in piece and ":" in parts[-1]:
            parts[-1] += "," + piece
        else:
            parts.append(piece)
    return parts
