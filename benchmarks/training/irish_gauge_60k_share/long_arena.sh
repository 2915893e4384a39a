#!/usr/bin/env bash
# long.sh's final policies in the arena against two heuristics (30 seat-rotated games, arena seed 12345).
#   bash benchmarks/training/irish_gauge_60k_share/long_arena.sh [SEED ...]      (default: 0 1 2 3)
set -eu
cd "$(dirname "$0")/../../.."
B=benchmarks/training/irish_gauge_60k_share
for s in ${@:-0 1 2 3}; do
  tabletop-zoo arena irish_gauge --players 3 --agents "policy:path=$B/long_seed$s/policy.pt;heuristic;heuristic" \
    --games 30 --seed 12345 --workers 1 --out "$B/long_seed$s/arena"
  python benchmarks/strength_check.py "$B/long_seed$s/arena/games.jsonl" "policy:path=$B/long_seed$s/policy.pt"
done
