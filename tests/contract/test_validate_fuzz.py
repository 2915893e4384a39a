"""Crash-proof fuzz of validate (issue #16): mutated real mid-game records never crash, hang or corrupt.

Real mid-game records of every game are mutated (one field set to an extreme value, random bit flips,
all-random bytes; some left clean) and each case runs in a child process (``fuzz_child.py``, many
cases per child): ``set_state`` must reject the record with ValueError, or the game must play on to
its end with no crash, no hang (timeout) and clean invariants. A crash or hang re-runs the batch case
by case to name the record. The slow runs take more records, and one runs under NUMBA_BOUNDSCHECK=1
with a fresh numba cache, where any out-of-bounds index of an accepted record is an IndexError.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from tabletop_zoo import registry

CHILD = pathlib.Path(__file__).with_name("fuzz_child.py")
DEFAULT_CASES = 300
SLOW_CASES = 3000
BOUNDSCHECK_CASES = 600
KINDS = ("field", "bits", "random", "clean")
KIND_WEIGHTS = (0.45, 0.35, 0.05, 0.15)


def base_records(game: str, count: int, seed: int) -> list[np.ndarray]:
    """``count`` records from uniformly random games (every player count), each at a random decision."""
    k = registry.kernel(game)
    rng = np.random.default_rng(seed)
    counts = list(registry.player_counts(game))
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    records = []
    g = 0
    while len(records) < count:
        s = k.new_state(counts[g % len(counts)], seed * 1000 + g)
        trajectory = []
        while not k.is_over(s):
            trajectory.append(s.copy())
            k.legal_mask(s, mask)
            legal = np.flatnonzero(mask)
            k.step(s, int(legal[rng.integers(legal.size)]))
        picks = rng.choice(len(trajectory), size=min(8, len(trajectory)), replace=False)
        records += [trajectory[i] for i in picks]
        g += 1
    return records[:count]


def mutate(record: np.ndarray, kind: str, rng: np.random.Generator) -> bytes:
    """The record's bytes after one mutation of ``kind``."""
    s = record.copy()
    if kind == "field":
        name = s.dtype.names[rng.integers(len(s.dtype.names))]
        field = s[0][name]  # a view for array fields
        base = s.dtype[name].base
        info = np.iinfo(base) if base.kind in "iu" else None
        extremes = [
            0,
            1,
            2,
            -1,
            7,
            100,
            info.min if info else -1e30,
            info.max if info else np.nan,
            int(rng.integers(-5, 60)),
        ]
        value = extremes[rng.integers(len(extremes))]
        if info is not None:
            value = int(np.clip(value, info.min, info.max))
        if np.ndim(field):
            flat = field.reshape(-1)
            flat[rng.integers(flat.size)] = value
        else:
            s[0][name] = value
        return s.tobytes()
    raw = bytearray(s.tobytes())
    if kind == "bits":
        for _ in range(int(rng.integers(1, 9))):
            bit = int(rng.integers(len(raw) * 8))
            raw[bit // 8] ^= 1 << (bit % 8)
    elif kind == "random":
        raw = bytearray(rng.integers(0, 256, len(raw), dtype=np.uint8).tobytes())
    return bytes(raw)


def make_cases(game: str, n_cases: int, seed: int) -> list[dict]:
    rng = np.random.default_rng(seed)
    records = base_records(game, max(10, n_cases // 15), seed)
    cases = []
    for i in range(n_cases):
        record = records[int(rng.integers(len(records)))]
        kind = KINDS[rng.choice(len(KINDS), p=KIND_WEIGHTS)]
        cases.append(
            {
                "i": i,
                "game": game,
                "players": int(record[0]["num_players"]),
                "kind": kind,
                "state": mutate(record, kind, rng).hex(),
                "seed": int(rng.integers(2**32)),
            }
        )
    return cases


def run_child(cases: list[dict], timeout: float, env: dict | None = None) -> tuple[dict[int, dict], str | None]:
    """Results by case index, and what killed the child (None if it finished)."""
    stdin = "".join(json.dumps({k: c[k] for k in ("i", "game", "players", "state", "seed")}) + "\n" for c in cases)
    try:
        proc = subprocess.run(
            [sys.executable, str(CHILD)],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, **(env or {})},
        )
        out, death = proc.stdout, None if proc.returncode == 0 else f"exit code {proc.returncode}: {proc.stderr[-500:]}"
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        death = f"timeout after {timeout} s (a hang)"
    results = {}
    for line in out.splitlines():
        result = json.loads(line)
        results[result["i"]] = result
    return results, death


def find_killer(cases: list[dict], results: dict, death: str, timeout: float, env: dict | None) -> str:
    """Re-run the cases without a result one by one: name the record that crashes or hangs by itself."""
    for case in cases:
        if case["i"] in results:
            continue
        _, alone = run_child([case], timeout, env)
        if alone is not None:
            return f"case {case['i']} ({case['kind']}) kills the child by itself: {alone}; state hex {case['state']}"
    return f"the batch died ({death}) but no case does so alone (heap corruption from an earlier case?)"


def fuzz(game: str, n_cases: int, seed: int, timeout: float, env: dict | None = None) -> dict[str, int]:
    cases = make_cases(game, n_cases, seed)
    results, death = run_child(cases, timeout, env)
    if death is not None:
        pytest.fail(f"{game}: {find_killer(cases, results, death, timeout, env)}")
    errors = [
        f"case {c['i']} ({c['kind']}): {results[c['i']]['detail']}"
        for c in cases
        if results[c["i"]]["result"] == "error"
    ]
    assert not errors, f"{game}: {len(errors)} of {n_cases} records crash the rules:\n" + "\n".join(errors[:10])
    tally = {}
    for c in cases:
        key = f"{c['kind']}-{results[c['i']]['result']}"
        tally[key] = tally.get(key, 0) + 1
    # The fuzz must exercise both outcomes: clean records always play on, random bytes never do.
    assert tally.get("clean-rejected", 0) == 0, f"{game}: validate rejects real records: {tally}"
    assert tally.get("random-ended", 0) == 0, f"{game}: validate accepts all-random bytes: {tally}"
    assert tally.get("field-ended", 0) + tally.get("bits-ended", 0) > 0, f"{game}: no mutated record accepted: {tally}"
    assert tally.get("field-rejected", 0) > 0, f"{game}: no extreme field rejected: {tally}"
    return tally


def test_mutated_records_are_rejected_or_play_to_the_end(game_id):
    fuzz(game_id, DEFAULT_CASES, seed=16, timeout=240)


@pytest.mark.slow
def test_many_mutated_records_are_rejected_or_play_to_the_end(game_id):
    fuzz(game_id, SLOW_CASES, seed=1616, timeout=1800)


@pytest.mark.slow
def test_accepted_records_never_index_out_of_bounds(game_id, tmp_path):
    """NUMBA_BOUNDSCHECK=1 in a fresh numba cache: every kernel checks every index it uses."""
    fuzz(
        game_id,
        BOUNDSCHECK_CASES,
        seed=161616,
        timeout=3600,
        env={"NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path / "numba")},
    )
