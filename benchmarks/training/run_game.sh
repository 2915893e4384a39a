#!/usr/bin/env bash
# One short learning run and its seat-rotated strength check against random players (from the repo root):
#   nice -n 10 bash benchmarks/training/run_game.sh GAME PLAYERS SAMPLES
set -u
TZ=${TZ_BIN:-tabletop-zoo}
PY=${PY_BIN:-python}
game=$1 n=$2 t=$3
dir=benchmarks/training/$game
mkdir -p "$dir"
start=$(date +%s)
$TZ train "$game" --algo selfplay --players "$n" --timesteps "$t" --eval-games 20 --eval-every "$t" \
    --torch-threads 1 --seed 0 --out "$dir/run" > "$dir.train.log" 2>&1
echo "$game train_wall_s $(( $(date +%s) - start ))"
lineup="policy:path=$dir/run/policy.pt"
for _ in $(seq 2 "$n"); do lineup="$lineup;random"; done
start=$(date +%s)
$TZ arena "$game" --players "$n" --agents "$lineup" --games 30 --seed 12345 --workers 1 \
    --out "$dir/arena_random" > "$dir.arena_random.log" 2>&1
$PY benchmarks/strength_check.py "$dir/arena_random/games.jsonl" "policy:path=$dir/run/policy.pt" > "$dir/arena_random.json"
echo "$game arena_random wall_s $(( $(date +%s) - start )) $(cat "$dir/arena_random.json")"
