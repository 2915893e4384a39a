"""What every trainer shares: its run folder (checked before any work, resumed or replaced, never mixed),
its checkpoint (tensors and plain values only, written whole or not at all, refused when it is another
trainer's or needs unpickling), torch's threads, and the files a run leaves (``config.json``, ``log.csv``,
``curve.csv``, ``curve.png``).

The four trainers (``sb3``, ``selfplay``, ``az``, ``imitate``) are siblings built on these functions; the two
that play batches of games on workers (``selfplay``, ``az``) also share the opening of a run (``Trainer``).
"""

from __future__ import annotations

import abc
import csv
import dataclasses
import io
import json
import os
import pathlib
import tempfile

import torch

from .. import registry
from ..agents.az.network import load_plain
from ..arena.files import atomic_write


def cores_in_use() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def set_torch_threads(torch_threads: int | None) -> int:
    """Set torch's threads (default: one per core this process may use); returns the number."""
    threads = cores_in_use() if torch_threads is None else int(torch_threads)
    if threads < 1:
        raise ValueError(f"torch_threads must be >= 1, got {torch_threads}")
    torch.set_num_threads(threads)
    return threads


# checkpoints that held pickled objects: never loaded (unpickling can run code), so never resumed
PICKLED_CHECKPOINTS = "formats selfplay.checkpoint/1, az.checkpoint/1 and /2"
RUN_FILES = (  # what makes a folder hold a run: training into it needs --resume or --overwrite
    "checkpoint.pt",
    "policy.pt",
    "az.pt",
    "model.zip",
    "config.json",
    "log.csv",
    "log.json",
    "curve.csv",
    "curve.png",
)


def load_checkpoint(out: pathlib.Path, fmt: str | tuple[str, ...]) -> dict:
    """The checkpoint of the run in ``out`` for ``--resume``; raises when there is none, it is another kind
    (``fmt``: the format it must have, or a tuple of the formats the trainer reads) or it holds pickled objects
    (tensors and plain values only: loading a checkpoint never runs code from it)."""
    ckpt = out / "checkpoint.pt"
    if not ckpt.exists():
        raise ValueError(f"--resume: no checkpoint at {ckpt}; start a run there without --resume first")
    formats = (fmt,) if isinstance(fmt, str) else fmt
    hint = (
        f"; the checkpoints of tabletop-zoo 0.1 did ({PICKLED_CHECKPOINTS}): if you wrote it, convert it with "
        f"`python -m tabletop_zoo.training.convert {out} --trust`, else start the run again with --overwrite"
    )
    saved = load_plain(ckpt, f"a checkpoint this version can resume (format {' or '.join(formats)})", hint)
    found = saved.get("format") if isinstance(saved, dict) else None
    if found not in formats:
        raise ValueError(
            f"{ckpt} is not a checkpoint of this trainer (format {found!r}, not {' or '.join(map(repr, formats))})"
        )
    return saved


def prepare_out(out, resume: bool = False, overwrite: bool = False) -> pathlib.Path:
    """Every trainer's run folder, checked before any work: a folder holding a run (any of ``RUN_FILES``) is
    refused unless ``resume`` (continue it) or ``overwrite`` (its run files are removed now, so the folder never
    mixes two runs), and a folder that cannot be written is refused at once. Returns the folder, created."""
    out = pathlib.Path(out)
    if resume and overwrite:
        raise ValueError("--resume continues the run in OUT and --overwrite replaces it: pass one of them")
    found = [name for name in RUN_FILES if (out / name).exists()]
    if found and not (resume or overwrite):
        raise ValueError(
            f"{out} already holds a run ({', '.join(found)}); pass --resume to continue it, --overwrite to replace "
            "it, or choose another --out"
        )
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as e:
        raise ValueError(f"--out {out} cannot be written: {e.strerror or e}; choose another --out") from None
    if overwrite:
        for name in found:
            (out / name).unlink()
    return out


def save_torch(path: pathlib.Path, obj) -> None:
    """``torch.save`` whole or not at all (a temporary file in the same folder, then renamed)."""
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    atomic_write(path, buffer.getvalue())


