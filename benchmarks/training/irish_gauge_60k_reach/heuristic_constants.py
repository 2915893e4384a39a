"""Does the Irish Gauge heuristic lose to itself with one constant changed? (TRAINING.md, #20)

    python benchmarks/training/irish_gauge_60k_reach/heuristic_constants.py [--games 90] [--seed 1000] [--json F]

One seat plays the heuristic of ``agents/heuristics/irish_gauge.py`` with one of its module constants set to
another value (the variants below, one at a time); the other two seats play the unchanged heuristic. Game g is
seeded ``seed + g`` and puts the variant in seat ``g % 3``. A win is a game the variant alone ranks first; the
p-value is the one-sided exact binomial test against the equal share 1/3
(``tabletop_zoo.arena.stats.p_value_above_equal``). The heuristic reads only its own observation, so a variant
differs from the original only where the changed constant changes a decision.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

import tabletop_zoo.agents.heuristics.irish_gauge as H
from tabletop_zoo import registry
from tabletop_zoo.arena.stats import p_value_above_equal

PLAYERS = 3
VARIANTS = {  # constant -> values other than the shipped one
    "CAUTION": [0.25, 0.75, 1.0],
    "OVERPAY_CAP": [2, 6, 8],
    "RESERVE": [0, 2, 8],
    "RIVAL_PASS": [0.1, 0.5],
    "AUCTION_WEIGHT": [1.0, 2.0, 3.0],
    "GROWTH": [0.0, 4.0],
}
SHIPPED = {name: getattr(H, name) for name in VARIANTS}


class Variant(H.IrishGaugeHeuristic):
    """The heuristic with some module constants replaced while it decides."""

    def __init__(self, seed: int, constants: dict):
        super().__init__(seed)
        self.constants = constants

    def act(self, observation, action_mask) -> int:
        for name, value in self.constants.items():
            setattr(H, name, value)
        try:
            return super().act(observation, action_mask)
        finally:
            for name, value in SHIPPED.items():
                setattr(H, name, value)


def play(constants: dict, games: int, seed: int) -> int:
    """Wins of the variant in ``games`` seat-rotated games against two shipped heuristics."""
    k = registry.kernel("irish_gauge")
    obs = np.zeros(k.OBS_SIZE, np.float32)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    ret = np.zeros(k.MAX_PLAYERS)
    wins = 0
    for g in range(games):
        seat = g % PLAYERS
        agents = [
            Variant(seed + 7 * g + p, constants) if p == seat else H.IrishGaugeHeuristic(seed + 7 * g + p)
            for p in range(PLAYERS)
        ]
        s = k.new_state(PLAYERS, seed + g)
        while not k.is_over(s):
            p = k.to_move(s)
            k.legal_mask(s, mask)
            k.observe(s, p, obs)
            k.step(s, agents[p].act(obs, mask))
        k.returns(s, ret)
        wins += int(ret[seat] == 1.0)  # returns() gives 1 only to a sole winner
    return wins


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=90)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--json", help="write the rows here")
    args = ap.parse_args()
    rows = []
    for name, values in {"shipped": [None], **VARIANTS}.items():
        for value in values:
            constants = {} if value is None else {name: value}
            wins = play(constants, args.games, args.seed)
            p = p_value_above_equal(wins, args.games, PLAYERS)
            rows.append({"constant": name, "value": value, "games": args.games, "wins": wins, "p_value": p})
            label = name if value is None else f"{name}={value} (shipped {SHIPPED[name]})"
            print(f"{label:32s} {wins:3d}/{args.games}  p = {p:.2g}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"games": args.games, "seed": args.seed, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
