#!/usr/bin/env bash
# Irish Gauge 3p, 60,000 samples: does score_margin (and heuristic seats) beat two heuristics? (#20)
set -u
cd "$(dirname "$0")/../../.."
run() { name=$1; shift; mkdir -p benchmarks/training/irish_gauge_60k_margin/runs
  tabletop-zoo train irish_gauge --algo selfplay --players 3 --timesteps 60000 --eval-games 30 --eval-every 20000 \
    --torch-threads 1 --seed 0 --out benchmarks/training/irish_gauge_60k_margin/runs/$name "$@" > benchmarks/training/irish_gauge_60k_margin/runs/$name.log 2>&1
  echo "$name done"; tail -n 4 benchmarks/training/irish_gauge_60k_margin/runs/$name/curve.csv
}
run margin --reward score_margin
run margin_pool --reward score_margin --pool self=0.3,snapshot=0.1,heuristic=0.5,random=0.1
run margin_heur --reward score_margin --pool heuristic=1
