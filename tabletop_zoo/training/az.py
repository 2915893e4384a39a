"""AlphaZero-style self-play training: games played by the network-guided search, targets from its visits.

    tabletop-zoo train az irish_gauge --players 3 --timesteps 20000 --simulations 32 --out runs/az

``num_envs`` games are in flight, every seat played by the search with the current network; each round,
the search of every waiting seat runs as one batch (``agents/az/search.py``: the network evaluates the
leaves of all games at once). A searched decision is a sample: the mover's observation and mask, the root
visit shares (the policy target) and, when its game ends, the seat-relative returns (value target: row k
is the return of seat ``(mover + k) % players``). Forced decisions are applied without a search. The root
prior is mixed with Dirichlet noise, and the first ``explore_moves`` searched decisions of a game sample
their action in proportion to the visits (then the most visited). Samples go to a replay buffer of the
latest ``replay`` ones; every ``train_every`` new samples, ``updates`` Adam steps on minibatches from it
(cross-entropy to the visit shares, squared error to the returns).

``pool`` (``--pool self=0.7,heuristic=0.3``) lets the game's heuristic or a random player take seats of the
training games: each seat is drawn from it, one uniform seat is always searched, and only searched seats
give samples (their value targets still hold every seat's return). The default, ``self=1``, is pure
self-play.

The games are split over ``workers`` (``az_worker.AZWorker``: each owns its share of the games, their
trees, its generator, the pool seats and the pending samples, and searches with the weights it is sent);
``backend="local"`` runs them in this process one after the other, ``"ray"`` as one Ray actor each
(``workers.py``, shared with the PPO trainer). The learner keeps the replay buffer and the Adam steps. A
worker plays rounds until it has made its share (in proportion to its games) of ``train_every`` samples
since the last training round, then waits; once every worker waits, the samples of the games that ended
go to the replay, worker by worker, the learner trains, and the next call carries the new weights.
Evaluations and the end of a run only pause the workers (at their shares of that many samples), so the
result depends on the seed and the worker count alone: the same on either backend, wherever a run
evaluates, and across a resume. One worker makes exactly the draws of the single-process trainer this
replaced (the learner's minibatches continue worker 0's generator).

``OUT/`` holds ``az.pt`` (loads as ``az:path=OUT/az.pt``), ``checkpoint.pt`` (everything an exact resume
needs: weights, optimiser, generators, the replay buffer, and each worker's games in flight, generator, pool
seats and pending samples; format 3: tensors and plain values only, so resuming never unpickles; formats 1 and 2
held numpy objects and are refused),
``log.csv``, ``curve.csv`` / ``curve.png`` (the search with the current network against random and
heuristic seats, seat-rotated, Wilson 95% intervals) and ``config.json``.
"""

from __future__ import annotations

import dataclasses
import pathlib
import time

import numpy as np
import torch

from .. import registry
from ..agents.az.network import AZNet, az_blob, masked_log_softmax
from ..agents.az.search import Trees, search_batch
from . import plain
from .az_worker import AZWorker
from .config import AZ_EVAL_OPPONENTS, check_counts, check_evaluation, check_game, check_numbers
from .evaluate import play_evaluation
from .pool import parse_pool
from .run import SampleProgress, Trainer, save_torch, write_run
from .workers import check_workers, make_workers, split_games, worker_specs

CHECKPOINT_FORMAT = "tabletop_zoo.az.checkpoint/3"  # /1 (one process) and /2 held numpy objects: never loaded


