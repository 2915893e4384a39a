"""Irish Gauge, 3 players, 60,000 samples: do other self-play settings beat two heuristics? (the trainer's greedy
evaluation, 30 seat-rotated games a point)

    python benchmarks/training/irish_gauge_60k_pool/sweep.py small_batch small_batch_lr heur_only
"""

import csv
import sys
import time

from tabletop_zoo.training import train_selfplay

configs = {
    "base_pool": dict(pool="self=0.3,snapshot=0.1,heuristic=0.5,random=0.1"),
    "small_batch": dict(pool="self=0.3,snapshot=0.1,heuristic=0.5,random=0.1", rollout_samples=1024, minibatch=256),
    "small_batch_lr": dict(
        pool="self=0.3,snapshot=0.1,heuristic=0.5,random=0.1", rollout_samples=1024, minibatch=256, lr=1e-3
    ),
    "heur_only": dict(pool="heuristic=1", rollout_samples=1024, minibatch=256, lr=1e-3),
    "wide": dict(
        pool="self=0.3,snapshot=0.1,heuristic=0.5,random=0.1",
        rollout_samples=1024,
        minibatch=256,
        lr=1e-3,
        hidden=(256, 256),
    ),
}
for name in sys.argv[1:]:
    t = time.time()
    out = f"benchmarks/training/irish_gauge_60k_pool/{name}"  # config.json and curve.csv are kept
    r = train_selfplay(
        "irish_gauge", out=out, torch_threads=1, num_players=3, timesteps=60000, eval_games=30, seed=0, **configs[name]
    )
    rows = list(csv.DictReader(open(f"{out}/curve.csv")))
    h = [f"{float(x['win_share']):.2f}" for x in rows if x["opponent"] == "heuristic"]
    print(name, r["samples"], f"{time.time() - t:.0f}s", "vs heuristic:", " ".join(h), flush=True)
