"""The arena: seat rotation, replayable seeds, resume after a kill, ratings, backends, bad input."""

import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
import psutil
import pytest

import tabletop_zoo
from tabletop_zoo import arena
from tabletop_zoo.arena.files import RunLock
from tabletop_zoo.standings import final_standings

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
    summary = arena.run(
        GAME, ["heuristic", "random"], num_players=3, games=4, seed=1, out=tmp_path, workers=1, progress=False
    )
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
        final = final_standings(k, s)
        assert rec["returns"] == final.returns and rec["ranks"] == final.ranks
    for name in ("summary.csv", "summary.json", "head_to_head.csv", "ratings.png", "run.json"):
        assert (tmp_path / name).stat().st_size > 0
    assert not list(tmp_path.glob(".*.tmp")), "atomic writes leave no temporary file behind"


def test_ratings_order_a_rigged_lineup(tmp_path):
    summary = arena.run(
        GAME,
        ["mcts:simulations=150,rollout_depth=10", "random"],
        num_players=3,
        games=9,
        seed=2,
        out=tmp_path,
        workers=2,
        progress=False,
    )
    agents = summary["agents"]
    strong = agents["mcts:rollout_depth=10,simulations=150"]
    assert strong["rating"][0] > agents["random"]["rating"][0]
    assert strong["win_rate"][0] > 0.5 and agents["random"]["rating"] == [0.0, 0.0, 0.0]  # the anchor
    assert summary["head_to_head"]["mcts:rollout_depth=10,simulations=150"]["random"]["share"][0] > 0.5


def test_resume_after_kill_loses_and_repeats_nothing(tmp_path):
    out = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "tabletop_zoo.cli",
        "arena",
        GAME,
        "--agents",
        "heuristic,random",
        "--players",
        "3",
        "--games",
        "40",
        "--seed",
        "5",
        "--out",
        str(out),
        "--workers",
        "1",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    games_file = out / "games.jsonl"
    deadline = time.time() + 120
    while time.time() < deadline and (not games_file.exists() or len(lines(games_file)) < 3):
        time.sleep(0.05)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    finished = len(lines(games_file))
    assert 3 <= finished < 40, "the run should have been killed mid-way"
    arena.run(
        GAME, ["heuristic", "random"], num_players=3, games=40, seed=5, out=out, resume=True, workers=1, progress=False
    )
    games = [json.loads(x)["game"] for x in lines(games_file)]
    assert games == list(range(40))
    fresh = tmp_path / "fresh"
    arena.run(GAME, ["heuristic", "random"], num_players=3, games=40, seed=5, out=fresh, workers=2, progress=False)
    assert lines(games_file) == lines(fresh / "games.jsonl")  # resuming changes nothing in the results


def test_each_game_s_time_is_kept_apart_and_summed_across_resumes(tmp_path):
    """times.jsonl holds one line per game played; the summary's play_seconds sums them over a resumed run,
    and games.jsonl carries no time (so it stays the same file on every backend)."""
    out = tmp_path / "run"
    first = arena.run(GAME, ["heuristic", "random"], num_players=3, games=2, seed=3, out=out, workers=1, progress=False)
    summary = arena.run(
        GAME, ["heuristic", "random"], num_players=3, games=4, seed=3, out=out, resume=True, workers=1, progress=False
    )
    times = [json.loads(x) for x in lines(out / "times.jsonl")]
    assert [t["game"] for t in times] == [0, 1, 2, 3] and all(t["seconds"] > 0 for t in times)
    assert first["play_seconds"] == pytest.approx(sum(t["seconds"] for t in times[:2]))
    assert summary["play_seconds"] == pytest.approx(sum(t["seconds"] for t in times))
    assert all("seconds" not in json.loads(x) for x in lines(out / "games.jsonl"))


def test_local_and_ray_backends_give_identical_results(tmp_path):
    pytest.importorskip("ray")
    kwargs = dict(num_players=3, games=6, seed=11, workers=2, progress=False)
    arena.run(GAME, ["heuristic", "random"], out=tmp_path / "local", backend="local", **kwargs)
    arena.run(GAME, ["heuristic", "random"], out=tmp_path / "ray", backend="ray", **kwargs)
    assert lines(tmp_path / "local" / "games.jsonl") == lines(tmp_path / "ray" / "games.jsonl")


@pytest.fixture(scope="module")
def kept_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("arena") / "kept"
    arena.run(GAME, ["random"], num_players=3, games=2, out=out, workers=1, progress=False)
    return out


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(game_id="chess"), "unknown game"),
        (dict(agents=["genius"]), "unknown agent 'genius'"),
        (dict(agents=["mcts:sims=5"]), r"unknown parameter\(s\) \['sims'\] for agent 'mcts'; allowed: simulations"),
        (dict(agents=["mcts:simulations"]), "must look like key=value"),
        (dict(num_players=6), "3 to 5 players, got 6"),
        (dict(games=0), "games must be an int >= 1"),
        (dict(backend="slurm"), "backend must be"),
        (dict(agents=[]), "line-up is empty"),
        (dict(workers=0), "workers must be an int >= 1"),
        (dict(workers=-2), "workers must be an int >= 1"),
        (dict(agents=["mcts:simulations=x"]), "agent 'mcts:simulations=x': simulations must be an integer >= 1"),
        (dict(agents=["mcts:simulations=1.5"]), "simulations must be an integer >= 1, got 1.5"),
        (dict(agents=["mcts:c=nan"]), "c must be a finite number >= 0"),
        (dict(agents=["random", "mcts:threads=0"]), "threads must be an integer >= 1"),
        (dict(seed=-1), r"seed must be an int in \[0, 2\*\*64\)"),
    ],
)
def test_bad_input_is_refused_and_earlier_results_stay(kept_run, tmp_path, kwargs, message):
    out = tmp_path / "kept"
    shutil.copytree(kept_run, out)
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.suffix != ".png"}
    args = dict(
        game_id=GAME, agents=["random"], num_players=3, games=2, out=out, resume=True, workers=1, progress=False
    )
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


