#!/usr/bin/env bash
# How many samples the run of run.sh needs, with 32 games in flight, on every seed: 150,000 samples, the trainer's
# curve every 30,000 (30 seat-rotated games against two heuristics and against two random players).
#   bash benchmarks/training/irish_gauge_60k_share/long.sh [SEED ...]      (default: 0 1 2 3)
set -eu
cd "$(dirname "$0")/../../.."
B=benchmarks/training/irish_gauge_60k_share
for s in ${@:-0 1 2 3}; do
  tabletop-zoo train irish_gauge --algo selfplay --players 3 --timesteps 150000 --seed "$s" --torch-threads 1 \
    --pool heuristic=1 --reward score_share --dense --hidden 256,256 --num-envs 32 --ppo rollout_samples=2048 \
    --ppo minibatch=256 --ppo epochs=10 --ppo lr=0.001 --ppo gae_lambda=0.8 --eval-games 30 --eval-every 30000 \
    --out "$B/long_seed$s"
done
