"""Groups of workers that play the training games, in this process or as Ray actors (both trainers).

A worker class (``RolloutWorker`` for PPO, ``AZWorker`` for az) owns its share of the games in flight and all
the generators that play them, so what a method call returns depends only on the worker's constructor
arguments (its seed and index among them), its earlier calls and what the call is sent: the same on either
backend. ``LocalWorkers`` runs the workers in this process one after the other; ``RayWorkers`` makes one Ray
actor per worker (one CPU and one torch thread each) and runs a call on all of them at once. Both have the
same methods: ``call(method, args)`` (one argument tuple per worker, or None to leave that worker idle;
the results in worker order, None for an idle worker),
``get_state`` / ``set_state`` (every worker's state, for exact resume) and ``close``. Both worker classes are
``GameWorker``s: the games, the generator and the heuristics in pool seats are set up and saved one way.
"""

from __future__ import annotations

import abc

import numpy as np
import torch

from .. import registry
from .._ray import start_ray
from ..agents import heuristic_class
from . import plain
from .batch import HEURISTIC, BatchGames
from .config import check_counts
from .pool import parse_pool

BACKENDS = ("local", "ray")


def check_workers(cfg) -> None:
    """``backend`` known, ``workers`` an integer >= 1 and no more than the games in flight (``num_envs``), and
    an ``address`` only for the Ray backend (a local run would ignore it)."""
    check_counts(cfg, ("workers",), 1)
    if cfg.num_envs < cfg.workers:
        raise ValueError(f"num_envs ({cfg.num_envs}) must be at least workers ({cfg.workers})")
    if cfg.backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {cfg.backend!r}")
    if cfg.address is not None and cfg.backend != "ray":
        raise ValueError(f"address {cfg.address!r} is a Ray cluster's: it needs backend='ray', got {cfg.backend!r}")


