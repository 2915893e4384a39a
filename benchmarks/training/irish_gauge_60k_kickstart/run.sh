#!/usr/bin/env bash
# Irish Gauge 3p, 60,000 samples of PPO against two heuristics, kickstarted from the heuristic's moves (#20).
#   bash benchmarks/training/irish_gauge_60k_kickstart/run.sh [SEED ...]      (default: 8 to 15, the held-out seeds)
# The recipe of irish_gauge_60k_share (score shares credited densely, 256 x 256) with 32 games in flight, a
# cross-entropy to the heuristic's choices at the learner's own decisions (weight 1 falling linearly to 0 at
# 30,000 samples) and the learning rate falling linearly to 0 at the end of the run. Each seed: the run into seedN/ (its trainer's curve: 30 seat-rotated games every 20,000
# samples), then the policy in the arena against two heuristics (30 games, arena seed 12345) and the exact
# binomial test.
set -eu
cd "$(dirname "$0")/../../.."
B=benchmarks/training/irish_gauge_60k_kickstart
for s in ${@:-8 9 10 11 12 13 14 15}; do
  tabletop-zoo train irish_gauge --algo selfplay --players 3 --timesteps 60000 --seed "$s" --torch-threads 1 \
    --num-envs 32 --pool heuristic=1 --reward score_share --dense --hidden 256,256 --ppo kickstart=1 \
    --ppo kickstart_samples=30000 --ppo anneal_lr=true --ppo rollout_samples=2048 --ppo minibatch=256 \
    --ppo epochs=10 --ppo lr=0.001 --ppo gae_lambda=0.8 --eval-games 30 --eval-every 20000 --out "$B/seed$s"
  tabletop-zoo arena irish_gauge --players 3 --agents "policy:path=$B/seed$s/policy.pt;heuristic;heuristic" \
    --games 30 --seed 12345 --workers 1 --out "$B/seed$s/arena"
  python benchmarks/strength_check.py "$B/seed$s/arena/games.jsonl" "policy:path=$B/seed$s/policy.pt"
done
