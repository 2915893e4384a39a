"""The self-play PPO trainer: rollout workers (local or Ray), PPO updates, evaluation, checkpoints, resume.

    tabletop-zoo train selfplay irish_gauge --players 3 --timesteps 60000 --out runs/ig

``OUT/`` holds ``policy.pt`` (loads as ``policy:path=OUT/policy.pt``), ``checkpoint.pt`` (everything an
exact resume needs: weights, optimiser, every generator, every game in flight, the pool, the logs),
``log.csv`` (one row per update), ``curve.csv`` and ``curve.png`` (greedy win share against random and
heuristic seats with Wilson 95% intervals, measured before learning and every ``eval_every`` samples
on the same seat-rotated games) and ``config.json``.
"""

from __future__ import annotations

import dataclasses
import math
import pathlib
import time

import numpy as np
import torch

from .. import registry
from ..agents.policy_network import CHECKPOINT_FORMAT, ActorCritic, policy_blob
from .config import EVAL_OPPONENTS, check_counts, check_evaluation, check_game, check_numbers
from .evaluate import evaluate
from .pool import DEFAULT_POOL, parse_pool
from .ppo import PPOUpdate
from .rollout import FINAL_REWARDS, RolloutWorker
from .run import SampleProgress, Trainer, save_torch, write_run
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


# The defaults before #48 (SB3's network and PPO settings, the mixed self-play pool, win shares): a run saved
# before one of these settings existed ran with its value here, and `bench training` compares SB3 with them.
PLAIN_PPO = {
    "num_envs": 64,
    "rollout_samples": 4096,
    "minibatch": 1024,
    "epochs": 4,
    "lr": 3e-4,
    "gae_lambda": 0.95,
    "ent_coef": 0.01,
    "hidden": (64, 64),
    "pool": DEFAULT_POOL,
    "reward": "win_share",
    "dense": False,
    "kickstart": 0.0,
    "anneal_lr": False,
}


@dataclasses.dataclass
class SelfPlayConfig:
    """Every setting of a run (saved in the checkpoint; a resume keeps them, only ``timesteps`` may grow).

    The defaults are the best known recipe (docs/training.md, benchmarks/TRAINING.md): PPO against the game's
    heuristic, kickstarted from its moves, on dense score shares, with a 256 x 256 network. ``PLAIN_PPO`` holds
    the settings the defaults replaced."""

    game: str = registry.DEFAULT_GAME
    num_players: int | None = None
    timesteps: int = 60_000  # samples: non-forced decisions of seats played by the current policy
    num_envs: int = 32  # games in flight, over all workers
    rollout_samples: int = 2048  # samples per PPO update
    minibatch: int = 256
    epochs: int = 10
    lr: float = 1e-3
    gamma: float = 1.0  # win shares arrive at the end of finite games
    gae_lambda: float = 0.8
    clip: float = 0.2
    ent_coef: float = 0.0  # no entropy bonus: 13 of 16 untuned seeds passed, 12 of 16 with it (TRAINING.md)
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: tuple[int, ...] = (256, 256)
    pool: str = "heuristic=1"  # the seats the learner must beat; "self=..." for self-play
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
    reward: str = "score_share"  # score minus the table's mean over the mean; or win_share / score_margin
    dense: bool | None = None  # credit each decision with the change of its seat's score reward (rollout.py);
    # None: dense with a score reward, final with a win share
    kickstart: float = 1.0  # weight of the cross-entropy to the heuristic's moves at the start (ppo.py) ...
    kickstart_samples: int = 30_000  # ... falling linearly to 0 over this many samples
    anneal_lr: bool = True  # the learning rate falls linearly from lr to 0 at timesteps (CleanRL's PPO default)
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
        if self.dense is None:
            self.dense = self.reward in FINAL_REWARDS
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


class SelfPlayTrainer(Trainer):
    """A self-play PPO run: the learner, the pool and the rollout workers (``Trainer`` opens the run)."""

    config_class, checkpoint_format, kind = SelfPlayConfig, CHECKPOINT_FORMAT, "self-play"
    model_file = ("policy", "policy.pt")
    older_defaults = PLAIN_PPO  # a checkpoint saved before the recipe became the default ran with these

    def _build(self) -> None:
        cfg, k = self.cfg, self.kernel
        self.net = ActorCritic(k.OBS_SIZE, k.NUM_ACTIONS, cfg.hidden)
        self.ppo = PPOUpdate(self.net, cfg.lr, cfg.clip, cfg.ent_coef, cfg.vf_coef, cfg.max_grad_norm, cfg.target_kl)
        self.rng = np.random.default_rng([cfg.seed, 0x99])
        self.snapshots = [self._weights()]
        self.snapshot_version = 0
        self.samples = self.updates = self.games_done = 0
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

    # --- state -----------------------------------------------------------------------------------
    def _restore(self, saved: dict) -> None:
        self.net.load_state_dict(saved["net"])
        self.ppo.optimizer.load_state_dict(saved["optimizer"])
        self.rng.bit_generator.state = saved["rng"]
        torch.set_rng_state(saved["torch_rng"])
        self.snapshots, self.snapshot_version = saved["snapshots"], saved["snapshot_version"]
        self.samples, self.updates, self.games_done = saved["samples"], saved["updates"], saved["games"]
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
            "games": self.games_done,
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
        self.games_done += len(finished)
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
            "games": self.games_done,
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

    def reached(self, total: int) -> bool:
        """The run has made ``total`` samples."""
        return self.samples >= total

    def _learn(self, bar: SampleProgress, until: int) -> None:
        """One PPO update (``update``), shown on ``bar``."""
        row = self.update()
        bar.update(self.samples, row["samples_per_s"], self.games_done)


def train_selfplay(game: str = registry.DEFAULT_GAME, out: str | pathlib.Path = "train_runs/selfplay", **run) -> dict:
    """Train (or, with ``resume``, continue) a self-play run: ``run`` holds ``Trainer.train``'s ``torch_threads``,
    ``resume``, ``progress`` and ``overwrite`` and ``SelfPlayConfig`` fields. A folder that holds a run is refused
    unless ``resume`` or ``overwrite`` (``prepare_out``)."""
    return SelfPlayTrainer.train(game, out, **run)
