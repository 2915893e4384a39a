"""Irish Gauge, 3 players: does PPO beat two heuristics with 1,000,000 samples, 17x the goal's budget? (score
margins, heuristic seats in the pool; the trainer's greedy evaluation, 30 seat-rotated games every 200,000 samples)

    python benchmarks/training/irish_gauge_1m/sweep.py wide heur_lr

The third run of the page, ``margin_heur``, is the CLI's:

    tabletop-zoo train irish_gauge --algo selfplay --players 3 --timesteps 1000000 --eval-games 30 --eval-every 100000 \
        --torch-threads 1 --seed 0 --pool self=0.4,snapshot=0.2,heuristic=0.4 --reward score_margin \
        --out benchmarks/training/irish_gauge_1m/margin_heur
"""

import sys

from tabletop_zoo.training import train_selfplay

COMMON = dict(
    num_players=3,
    timesteps=1_000_000,
    eval_games=30,
    eval_every=200_000,
    torch_threads=1,
    seed=0,
    reward="score_margin",
)
SETTINGS = {
    "wide": dict(hidden=(256, 256), pool="self=0.4,snapshot=0.2,heuristic=0.4"),
    "heur_lr": dict(pool="heuristic=1", lr=1e-3),
}
for name in sys.argv[1:]:
    train_selfplay("irish_gauge", out=f"benchmarks/training/irish_gauge_1m/{name}", **COMMON, **SETTINGS[name])
