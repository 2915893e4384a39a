"""Child process of the validate fuzz (test_validate_fuzz.py): plays mutated records, one result line each.

Reads JSON lines ``{"game", "players", "state": hex, "seed"}`` on stdin; for each, ``env.set_state``
either rejects the record (``ValueError``: result "rejected") or the game is played on to its end with
random legal actions through the raw kernels (observe for the mover and the full view, chance
outcomes, determinize in hidden-information games, action names), then the final record must pass
``check_invariants`` and ``validate`` (result "ended"). Anything else is "error" with the reason. A
crash (SIGSEGV) or a hang kills the process: the parent sees which case it was from the lines written
so far. Run under ``NUMBA_BOUNDSCHECK=1`` an out-of-bounds index is an IndexError, i.e. an "error".
"""

from __future__ import annotations

import json
import sys
import traceback

import numpy as np


def play_case(case: dict) -> dict:
    from tabletop_zoo import registry

    k = registry.kernel(case["game"])
    env = registry.make_env(case["game"], num_players=case["players"])
    try:
        env.set_state(bytes.fromhex(case["state"]))
    except ValueError as e:
        return {"result": "rejected", "detail": str(e)[:300]}
    s = env.get_state()
    rng = np.random.default_rng(case["seed"])
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    obs = np.zeros(k.OBS_SIZE, np.float32)
    out = np.zeros(k.MAX_PLAYERS, np.float64)
    explicit = k.CHANCE_MODE != "deterministic"
    ids = np.zeros(max(k.NUM_CHANCE_OUTCOMES, 1), np.int64)
    probs = np.zeros(max(k.NUM_CHANCE_OUTCOMES, 1), np.float64)
    if k.INFORMATION == "imperfect":
        for seat in range(case["players"]):
            twin = s.copy()
            k.determinize(twin, seat, np.uint64(case["seed"]))
    k.evaluate(s, out)
    for decision in range(k.MAX_GAME_LENGTH + 1):
        if k.is_over(s):
            break
        if explicit and k.is_chance(s):
            k.chance_outcomes(s, ids, probs)
            k.step_chance(s, k.sample_chance(s))
            continue
        seat = int(k.to_move(s))
        k.observe(s, seat, obs)
        k.observe(s, -1, obs)
        k.legal_mask(s, mask)
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            return {"result": "error", "detail": f"seat {seat} to move with no legal action after {decision} decisions"}
        action = int(legal[rng.integers(len(legal))])
        if decision < 10:
            k.action_name(s, action)
        k.step(s, action)
    else:
        return {"result": "error", "detail": f"no end after {k.MAX_GAME_LENGTH + 1} decisions (MAX_GAME_LENGTH)"}
    k.returns(s, out)
    k.scores(s, np.zeros(k.MAX_PLAYERS, np.int64))
    problems = list(k.check_invariants(s)) + list(k.validate(s))
    if problems:
        return {"result": "error", "detail": f"final record broken: {problems[:3]}"}
    return {"result": "ended", "detail": f"{decision} decisions"}


def main() -> None:
    for line in sys.stdin:
        case = json.loads(line)
        try:
            result = play_case(case)
        except Exception as e:  # noqa: BLE001 - every exception is a finding, reported with its case
            result = {
                "result": "error",
                "detail": f"{type(e).__name__}: {e} | " + " / ".join(traceback.format_exc().strip().splitlines()[-3:]),
            }
        result["i"] = case["i"]
        print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
