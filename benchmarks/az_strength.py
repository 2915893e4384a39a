"""Seat-rotated games of a candidate against a line-up, with each agent's thinking time per move (#21).

    python benchmarks/az_strength.py GAME "az;heuristic;heuristic;heuristic" --games 20 --seed 12345 \
        [--players 4] [--workers 1] [--out benchmarks/az_strength/NAME.json]

The arena's schedule (``tabletop_zoo.arena.tournament``: game seeds, seat rotation, agent seeds), so a run gives the
games ``tabletop-zoo arena`` would; besides, every ``act`` call is timed, so "equal time per move" can be
checked rather than assumed (numba's compiled code is loaded before the first game, as the arena does, so no
move's time includes it). The first agent of the line-up is the candidate: a win is a game it alone ranks
first, tested one-sided and exact against the equal share (``arena.stats.p_value_above_equal``). ``--workers K``
plays the games in K processes: each game's seeds and seats depend only on its index, so the games, wins and moves
are the same with any K (only the seconds differ: the processes share the machine).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import os
import pathlib
import sys
import time

import numpy as np

from tabletop_zoo import registry
from tabletop_zoo.agents.spec import parse_agent_spec, split_specs
from tabletop_zoo.arena.stats import p_value_above_equal
from tabletop_zoo.arena.tournament import agent_seed, game_seed, seating, warm_cache
from tabletop_zoo.play import play_game


class Timed:
    """An agent whose ``act`` calls are counted and timed."""

    def __init__(self, agent):
        self.agent, self.seconds, self.moves = agent, 0.0, 0

    def bind(self, env):
        if hasattr(self.agent, "bind"):
            self.agent.bind(env)
        return self

    def act(self, observation, action_mask):
        start = time.perf_counter()
        action = self.agent.act(observation, action_mask)
        self.seconds += time.perf_counter() - start
        self.moves += 1
        return action


def play(game_id: str, lineup: str, seed: int, players: int, g: int) -> tuple[bool, list[float], list[int]]:
    """Game ``g`` of the schedule: whether the candidate alone ranks first, and each line-up entry's thinking
    seconds and moves in it."""
    specs = [parse_agent_spec(s, game_id) for s in split_specs(lineup)]
    gseed = game_seed(seed, g)
    seats = seating(specs, players, g)
    env = registry.make_env(game_id, num_players=players)
    agents = [Timed(specs[j].build(game_id, seed=agent_seed(gseed, i))) for i, j in enumerate(seats)]
    result = play_game(env, agents, seed=gseed)
    ranks = [result[name]["rank"] for name in env.possible_agents]
    seconds, moves, won = [0.0] * len(specs), [0] * len(specs), False
    for i, j in enumerate(seats):
        seconds[j] += agents[i].seconds
        moves[j] += agents[i].moves
        won |= j == 0 and ranks[i] == 1 and ranks.count(1) == 1
    return won, seconds, moves


def _play_args(a: tuple) -> tuple[bool, list[float], list[int]]:
    return play(*a)


def _warm_worker(game_id: str, players: int, lineup: str) -> None:
    warm_cache(game_id, players, [parse_agent_spec(s, game_id) for s in split_specs(lineup)])


def run(game_id: str, lineup: str, games: int, seed: int, players: int, workers: int = 1) -> dict:
    specs = [parse_agent_spec(s, game_id) for s in split_specs(lineup)]
    labels = [s.label for s in specs]
    seconds, moves = {lab: 0.0 for lab in labels}, {lab: 0 for lab in labels}
    wins = 0
    warm_cache(game_id, players, specs)  # numba's compiles and cache loads are not any move's thinking time
    start = time.perf_counter()
    args = [(game_id, lineup, seed, players, g) for g in range(games)]
    with contextlib.ExitStack() as stack:
        results = map(_play_args, args)
        if workers > 1:  # spawned: each worker loads what the parent compiled before its first game
            ctx = multiprocessing.get_context("spawn")
            pool = stack.enter_context(ctx.Pool(workers, _warm_worker, (game_id, players, lineup)))
            results = pool.imap(_play_args, args)
        for g, (won, secs, n) in enumerate(results):
            wins += won
            for j, lab in enumerate(labels):
                seconds[lab] += secs[j]
                moves[lab] += n[j]
            print(f"game {g + 1}/{games}: candidate wins {wins}", file=sys.stderr, flush=True)
    candidate_seats = sum(1 for g in range(games) for j in seating(specs, players, g) if j == 0)
    return {
        "game": game_id,
        "players": players,
        "lineup": lineup,
        "games": games,
        "seed": seed,
        "candidate": labels[0],
        "candidate_seats": candidate_seats,
        "wins": wins,
        "win_rate": wins / candidate_seats,
        "p_value": p_value_above_equal(wins, candidate_seats, players),
        "seconds_per_move": {lab: seconds[lab] / max(moves[lab], 1) for lab in labels},
        "moves": moves,
        "wall_seconds": time.perf_counter() - start,
        "load_average": os.getloadavg(),
        "workers": workers,
        "command": " ".join(["python", *sys.argv]),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("lineup", help='agent specs separated by ";", the candidate first')
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--workers", type=int, default=1, help="processes playing the games (the same games with any)")
    ap.add_argument("--out", type=pathlib.Path)
    a = ap.parse_args()
    if a.workers < 1:
        ap.error(f"--workers must be an integer >= 1, got {a.workers}")
    report = run(registry._canonical(a.game), a.lineup, a.games, a.seed, a.players, a.workers)
    text = json.dumps(report, indent=1, default=lambda x: float(x) if isinstance(x, np.floating) else str(x))
    print(text)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
