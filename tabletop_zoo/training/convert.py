"""Convert a checkpoint of tabletop-zoo 0.1 to the format of now, so its run resumes exactly.

    python -m tabletop_zoo.training.convert OUT --trust

0.1's checkpoints (``tabletop_zoo.selfplay.checkpoint/1``, ``tabletop_zoo.az.checkpoint/1`` and ``/2``) held numpy
arrays, game records and heuristic agents as pickled Python objects, which the trainers now refuse to load because
unpickling runs whatever the file names. Converting unpickles the old file once, so it is for a checkpoint you
wrote yourself: ``--trust`` says so. The result holds tensors and plain values only; the old file is kept beside
it as ``checkpoint.pt.0.1``.
"""

from __future__ import annotations

import argparse
import io
import pathlib
import sys

import numpy as np
import torch

from .. import registry
from ..agents.az.network import load_error
from ..agents.policy_network import CHECKPOINT_FORMAT as SELFPLAY_FORMAT
from ..arena.files import atomic_write
from . import plain
from .az import CHECKPOINT_FORMAT as AZ_FORMAT
from .az_worker import SAMPLE, pending_state, sample_columns
from .batch import STATE_ARRAYS

OLD_SELFPLAY, OLD_AZ, OLD_AZ_SINGLE = (
    "tabletop_zoo.selfplay.checkpoint/1",
    "tabletop_zoo.az.checkpoint/2",
    "tabletop_zoo.az.checkpoint/1",
)


def games_state(games: dict) -> dict:
    """0.1's ``BatchGames`` state (numpy arrays, the records a structured array) as ``BatchGames.get_state``'s."""
    return {"records": plain.record_bytes(games["records"]), **{k: plain.tensor(games[k]) for k in STATE_ARRAYS}}


def selfplay_worker(worker: dict, kernel) -> dict:
    """0.1's ``RolloutWorker`` state as ``RolloutWorker.get_state``'s (0.1 before dense credit kept no
    ``potential``, before kickstart no ``teacher``: what its ``set_state`` assumed then)."""
    envs = len(worker["games"]["records"])
    teacher = worker.get("teacher")
    return {
        "games": games_state(worker["games"]),
        "rng": worker["rng"],
        "generator": worker["generator"],
        "heuristics": plain.heuristics_state(worker["heuristics"]),
        "game_uid": plain.tensor(worker["game_uid"]),
        "potential": plain.tensor(worker.get("potential", np.zeros((envs, kernel.MAX_PLAYERS)))),
        "teacher": None if teacher is None else plain.heuristic_state(teacher),
        "next_uid": int(worker["next_uid"]),
        "started": bool(worker["started"]),
    }


def az_worker(worker: dict, kernel) -> dict:
    """0.1's ``AZWorker`` state as ``AZWorker.get_state``'s."""
    return {
        "games": games_state(worker["games"]),
        "rng": worker["rng"],
        "heuristics": plain.heuristics_state(worker["heuristics"]),
        "pending": [pending_state(kernel, p) for p in worker["pending"]],
        "searched": plain.tensor(worker["searched"]),
        "started": bool(worker["started"]),
        "games_done": int(worker["games_done"]),
        "done": sample_columns(kernel, worker.get("done", []), SAMPLE),
    }


def from_single_process(saved: dict) -> dict:
    """``az.checkpoint/1`` (the trainer before workers: its games, generator, pool seats and pending samples at the
    top level) as ``/2`` with one local worker: the same run."""
    worker = {
        "games": saved["games"],
        "rng": saved["rng"],
        "heuristics": saved.get("heuristics", {}),
        "pending": saved["pending"],
        "searched": saved["searched"],
        "started": True,
        "games_done": saved["games_done"],
        "done": [],
    }
    rest = {k: v for k, v in saved.items() if k not in ("games", "heuristics", "pending", "searched", "since_train")}
    config = {**saved["config"], "backend": "local", "workers": 1, "address": None}
    extra = {"made": [saved["samples"]], "since": [saved["since_train"]], "incoming": [[]], "version": 0}
    return {**rest, "format": OLD_AZ, "config": config, "workers": [worker], **extra}


def convert(saved: dict) -> dict:
    """A 0.1 checkpoint's contents in the format of now; raises naming a format it does not know."""
    found = saved.get("format") if isinstance(saved, dict) else None
    if found == OLD_AZ_SINGLE:
        saved = from_single_process(saved)
        found = OLD_AZ
    if found not in (OLD_SELFPLAY, OLD_AZ):
        raise ValueError(f"format {found!r} is not one of 0.1's ({OLD_SELFPLAY}, {OLD_AZ_SINGLE}, {OLD_AZ})")
    kernel = registry.kernel(saved["config"]["game"])
    if found == OLD_SELFPLAY:
        workers = [selfplay_worker(w, kernel) for w in saved["workers"]]
        return {**saved, "format": SELFPLAY_FORMAT, "workers": workers}
    replay = saved["replay"]
    return {
        **saved,
        "format": AZ_FORMAT,
        "workers": [az_worker(w, kernel) for w in saved["workers"]],
        "replay": {"count": int(replay["count"]), "next": int(replay["next"]), **_tensors(replay, SAMPLE)},
        "incoming": [[_tensors(c, SAMPLE) for c in chunks] for chunks in saved["incoming"]],
    }


def _tensors(arrays: dict, keys: tuple[str, ...]) -> dict:
    return {k: plain.tensor(arrays[k]) for k in keys}


def convert_run(out) -> pathlib.Path:
    """Convert ``out/checkpoint.pt`` in place (the old file kept as ``checkpoint.pt.0.1``); returns its path.
    Unpickles the old file: call it only on a checkpoint you trust."""
    path = pathlib.Path(out) / "checkpoint.pt"
    if not path.is_file():
        raise ValueError(f"no checkpoint at {path}")
    kept = path.with_name("checkpoint.pt.0.1")
    if kept.exists():
        raise ValueError(f"{kept} exists: this run was converted already (remove it to convert again)")
    saved = torch.load(path, map_location="cpu", weights_only=False)  # the one trusted load: it unpickles
    try:
        converted = convert(saved)
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
    buffer = io.BytesIO()
    torch.save(converted, buffer)
    try:  # what --resume will read: refuse here rather than write a checkpoint it refuses
        torch.load(io.BytesIO(buffer.getvalue()), weights_only=True)
    except Exception as e:
        raise ValueError(f"{path}: not converted: {load_error(e)}") from None
    atomic_write(kept, path.read_bytes())
    atomic_write(path, buffer.getvalue())
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tabletop_zoo.training.convert", description=__doc__.split("\n")[0])
    parser.add_argument("out", help="the run folder (holds checkpoint.pt)")
    parser.add_argument("--trust", action="store_true", help="the checkpoint is yours: unpickling it may run code")
    args = parser.parse_args(argv)
    if not args.trust:
        parser.error(
            "converting unpickles the old checkpoint, which can run any code it names: pass --trust for a "
            "checkpoint you wrote yourself"
        )
    try:
        path = convert_run(args.out)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"{path}: converted (the 0.1 file is kept as {path.name}.0.1); resume with train --resume --out {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
