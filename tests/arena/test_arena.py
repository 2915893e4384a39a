"""The arena: seat rotation, replayable seeds, resume after a kill, ratings, backends, bad input."""

import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo import arena

GAME = "irish_gauge"


def lines(path):
    return pathlib.Path(path).read_text().splitlines()


def test_seat_rotation_is_balanced():
    for lineup, n in ((["a", "b", "c"], 3), (["a", "b", "c"], 4), (["a", "b", "c", "d", "e"], 3), (["a"], 5)):
        counts = np.zeros((len(lineup), n), int)
        for g in range(len(lineup) * 4):
            for seat, j in enumerate(arena.seating(lineup, n, g)):
                counts[j, seat] += 1
        assert (counts == counts[0, 0]).all(), (lineup, n, counts)


def test_game_seeds_are_fixed_by_run_seed_and_index():
    assert arena.game_seed(3, 7) == arena.game_seed(3, 7)
    assert len({arena.game_seed(3, g) for g in range(50)}) == 50
    assert arena.game_seed(3, 7) != arena.game_seed(4, 7)


def test_run_records_replay_exactly(tmp_path):
    summary = arena.run(GAME, ["heuristic", "random"], num_players=3, games=4, seed=1, out=tmp_path,
                        workers=1, progress=False)
    assert summary["games"] == 4
    k = tabletop_zoo.kernel(GAME)
    for rec in map(json.loads, lines(tmp_path / "games.jsonl")):
        s = k.new_state(3, rec["seed"])
        for a in rec["actions"]:
            k.step(s, a)
        scores = np.zeros(k.MAX_PLAYERS, np.int64)
        k.scores(s, scores)
        assert k.is_over(s) and scores[:3].tolist() == rec["scores"]
        assert rec["agents"] == [["heuristic", "random"][j] for j in arena.seating([0, 1], 3, rec["game"])]
    for name in ("summary.csv", "summary.json", "ratings.png", "run.json"):
        assert (tmp_path / name).stat().st_size > 0


def test_ratings_order_a_rigged_lineup(tmp_path):
    summary = arena.run(GAME, ["mcts:simulations=150,rollout_depth=10", "random"], num_players=3, games=9,
                        seed=2, out=tmp_path, workers=2, progress=False)
    agents = summary["agents"]
    strong = agents["mcts:rollout_depth=10,simulations=150"]
    assert strong["rating_mu"] > agents["random"]["rating_mu"]
    assert strong["win_rate"][0] > 0.5 and agents["random"]["rating_mu"] == pytest.approx(25.0)  # the anchor


def test_resume_after_kill_loses_and_repeats_nothing(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "tabletop_zoo.cli", "arena", GAME, "--agents", "heuristic,random", "--players", "3",
           "--games", "40", "--seed", "5", "--out", str(out), "--workers", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    games_file = out / "games.jsonl"
    deadline = time.time() + 120
    while time.time() < deadline and (not games_file.exists() or len(lines(games_file)) < 3):
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = len(lines(games_file))
    assert 3 <= finished < 40, "the run should have been killed mid-way"
    arena.run(GAME, ["heuristic", "random"], num_players=3, games=40, seed=5, out=out, resume=True, workers=1,
              progress=False)
    games = [json.loads(x)["game"] for x in lines(games_file)]
    assert games == list(range(40))
    fresh = tmp_path / "fresh"
    arena.run(GAME, ["heuristic", "random"], num_players=3, games=40, seed=5, out=fresh, workers=2, progress=False)
    assert lines(games_file) == lines(fresh / "games.jsonl")  # resuming changes nothing in the results


def test_local_and_ray_backends_give_identical_results(tmp_path):
    pytest.importorskip("ray")
    kwargs = dict(num_players=3, games=6, seed=11, workers=2, progress=False)
    arena.run(GAME, ["heuristic", "random"], out=tmp_path / "local", backend="local", **kwargs)
    arena.run(GAME, ["heuristic", "random"], out=tmp_path / "ray", backend="ray", **kwargs)
    assert lines(tmp_path / "local" / "games.jsonl") == lines(tmp_path / "ray" / "games.jsonl")


@pytest.mark.parametrize("kwargs, message", [
    (dict(game_id="chess"), "unknown game"),
    (dict(agents=["genius"]), "unknown agent 'genius'"),
    (dict(agents=["mcts:sims=5"]), r"unknown parameter\(s\) \['sims'\] for agent 'mcts'; allowed: simulations"),
    (dict(agents=["mcts:simulations"]), "must look like key=value"),
    (dict(num_players=6), "3 to 5 players, got 6"),
    (dict(games=0), "games must be an int >= 1"),
    (dict(backend="slurm"), "backend must be"),
    (dict(agents=[]), "line-up is empty"),
])
def test_bad_input_is_refused_and_earlier_results_stay(tmp_path, kwargs, message):
    out = tmp_path / "kept"
    arena.run(GAME, ["random"], num_players=3, games=2, out=out, workers=1, progress=False)
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.suffix != ".png"}
    args = dict(game_id=GAME, agents=["random"], num_players=3, games=2, out=out, resume=True, workers=1,
                progress=False)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        arena.run(**args)
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.suffix != ".png"} == before


def test_unwritable_out_dir(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    with pytest.raises(ValueError, match="cannot write results"):
        arena.run(GAME, ["random"], num_players=3, games=1, out=blocker / "sub", workers=1, progress=False)


def test_a_second_run_into_the_same_folder_needs_resume(tmp_path):
    arena.run(GAME, ["random"], num_players=3, games=1, out=tmp_path, workers=1, progress=False)
    with pytest.raises(ValueError, match="--resume"):
        arena.run(GAME, ["random"], num_players=3, games=1, out=tmp_path, workers=1, progress=False)
    with pytest.raises(ValueError, match="same game, players, agents"):
        arena.run(GAME, ["heuristic"], num_players=3, games=1, out=tmp_path, resume=True, workers=1, progress=False)
