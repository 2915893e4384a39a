#!/usr/bin/env bash
# #48: `train selfplay` with NO tuning flags (its defaults are the kickstart recipe), Irish Gauge, 3 players, 60,000
# samples; then 30 seat-rotated arena games against two heuristics and the exact one-sided binomial test.
#   bash benchmarks/training/irish_gauge_60k_defaults/run.sh [SEED ...]   (default: 7301; arena seed 7302)
# Seeds 7301 (training) and 7302 (arena) were used for nothing else.
set -eu
cd "$(dirname "$0")/../../.."
B=benchmarks/training/irish_gauge_60k_defaults
for s in ${@:-7301}; do
  tabletop-zoo train selfplay irish_gauge --players 3 --timesteps 60000 --seed "$s" --torch-threads 1 --out "$B/seed$s"
  tabletop-zoo arena irish_gauge --players 3 --agents "policy:path=$B/seed$s/policy.pt;heuristic;heuristic" \
    --games 30 --seed 7302 --workers 1 --out "$B/seed$s/arena"
  python benchmarks/strength_check.py "$B/seed$s/arena/games.jsonl" "policy:path=$B/seed$s/policy.pt"
done
