"""AlphaZero-style self-play training: games played by the network-guided search, targets from its visits.

    tabletop-zoo train irish_gauge --algo az --players 3 --timesteps 20000 --simulations 32 --out runs/az

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

``OUT/`` holds ``az.pt`` (loads as ``az:path=OUT/az.pt``), ``checkpoint.pt`` (everything an exact resume
needs: weights, optimiser, generators, the replay buffer, every game in flight and its pending samples),
``log.csv``, ``curve.csv`` / ``curve.png`` (the search with the current network against random and
heuristic seats, seat-rotated, Wilson 95% intervals) and ``config.json``.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
import time

import numpy as np
import torch

from .. import registry
from ..agents.az.network import AZNet, masked_log_softmax, save_az
from ..agents.az.search import Trees, search_batch
from .batch import HEURISTIC, LEARNER, OVER, BatchGames
from .config import EVAL_OPPONENTS, check_counts, check_evaluation, check_game, check_numbers
from .evaluate import play_evaluation
from .pool import draw_seats, parse_pool
from .trainer import _Bar, _write_rows, load_checkpoint, set_torch_threads, write_curve_png

CHECKPOINT_FORMAT = "tabletop_zoo.az.checkpoint/1"


@dataclasses.dataclass
class AZConfig:
    """Every setting of a run (saved in the checkpoint; a resume keeps them, only ``timesteps`` may grow)."""

    game: str = "irish_gauge"
    num_players: int | None = None
    timesteps: int = 20_000  # samples: searched (non-forced) decisions
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
    eval_opponents: tuple[str, ...] = EVAL_OPPONENTS
    seed: int = 0
    options: dict = dataclasses.field(default_factory=dict)
    pool: str = "self=1"  # who plays each seat: self (the search), heuristic, random; one seat is always searched

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

    def get_state(self) -> dict:
        return {k: getattr(self, k) for k in ("count", "next", "obs", "mask", "pi", "z")}

    def set_state(self, state: dict) -> None:
        for k, v in state.items():
            setattr(self, k, v.copy() if isinstance(v, np.ndarray) else v)


def relative_returns(returns: np.ndarray, seat: int, num_players: int, max_players: int) -> np.ndarray:
    """Row k: the return of seat ``(seat + k) % num_players`` (the value target of ``seat``'s sample)."""
    z = np.zeros(max_players, np.float32)
    z[:num_players] = returns[(seat + np.arange(num_players)) % num_players]
    return z


class AZTrainer:
    def __init__(
        self, config: AZConfig, out, torch_threads: int | None = None, resume: bool = False, progress: bool = False
    ):
        self.out = pathlib.Path(out)
        saved = load_checkpoint(self.out, CHECKPOINT_FORMAT) if resume else None
        if saved is not None:
            config = AZConfig(**{**saved["config"], "timesteps": max(config.timesteps, saved["samples"])})
        self.cfg = cfg = config.check()
        set_torch_threads(torch_threads)
        self.progress = progress
        torch.manual_seed(cfg.seed)
        self.kernel = k = registry.kernel(cfg.game)
        self.net = AZNet(k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS, cfg.hidden)
        self.net.eval()
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
        self.rng = np.random.default_rng([cfg.seed, 0xA2])
        self.replay = Replay(cfg.replay, k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS)
        self.trees = Trees(max(cfg.num_envs, cfg.eval_games), cfg.simulations, k.NUM_ACTIONS, k.MAX_PLAYERS, k.OBS_SIZE)
        self.games = BatchGames(k, cfg.num_envs, cfg.num_players, cfg.options)
        self.pool = parse_pool(cfg.pool)
        self.heuristics: dict[tuple[int, int], object] = {}  # (game, seat) -> the heuristic playing it
        self.pending: list[list[tuple]] = [[] for _ in range(cfg.num_envs)]  # a game's samples until it ends
        self.searched = np.zeros(cfg.num_envs, np.int64)  # searched decisions per game in flight
        self.samples = self.games_done = self.rounds = 0
        self.since_train = 0
        self.wall = 0.0
        self.log: list[dict] = []
        self.curve: list[dict] = []
        if saved is not None:
            self._restore(saved)
        else:
            for i in range(cfg.num_envs):
                self._start(i)

    # --- games ------------------------------------------------------------------------------------
    def _start(self, i: int) -> None:
        from ..agents import make_agent

        n = self.cfg.num_players
        kinds = np.full(n, LEARNER, np.int64) if self.pool["self"] == 1 else draw_seats(self.pool, n, 0, self.rng)
        for seat in range(n):
            self.heuristics.pop((i, seat), None)
            if kinds[seat] == HEURISTIC:
                self.heuristics[(i, seat)] = make_agent("heuristic", self.cfg.game, seed=int(self.rng.integers(2**31)))
        self.games.start(i, int(self.rng.integers(2**63)), int(self.rng.integers(2**63)), kinds)
        self.pending[i] = []
        self.searched[i] = 0

    def _noise(self, prior: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Dirichlet noise over each root's legal actions (AlphaZero's exploration)."""
        out = prior.copy()
        for j in range(len(prior)):
            legal = np.flatnonzero(mask[j])
            eta = self.rng.dirichlet(np.full(legal.size, self.cfg.dirichlet_alpha))
            out[j, legal] = (1 - self.cfg.noise) * prior[j, legal] + self.cfg.noise * eta
        return out

    def play_round(self) -> int:
        """One decision in every game (searched, or the heuristic's in its seats); finished games hand their
        samples to the replay and restart. Returns the samples of the round."""
        cfg, g = self.cfg, self.games
        rows = np.flatnonzero(g.seats >= 0)
        kinds = g.kinds[rows, g.seats[rows]]
        mine = rows[kinds == LEARNER]
        if mine.size:
            seeds = self.rng.integers(0, 2**63, mine.size, dtype=np.uint64)
            visits, _ = search_batch(
                g.records[mine],
                cfg.num_players,
                self.trees,
                self.net.evaluate,
                cfg.simulations,
                cfg.c,
                seeds,
                self._noise,
            )
        for i in rows[kinds == HEURISTIC]:
            g.actions[i] = self.heuristics[(i, g.seats[i])].act(g.obs[i].copy(), g.masks[i].view(np.int8).copy())
        for j, i in enumerate(mine):
            pi = visits[j] / visits[j].sum()
            if self.searched[i] < cfg.explore_moves:
                g.actions[i] = int(self.rng.choice(pi.size, p=pi))
            else:
                g.actions[i] = int(visits[j].argmax())
            self.pending[i].append((g.obs[i].copy(), g.masks[i].copy(), pi.astype(np.float32), int(g.seats[i])))
            self.searched[i] += 1
        g.step(rows)
        for i in np.flatnonzero(g.seats == OVER):
            returns = g.returns(int(i))
            for obs, mask, pi, seat in self.pending[i]:
                z = relative_returns(returns, seat, cfg.num_players, self.kernel.MAX_PLAYERS)
                self.replay.add(obs, mask, pi, z)
            self.games_done += 1
            self._start(int(i))
        self.samples += mine.size
        self.since_train += mine.size
        self.rounds += 1
        return mine.size

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
        self.games.set_state(saved["games"])
        self.pending, self.searched = saved["pending"], saved["searched"].copy()
        self.samples, self.games_done, self.rounds = saved["samples"], saved["games_done"], saved["rounds"]
        self.since_train, self.wall = saved["since_train"], saved["wall"]
        self.log, self.curve = saved["log"], saved["curve"]
        self.heuristics = dict(saved.get("heuristics", {}))

    def _meta(self) -> dict:
        c = self.cfg
        return {
            "command": f"tabletop-zoo train {c.game} --algo az --players {c.num_players} --timesteps {c.timesteps} "
            f"--simulations {c.simulations} --num-envs {c.num_envs} --seed {c.seed}"
            + ("" if c.pool == "self=1" else f" --pool {c.pool}")
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
        self.out.mkdir(parents=True, exist_ok=True)
        save_az(self.out / "az.pt", self.net, self.cfg.game, self._meta())
        state = {
            "format": CHECKPOINT_FORMAT,
            "config": dataclasses.asdict(self.cfg),
            "net": {k: v.detach().clone() for k, v in self.net.state_dict().items()},
            "optimizer": self.optimizer.state_dict(),
            "rng": self.rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
            "replay": self.replay.get_state(),
            "games": self.games.get_state(),
            "pending": self.pending,
            "heuristics": dict(self.heuristics),
            "searched": self.searched.copy(),
            "samples": self.samples,
            "games_done": self.games_done,
            "rounds": self.rounds,
            "since_train": self.since_train,
            "wall": self.wall,
            "log": self.log,
            "curve": self.curve,
        }
        tmp = self.out / "checkpoint.pt.tmp"
        torch.save(state, tmp)
        tmp.replace(self.out / "checkpoint.pt")
        (self.out / "config.json").write_text(json.dumps(dataclasses.asdict(self.cfg), indent=1) + "\n")
        _write_rows(self.out / "log.csv", self.log)
        _write_rows(self.out / "curve.csv", self.curve)
        if self.curve:
            title = f"{self.cfg.game}, {self.cfg.num_players} players, az ({self.cfg.simulations} simulations)"
            write_curve_png(self.curve, self.out / "curve.png", title, 1.0 / self.cfg.num_players)

    # --- the loop ---------------------------------------------------------------------------------------
    def run(self) -> dict:
        cfg = self.cfg
        bar = _Bar(cfg.timesteps, self.samples, self.progress)
        try:
            if not self.curve and cfg.eval_games:
                bar.evaluated({r["opponent"]: r["win_share"] for r in self.evaluate()})
            next_eval = (self.samples // cfg.eval_every + 1) * cfg.eval_every
            while self.samples < cfg.timesteps:
                t0 = time.perf_counter()
                n = self.play_round()
                t1 = time.perf_counter()
                row = None
                if self.since_train >= cfg.train_every and self.replay.count:
                    self.since_train = 0
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
                if self.samples >= next_eval or self.samples >= cfg.timesteps:
                    if cfg.eval_games:
                        bar.evaluated({r["opponent"]: r["win_share"] for r in self.evaluate()})
                    next_eval = (self.samples // cfg.eval_every + 1) * cfg.eval_every
                    self.save()
            if not self.log:
                self.save()
        finally:
            bar.stop()
        return {
            "network": str(self.out / "az.pt"),
            "checkpoint": str(self.out / "checkpoint.pt"),
            "curve": self.curve,
            "samples": self.samples,
            "games": self.games_done,
            "wall_s": self.wall,
        }


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


def train_az(
    game: str = "irish_gauge", out="train_runs/az", torch_threads=None, resume=False, progress=False, **settings
):
    """Train (or, with ``resume``, continue) an az run; ``settings`` are ``AZConfig`` fields."""
    unknown = sorted(set(settings) - {f.name for f in dataclasses.fields(AZConfig)})
    if unknown:
        raise ValueError(
            f"unknown az setting(s) {unknown}; allowed: {', '.join(f.name for f in dataclasses.fields(AZConfig))}"
        )
    return AZTrainer(AZConfig(game=game, **settings), out, torch_threads, resume, progress).run()
