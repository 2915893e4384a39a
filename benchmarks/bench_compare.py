"""``tabletop-zoo bench`` of this checkout against an earlier git revision, in one run, as ratios (#17).

    python benchmarks/bench_compare.py --base b625541 [--new REV] [--rounds 2] [--seconds 0.3] [--repeats 3] \
        [--games ...] [--out benchmarks/bench_compare.json]

For each game, ``tabletop-zoo bench GAME --json`` runs alternately from a copy of ``--base`` (``git archive``,
laid out as ``mcts_speed.base_tree`` does) and from this checkout (or ``--new``), ``--rounds`` times each, so
machine load falls on both alike. Per game and player count it reports the median over rounds of each
figure and the ratio new/base, oriented so that above 1 is better: kernel decisions/s (one thread), AEC
steps/s, observe calls/s, clone (get+set state) calls/s, MCTS simulations/s (one thread).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from mcts_speed import base_tree

GAMES = ["imperial", "irish_gauge", "kremlin", "veld_railroads", "french_revolution_1789"]
RUN = "import sys; from tabletop_zoo.cli import app; sys.argv = ['tabletop-zoo', *sys.argv[1:]]; app()"
# (label, path into one player count's results, True when larger is better)
FIGURES = [
    ("kernel decisions/s", ("kernel_1t", "decisions_per_s"), True),
    ("AEC steps/s", ("aec", "steps_per_s"), True),
    ("observe calls/s", ("observe", "us_per_call"), False),
    ("clone calls/s", ("clone", "env_get_set_state_us"), False),
    ("MCTS sims/s", ("mcts_1t", "sims_per_s"), True),
]


def bench(pythonpath: str | None, game: str, seconds: float, repeats: int) -> dict:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    cmd = [sys.executable, "-c", RUN, "bench", game, "--json", "--seconds", str(seconds), "--repeats", str(repeats)]
    out = subprocess.run(cmd, env=env, cwd=tempfile.gettempdir(), check=True, capture_output=True, text=True).stdout
    return json.loads(out[out.index("{") :])["games"][game]


def figure(result: dict, path: tuple[str, str], larger_is_better: bool) -> float | None:
    value = result.get(path[0], {}).get(path[1])
    if isinstance(value, dict):  # a median with its spread
        value = value.get("median")
    if value is None:
        return None
    return float(value) if larger_is_better else 1e6 / float(value)  # microseconds -> calls/s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", required=True)
    ap.add_argument("--new", help="git revision to measure (default: this checkout as it is)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=0.3)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--games", nargs="+", default=GAMES)
    ap.add_argument("--out", type=Path)
    a = ap.parse_args()
    report = {"base": a.base, "new": a.new or "checkout", "load_before": os.getloadavg(), "games": {}}
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "base").mkdir()
        trees = {"base": str(base_tree(a.base, Path(tmp) / "base")), "new": None}
        if a.new:
            (Path(tmp) / "new").mkdir()
            trees["new"] = str(base_tree(a.new, Path(tmp) / "new"))
        print("| game | players | figure | base | new | new/base |\n|---|---|---|---:|---:|---:|", flush=True)
        for game in a.games:
            runs = {"base": [], "new": []}
            for r in range(a.rounds):
                for name in ("base", "new") if r % 2 == 0 else ("new", "base"):
                    runs[name].append(bench(trees[name], game, a.seconds, a.repeats))
            rows = report["games"][game] = {}
            for count in runs["new"][0]:
                for label, path, larger in FIGURES:
                    got = {n: [figure(run[count], path, larger) for run in runs[n]] for n in runs}
                    if any(v is None for vs in got.values() for v in vs):
                        continue
                    b, n = statistics.median(got["base"]), statistics.median(got["new"])
                    rows.setdefault(count, {})[label] = {"base": b, "new": n, "ratio": n / b}
                    print(f"| {game} | {count} | {label} | {b:,.0f} | {n:,.0f} | {n / b:.3f} |", flush=True)
    report["load_after"] = os.getloadavg()
    if a.out:
        a.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
