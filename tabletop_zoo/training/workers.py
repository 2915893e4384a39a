"""Groups of workers that play the training games, in this process or as Ray actors (both trainers).

A worker class (``RolloutWorker`` for PPO, ``AZWorker`` for az) owns its share of the games in flight and all
the generators that play them, so what a method call returns depends only on the worker's constructor
arguments (its seed and index among them), its earlier calls and what the call is sent: the same on either
backend. ``LocalWorkers`` runs the workers in this process one after the other; ``RayWorkers`` makes one Ray
actor per worker (one CPU and one torch thread each) and runs a call on all of them at once. Both have the
same methods: ``call(method, args)`` (one argument tuple per worker, or None to leave that worker idle;
the results in worker order, None for an idle worker),
``get_state`` / ``set_state`` (every worker's state, for exact resume) and ``close``.
"""

from __future__ import annotations

from .._ray import start_ray
from . import plain
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
