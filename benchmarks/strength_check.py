"""Exact binomial test of an arena run: does agent A win more often than an equal share?

    python benchmarks/strength_check.py ARENA_OUT/games.jsonl "policy:path=..." [--json]

A game counts as a win for the agent when it alone has the best rank (ties count as losses, so the
test is conservative); under the null hypothesis that all seats are equally strong such a win has
probability at most 1/num_players: the one-sided exact binomial test of
``tabletop_zoo.arena.stats.p_value_above_equal`` (the same test as the project's strength tests).
"""

from __future__ import annotations

import argparse
import json

from tabletop_zoo.arena.stats import p_value_above_equal


def check(games_path: str, label: str) -> dict:
    games = [json.loads(line) for line in open(games_path) if line.strip()]
    wins = n = 0
    players = len(games[0]["agents"])
    for g in games:
        for seat, agent in enumerate(g["agents"]):
            if agent == label:
                n += 1
                wins += g["ranks"][seat] == 1 and g["ranks"].count(1) == 1
    if n == 0:
        raise SystemExit(f"agent {label!r} not found; agents: {sorted({a for g in games for a in g['agents']})}")
    return {
        "agent": label,
        "games": n,
        "wins": wins,
        "players": players,
        "null_win_rate": 1 / players,
        "win_rate": wins / n,
        "p_value": p_value_above_equal(wins, n, players),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games")
    parser.add_argument("agent")
    args = parser.parse_args()
    print(json.dumps(check(args.games, args.agent)))
