#!/usr/bin/env bash
# The learning runs behind benchmarks/TRAINING.md (run from the repository root):
#   nice -n 10 bash benchmarks/training/run_all.sh > benchmarks/training/run_all.log 2>&1 &
set -u
TZ=${TZ_BIN:-tabletop-zoo}
PY=${PY_BIN:-python}
OUT=benchmarks/training
run() {  # game players timesteps
  local game=$1 n=$2 t=$3 dir=$OUT/$1
  local start=$(date +%s)
  $TZ train "$game" --algo selfplay --players "$n" --timesteps "$t" --eval-games 30 --torch-threads 1 \
      --seed 0 --out "$dir/run" > "$dir.train.log" 2>&1
  echo "$game train_wall_s $(( $(date +%s) - start ))"
}
arena() {  # game players lineup games tag
  local game=$1 n=$2 lineup=$3 games=$4 tag=$5 dir=$OUT/$1
  local start=$(date +%s)
  $TZ arena "$game" --players "$n" --agents "$lineup" --games "$games" --seed 12345 --workers 1 \
      --out "$dir/arena_$tag" > "$dir.arena_$tag.log" 2>&1
  $PY benchmarks/strength_check.py "$dir/arena_$tag/games.jsonl" "policy:path=$dir/run/policy.pt" \
      > "$dir/arena_$tag.json"
  echo "$game arena_$tag wall_s $(( $(date +%s) - start )) $(cat $dir/arena_$tag.json)"
}
mkdir -p $OUT
run irish_gauge 3 60000
arena irish_gauge 3 "policy:path=$OUT/irish_gauge/run/policy.pt;heuristic;heuristic" 30 heuristic
arena irish_gauge 3 "policy:path=$OUT/irish_gauge/run/policy.pt;random;random" 30 random
for game in veld_railroads french_revolution_1789 kremlin imperial; do
  run $game 3 8192
  arena $game 3 "policy:path=$OUT/$game/run/policy.pt;random;random" 30 random
done
echo done
