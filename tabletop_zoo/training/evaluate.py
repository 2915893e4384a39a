"""Evaluation games for the learning curve: the policy (greedy) in one seat, the others random, heuristic or rollout
MCTS (``mcts`` or ``mcts:simulations=N``: it searches the true position as the seat to move, from that seat's
determinization in hidden-information games).

Seats rotate (game ``g`` puts the policy in seat ``g % num_players``); all games run as one batch. The
interval is Wilson's 95% score interval on the mean win share, so it stays inside [0, 1].
"""

from __future__ import annotations

import math

import numpy as np

from ..agents.policy_network import ActorCritic
from ..agents.search_agent import SearchAgent
from ..agents.spec import check_agent_spec
from .batch import HEURISTIC, LEARNER, OVER, RANDOM, BatchGames


def wilson(mean: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    centre = (mean + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def check_eval_opponent(opponent: str, game_id: str):
    """The agent spec of an evaluation opponent: ``random``, ``heuristic`` or rollout MCTS (``mcts[:key=value,...]``);
    anything else is refused in one line."""
    name = opponent.partition(":")[0].strip() if isinstance(opponent, str) else None
    if name not in ("random", "heuristic", "mcts") or (name != "mcts" and opponent.strip() != name):
        raise ValueError(
            f"evaluation opponent must be 'random', 'heuristic' or 'mcts[:simulations=N,...]', got {opponent!r}"
        )
    return check_agent_spec(opponent, game_id)


def evaluate(
    net: ActorCritic, kernel, game_id: str, num_players: int, options: dict, opponent: str, games: int, seed: int
) -> dict:
    """Mean win share of ``net`` (greedy) over ``games`` seat-rotated games against ``opponent`` in every
    other seat."""

    def greedy(batch, rows, rng):
        return net.act(batch.obs[rows], batch.masks[rows], None, True, with_value=False)[0]

    return play_evaluation(greedy, kernel, game_id, num_players, options, opponent, games, seed, 0xE7A1)


def play_evaluation(
    act, kernel, game_id: str, num_players: int, options: dict, opponent: str, games: int, seed: int, stream: int
) -> dict:
    """Mean win share of a learner over ``games`` games against ``opponent`` in every other seat; game g puts
    the learner in seat g % num_players, and all games run as one batch. ``act(batch, rows, rng)`` returns
    the learner's actions for the games ``rows`` of ``batch`` (a ``BatchGames``) that wait for it; ``rng``
    is the evaluation's generator (seeded by ``seed`` and ``stream``)."""
    spec = check_eval_opponent(opponent, game_id)
    rng = np.random.default_rng([seed, stream])
    batch = BatchGames(kernel, games, num_players, options)
    other = RANDOM if opponent == "random" else HEURISTIC  # HEURISTIC: a seat answered by a Python agent
    agents = {}
    for g in range(games):
        kinds = np.full(num_players, other, np.int64)
        kinds[g % num_players] = LEARNER
        if other == HEURISTIC:
            for seat in range(num_players):
                if seat != g % num_players:
                    agents[(g, seat)] = spec.build(game_id, seed=int(rng.integers(2**31)))
        batch.start(g, int(rng.integers(2**63)), int(rng.integers(2**63)), kinds)
    while True:
        rows = np.flatnonzero(batch.seats != OVER)
        if rows.size == 0:
            break
        kinds = batch.kinds[rows, batch.seats[rows]]
        mine = rows[kinds == LEARNER]
        if mine.size:
            batch.actions[mine] = act(batch, mine, rng)
        for i in rows[kinds == HEURISTIC]:
            agent = agents[(i, batch.seats[i])]
            if isinstance(agent, SearchAgent):
                batch.actions[i] = agent.act_for_seat(batch.records[i : i + 1])
            else:
                batch.actions[i] = agent.act(batch.obs[i].copy(), batch.masks[i].view(np.int8).copy())
        batch.step(rows)
    shares = np.array([batch.returns(g)[g % num_players] for g in range(games)])
    mean = float(shares.mean())
    low, high = wilson(mean, games)
    return {
        "opponent": opponent,
        "games": games,
        "win_share": mean,
        "low": low,
        "high": high,
        "wins": int((shares == 1.0).sum()),
    }