def write_run(out: pathlib.Path, state: dict, cfg, log: list[dict], curve: list[dict], title: str, player=None) -> None:
    """A run folder's files besides the weights: ``checkpoint.pt``, ``config.json``, ``log.csv``, ``curve.csv`` and
    ``curve.png`` (``player`` names what the curve measures, ``write_curve_png``'s default when None). Each is
    written beside and renamed over the old one (``atomic_write``), so a crash never leaves half a file."""
    save_torch(out / "checkpoint.pt", state)
    atomic_write(out / "config.json", json.dumps(dataclasses.asdict(cfg), indent=1) + "\n")
    write_rows(out / "log.csv", log)
    write_rows(out / "curve.csv", curve)
    if curve:
        extra = () if player is None else (player,)
        write_curve_png(curve, out / "curve.png", title, 1.0 / cfg.num_players, *extra)


def write_rows(path: pathlib.Path, rows: list[dict] | list[list], header: list[str] | None = None) -> None:
    """A CSV of dict rows (their keys the header), or of list rows under ``header``; nothing for no rows."""
    if not rows:
        return
    text = io.StringIO(newline="")
    if header is None:
        w = csv.DictWriter(text, fieldnames=list(rows[0]))
        w.writeheader()
    else:
        w = csv.writer(text)
        w.writerow(header)
    w.writerows(rows)
    atomic_write(path, text.getvalue())


def save_figure(fig, path: pathlib.Path) -> None:
    """A matplotlib figure as a PNG, written whole or not at all."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    atomic_write(path, buffer.getvalue())


def write_curve_png(
    curve: list[dict], path: pathlib.Path, title: str, equal_share: float, player: str = "greedy policy"
) -> None:
    """Win share against each evaluation opponent with its interval (Figure + Agg canvas, no pyplot)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.5, 4))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for opponent in dict.fromkeys(r["opponent"] for r in curve):
        rows = [r for r in curve if r["opponent"] == opponent]
        x = [r["samples"] for r in rows]
        ax.plot(x, [r["win_share"] for r in rows], marker="o", label=f"vs {opponent} ({rows[0]['games']} games)")
        ax.fill_between(x, [r["low"] for r in rows], [r["high"] for r in rows], alpha=0.2)
    ax.axhline(equal_share, color="grey", linestyle="--", label="equal share")
    ax.set_ylim(0, 1)
    ax.set_xlabel("samples (non-forced decisions of the learning policy)")
    ax.set_ylabel(f"win share ({player}), 95% interval")
    ax.set_title(title, fontsize=8)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path)


class SampleProgress:
    """Samples done, their rate over the run, games and the latest evaluation win shares
    (``tabletop_zoo.progress``: a live bar on a terminal, plain lines elsewhere)."""

    def __init__(self, total: int, done: int, enabled: bool):
        from ..progress import Progress

        self.progress = Progress("samples", total, "samples", done=done, enabled=enabled)
        self.games, self.evals = 0, "-"

    def update(self, done: int, speed: float | None = None, games: int = 0) -> None:
        """``done`` samples and ``games`` finished in all. ``speed`` is not shown: a caller's speed of its last
        round is a burst, and the bar measures the rate over the run itself."""
        self.games = games
        self.progress.update(done, status=self._status())

    def evaluated(self, shares: dict) -> None:
        """Show the latest evaluation in the bar and print it as a line of its own."""
        self.evals = ", ".join(f"vs {k} {v:.2f}" for k, v in shares.items())
        self.progress.update(self.progress.done, status=self._status())
        self.progress.note(f"evaluation: win share {self.evals}")

    def _status(self) -> str:
        return f"{self.games} games  eval {self.evals}"

    def stop(self) -> None:
        """End the bar (plain output: the last line)."""
        self.progress.stop()


