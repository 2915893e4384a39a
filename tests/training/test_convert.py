"""A checkpoint of tabletop-zoo 0.1 (numpy arrays, game records and heuristic agents pickled) is refused by
``--resume``, and ``python -m tabletop_zoo.training.convert OUT --trust`` turns it into the format of now: the run
then resumes exactly (the same parameters as a run never interrupted).

The 0.1 files are made here from a run of now, as 0.1's ``get_state`` methods wrote them (their code, quoted)."""

import dataclasses

import pytest
import torch

pytest.importorskip("torchrl")

from tabletop_zoo.training.az import AZConfig, AZTrainer  # noqa: E402
from tabletop_zoo.training.batch import STATE_ARRAYS  # noqa: E402
from tabletop_zoo.training.convert import main  # noqa: E402
from tabletop_zoo.training.selfplay import SelfPlayConfig, SelfPlayTrainer  # noqa: E402

GAME = "irish_gauge"


def old_games(g) -> dict:
    return {name: getattr(g, name).copy() for name in ("records", *STATE_ARRAYS)}


def old_rollout_worker(w) -> dict:
    return {
        "games": old_games(w.games),
        "rng": w.rng.bit_generator.state,
        "generator": w.generator.get_state(),
        "heuristics": dict(w.heuristics),
        "game_uid": w.game_uid.copy(),
        "potential": w.potential.copy(),
        "teacher": w.teacher,
        "next_uid": w.next_uid,
        "started": w.started,
    }


def old_az_worker(w) -> dict:
    return {
        "games": old_games(w.games),
        "rng": w.rng.bit_generator.state,
        "heuristics": dict(w.heuristics),
        "pending": w.pending,
        "searched": w.searched.copy(),
        "started": w.started,
        "games_done": w.games_done,
        "done": list(w.done),
    }


def save_as_0_1(trainer, fmt: str, workers: list, **extra) -> None:
    """The trainer's checkpoint as 0.1 wrote it: format ``fmt``, the workers' (and ``extra``) numpy state pickled."""
    path = trainer.out / "checkpoint.pt"
    saved = torch.load(path, weights_only=True)
    torch.save({**saved, "format": fmt, "workers": workers, **extra}, path)


def refused_then_converted(out, capsys) -> None:
    with pytest.raises(ValueError, match="holds pickled Python objects .* tabletop_zoo.training.convert .* --trust"):
        load(out)
    with pytest.raises(SystemExit):
        main([str(out)])  # without --trust: nothing is unpickled
    assert "pass --trust" in capsys.readouterr().err
    assert main([str(out), "--trust"]) == 0
    assert (out / "checkpoint.pt.0.1").is_file()
    assert main([str(out), "--trust"]) == 2 and "converted already" in capsys.readouterr().err


def load(out):
    from tabletop_zoo.training.run import load_checkpoint

    return load_checkpoint(out, ("tabletop_zoo.selfplay.checkpoint/2", "tabletop_zoo.az.checkpoint/3"))


def same_parameters(a, b) -> bool:
    return all(torch.equal(x, y) for x, y in zip(a.net.state_dict().values(), b.net.state_dict().values(), strict=True))


def test_a_0_1_self_play_checkpoint_converts_and_resumes_exactly(tmp_path, capsys):
    tiny = dict(num_players=3, rollout_samples=128, num_envs=4, minibatch=64, epochs=1, eval_games=2)
    tiny.update(eval_opponents=("random",), snapshot_every=1, pool="self=0.5,heuristic=0.3,random=0.2")
    tiny.update(kickstart=1.0, kickstart_samples=512)  # a teacher in the workers' state too
    tiny.update(anneal_lr=False)  # the annealed lr follows each run's timesteps: the split one's would differ

    def trainer(out, timesteps, resume=False):
        return SelfPlayTrainer(SelfPlayConfig(GAME, timesteps=timesteps, **tiny), out, 1, resume)

    whole = trainer(tmp_path / "whole", 768)
    whole.run()
    half = trainer(tmp_path / "old", 384)
    half.run()
    assert any(w.heuristics for w in half.workers.workers)
    save_as_0_1(half, "tabletop_zoo.selfplay.checkpoint/1", [old_rollout_worker(w) for w in half.workers.workers])
    refused_then_converted(tmp_path / "old", capsys)
    resumed = trainer(tmp_path / "old", 768, resume=True)
    resumed.run()
    assert resumed.games_done > half.games_done  # games started after the split: the converted generators drew seats
    assert resumed.samples == whole.samples and same_parameters(whole, resumed)


@pytest.mark.parametrize("single_process", [False, True], ids=["format2", "format1"])
def test_a_0_1_az_checkpoint_converts_and_resumes_exactly(tmp_path, capsys, single_process):
    """Format 2 (two workers: the second plays with its own generator) and format 1 (the single-process trainer:
    one worker's games at the top level, the finished games' samples already in the replay)."""
    tiny = dict(num_players=3, num_envs=6, simulations=6, train_every=36, updates=2, minibatch=32, hidden=(16,))
    tiny.update(replay=1000, eval_games=0, pool="self=0.5,heuristic=0.3,random=0.2", workers=1 if single_process else 2)

    def trainer(out, timesteps, resume=False):
        return AZTrainer(AZConfig(game=GAME, timesteps=timesteps, **tiny), out, 1, resume)

    whole = trainer(tmp_path / "whole", 900)
    whole.run()
    half = trainer(tmp_path / "old", 600)
    half.run()
    workers = half.workers.workers
    assert all(any(w.pending) for w in workers) and any(w.heuristics for w in workers)
    replay = half.replay
    if single_process:
        for c in half.incoming[0]:  # the single-process trainer put finished games' samples in the replay at once
            replay.add_many(c["obs"], c["mask"], c["pi"], c["z"])
    old_replay = {k: getattr(replay, k) for k in ("count", "next", "obs", "mask", "pi", "z")}
    old_workers = [old_az_worker(w) for w in workers]
    save_as_0_1(half, "tabletop_zoo.az.checkpoint/2", old_workers, replay=old_replay, incoming=half.incoming)
    if single_process:
        path = half.out / "checkpoint.pt"
        new = torch.load(path, weights_only=False)
        old = {k: v for k, v in new.items() if k not in ("workers", "made", "since", "incoming", "version")}
        config = {k: v for k, v in new["config"].items() if k not in ("backend", "workers", "address")}
        old.update(format="tabletop_zoo.az.checkpoint/1", config=config, since_train=new["since"][0])
        old.update({k: new["workers"][0][k] for k in ("games", "pending", "heuristics", "searched")})
        torch.save(old, path)
    refused_then_converted(tmp_path / "old", capsys)
    resumed = trainer(tmp_path / "old", 900, resume=True)
    resumed.run()
    assert resumed.samples == whole.samples and same_parameters(whole, resumed)


def test_an_unknown_format_is_named_and_nothing_is_written(tmp_path, capsys):
    torch.save({"format": "something/7", "config": dataclasses.asdict(SelfPlayConfig())}, tmp_path / "checkpoint.pt")
    before = (tmp_path / "checkpoint.pt").read_bytes()
    assert main([str(tmp_path), "--trust"]) == 2
    assert "format 'something/7' is not one of 0.1's" in capsys.readouterr().err
    assert (tmp_path / "checkpoint.pt").read_bytes() == before and not (tmp_path / "checkpoint.pt.0.1").exists()
    assert main([str(tmp_path / "none"), "--trust"]) == 2 and "no checkpoint at" in capsys.readouterr().err