def split_games(num_envs: int, workers: int) -> list[int]:
    """Games per worker: as even as can be, the first ones one more."""
    return [num_envs // workers + (w < num_envs % workers) for w in range(workers)]


def worker_specs(cfg, **settings) -> list[dict]:
    """Each worker's constructor arguments: its share of the games and what every trainer's worker takes
    (game, players, options, pool, seed, its index, the network's hidden sizes), plus the trainer's ``settings``."""
    pool = parse_pool(cfg.pool)
    common = {"game_id": cfg.game, "num_players": cfg.num_players, "options": cfg.options, "pool": pool}
    return [
        {**common, "num_envs": envs, "seed": cfg.seed, "worker": w, "hidden": cfg.hidden, **settings}
        for w, envs in enumerate(split_games(cfg.num_envs, cfg.workers))
    ]


class GameWorker(abc.ABC):
    """What every trainer's worker owns: ``num_envs`` games of ``game_id`` (``BatchGames``), its generator ``rng``
    (``default_rng([seed, *stream, worker])``: seat draws and game seeds) and the game's heuristic in each heuristic
    seat (``heuristics[(game, seat)]``). The constructor takes ``worker_specs``' arguments; a subclass builds the
    rest from its own ``settings`` in ``_setup`` and sets up game ``i`` in ``_start(i)`` (through ``start_game``)."""

    stream: tuple[int, ...] = ()  # the subclass's generator key between the seed and the worker's index

    def __init__(
        self,
        game_id: str,
        num_players: int,
        options: dict,
        num_envs: int,
        pool: dict,
        seed: int,
        worker: int = 0,
        torch_threads: int | None = None,
        **settings,
    ):
        if torch_threads:
            torch.set_num_threads(int(torch_threads))
        self.game_id, self.num_players, self.seed, self.worker = game_id, num_players, seed, worker
        self.kernel = registry.kernel(game_id)
        self.pool = dict(pool)
        self.rng = np.random.default_rng([seed, *self.stream, worker])
        self.games = BatchGames(self.kernel, num_envs, num_players, options)
        self.heuristic_class = heuristic_class(game_id)  # looked up once: a game start only seeds a new one
        self.heuristics: dict[tuple[int, int], object] = {}  # (game, seat) -> the heuristic playing it
        self.started = False
        self._setup(**settings)

    @abc.abstractmethod
    def _setup(self, **settings) -> None:
        """The subclass's own part: its network and buffers, from its ``settings`` (unknown ones refused)."""

    @abc.abstractmethod
    def _start(self, i: int) -> None:
        """Set up game ``i``: draw its seat kinds, ``start_game``, reset the subclass's record of it."""

    def start(self) -> None:
        """Set up every game (once: the first call after the worker's state has arrived does it)."""
        if not self.started:
            for i in range(self.games.num_envs):
                self._start(i)
            self.started = True

    def start_game(self, i: int, kinds) -> None:
        """Game ``i`` anew with seat kinds ``kinds``: a heuristic seeded from ``rng`` in each heuristic seat, then
        the game's seed and its random seats' seed, in that order."""
        for seat in range(self.num_players):
            self.heuristics.pop((i, seat), None)
            if kinds[seat] == HEURISTIC:
                self.heuristics[(i, seat)] = self.heuristic_class(seed=int(self.rng.integers(2**31)))
        self.games.start(i, int(self.rng.integers(2**63)), int(self.rng.integers(2**63)), kinds)

    def get_state(self) -> dict:
        """Tensors and plain values only (``plain.py``): a checkpoint loads without unpickling."""
        return {
            "games": self.games.get_state(),
            "rng": self.rng.bit_generator.state,
            "heuristics": plain.heuristics_state(self.heuristics),
            "started": bool(self.started),
        }

    def set_state(self, state: dict) -> None:
        """Continue exactly from ``get_state``'s ``state``."""
        self.games.set_state(state["games"])
        self.rng.bit_generator.state = state["rng"]
        self.heuristics = plain.restore_heuristics(self.heuristic_class, state["heuristics"])
        self.started = state["started"]


class LocalWorkers:
    """The workers in this process, run one after the other (the same draws as one Ray actor each)."""

    def __init__(self, worker_class, specs: list[dict]):
        self.workers = [worker_class(**spec) for spec in specs]

    def call(self, method: str, args: list[tuple | None]) -> list:
        return [None if a is None else getattr(w, method)(*a) for w, a in zip(self.workers, args, strict=True)]

    def get_state(self) -> list:
        return [w.get_state() for w in self.workers]

    def set_state(self, states: list) -> None:
        for w, s in zip(self.workers, states, strict=True):
            w.set_state(s)

    def close(self) -> None:
        pass


class RayWorkers:
    """One Ray actor per worker; a local Ray is started (and shut down by ``close``) when none is running,
    ``address`` joins a running cluster instead."""

    def __init__(self, worker_class, specs: list[dict], address: str | None = None):
        self.ray, self.started = start_ray(address, len(specs))  # one clear line when Ray fails to start
        ray = self.ray
        actor = ray.remote(num_cpus=1)(worker_class)
        self.workers = [actor.remote(**{**spec, "torch_threads": 1}) for spec in specs]

    def call(self, method: str, args: list[tuple | None]) -> list:
        refs = [None if a is None else getattr(w, method).remote(*a) for w, a in zip(self.workers, args, strict=True)]
        done = iter(self.ray.get([r for r in refs if r is not None]))
        return [None if r is None else next(done) for r in refs]

    def get_state(self) -> list:
        return plain.cloned(self.ray.get([w.get_state.remote() for w in self.workers]))

    def set_state(self, states: list) -> None:
        self.ray.get([w.set_state.remote(s) for w, s in zip(self.workers, states, strict=True)])

    def close(self) -> None:
        for w in self.workers:
            self.ray.kill(w)
        self.workers = []
        if self.started:
            self.ray.shutdown()
            self.started = False


def make_workers(backend: str, worker_class, specs: list[dict], address: str | None = None):
    """``RayWorkers`` for ``backend="ray"``, else ``LocalWorkers``."""
    return RayWorkers(worker_class, specs, address) if backend == "ray" else LocalWorkers(worker_class, specs)
