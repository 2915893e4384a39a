"""What several commands share: the game id check, ``KEY=VALUE`` options and the help texts of agent specs."""

from __future__ import annotations

import typer

from .. import registry
from ..agents import AGENTS

OPTION_HELP = "e.g. ruleset=published (each game's options: tabletop_zoo.kernel(GAME).OPTIONS)"
AGENT_SPEC_HELP = (
    "agent specs 'name[:key=value,...]' (e.g. mcts:simulations=50, policy:path=model.zip; "
    f"agents: {', '.join(sorted(AGENTS))}); separate agents with ',' (or ';' when a value has a comma)"
)


def game_id(game: str) -> str:
    """The canonical id of ``game``, or typer's one-line "Invalid value" error naming the known games."""
    try:
        return registry._canonical(game)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None


def key_values(flag: str, example: str, pairs: list[str]) -> dict:
    """``--flag KEY=VALUE`` texts as a dict (values read like agent parameters); the receiver checks them."""
    from ..agents.spec import parse_value

    options = {}
    for text in pairs:
        key, eq, value = text.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"{flag} must look like KEY=VALUE, e.g. {example}, got {text!r}")
        options[key.strip()] = parse_value(value.strip())
    return options
