"""The self-play PPO trainer: rollout workers (local or Ray), PPO updates, evaluation, checkpoints, resume.

    tabletop-zoo train irish_gauge --algo selfplay --players 3 --timesteps 60000 --out runs/ig

``OUT/`` holds ``policy.pt`` (loads as ``policy:path=OUT/policy.pt``), ``checkpoint.pt`` (everything an
exact resume needs: weights, optimiser, every generator, every game in flight, the pool, the logs),
``log.csv`` (one row per update), ``curve.csv`` and ``curve.png`` (greedy win share against random and
heuristic seats with Wilson 95% intervals, measured before learning and every ``eval_every`` samples
on the same seat-rotated games) and ``config.json``.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import os
import pathlib
import tempfile
import time

import numpy as np
import torch

from .. import registry
from ..agents.az.network import load_plain
from ..agents.policy_network import CHECKPOINT_FORMAT, ActorCritic, policy_blob
from ..arena.files import atomic_write
from .config import EVAL_OPPONENTS, check_counts, check_evaluation, check_game, check_numbers
from .evaluate import evaluate
from .pool import DEFAULT_POOL, parse_pool
from .ppo import PPOUpdate
from .rollout import FINAL_REWARDS, RolloutWorker
from .workers import check_workers, make_workers, worker_specs

REWARDS = ("win_share", *FINAL_REWARDS)  # what a finished game credits each policy seat
PPO_SETTINGS = (  # what `train --ppo KEY=VALUE` may set
    "rollout_samples",
    "minibatch",
    "epochs",
    "lr",
    "gamma",
    "gae_lambda",
    "clip",
    "ent_coef",
    "vf_coef",
    "max_grad_norm",
    "snapshot_every",
    "pool_size",
    "kickstart",
    "kickstart_samples",
    "anneal_lr",
    "target_kl",
)


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
        f"`python -m tabletop_zoo.selfplay.convert {out} --trust`, else start the run again with --overwrite"
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


@dataclasses.dataclass
class SelfPlayConfig:
    """Every setting of a run (saved in the checkpoint; a resume keeps them, only ``timesteps`` may grow)."""

    game: str = "irish_gauge"
    num_players: int | None = None
    timesteps: int = 50_000  # samples: non-forced decisions of seats played by the current policy
    num_envs: int = 64  # games in flight, over all workers
    rollout_samples: int = 4096  # samples per PPO update
    minibatch: int = 1024
    epochs: int = 4
    lr: float = 3e-4
    gamma: float = 1.0  # win shares arrive at the end of finite games
    gae_lambda: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: tuple[int, ...] = (64, 64)  # SB3's default MlpPolicy: two tanh layers of 64
    pool: str = DEFAULT_POOL
    snapshot_every: int = 2  # updates between snapshots added to the pool
    pool_size: int = 8  # snapshots kept (the oldest leaves first)
    eval_every: int | None = None  # samples between evaluations (default: timesteps / 8)
    eval_games: int = 60
    eval_opponents: tuple[str, ...] = EVAL_OPPONENTS
    seed: int = 0
    backend: str = "local"
    workers: int = 1
    address: str | None = None
    options: dict = dataclasses.field(default_factory=dict)
    reward: str = "win_share"  # or score_margin / score_share: score minus the table's mean, normalised
    dense: bool = False  # score rewards: credit each decision with the change of its seat's reward (rollout.py)
    kickstart: float = 0.0  # weight of the cross-entropy to the heuristic's moves at the start (ppo.py) ...
    kickstart_samples: int = 30_000  # ... falling linearly to 0 over this many samples
    anneal_lr: bool = False  # the learning rate falls linearly from lr to 0 at timesteps (CleanRL's PPO default)
    target_kl: float = 0.0  # > 0: an update stops once a minibatch's KL from the rollout's policy passes 1.5x it

    def check(self) -> SelfPlayConfig:
        """Validate every field (clear one-line errors before any work) and fill defaults."""
        check_game(self)
        counts = (
            "timesteps",
            "num_envs",
            "rollout_samples",
            "minibatch",
            "epochs",
            "snapshot_every",
            "pool_size",
            "kickstart_samples",
        )
        check_counts(self, (*counts, "eval_games"), 1)
        if self.minibatch < 2:
            raise ValueError(f"minibatch must be >= 2 (advantages are normalised per minibatch), got {self.minibatch}")
        check_workers(self)
        check_numbers(
            self,
            (
                ("lr", 0, 1),
                ("gamma", 0, 1),
                ("gae_lambda", 0, 1),
                ("clip", 0, 1),
                ("ent_coef", 0, 1),
                ("vf_coef", 0, 10),
                ("max_grad_norm", 0, 1e6),
                ("kickstart", 0, 100),
                ("target_kl", 0, 10),
            ),
        )
        parse_pool(self.pool)
        if self.reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {self.reward!r}")
        for name in ("dense", "anneal_lr"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")
        if self.dense and self.reward not in FINAL_REWARDS:
            raise ValueError(
                f"dense credit needs a score reward ({' or '.join(FINAL_REWARDS)}): a win share has no value "
                f"before the game ends, got reward {self.reward!r}"
            )
        check_evaluation(self, 8)
        return self


class SelfPlayTrainer:
    def __init__(
        self,
        config: SelfPlayConfig,
        out: str | pathlib.Path,
        torch_threads: int | None = None,
        resume: bool = False,
        progress: bool = False,
        overwrite: bool = False,
    ):
        self.out = pathlib.Path(out)
        saved = load_checkpoint(self.out, CHECKPOINT_FORMAT) if resume and not overwrite else None
        if saved is not None:
            config = SelfPlayConfig(**{**saved["config"], "timesteps": max(config.timesteps, saved["samples"])})
        self.cfg = cfg = config.check()
        prepare_out(self.out, resume, overwrite)
        self.threads, self.progress = set_torch_threads(torch_threads), progress
        torch.manual_seed(cfg.seed)
        self.kernel = k = registry.kernel(cfg.game)
        self.net = ActorCritic(k.OBS_SIZE, k.NUM_ACTIONS, cfg.hidden)
        self.ppo = PPOUpdate(self.net, cfg.lr, cfg.clip, cfg.ent_coef, cfg.vf_coef, cfg.max_grad_norm, cfg.target_kl)
        self.rng = np.random.default_rng([cfg.seed, 0x99])
        self.snapshots = [self._weights()]
        self.snapshot_version = 0
        self.samples = self.updates = self.games = 0
        self.wall = 0.0
        self.log: list[dict] = []
        self.curve: list[dict] = []
        kickstart = cfg.kickstart > 0
        specs = worker_specs(
            cfg, gamma=cfg.gamma, gae_lambda=cfg.gae_lambda, reward=cfg.reward, dense=cfg.dense, kickstart=kickstart
        )
        per = math.ceil(cfg.rollout_samples / cfg.workers)
        self.counts = [per] * cfg.workers
        self.workers = make_workers(cfg.backend, RolloutWorker, specs, cfg.address)
        self.sent_version = None  # the snapshot version the workers have (they are sent the pool when it changes)
        if saved is not None:
            self._restore(saved)

    # --- state -----------------------------------------------------------------------------------
    def _weights(self) -> dict:
        return {key: v.detach().clone() for key, v in self.net.state_dict().items()}

    def _restore(self, saved: dict) -> None:
        self.net.load_state_dict(saved["net"])
        self.ppo.optimizer.load_state_dict(saved["optimizer"])
        self.rng.bit_generator.state = saved["rng"]
        torch.set_rng_state(saved["torch_rng"])
        self.snapshots, self.snapshot_version = saved["snapshots"], saved["snapshot_version"]
        self.samples, self.updates, self.games = saved["samples"], saved["updates"], saved["games"]
        self.wall, self.log, self.curve = saved["wall"], saved["log"], saved["curve"]
        self.workers.set_state(saved["workers"])

    def save(self) -> None:
        """``checkpoint.pt`` (atomically replaced), ``policy.pt``, logs and the curve."""
        meta = {"samples": self.samples, "updates": self.updates, "pool": self.cfg.pool, "reward": self.cfg.reward}
        policy = policy_blob(self.net, self.cfg.game, self.cfg.num_players, meta)
        save_torch(self.out / "policy.pt", policy)
        state = {
            "format": CHECKPOINT_FORMAT,
            "config": dataclasses.asdict(self.cfg),
            "net": self._weights(),
            "optimizer": self.ppo.optimizer.state_dict(),
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
            "snapshots": self.snapshots,
            "snapshot_version": self.snapshot_version,
            "samples": self.samples,
            "updates": self.updates,
            "games": self.games,
            "wall": self.wall,
            "log": self.log,
            "curve": self.curve,
            "workers": self.workers.get_state(),
            "policy": policy,
        }
        write_run(self.out, state, self.cfg, self.log, self.curve, self._title())

    def _title(self) -> str:
        c = self.cfg
        reward = "" if c.reward == "win_share" else f", reward {c.reward}{' (dense)' if c.dense else ''}"
        return f"{c.game}, {c.num_players} players, self-play PPO (pool {c.pool}{reward})"

    # --- the loop --------------------------------------------------------------------------------
    def evaluate(self) -> list[dict]:
        rows = []
        for opponent in self.cfg.eval_opponents:
            r = evaluate(
                self.net,
                self.kernel,
                self.cfg.game,
                self.cfg.num_players,
                self.cfg.options,
                opponent,
                self.cfg.eval_games,
                self.cfg.seed + 1,
            )
            rows.append({"samples": self.samples, **r, "wall_s": round(self.wall, 2)})
        self.curve += rows
        return rows

    def update(self) -> dict:
        """One rollout on every worker, then one PPO update; returns the log row."""
        t0 = time.perf_counter()
        weights, version = self._weights(), self.snapshot_version
        send = self.snapshots if version != self.sent_version else None
        kick_coef = self.kick_coef()
        if self.cfg.anneal_lr:
            for group in self.ppo.optimizer.param_groups:
                group["lr"] = self.cfg.lr * max(0.0, 1.0 - self.samples / self.cfg.timesteps)
        results = self.workers.call("collect", [(weights, n, version, send, kick_coef > 0) for n in self.counts])
        self.sent_version = version
        keys = ("obs", "mask", "action", "logp", "advantage", "value_target", *(("teacher",) if kick_coef else ()))
        data = {key: np.concatenate([r[key] for r in results]) for key in keys}
        finished = [f for r in results for f in r["finished"]]
        t1 = time.perf_counter()
        stats = self.ppo(data, self.cfg.epochs, self.cfg.minibatch, self.rng, kick_coef)
        n = int(data["action"].shape[0])
        self.samples += n
        self.updates += 1
        self.games += len(finished)
        if self.updates % self.cfg.snapshot_every == 0:
            self.snapshots = (self.snapshots + [self._weights()])[-self.cfg.pool_size :]
            self.snapshot_version += 1
        dt = time.perf_counter() - t0
        self.wall += dt
        learner = [f["returns"][s] for f in finished for s, kind in enumerate(f["kinds"]) if kind == 0]
        decisions = sum(r["decisions"] for r in results)
        forced = sum(r["forced"] for r in results)
        row = {
            "update": self.updates,
            "samples": self.samples,
            "games": self.games,
            "samples_per_s": n / dt,
            "rollout_s": t1 - t0,
            "update_s": time.perf_counter() - t1,
            "learner_return": float(np.mean(learner)) if learner else float("nan"),
            "forced_share": forced / max(forced + decisions, 1),
            "kick_coef": kick_coef,
            "lr": self.ppo.optimizer.param_groups[0]["lr"],
            **stats,
            "wall_s": self.wall,
        }
        self.log.append(row)
        return row

    def kick_coef(self) -> float:
        """The kickstart weight of the next update: ``kickstart`` at the start, falling linearly to 0 at
        ``kickstart_samples`` (the learner then stands on its own returns)."""
        cfg = self.cfg
        return cfg.kickstart * max(0.0, 1.0 - self.samples / cfg.kickstart_samples)

    def run(self) -> dict:
        cfg = self.cfg
        bar = _Bar(cfg.timesteps, self.samples, self.progress)
        try:
            if not self.curve:
                self._show(bar, self.evaluate())
            next_eval = (self.samples // cfg.eval_every + 1) * cfg.eval_every
            while self.samples < cfg.timesteps:
                row = self.update()
                bar.update(self.samples, row["samples_per_s"], self.games)
                if self.samples >= next_eval or self.samples >= cfg.timesteps:
                    self._show(bar, self.evaluate())
                    next_eval = (self.samples // cfg.eval_every + 1) * cfg.eval_every
                    self.save()
            if not self.log:
                self.save()
        finally:
            bar.stop()
            self.workers.close()
        return {
            "policy": str(self.out / "policy.pt"),
            "checkpoint": str(self.out / "checkpoint.pt"),
            "curve": self.curve,
            "samples": self.samples,
            "games": self.games,
            "wall_s": self.wall,
        }

    def _show(self, bar, rows) -> None:
        bar.evaluated({r["opponent"]: r["win_share"] for r in rows})


def train_selfplay(
    game: str = "irish_gauge",
    out: str | pathlib.Path = "train_runs/selfplay",
    torch_threads: int | None = None,
    resume: bool = False,
    progress: bool = False,
    overwrite: bool = False,
    **settings,
) -> dict:
    """Train (or, with ``resume``, continue) a self-play run; ``settings`` are ``SelfPlayConfig`` fields. A folder
    that holds a run is refused unless ``resume`` or ``overwrite`` (``prepare_out``)."""
    unknown = sorted(set(settings) - {f.name for f in dataclasses.fields(SelfPlayConfig)})
    if unknown:
        raise ValueError(
            f"unknown self-play setting(s) {unknown}; allowed: "
            f"{', '.join(f.name for f in dataclasses.fields(SelfPlayConfig))}"
        )
    trainer = SelfPlayTrainer(SelfPlayConfig(game=game, **settings), out, torch_threads, resume, progress, overwrite)
    return trainer.run()


# --- output ------------------------------------------------------------------------------------------
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


class _Bar:
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
