"""az self-play workers: a share of the games in flight, searched with the weights the learner sends.

An ``AZWorker`` owns ``num_envs`` games (``BatchGames``), their search trees (``Trees``), its generator
(seat draws, game seeds, search seeds, Dirichlet noise, the exploring moves), the heuristics playing pool
seats, and each game's pending samples (its searched decisions until the game ends and their value targets
are known). ``play(weights, samples, rng_state)`` plays rounds until it has made ``samples`` searched
decisions and returns the samples of the games that ended (observation, mask, visit shares, seat-relative
returns), how many decisions it searched, the rounds and the games that ended. A round is one decision in
each of its games: the search of every waiting searched seat as one batch (``agents/az/search.py``), the
heuristic's in its seats, forced decisions and random seats inside numba (``BatchGames``).

Worker ``w`` draws from ``default_rng([seed, 0xA2, w])``. The learner's minibatch draws continue worker 0's
generator: it sends worker 0 its state with every call and takes the advanced state back, so one worker
makes exactly the draws of the single-process trainer that played and trained from one generator.
"""

from __future__ import annotations

import numpy as np
import torch

from ..agents.az.network import AZNet
from ..agents.az.search import Trees, search_batch
from . import plain
from .batch import HEURISTIC, LEARNER, OVER
from .pool import draw_seats
from .workers import GameWorker


def relative_returns(returns: np.ndarray, seat: int, num_players: int, max_players: int) -> np.ndarray:
    """Row k: the return of seat ``(seat + k) % num_players`` (the value target of ``seat``'s sample)."""
    z = np.zeros(max_players, np.float32)
    z[:num_players] = returns[(seat + np.arange(num_players)) % num_players]
    return z


