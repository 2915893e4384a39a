#!/usr/bin/env bash
# Irish Gauge 3p, 60,000 samples of PPO against two heuristics: score shares credited densely, 256 x 256 (#20).
#   bash benchmarks/training/irish_gauge_60k_share/run.sh [SEED ...]      (default: 0 1 2 3)
# Each seed: the run into seedN/ (its trainer's curve: 30 seat-rotated games every 20,000 samples), then the
# policy in the arena against two heuristics (30 games, arena seed 12345) and the exact binomial test.
set -eu
cd "$(dirname "$0")/../../.."
B=benchmarks/training/irish_gauge_60k_share
for seed in "${@:-0 1 2 3}"; do
  for s in $seed; do
    tabletop-zoo train irish_gauge --algo selfplay --players 3 --timesteps 60000 --seed "$s" --torch-threads 1 \
      --pool heuristic=1 --reward score_share --dense --hidden 256,256 --ppo rollout_samples=2048 --ppo minibatch=256 \
      --ppo epochs=10 --ppo lr=0.001 --ppo gae_lambda=0.8 --eval-games 30 --eval-every 20000 --out "$B/seed$s"
    tabletop-zoo arena irish_gauge --players 3 --agents "policy:path=$B/seed$s/policy.pt;heuristic;heuristic" \
      --games 30 --seed 12345 --workers 1 --out "$B/seed$s/arena"
    python benchmarks/strength_check.py "$B/seed$s/arena/games.jsonl" "policy:path=$B/seed$s/policy.pt"
  done
done
