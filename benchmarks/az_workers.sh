#!/bin/bash
# az self-play samples/s with one local worker, two Ray workers and two local workers (benchmarks/AZ.md).
#     benchmarks/az_workers.sh OUTDIR [REPEATS]
# Irish Gauge, 3 players, 32 games, 32 simulations, 16,384 samples; each run prints the load average before and
# after, the time from command to exit, the trainer's clock and the steady rate (log.csv rows from the first
# training round past 4,096 samples to the last).
set -e
out=${1:?usage: benchmarks/az_workers.sh OUTDIR [REPEATS]}
C="irish_gauge --algo az --players 3 --timesteps 16384 --num-envs 32 --simulations 32 --eval-games 0 --seed 0 --torch-threads 1"
for rep in $(seq 1 "${2:-2}"); do
  for cfg in local1 ray2 local2; do
    case $cfg in
      local1) extra="";;
      ray2) extra="--backend ray --workers 2";;
      local2) extra="--workers 2";;
    esac
    run="$out/$cfg-$rep"
    rm -rf "$run"
    echo "== $cfg, run $rep: $extra"
    echo "before: $(uptime)"
    /usr/bin/time -f "command to exit %e s" tabletop-zoo train $C $extra --out "$run" 2>&1 | grep -E "samples,|command to exit"
    echo "after: $(uptime)"
    python - "$run" <<'PY'
import csv, sys, torch
run = sys.argv[1]
rows = list(csv.DictReader(open(f"{run}/log.csv")))
meta = torch.load(f"{run}/az.pt", weights_only=False)["meta"]
a = next(r for r in rows if int(r["samples"]) >= 4096)
b = rows[-1]
steady = (int(b["samples"]) - int(a["samples"])) / (float(b["wall_s"]) - float(a["wall_s"]))
print(f"samples {meta['samples']}, games {meta['games']}, trainer clock {meta['wall_s']} s: "
      f"{meta['samples'] / meta['wall_s']:.0f} samples/s; steady ({a['samples']} to {b['samples']}): {steady:.0f} samples/s")
PY
  done
done