@dataclasses.dataclass
class AZConfig:
    """Every setting of a run (saved in the checkpoint; a resume keeps them, only ``timesteps`` may grow, and
    ``backend`` and ``address``, which do not change the result, are the resuming call's)."""

    game: str = registry.DEFAULT_GAME
    num_players: int | None = None
    timesteps: int = 50_000  # samples: searched (non-forced) decisions (the CLI's default too)
    num_envs: int = 32  # games in flight, searched as one batch
    simulations: int = 32  # per searched decision
    c: float = 1.25
    dirichlet_alpha: float = 0.3
    noise: float = 0.25  # root prior = (1 - noise) * network + noise * Dirichlet
    explore_moves: int = 30  # searched decisions per game that sample from the visits
    replay: int = 20_000
    train_every: int = 1024  # new samples between training rounds
    updates: int = 8  # Adam steps per training round
    minibatch: int = 512
    lr: float = 1e-3
    weight_decay: float = 1e-4
    hidden: tuple[int, ...] = (256, 256)
    eval_every: int | None = None  # samples between evaluations (default: timesteps / 4)
    eval_games: int = 20
    eval_opponents: tuple[str, ...] = AZ_EVAL_OPPONENTS
    seed: int = 0
    options: dict = dataclasses.field(default_factory=dict)
    pool: str = "self=1"  # who plays each seat: self (the search), heuristic, random; one seat is always searched
    backend: str = "local"  # where the workers run: "local" (this process) or "ray" (one actor each)
    workers: int = 1  # the games in flight are split over them
    address: str | None = None  # a Ray cluster to join (default: start a local Ray)

    def check(self) -> AZConfig:
        """Validate every field (clear one-line errors before any work) and fill defaults."""
        check_game(self)
        check_counts(self, ("timesteps", "num_envs", "simulations", "replay", "train_every", "updates", "minibatch"), 1)
        check_counts(self, ("explore_moves", "eval_games"), 0)
        check_numbers(self, (("c", 0, 100), ("noise", 0, 1), ("lr", 0, 1), ("weight_decay", 0, 1)))
        if isinstance(self.dirichlet_alpha, bool) or not (
            isinstance(self.dirichlet_alpha, (int, float)) and self.dirichlet_alpha > 0
        ):
            raise ValueError(f"dirichlet_alpha must be a number > 0, got {self.dirichlet_alpha!r}")
        check_evaluation(self, 4)
        check_workers(self)
        if parse_pool(self.pool)["snapshot"]:
            raise ValueError(f"an az pool draws from self, heuristic and random (no snapshots), got {self.pool!r}")
        return self


class Replay:
    """The latest ``size`` samples in preallocated arrays (a ring)."""

    def __init__(self, size: int, obs_size: int, num_actions: int, max_players: int):
        self.size, self.count, self.next = size, 0, 0
        self.obs = np.zeros((size, obs_size), np.float32)
        self.mask = np.zeros((size, num_actions), np.uint8)
        self.pi = np.zeros((size, num_actions), np.float32)
        self.z = np.zeros((size, max_players), np.float32)

    def add(self, obs, mask, pi, z) -> None:
        i = self.next
        self.obs[i], self.mask[i], self.pi[i], self.z[i] = obs, mask, pi, z
        self.next = (i + 1) % self.size
        self.count = min(self.count + 1, self.size)

    def add_many(self, obs, mask, pi, z) -> None:
        """``add`` of each row in order, in one step (of more rows than ``size``, the last ``size`` stay)."""
        n = len(obs)
        keep = min(n, self.size)
        idx = (self.next + n - keep + np.arange(keep)) % self.size
        self.obs[idx], self.mask[idx], self.pi[idx], self.z[idx] = obs[-keep:], mask[-keep:], pi[-keep:], z[-keep:]
        self.next = (self.next + n) % self.size
        self.count = min(self.count + n, self.size)

    def get_state(self) -> dict:
        """Tensors and ints only (``plain.py``)."""
        return {"count": self.count, "next": self.next, **{k: plain.tensor(getattr(self, k)) for k in _ARRAYS}}

    def set_state(self, state: dict) -> None:
        self.count, self.next = state["count"], state["next"]
        for k in _ARRAYS:
            setattr(self, k, plain.array(state[k]))


_ARRAYS = ("obs", "mask", "pi", "z")  # a replay's and a chunk of incoming samples' arrays


