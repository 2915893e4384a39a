"""Long imitation runs (#48, tabletop_zoo/training/imitate.py): saved in chunks and epochs, a killed run resumes to
the network an uninterrupted run makes, bit for bit; games at every player count, which the observation tells
the network (no input of its own is needed)."""

import json
import shutil

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tabletop_zoo  # noqa: E402
from tabletop_zoo.training import imitate  # noqa: E402
from tabletop_zoo.training.imitate import collect, train_imitate  # noqa: E402

GAMES = ("imperial", "kremlin", "french_revolution_1789", "irish_gauge", "veld_railroads")
# an az teacher (the shipped network): building its network draws from torch's generator, which a resumed run
# that reads its chunks back does not do
TINY = dict(
    timesteps=240, teacher="az:simulations=4", epochs=3, hidden=(16,), minibatch=64, seed=3, torch_threads=1, chunk=80
)


def weights(path) -> dict:
    return torch.load(path, weights_only=True)["state_dict"]


def same_weights(a, b) -> bool:
    wa, wb = weights(a), weights(b)
    return wa.keys() == wb.keys() and all(torch.equal(wa[key], wb[key]) for key in wa)


class Killed(Exception):
    """Stands for kill -9: the run stops where it is (every file it keeps is written whole or not at all)."""


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole")
    return out, train_imitate("irish_gauge", [3, 4], out=out, **TINY)


def test_a_run_killed_while_collecting_resumes_to_the_same_network(uninterrupted, tmp_path, monkeypatch):
    whole, result = uninterrupted
    real, calls = imitate.collect, []

    def dies_in_the_second_chunk(*args, **kwargs):
        calls.append(args)
        if len(calls) == 2:
            raise Killed
        return real(*args, **kwargs)

    monkeypatch.setattr(imitate, "collect", dies_in_the_second_chunk)
    with pytest.raises(Killed):
        train_imitate("irish_gauge", [3, 4], out=tmp_path, **TINY)
    assert sorted(p.name for p in (tmp_path / "chunks").iterdir()) == ["0000.npz"]  # only the whole chunk is kept
    monkeypatch.setattr(imitate, "collect", real)
    resumed = train_imitate("irish_gauge", [3, 4], out=tmp_path, resume=True, **TINY)
    assert same_weights(tmp_path / "az.pt", whole / "az.pt")
    assert resumed["log"] == result["log"] and resumed["meta"]["samples"] == result["meta"]["samples"]


