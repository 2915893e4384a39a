"""Golden playthroughs: a text trace of a seeded random game per game x player count.

A trace lists, for every decision, the seat to move, how many actions were legal, and the chosen
action's name, then the final scores. Any change to rules, action encoding or RNG use changes a trace,
so a failing comparison means "bump the env version and regenerate on purpose":

    python -m tests.contract.playthroughs   # rewrites tests/contract/playthroughs/*.txt
"""

from __future__ import annotations

import pathlib
import random

import numpy as np

import tabletop_zoo
from tabletop_zoo import registry

FOLDER = pathlib.Path(__file__).parent / "playthroughs"
SEED = 0


def trace(game_id: str, num_players: int, seed: int = SEED) -> str:
    k = registry.kernel(game_id)
    pick = random.Random(seed).random
    s = k.new_state(num_players, seed)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    lines = [f"# {game_id} v{k.VERSION}, {num_players} players, seed {seed}, uniformly random policy"]
    while not k.is_over(s):
        k.legal_mask(s, mask)
        legal = np.flatnonzero(mask)
        action = int(legal[int(pick() * legal.size)])
        lines.append(f"player_{k.to_move(s)} [{legal.size} legal] {action} {k.action_name(s, action)}")
        k.step(s, action)
    scores = np.zeros(k.MAX_PLAYERS, np.int64)
    k.scores(s, scores)
    lines.append("final scores: " + " ".join(f"player_{p}={scores[p]}" for p in range(num_players)))
    return "\n".join(lines) + "\n"


def path(game_id: str, num_players: int) -> pathlib.Path:
    return FOLDER / f"{game_id}_{num_players}p_seed{SEED}.txt"


def regenerate() -> None:
    FOLDER.mkdir(exist_ok=True)
    for game_id in sorted(tabletop_zoo.GAMES):
        for n in registry.player_counts(game_id):
            path(game_id, n).write_text(trace(game_id, n))
            print("wrote", path(game_id, n))


if __name__ == "__main__":
    regenerate()