class AZTrainer(Trainer):
    """An az run: the learner, the replay and the workers (``Trainer`` opens the run; see the module docstring)."""

    config_class, checkpoint_format, kind = AZConfig, CHECKPOINT_FORMAT, "az"
    from_call = ("backend", "address")
    model_file = ("network", "az.pt")

    def _build(self) -> None:
        cfg, k = self.cfg, self.kernel
        self.net = AZNet(k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS, cfg.hidden)
        self.net.eval()
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        self.rng = np.random.default_rng([cfg.seed, 0xA2])  # worker 0's generator between calls (az_worker.py)
        self.replay = Replay(cfg.replay, k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS)
        self.trees = (  # the evaluation's searches
            Trees(cfg.eval_games, cfg.simulations, k.NUM_ACTIONS, k.MAX_PLAYERS, k.OBS_SIZE) if cfg.eval_games else None
        )
        self.samples = self.games_done = self.rounds = 0
        self.made = [0] * cfg.workers  # searched decisions of each worker
        self.since = [0] * cfg.workers  # each worker's since the last training round
        self.incoming: list[list[dict]] = [[] for _ in range(cfg.workers)]  # finished games' samples, per worker,
        # until the next training round adds them to the replay (worker 0's first: the same order however the
        # workers' rounds were split into calls)
        self.version = 0  # training rounds so far: the weights' version
        self.sent: list[int | None] = [None] * cfg.workers  # the version each worker has
        self.wall = 0.0
        self.log: list[dict] = []
        self.curve: list[dict] = []
        self.shares = split_games(cfg.num_envs, cfg.workers)
        specs = worker_specs(
            cfg,
            simulations=cfg.simulations,
            c=cfg.c,
            dirichlet_alpha=cfg.dirichlet_alpha,
            noise=cfg.noise,
            explore_moves=cfg.explore_moves,
        )
        self.workers = make_workers(cfg.backend, AZWorker, specs, cfg.address)

    # --- self-play ----------------------------------------------------------------------------------
    def share(self, total: int, w: int) -> int:
        """Worker ``w``'s part of ``total`` samples: in proportion to its games, rounded up."""
        return -(-total * self.shares[w] // self.cfg.num_envs)

    def reached(self, total: int) -> bool:
        """Every worker has made its share of ``total`` samples (so together at least ``total``)."""
        return all(m >= self.share(total, w) for w, m in enumerate(self.made))

    def waiting(self) -> list[bool]:
        """Which workers have made their share of ``train_every`` since the last training round (they play
        on only after it)."""
        return [s >= self.share(self.cfg.train_every, w) for w, s in enumerate(self.since)]

    def play(self, until: int) -> int:
        """One call of the workers toward ``until`` samples in all; returns the searched decisions made.

        Each worker plays rounds until its share of ``until`` or of ``train_every`` since the last training
        round, whichever comes first (at the second it waits for the training). When a worker waits below
        its share of ``until``, the others play to their training share too, so the training can happen;
        when every worker waits (the replay is still empty), each plays one round. Where a worker pauses is
        all that ``until`` (the next evaluation or the end) changes: a worker's rounds between two training
        rounds are the same however the calls split them, so the run's result does not depend on when it
        evaluates or stops and resumes. Workers get the weights when they changed since their last call,
        worker 0 the learner's generator (and gives it back)."""
        cfg = self.cfg
        waiting = self.waiting()
        targets: list[int | None] = []
        if all(waiting):
            targets = [0] * cfg.workers
        else:
            blocked = any(wait and self.made[w] < self.share(until, w) for w, wait in enumerate(waiting))
            for w, wait in enumerate(waiting):
                to_train = self.share(cfg.train_every, w) - self.since[w]
                to_until = self.share(until, w) - self.made[w]
                if wait:
                    targets.append(None)
                elif to_until > 0:
                    targets.append(min(to_train, to_until))
                else:
                    targets.append(to_train if blocked else None)
        weights = (
            self._weights()
            if any(t is not None and self.sent[w] != self.version for w, t in enumerate(targets))
            else None
        )
        calls = [
            None
            if t is None
            else (
                weights if self.sent[w] != self.version else None,
                t,
                self.rng.bit_generator.state if w == 0 else None,
            )
            for w, t in enumerate(targets)
        ]
        results = self.workers.call("play", calls)
        n = 0
        for w, r in enumerate(results):
            if r is None:
                continue
            self.sent[w] = self.version
            self.incoming[w].append({key: r[key] for key in ("obs", "mask", "pi", "z")})
            self.made[w] += r["samples"]
            self.since[w] += r["samples"]
            self.games_done += r["games"]
            self.rounds += r["rounds"]
            n += r["samples"]
        if results[0] is not None:
            self.rng.bit_generator.state = results[0]["rng"]
        self.samples += n
        return n

    def training_due(self) -> bool:
        """Every worker waits for a training round: the samples that came in go to the replay (worker by
        worker); true when there is something to learn from."""
        if not all(self.waiting()):
            return False
        for chunks in self.incoming:
            for c in chunks:
                self.replay.add_many(c["obs"], c["mask"], c["pi"], c["z"])
        self.incoming = [[] for _ in self.incoming]
        return self.replay.count > 0

    def close(self) -> None:
        """Stop the workers (and the local Ray a Ray backend started)."""
        self.workers.close()

    # --- learning -----------------------------------------------------------------------------------
    def train_round(self) -> dict:
        """``updates`` Adam steps on minibatches of the replay buffer; mean losses."""
        cfg, r = self.cfg, self.replay
        n = cfg.num_players
        self.net.train()
        policy_loss = value_loss = 0.0
        for _ in range(cfg.updates):
            idx = self.rng.integers(0, r.count, min(cfg.minibatch, r.count))
            obs = torch.from_numpy(r.obs[idx])
            mask = torch.from_numpy(r.mask[idx].astype(bool))
            pi = torch.from_numpy(r.pi[idx])
            z = torch.from_numpy(r.z[idx, :n])
            logits, values = self.net(obs)
            logp = torch.where(mask, masked_log_softmax(logits, mask), torch.zeros_like(logits))
            lp = -(pi * logp).sum(1).mean()
            lv = ((values[:, :n] - z) ** 2).sum(1).mean()
            self.optimizer.zero_grad()
            (lp + lv).backward()
            self.optimizer.step()
            policy_loss += lp.item() / cfg.updates
            value_loss += lv.item() / cfg.updates
        self.net.eval()
        self.version += 1
        self.since = [0] * self.cfg.workers
        return {"policy_loss": policy_loss, "value_loss": value_loss}

    def evaluate(self) -> list[dict]:
        rows = []
        for opponent in self.cfg.eval_opponents:
            result = evaluate_az(self, opponent)
            rows.append({"samples": self.samples, **result, "wall_s": round(self.wall, 2)})
        self.curve += rows
        return rows

    # --- state --------------------------------------------------------------------------------------
    def _restore(self, saved: dict) -> None:
        self.net.load_state_dict(saved["net"])
        self.optimizer.load_state_dict(saved["optimizer"])
        self.rng.bit_generator.state = saved["rng"]
        torch.set_rng_state(saved["torch_rng"])
        self.replay.set_state(saved["replay"])
        self.samples, self.games_done, self.rounds = saved["samples"], saved["games_done"], saved["rounds"]
        self.made, self.since = list(saved["made"]), list(saved["since"])
        self.incoming = [[{k: plain.array(c[k]) for k in _ARRAYS} for c in chunks] for chunks in saved["incoming"]]
        self.version, self.wall = saved["version"], saved["wall"]
        self.log, self.curve = saved["log"], saved["curve"]
        self.workers.set_state(saved["workers"])

    def _meta(self) -> dict:
        c = self.cfg
        return {
            "command": f"tabletop-zoo train az {c.game} --players {c.num_players} --timesteps {c.timesteps} "
            f"--simulations {c.simulations} --num-envs {c.num_envs} --seed {c.seed}"
            + ("" if c.pool == "self=1" else f" --pool {c.pool}")
            + ("" if c.workers == 1 else f" --workers {c.workers}")
            + ("" if c.backend == "local" else f" --backend {c.backend}")
            + "".join(
                f" --option {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in self._given_options()
            ),
            "samples": self.samples,
            "games": self.games_done,
            "wall_s": round(self.wall, 1),
            "num_players": c.num_players,
            "simulations": c.simulations,
            "hidden": list(c.hidden),
        }

    def _given_options(self) -> list[tuple[str, object]]:
        """The training games' options that differ from the game's defaults (what ``--option`` set)."""
        defaults = self.kernel.resolve_options()
        return [(k, v) for k, v in self.cfg.options.items() if defaults.get(k) != v]

    def save(self) -> None:
        """``checkpoint.pt`` (atomically replaced), ``az.pt``, logs and the curve."""
        save_torch(self.out / "az.pt", az_blob(self.net, self.cfg.game, self._meta()))
        state = {
            "format": CHECKPOINT_FORMAT,
            "config": dataclasses.asdict(self.cfg),
            "net": self._weights(),
            "optimizer": self.optimizer.state_dict(),
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
            "replay": self.replay.get_state(),
            "workers": self.workers.get_state(),
            "samples": self.samples,
            "games_done": self.games_done,
            "rounds": self.rounds,
            "made": list(self.made),
            "since": list(self.since),
            "incoming": [[{k: plain.tensor(c[k]) for k in _ARRAYS} for c in chunks] for chunks in self.incoming],
            "version": self.version,
            "wall": self.wall,
            "log": self.log,
            "curve": self.curve,
        }
        title = f"{self.cfg.game}, {self.cfg.num_players} players, az ({self.cfg.simulations} simulations)"
        write_run(self.out, state, self.cfg, self.log, self.curve, title, "the search")

    # --- the loop ---------------------------------------------------------------------------------------
    def _learn(self, bar: SampleProgress, until: int) -> None:
        """The workers play toward ``until`` samples, then a training round if one is due (logged)."""
        t0 = time.perf_counter()
        n = self.play(until)
        t1 = time.perf_counter()
        row = None
        if self.training_due():
            row = self.train_round()
        dt = time.perf_counter() - t0
        self.wall += dt
        if row is not None:
            self.log.append(
                {
                    "round": self.rounds,
                    "samples": self.samples,
                    "games": self.games_done,
                    "search_s": t1 - t0,
                    "train_s": dt - (t1 - t0),
                    **row,
                    "replay": self.replay.count,
                    "wall_s": self.wall,
                }
            )
        bar.update(self.samples, n / dt, self.games_done)


def evaluate_az(trainer: AZTrainer, opponent: str) -> dict:
    """Mean win share of the search with the current network (no noise, most visited action) over
    ``eval_games`` seat-rotated games against ``opponent`` in every other seat."""
    cfg = trainer.cfg

    def search(batch, rows, rng):
        seeds = rng.integers(0, 2**63, rows.size, dtype=np.uint64)
        visits, _ = search_batch(
            batch.records[rows], cfg.num_players, trainer.trees, trainer.net.evaluate, cfg.simulations, cfg.c, seeds
        )
        return visits.argmax(1)

    return play_evaluation(
        search, trainer.kernel, cfg.game, cfg.num_players, cfg.options, opponent, cfg.eval_games, cfg.seed + 1, 0xE7A2
    )


def train_az(game: str = registry.DEFAULT_GAME, out: str | pathlib.Path = "train_runs/az", **run) -> dict:
    """Train (or, with ``resume``, continue) an az run: ``run`` holds ``Trainer.train``'s ``torch_threads``,
    ``resume``, ``progress`` and ``overwrite`` and ``AZConfig`` fields. A folder that holds a run is refused unless
    ``resume`` or ``overwrite`` (``run.prepare_out``)."""
    return AZTrainer.train(game, out, **run)