def test_a_run_killed_while_fitting_resumes_from_its_last_epoch(uninterrupted, tmp_path, monkeypatch):
    whole, result = uninterrupted
    meta = json.loads((whole / "log.json").read_text())["meta"]
    steps_per_epoch = -(-(meta["samples"] - meta["held_out_samples"]) // 64)  # the held-out games are not fitted
    real, steps = torch.optim.Adam.step, []

    def dies_in_the_second_epoch(self, *args, **kwargs):
        steps.append(1)
        if len(steps) > steps_per_epoch:  # the second epoch's first step
            raise Killed
        return real(self, *args, **kwargs)

    monkeypatch.setattr(torch.optim.Adam, "step", dies_in_the_second_epoch)
    with pytest.raises(Killed):
        train_imitate("irish_gauge", [3, 4], out=tmp_path, **TINY)
    monkeypatch.setattr(torch.optim.Adam, "step", real)
    saved = torch.load(tmp_path / "fit.pt", weights_only=True)
    assert len(saved["log"]) == 1 and not (tmp_path / "az.pt").exists()
    resumed = train_imitate("irish_gauge", [3, 4], out=tmp_path, resume=True, **TINY)
    assert same_weights(tmp_path / "az.pt", whole / "az.pt") and resumed["log"] == result["log"]


def test_resuming_a_finished_run_returns_it_and_plays_nothing(uninterrupted, monkeypatch):
    whole, result = uninterrupted
    monkeypatch.setattr(imitate, "collect", lambda *a, **k: pytest.fail("a finished run collected again"))
    again = train_imitate("irish_gauge", [3, 4], out=whole, resume=True, **TINY)
    assert again["log"] == result["log"] and again["meta"] == result["meta"]


def test_a_run_killed_after_saving_its_network_finishes_on_resume(uninterrupted, tmp_path):
    """log.json is written last: a folder without it is an unfinished run, even with az.pt saved."""
    whole, result = uninterrupted
    shutil.copytree(whole, tmp_path, dirs_exist_ok=True)
    (tmp_path / "log.json").unlink()
    resumed = train_imitate("irish_gauge", [3, 4], out=tmp_path, resume=True, **TINY)
    assert same_weights(tmp_path / "az.pt", whole / "az.pt") and resumed["log"] == result["log"]
    assert (tmp_path / "log.json").exists()


def test_a_resume_with_other_settings_or_without_chunks_is_refused(uninterrupted, tmp_path):
    whole, _ = uninterrupted
    with pytest.raises(ValueError, match=r"other settings: seed=3 \(now 4\)"):
        train_imitate("irish_gauge", [3, 4], out=whole, resume=True, **{**TINY, "seed": 4})
    with pytest.raises(ValueError, match="already holds a run"):
        train_imitate("irish_gauge", [3, 4], out=whole, **TINY)
    with pytest.raises(ValueError, match="resume continues a run saved in chunks"):
        train_imitate("irish_gauge", 3, out=tmp_path, resume=True, **{**TINY, "chunk": None})
    with pytest.raises(ValueError, match="players must be a count, several counts or 'all'"):
        train_imitate("irish_gauge", "four", out=tmp_path, **TINY)
    with pytest.raises(ValueError, match="players"):
        train_imitate("irish_gauge", [3, 9], out=tmp_path, **TINY)
    assert not any(tmp_path.iterdir())  # refused before the folder was touched


def test_overwrite_starts_the_chunks_again(uninterrupted, tmp_path):
    whole, _ = uninterrupted
    train_imitate("irish_gauge", [3, 4], out=tmp_path, **TINY)
    train_imitate("irish_gauge", [3, 4], out=tmp_path, overwrite=True, **{**TINY, "seed": 4})
    assert json.loads((tmp_path / "config.json").read_text())["seed"] == 4
    assert not same_weights(tmp_path / "az.pt", whole / "az.pt")  # seed 4's games, not seed 3's chunks again


def test_games_at_every_player_count_have_padded_seat_relative_values():
    data = collect("irish_gauge", (3, 4, 5), 1200, explore=0.1, seed=1)
    assert set(data["players"].tolist()) == {3, 4, 5} and data["value"].shape[1] == 5
    for n in (3, 4, 5):
        rows = data["players"] == n
        assert (data["value"][rows, n:] == 0).all()  # no seat beyond the table's count: no value target
        assert np.allclose(data["value"][rows, :n].sum(1), 1.0)  # Irish Gauge's win shares, over the seats present


@pytest.mark.parametrize("game", GAMES)
def test_the_observation_tells_the_player_count(game):
    """The count needs no input of its own: every observation marks the seats at the table."""
    k = tabletop_zoo.kernel(game)
    piece = {p.name: p for p in k.OBS_PIECES}["seat_present"]
    out = np.zeros(k.OBS_SIZE, np.float32)
    for n in range(k.MIN_PLAYERS, k.MAX_PLAYERS + 1):
        s = k.new_state(n, 7)
        k.observe(s, int(k.to_move(s)) if k.to_move(s) >= 0 else 0, out)
        assert out[piece.offset : piece.offset + k.MAX_PLAYERS].tolist() == [1.0] * n + [0.0] * (k.MAX_PLAYERS - n)


def test_all_means_every_supported_count():
    k = tabletop_zoo.kernel("imperial")
    assert imitate.player_counts(k, "all") == (2, 3, 4, 5, 6)
    assert imitate.player_counts(k, [4, 2, 4]) == (2, 4) and imitate.player_counts(k, None) == (4,)


# --- workers: chunks collected side by side, the same run as one process -----------------------------------------
# The heuristic plays Irish Gauge fast and a game gives 130-180 samples, so chunks of 64 hold one game each and the
# tail of 680 samples is smaller than a chunk: a chunk collected ahead at full size where the run wants its tail is
# dropped and collected again.
PARALLEL = dict(timesteps=680, teacher="heuristic", epochs=2, hidden=(16,), minibatch=64, seed=5, torch_threads=1)
PARALLEL["chunk"] = 64


def chunk_files(folder) -> dict:
    """Each saved chunk's arrays but its seconds (the only figure that differs between runs)."""
    files = {}
    for path in sorted((folder / "chunks").glob("*.npz")):
        with np.load(path) as saved:
            files[path.name] = {key: saved[key] for key in saved.files if key != "seconds"}
    return files


def same_chunks(a, b) -> bool:
    fa, fb = chunk_files(a), chunk_files(b)
    return fa.keys() == fb.keys() and all(
        fa[n].keys() == fb[n].keys() and all(np.array_equal(fa[n][k], fb[n][k]) for k in fa[n]) for n in fa
    )


def without_seconds(meta: dict) -> dict:
    return {key: value for key, value in meta.items() if not key.endswith("_s")}


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory):
    out = tmp_path_factory.mktemp("one_worker")
    return out, train_imitate("irish_gauge", [3, 4], out=out, **PARALLEL)


def test_two_workers_make_the_same_chunks_and_network_as_one(one_worker, tmp_path, caplog):
    whole, result = one_worker
    with caplog.at_level("INFO", logger="tabletop_zoo.training.imitate"):
        two = train_imitate("irish_gauge", [3, 4], out=tmp_path, workers=2, **PARALLEL)
    assert len(chunk_files(whole)) >= 4 and same_chunks(tmp_path, whole)
    assert same_weights(tmp_path / "az.pt", whole / "az.pt") and two["log"] == result["log"]
    assert without_seconds(two["meta"]) == without_seconds(result["meta"])
    assert "with 2 workers" in caplog.text
    assert not list((tmp_path / "chunks").glob(".*"))  # no temporary file left behind