class AZWorker(GameWorker):
    """``num_envs`` self-play games of ``game_id``; see the module docstring."""

    stream = (0xA2,)

    def _setup(
        self, hidden, simulations: int, c: float, dirichlet_alpha: float, noise: float, explore_moves: int
    ) -> None:
        """The network, the trees and the search's settings (``AZConfig``'s, sent by ``worker_specs``)."""
        k, num_envs = self.kernel, self.games.num_envs
        self.simulations, self.c, self.explore_moves = simulations, float(c), explore_moves
        self.dirichlet_alpha, self.noise = float(dirichlet_alpha), float(noise)
        with torch.random.fork_rng(devices=[]):  # the weights come with the first call: leave torch's seed alone
            self.net = AZNet(k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS, hidden)
        self.net.eval()
        self.trees = Trees(num_envs, simulations, k.NUM_ACTIONS, k.MAX_PLAYERS, k.OBS_SIZE)
        self.pending: list[list[tuple]] = [[] for _ in range(num_envs)]  # a game's samples until it ends
        self.searched = np.zeros(num_envs, np.int64)  # searched decisions per game in flight
        self.done: list[tuple] = []  # samples of the games that ended since the last ``play``
        self.games_done = 0

    # --- games ------------------------------------------------------------------------------------
    def _start(self, i: int) -> None:
        n = self.num_players
        kinds = np.full(n, LEARNER, np.int64) if self.pool["self"] == 1 else draw_seats(self.pool, n, 0, self.rng)
        self.start_game(i, kinds)
        self.pending[i] = []
        self.searched[i] = 0

    def _noise(self, prior: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Dirichlet noise over each root's legal actions (AlphaZero's exploration)."""
        out = prior.copy()
        for j in range(len(prior)):
            legal = np.flatnonzero(mask[j])
            eta = self.rng.dirichlet(np.full(legal.size, self.dirichlet_alpha))
            out[j, legal] = (1 - self.noise) * prior[j, legal] + self.noise * eta
        return out

    def round(self) -> int:
        """One decision in every game (searched, or the heuristic's in its seats); the samples of finished
        games go to ``done`` and the games restart. Returns the searched decisions of the round."""
        self.start()
        g = self.games
        rows = np.flatnonzero(g.seats >= 0)
        kinds = g.kinds[rows, g.seats[rows]]
        mine = rows[kinds == LEARNER]
        if mine.size:
            seeds = self.rng.integers(0, 2**63, mine.size, dtype=np.uint64)
            visits, _ = search_batch(
                g.records[mine],
                self.num_players,
                self.trees,
                self.net.evaluate,
                self.simulations,
                self.c,
                seeds,
                self._noise,
            )
        for i in rows[kinds == HEURISTIC]:
            g.actions[i] = self.heuristics[(i, g.seats[i])].act(g.obs[i].copy(), g.masks[i].view(np.int8).copy())
        for j, i in enumerate(mine):
            pi = visits[j] / visits[j].sum()
            if self.searched[i] < self.explore_moves:
                g.actions[i] = int(self.rng.choice(pi.size, p=pi))
            else:
                g.actions[i] = int(visits[j].argmax())
            self.pending[i].append((g.obs[i].copy(), g.masks[i].copy(), pi.astype(np.float32), int(g.seats[i])))
            self.searched[i] += 1
        g.step(rows)
        for i in np.flatnonzero(g.seats == OVER):
            returns = g.returns(int(i))
            for obs, mask, pi, seat in self.pending[i]:
                self.done.append(
                    (obs, mask, pi, relative_returns(returns, seat, self.num_players, g.kernel.MAX_PLAYERS))
                )
            self.games_done += 1
            self._start(int(i))
        return int(mine.size)

    # --- the learner's calls --------------------------------------------------------------------------
    def play(self, weights: dict | None, samples: int, rng_state: dict | None = None) -> dict:
        """Rounds until at least ``samples`` searched decisions (at least one round: ``samples=0`` plays
        exactly one), with ``weights`` loaded first (None: the network is unchanged since the last call)
        and the generator set to ``rng_state`` first (None: keep it). Returns the finished games' samples
        (``obs``, ``mask``, ``pi``, ``z``, in the order they ended), ``samples`` (searched decisions),
        ``rounds``, ``games`` (games that ended) and ``rng`` (the generator's state)."""
        if weights is not None:
            self.net.load_state_dict(weights)
        if rng_state is not None:
            self.rng.bit_generator.state = rng_state
        n = rounds = 0
        games0 = self.games_done
        while rounds == 0 or n < samples:
            n += self.round()
            rounds += 1
        return {
            **self.take(),
            "samples": n,
            "rounds": rounds,
            "games": self.games_done - games0,
            "rng": self.rng.bit_generator.state,
        }

    def take(self) -> dict:
        """The samples in ``done`` as arrays (emptying it)."""
        k, done = self.kernel, self.done
        self.done = []
        return {
            "obs": np.array([s[0] for s in done], np.float32).reshape(-1, k.OBS_SIZE),
            "mask": np.array([s[1] for s in done], np.uint8).reshape(-1, k.NUM_ACTIONS),
            "pi": np.array([s[2] for s in done], np.float32).reshape(-1, k.NUM_ACTIONS),
            "z": np.array([s[3] for s in done], np.float32).reshape(-1, k.MAX_PLAYERS),
        }

    # --- exact resume ----------------------------------------------------------------------------------
    def get_state(self) -> dict:
        """``GameWorker``'s, with each game's pending samples, its searched decisions and the samples to send."""
        return {
            **super().get_state(),
            "pending": [pending_state(self.kernel, p) for p in self.pending],
            "searched": plain.tensor(self.searched),
            "games_done": int(self.games_done),
            "done": sample_columns(self.kernel, self.done, SAMPLE),
        }

    def set_state(self, state: dict) -> None:
        """Continue exactly from ``get_state``'s ``state``."""
        super().set_state(state)
        self.pending = [
            [(*arrays, seat) for arrays, seat in zip(plain.unstacked([p[c] for c in PENDING]), p["seat"], strict=True)]
            for p in state["pending"]
        ]
        plain.load_array(self.searched, state["searched"])
        self.games_done = state["games_done"]
        self.done = plain.unstacked([state["done"][c] for c in SAMPLE])


def sample_columns(kernel, rows: list[tuple], columns: tuple[str, ...]) -> dict:
    """The leading ``columns`` of sample rows ``(obs, mask, pi, z)``, one tensor each."""
    k = kernel
    widths = {"obs": k.OBS_SIZE, "mask": k.NUM_ACTIONS, "pi": k.NUM_ACTIONS, "z": k.MAX_PLAYERS}
    dtypes = {"obs": np.float32, "mask": np.uint8, "pi": np.float32, "z": np.float32}
    tensors = plain.stacked(rows, tuple(widths[c] for c in columns), tuple(dtypes[c] for c in columns))
    return dict(zip(columns, tensors, strict=True))


def pending_state(kernel, rows: list[tuple]) -> dict:
    """A game in flight's samples ``(obs, mask, pi, seat)`` as tensors and the seats as ints."""
    return {**sample_columns(kernel, rows, PENDING), "seat": [int(r[3]) for r in rows]}


SAMPLE = ("obs", "mask", "pi", "z")  # a finished game's sample: its value target z known
PENDING = SAMPLE[:3]  # a game in flight's sample (its seat kept beside, for z when the game ends)
