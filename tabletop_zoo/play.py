"""Play one full game with a list of agents (one per seat) through the AEC env."""

from __future__ import annotations

import time
from collections.abc import Sequence

from .agents import Agent
from .standings import final_standings


def play_game(
    env, agents: Sequence[Agent], seed: int | None = None, on_decision=None, thinking: list | None = None
) -> dict[str, dict]:
    """Play to the end; returns ``{agent: {"reward": r, "score": s, "rank": k, "winner": bool}}``.

    ``rank`` and ``winner`` come from the game's result (``tabletop_zoo.standings``: the kernel's returns,
    then the final score), not from the score alone.

    ``on_decision(env, agent, action)`` is called before each decision is applied (to log or render).
    ``thinking`` (a list of one ``[seconds, moves]`` pair per seat) adds up the wall time each seat's agent spent
    choosing its moves, and how many it chose.
    """
    if len(agents) != env.num_players:
        raise ValueError(f"{env.num_players} players need {env.num_players} agents, got {len(agents)}")
    env.reset(seed=seed)
    for agent in agents:
        if hasattr(agent, "bind"):
            agent.bind(env)  # searching agents read the game record through the env
    seat_of = {a: i for i, a in enumerate(env.possible_agents)}
    result = {}
    for name in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            result[name] = {"reward": reward, "score": info.get("score")}
            env.step(None)
            continue
        start = time.perf_counter()
        action = agents[seat_of[name]].act(obs["observation"], obs["action_mask"])
        if thinking is not None:
            thinking[seat_of[name]][0] += time.perf_counter() - start
            thinking[seat_of[name]][1] += 1
        if on_decision is not None:
            on_decision(env, name, action)
        env.step(action)
    if env.kernel.is_over(env.get_state()):  # (a penalised illegal move ends the game before its end)
        final = final_standings(env.kernel, env.get_state())
        for i, name in enumerate(env.possible_agents):
            result[name].update(rank=final.ranks[i], winner=final.ranks[i] == 1)
    return result
