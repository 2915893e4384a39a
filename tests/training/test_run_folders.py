"""No training command silently destroys work (#45): a folder that holds a run is refused unless resumed or
overwritten, an unwritable --out is one line before any work, every file is written whole or not at all, and a Ray
that fails to start is one line saying what to try."""

import os
import re
import sys

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from typer.testing import CliRunner  # noqa: E402

from tabletop_zoo.cli import app  # noqa: E402
from tabletop_zoo.training import train_sb3, train_selfplay  # noqa: E402
from tabletop_zoo.training.az import train_az  # noqa: E402
from tabletop_zoo.training.imitate import train_imitate  # noqa: E402
from tabletop_zoo.training.rollout import RolloutWorker  # noqa: E402
from tabletop_zoo.training.run import RUN_FILES, prepare_out  # noqa: E402
from tabletop_zoo.training.selfplay import SelfPlayConfig, SelfPlayTrainer  # noqa: E402
from tabletop_zoo.training.workers import make_workers  # noqa: E402

from .._fakes import FailingRay  # noqa: E402

GAME = "irish_gauge"
ENTRY_POINTS = {
    "selfplay": lambda out, **kw: train_selfplay(GAME, out=out, timesteps=10, **kw),
    "az": lambda out, **kw: train_az(GAME, out=out, timesteps=10, **kw),
    "imitate": lambda out, **kw: train_imitate(GAME, timesteps=10, out=out, **kw),
    "maskable_ppo": lambda out, **kw: train_sb3(GAME, timesteps=10, out=out, **kw),
}


def said(result) -> str:
    """The CLI's output as one line (rich wraps an error inside a box)."""
    return " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())


def _contents(folder) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_prepare_out_refuses_a_run_unless_resumed_or_overwritten(tmp_path):
    assert prepare_out(tmp_path / "new" / "run").is_dir()
    (tmp_path / "curve.csv").write_text("a run's curve")
    (tmp_path / "notes.txt").write_text("not a run file")
    with pytest.raises(ValueError, match=r"already holds a run \(curve.csv\); pass --resume .* --overwrite"):
        prepare_out(tmp_path)
    with pytest.raises(ValueError, match="pass one of them"):
        prepare_out(tmp_path, resume=True, overwrite=True)
    prepare_out(tmp_path, resume=True)
    assert (tmp_path / "curve.csv").exists()
    prepare_out(tmp_path, overwrite=True)  # the old run's files go; nothing else does
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new", "notes.txt"]
    assert "model.zip" in RUN_FILES and "az.pt" in RUN_FILES and "checkpoint.pt" in RUN_FILES


@pytest.mark.parametrize("entry", ENTRY_POINTS)
def test_every_trainer_refuses_a_folder_holding_a_run_and_leaves_it_untouched(tmp_path, entry):
    (tmp_path / "config.json").write_text('{"game": "kremlin"}\n')
    (tmp_path / "policy.pt").write_bytes(b"weights")
    before = _contents(tmp_path)
    with pytest.raises(ValueError) as refused:
        ENTRY_POINTS[entry](tmp_path)
    line = str(refused.value)
    assert "\n" not in line and f"{tmp_path} already holds a run" in line, line
    assert _contents(tmp_path) == before


@pytest.mark.parametrize("entry", ENTRY_POINTS)
@pytest.mark.parametrize("where", ["/proc/tabletop_zoo_run", "file/run"])
def test_every_trainer_refuses_an_unwritable_out_in_one_line(tmp_path, entry, where):
    (tmp_path / "file").write_text("a file, not a folder")
    out = where if where.startswith("/") else tmp_path / where
    with pytest.raises(ValueError) as refused:
        ENTRY_POINTS[entry](out)
    line = str(refused.value)
    assert "\n" not in line and f"--out {out} cannot be written" in line, line


def test_a_failed_write_leaves_the_previous_file_whole(tmp_path, monkeypatch):
    """Each file of a save is written beside and renamed over the old one: when the rename of any of them fails
    (a crash, a full disk), that file is still the previous save's, whole."""
    settings = dict(num_players=3, timesteps=64, rollout_samples=64, num_envs=4, minibatch=32, epochs=1)
    trainer = SelfPlayTrainer(SelfPlayConfig(GAME, eval_games=2, eval_opponents=("random",), **settings), tmp_path, 1)
    trainer.run()
    names = ["policy.pt", "checkpoint.pt", "config.json", "log.csv", "curve.csv", "curve.png"]
    before = _contents(tmp_path)
    assert set(names) <= set(before)
    trainer.samples += 1  # the next save changes every file
    trainer.cfg.seed += 1
    trainer.log.append(dict(trainer.log[-1]))
    trainer.curve += [dict(row, samples=trainer.samples, win_share=0.5) for row in trainer.curve]
    replace = os.replace
    for name in names:

        def crash(src, dst, name=name):
            if os.path.basename(dst) == name:
                raise OSError(f"disk full writing {name}")
            replace(src, dst)

        monkeypatch.setattr(os, "replace", crash)
        with pytest.raises(OSError, match=f"disk full writing {name}"):
            trainer.save()
        monkeypatch.undo()
        assert (tmp_path / name).read_bytes() == before[name], name
    trainer.save()
    assert all(_contents(tmp_path)[name] != before[name] for name in names)


@pytest.mark.parametrize("address", [None, "10.0.0.5:6379"])
def test_a_ray_that_fails_to_start_is_one_line_saying_what_to_try(monkeypatch, address):
    monkeypatch.setitem(sys.modules, "ray", FailingRay())
    with pytest.raises(ValueError) as refused:
        make_workers("ray", RolloutWorker, [{}, {}], address)
    line = str(refused.value)
    assert "\n" not in line and "Could not start the GCS" in line and "--backend local" in line, line
    if address:
        assert f"joining the Ray cluster at {address!r}" in line and "check --address" in line
    else:
        assert "starting a local Ray with 2 CPUs" in line


def test_the_cli_refuses_a_finished_run_without_resume_and_replaces_it_with_overwrite(tmp_path):
    out = tmp_path / "run"
    base = ["train", GAME, "--algo", "imitate", "--players", "3", "--timesteps", "40", "--hidden", "16"]
    r = CliRunner().invoke(app, [*base, "--out", str(out)])
    assert r.exit_code == 0, r.output
    before = _contents(out)
    assert {"az.pt", "log.json"} <= set(before)
    for again in (base, ["train", GAME, "--algo", "selfplay", "--timesteps", "64"]):
        r = CliRunner().invoke(app, [*again, "--out", str(out)])
        assert r.exit_code == 2 and "already holds a run" in said(r) and "--overwrite" in said(r), r.output
        assert _contents(out) == before
    r = CliRunner().invoke(app, [*base, "--seed", "1", "--out", str(out), "--overwrite"])
    assert r.exit_code == 0, r.output
    assert _contents(out)["az.pt"] != before["az.pt"]


def test_the_cli_refuses_an_unwritable_out_in_one_line(tmp_path):
    r = CliRunner().invoke(app, ["train", GAME, "--algo", "selfplay", "--out", "/proc/tabletop_zoo_run"])
    assert r.exit_code == 2 and "cannot be written" in said(r) and "Traceback" not in r.output, r.output
