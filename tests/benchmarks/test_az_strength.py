"""``benchmarks/az_strength.py``: a strength run's games depend only on their index, so ``--workers`` plays the
same games (wins and moves) as one process; the report names its command, seed and workers."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).parents[2] / "benchmarks" / "az_strength.py"


def _run(tmp_path, workers: int) -> dict:
    out = tmp_path / f"w{workers}.json"
    cmd = [sys.executable, str(SCRIPT), "irish_gauge", "heuristic;random;random", "--games", "5", "--seed", "7"]
    subprocess.run([*cmd, "--players", "3", "--workers", str(workers), "--out", str(out)], check=True, timeout=600)
    return json.loads(out.read_text())


def test_workers_play_the_same_games(tmp_path):
    one, two = _run(tmp_path, 1), _run(tmp_path, 2)
    assert (one["wins"], one["moves"], one["candidate_seats"]) == (two["wins"], two["moves"], two["candidate_seats"])
    assert one["candidate_seats"] == 5 and sum(one["moves"].values()) > 0
    assert (one["workers"], two["workers"], two["seed"]) == (1, 2, 7) and "--workers 2" in two["command"]


def test_workers_must_be_positive(tmp_path):
    r = subprocess.run(
        [sys.executable, str(SCRIPT), "irish_gauge", "heuristic;random", "--workers", "0"],
        capture_output=True,
        text=True,
    )
    assert r.returncode != 0 and "--workers must be an integer >= 1, got 0" in r.stderr