def test_bad_values_are_refused_before_anything_is_written(tmp_path):
    out = tmp_path / "new"
    with pytest.raises(ValueError, match="simulations must be an integer"):
        arena.run(GAME, ["mcts:simulations=x", "random"], num_players=3, games=1, out=out, workers=1, progress=False)
    assert not (out / "run.json").exists()  # so the corrected command is not refused as a "different run"
    arena.run(
        GAME,
        ["mcts:simulations=2,rollout_depth=1", "random"],
        num_players=3,
        games=1,
        out=out,
        workers=1,
        progress=False,
    )


def test_a_second_concurrent_run_is_refused(tmp_path):
    with RunLock(tmp_path):
        with pytest.raises(ValueError, match="in use by another arena run"):
            arena.run(GAME, ["random"], num_players=3, games=1, out=tmp_path, workers=1, progress=False)
    arena.run(GAME, ["random"], num_players=3, games=1, out=tmp_path, workers=1, progress=False)  # lock released


@pytest.mark.parametrize(
    "bad_line, message",
    [
        ("{not json", "line 2: not valid JSON"),
        ("[1, 2]", "line 2: a game record must be a JSON object"),
        ('{"game": 1}', "line 2: the game record lacks seed"),
    ],
)
def test_a_malformed_results_file_is_named_with_its_line(tmp_path, bad_line, message):
    arena.run(GAME, ["random"], num_players=3, games=2, out=tmp_path, workers=1, progress=False)
    path = tmp_path / "games.jsonl"
    first, second = lines(path)
    path.write_text(first + "\n" + bad_line + "\n" + second + "\n")
    with pytest.raises(ValueError, match=f"games.jsonl, {message}"):
        arena.run(GAME, ["random"], num_players=3, games=3, out=tmp_path, resume=True, workers=1, progress=False)


def test_a_results_file_of_another_lineup_is_refused(tmp_path):
    arena.run(GAME, ["heuristic", "random"], num_players=3, games=2, out=tmp_path, workers=1, progress=False)
    path = tmp_path / "games.jsonl"
    recs = [json.loads(x) for x in lines(path)]
    recs[1]["agents"] = ["random"] * 3  # the rotation seats random, heuristic, random in game 1
    path.write_text("".join(json.dumps(r) + "\n" for r in recs))
    with pytest.raises(ValueError, match="line 2: game 1 seats"):
        arena.run(
            GAME, ["heuristic", "random"], num_players=3, games=3, out=tmp_path, resume=True, workers=1, progress=False
        )


def _descendants_gone(cmd, out, timeout=900):
    """Start the arena, wait for its first recorded game, SIGKILL it: the processes it started that are
    still alive 30 s later (none, when the watchdog works). The arena is killed whatever happens."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        games_file = out / "games.jsonl"
        deadline = time.time() + timeout  # the first game waits for numba to compile: minutes on a cold cache
        while time.time() < deadline and proc.poll() is None and (not games_file.exists() or not lines(games_file)):
            time.sleep(0.1)
        assert proc.poll() is None, f"the arena ended (exit code {proc.returncode}) before it could be killed"
        assert games_file.exists() and lines(games_file), f"no game recorded in {timeout} s"
        children = psutil.Process(proc.pid).children(recursive=True)
        assert children, "the arena should be running workers"
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    _, alive = psutil.wait_procs(children, timeout=30)
    return [" ".join(p.cmdline()[:4]) for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


def test_killed_local_arena_leaves_no_live_child_process(tmp_path):
    out = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "tabletop_zoo.cli",
        "arena",
        GAME,
        "--agents",
        "heuristic,random",
        "--players",
        "3",
        "--games",
        "400",
        "--out",
        str(out),
        "--workers",
        "2",
    ]
    assert _descendants_gone(cmd, out) == []


@pytest.mark.slow
def test_killed_ray_arena_leaves_no_live_child_process(tmp_path):
    pytest.importorskip("ray")
    out = tmp_path / "run"
    cmd = [
        sys.executable,
        "-m",
        "tabletop_zoo.cli",
        "arena",
        GAME,
        "--agents",
        "heuristic,random",
        "--players",
        "3",
        "--games",
        "400",
        "--out",
        str(out),
        "--workers",
        "2",
        "--backend",
        "ray",
    ]
    assert _descendants_gone(cmd, out) == []


def test_the_report_keeps_the_callers_matplotlib_backend(tmp_path):
    import matplotlib

    before = matplotlib.get_backend()
    matplotlib.use("svg")
    try:
        arena.run(GAME, ["heuristic", "random"], num_players=3, games=2, out=tmp_path, workers=1, progress=False)
        assert matplotlib.get_backend() == "svg"
    finally:
        matplotlib.use(before)
    assert (tmp_path / "ratings.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