class Trainer(abc.ABC):
    """The opening of a batched trainer's run (``SelfPlayTrainer``, ``AZTrainer``): the checkpoint to resume (its
    settings, ``timesteps`` grown to the call's, and ``from_call``'s taken from the call), the checked config, the
    run folder, torch's threads and seed, the kernel; then the subclass's ``_build()`` and, on a resume, its
    ``_restore(saved)`` (the workers are closed when that fails)."""

    config_class: type  # the trainer's config dataclass
    checkpoint_format: str
    kind: str  # the trainer's name in messages
    from_call: tuple[str, ...] = ()  # settings a resume takes from the call (they do not change the result)
    older_defaults: dict = {}  # settings a checkpoint from before they existed lacks: the values that run used
    model_file: tuple[str, str]  # the result's key for the model and its file name in the run folder

    def __init__(
        self,
        config,
        out: str | pathlib.Path,
        torch_threads: int | None = None,
        resume: bool = False,
        progress: bool = False,
        overwrite: bool = False,
    ):
        self.out = pathlib.Path(out)
        saved = load_checkpoint(self.out, self.checkpoint_format) if resume and not overwrite else None
        if saved is not None:
            grown = {"timesteps": max(config.timesteps, saved["samples"])}
            config = self.config_class(
                **{**self.older_defaults, **saved["config"], **grown, **{k: getattr(config, k) for k in self.from_call}}
            )
        self.cfg = config.check()
        prepare_out(self.out, resume, overwrite)
        self.threads, self.progress = set_torch_threads(torch_threads), progress
        torch.manual_seed(self.cfg.seed)
        self.kernel = registry.kernel(self.cfg.game)
        self._build()
        try:
            if saved is not None:
                self._restore(saved)
        except BaseException:
            self.workers.close()
            raise

    @abc.abstractmethod
    def _build(self) -> None:
        """The subclass's network, optimiser, generator, counters and workers, from ``self.cfg``."""

    @abc.abstractmethod
    def _restore(self, saved: dict) -> None:
        """Continue exactly from the checkpoint ``saved``."""

    @abc.abstractmethod
    def reached(self, total: int) -> bool:
        """The run has made ``total`` samples."""

    @abc.abstractmethod
    def _learn(self, bar: SampleProgress, until: int) -> None:
        """One step of the run toward ``until`` samples (play, learn, log), shown on ``bar``."""

    @abc.abstractmethod
    def evaluate(self) -> list[dict]:
        """The curve's rows of an evaluation now (one per opponent), added to ``curve``."""

    @abc.abstractmethod
    def save(self) -> None:
        """The run's files: weights, checkpoint, logs and the curve."""

    def run(self) -> dict:
        """Train to ``timesteps`` samples: an evaluation first (unless resumed) and every ``eval_every`` samples,
        each followed by a save, and a save at the end of a run that learnt nothing. Returns the model's and the
        checkpoint's paths, the curve, the samples, the games that ended and the wall time."""
        cfg = self.cfg
        bar = SampleProgress(cfg.timesteps, self.samples, self.progress)
        try:
            if not self.curve:
                self._show(bar)
            next_eval = (self.samples // cfg.eval_every + 1) * cfg.eval_every
            while not self.reached(cfg.timesteps):
                self._learn(bar, min(next_eval, cfg.timesteps))
                if self.reached(next_eval) or self.reached(cfg.timesteps):
                    self._show(bar)
                    next_eval = (self.samples // cfg.eval_every + 1) * cfg.eval_every
                    self.save()
            if not self.log:
                self.save()
        finally:
            bar.stop()
            self.workers.close()
        key, name = self.model_file
        return {
            key: str(self.out / name),
            "checkpoint": str(self.out / "checkpoint.pt"),
            "curve": self.curve,
            "samples": self.samples,
            "games": self.games_done,
            "wall_s": self.wall,
        }

    def _show(self, bar: SampleProgress) -> None:
        """An evaluation (none when ``eval_games`` is 0), shown on ``bar``."""
        if self.cfg.eval_games:
            bar.evaluated({r["opponent"]: r["win_share"] for r in self.evaluate()})

    def _weights(self) -> dict:
        """The network's weights, detached copies (what the workers are sent and the checkpoint keeps)."""
        return {key: v.detach().clone() for key, v in self.net.state_dict().items()}

    @classmethod
    def train(
        cls, game: str, out, torch_threads=None, resume=False, progress=False, overwrite=False, **settings
    ) -> dict:
        """Train (or, with ``resume``, continue) a run; ``settings`` are ``config_class`` fields (an unknown one is
        refused with the allowed names). A folder that holds a run is refused unless ``resume`` or ``overwrite``
        (``prepare_out``)."""
        allowed = [f.name for f in dataclasses.fields(cls.config_class)]
        unknown = sorted(set(settings) - set(allowed))
        if unknown:
            raise ValueError(f"unknown {cls.kind} setting(s) {unknown}; allowed: {', '.join(allowed)}")
        return cls(cls.config_class(game=game, **settings), out, torch_threads, resume, progress, overwrite).run()