def test_a_killed_parallel_run_resumes_with_another_number_of_workers(one_worker, tmp_path):
    """A kill leaves whole chunks, possibly one collected ahead at full size where the run wants its tail, and one
    beyond the run's end: a resume with any number of workers ignores both, collects the tail again and keeps no
    extra file."""
    whole, result = one_worker
    names = sorted(chunk_files(whole))
    tail = len(names) - 1
    (tmp_path / "chunks").mkdir()
    for name in names[:-2]:
        shutil.copy(whole / "chunks" / name, tmp_path / "chunks" / name)
    counts, seed, chunk = [3, 4], PARALLEL["seed"], PARALLEL["chunk"]
    ahead = imitate.collect_chunk("irish_gauge", counts, chunk, 0.1, seed, tail, "heuristic")
    beyond = imitate.collect_chunk("irish_gauge", counts, chunk, 0.1, seed, tail + 1, "heuristic")
    with np.load(whole / "chunks" / names[-1]) as saved:
        assert int(saved["target"]) < chunk  # the run's tail: the chunk saved ahead does not fit it
    for index, part in ((tail, ahead), (tail + 1, beyond)):
        np.savez_compressed(tmp_path / "chunks" / f"{index:04d}.npz", **part)
    for workers in (3, 1):  # the folder as the kill left it, resumed with more workers, then with one
        folder = tmp_path / f"resumed{workers}"
        shutil.copytree(tmp_path / "chunks", folder / "chunks")
        shutil.copy(whole / "config.json", folder / "config.json")
        resumed = train_imitate("irish_gauge", counts, out=folder, resume=True, workers=workers, **PARALLEL)
        assert same_chunks(folder, whole) and same_weights(folder / "az.pt", whole / "az.pt")
        assert resumed["log"] == result["log"]
        assert without_seconds(resumed["meta"]) == without_seconds(result["meta"])


def test_chunks_ahead_are_collected_only_where_they_can_be_full_chunks_of_the_run(tmp_path):
    run = imitate.Chunks(tmp_path, samples=250, chunk=100)
    assert run.wanted(set(), workers=4) == [(0, 100), (1, 100)]  # chunk 2 comes after >= 200 samples: a tail
    assert run.wanted({(0, 100)}, workers=2) == [(1, 100)]
    run.total, run.index = 230, 2  # chunks 0 and 1 joined: the tail wants 20, nothing after it
    assert run.wanted({(2, 100)}, workers=4) == [(2, 20)]
    assert not run.keep(2, 100) and run.keep(2, 20) and not run.keep(1, 100) and not run.keep(3, 100)
    np.savez(tmp_path / "0003.npz", target=np.array(100))
    big = imitate.Chunks(tmp_path, samples=1000, chunk=100)
    big.index, big.total = 2, 230
    assert big.wanted(set(), workers=3) == [(2, 100), (4, 100), (5, 100)]  # 0003 is saved already
    assert big.keep(3, 100) and not big.keep(3, 50)


@pytest.mark.parametrize(
    "workers,message",
    [
        (0, r"workers \(processes collecting chunks\) must be an integer >= 1, got 0"),
        (True, r"workers \(processes collecting chunks\) must be an integer >= 1, got True"),
        (1.5, r"must be an integer >= 1, got 1.5"),
        ("2", r"must be an integer >= 1, got '2'"),
    ],
)
def test_bad_workers_are_refused_before_the_folder_is_touched(tmp_path, workers, message):
    with pytest.raises(ValueError, match=message):
        train_imitate("irish_gauge", 3, out=tmp_path / "run", workers=workers, **PARALLEL)
    assert not (tmp_path / "run").exists()


def test_workers_need_a_chunked_run(tmp_path):
    with pytest.raises(ValueError, match=r"workers=2 collect a run's chunks side by side: pass chunk"):
        train_imitate("irish_gauge", 3, out=tmp_path / "run", workers=2, **{**PARALLEL, "chunk": None})
    assert not (tmp_path / "run").exists()


def test_the_command_refuses_bad_workers_in_one_line(tmp_path):
    from typer.testing import CliRunner

    from tabletop_zoo.cli import app

    args = ["train", "imitate", "irish_gauge", "-t", "40", "--out", str(tmp_path / "run")]
    for extra, message in ((["-w", "0"], "got 0"), (["-w", "2"], "workers=2 collect a run's chunks side by side")):
        result = CliRunner().invoke(app, [*args, *extra])
        assert result.exit_code == 2 and message in " ".join(result.output.split()), result.output
    assert not (tmp_path / "run").exists()
