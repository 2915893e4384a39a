"""Rollout workers: play a batch of games with the current policy and the pool, return PPO samples.

A sample is one non-forced decision of a seat played by the current policy: that seat's own
observation and mask, the action, its log-probability and value. Each (game, seat) is its own
trajectory: its samples in order, credited at the end with that seat's final return (win share), also
when the game ended on another seat's move or on a forced decision. Advantages come from TorchRL's GAE
formula over the trajectories laid end to end (``done`` at each trajectory's
last sample; ``terminated`` when its game ended, else it was cut by the end of the rollout and is
bootstrapped with the value of the seat's current observation).

With ``kickstart`` the worker also keeps a teacher, the game's heuristic with a stream of draws of its own, and
a rollout asked to ``teach`` labels each sample with the teacher's choice in that position (``teacher``), for the
update's cross-entropy term (``ppo.py``); the moves played are the policy's either way.

The worker owns its games and all its random generators, so ``collect`` depends only on the worker's
seed and the weights it is given: the same on the local and the Ray backend.
"""

from __future__ import annotations

import numpy as np
import torch
from numba import njit

from ..agents.policy_network import ActorCritic
from . import plain
from .batch import HEURISTIC, LEARNER, OVER, SNAPSHOT
from .inference import RolloutPolicy
from .pool import draw_seats
from .workers import GameWorker


@njit(cache=True)
def gae(value, next_value, reward, done, terminated, gamma, lam):
    """Generalised advantage estimation over trajectories laid end to end (TorchRL's formula and done /
    terminated convention). Hand-written because TorchRL's ``generalized_advantage_estimate`` loops over
    time in Python (about 1 s per 4096 samples here) and its vectorised variant pads every trajectory
    (0.3 s); a test checks this scan against TorchRL's on random data."""
    adv = np.zeros(value.shape[0], np.float32)
    running = 0.0
    for t in range(value.shape[0] - 1, -1, -1):
        delta = reward[t] + gamma * next_value[t] * (1.0 - terminated[t]) - value[t]
        running = delta + gamma * lam * (1.0 - done[t]) * running
        adv[t] = running
    return adv


def score_margins(scores: np.ndarray) -> np.ndarray:
    """Each seat's final score minus the table's mean, divided by the largest such gap at the table: in [-1, 1],
    summing to 0, the same scale in every game (all zeros when every seat scores alike)."""
    gap = scores - scores.mean()
    return (gap / max(float(np.abs(gap).max()), 1e-9)).astype(np.float64)


def score_shares(scores: np.ndarray) -> np.ndarray:
    """Each seat's final score minus the table's mean, divided by the table's mean score: the table's number of seats
    times the seat's share of all points, minus 1 (for non-negative scores; the mean of absolute scores otherwise).
    In [-1, n - 1], summing to 0. Unlike ``score_margins`` it does not saturate: a seat far behind two close rivals
    gets -1 from ``score_margins`` however far behind it is, but here each point it gains counts."""
    gap = scores - scores.mean()
    return (gap / max(float(np.abs(scores).mean()), 1e-9)).astype(np.float64)


FINAL_REWARDS = {"score_margin": score_margins, "score_share": score_shares}  # besides the kernel's win shares


class RolloutWorker(GameWorker):
    """``num_envs`` games of ``game_id``; ``collect`` plays until ``num_samples`` samples are gathered."""

    def _setup(
        self,
        hidden=(64, 64),
        gamma: float = 1.0,
        gae_lambda: float = 0.95,
        reward: str = "win_share",
        dense: bool = False,
        kickstart: bool = False,
    ) -> None:
        """The policy and its generator, the pool, the teacher and the credit settings (the trainer's)."""
        k, num_envs = self.kernel, self.games.num_envs
        self.gamma, self.gae_lambda = float(gamma), float(gae_lambda)
        self.reward, self.dense = reward, dense
        # dense: each seat's reward potential (its score reward on the scores of now) when last credited
        self.potential = np.zeros((num_envs, k.MAX_PLAYERS))
        self.net = ActorCritic(k.OBS_SIZE, k.NUM_ACTIONS, hidden)
        self.policy: RolloutPolicy | None = None  # the current weights, as the rollout plays them
        self.snapshots: list[RolloutPolicy] = []
        self.snapshot_version = -1
        self.generator = torch.Generator().manual_seed(int(self.rng.integers(2**62)))
        # kickstart: the heuristic labels each learner sample with its own choice there (its own stream of draws)
        teacher_seed = int(np.random.default_rng([self.seed, self.worker, 0x7EAC]).integers(2**31))
        self.teacher = self.heuristic_class(seed=teacher_seed) if kickstart else None
        self.game_uid = np.full(num_envs, -1, np.int64)
        self.next_uid = 0
        self._buf: dict | None = None

    # --- the pool --------------------------------------------------------------------------------
    def set_snapshots(self, version: int, states: list[dict]) -> None:
        if version == self.snapshot_version:
            return
        k = self.kernel
        self.snapshots = []
        for state in states:
            net = ActorCritic(k.OBS_SIZE, k.NUM_ACTIONS, self.net.hidden)
            net.load_state_dict(state)
            self.snapshots.append(RolloutPolicy(net))
        self.snapshot_version = version

    def _start(self, i: int) -> None:
        self.start_game(i, draw_seats(self.pool, self.num_players, len(self.snapshots), self.rng))
        self.potential[i] = 0.0
        self.game_uid[i] = self.next_uid
        self.next_uid += 1

    # --- one rollout -----------------------------------------------------------------------------
    def collect(
        self,
        weights: dict,
        num_samples: int,
        snapshot_version: int | None = None,
        snapshots: list[dict] | None = None,
        teach: bool = False,
    ) -> dict:
        """Play with ``weights`` until ``num_samples`` samples; return them with advantages and statistics
        (``teach``: with the teacher's choice at each sample, ``teacher``)."""
        if teach and self.teacher is None:
            raise ValueError("teach needs a worker made with kickstart=True")
        if snapshots is not None:
            self.set_snapshots(snapshot_version, snapshots)
        if not self.snapshots:
            raise ValueError("the pool needs at least one snapshot (the trainer adds the untrained policy)")
        self.net.load_state_dict(weights)
        self.policy = RolloutPolicy(self.net)
        g, k = self.games, self.kernel
        self.start()
        buf = self._buffers(num_samples + g.num_envs)
        nxt = np.full(buf["action"].shape[0], -1, np.int64)
        last = np.full((g.num_envs, k.MAX_PLAYERS), -1, np.int64)  # each open trajectory's latest sample
        finished: list[dict] = []
        n, decisions, forced0 = 0, 0, int(g.forced[0])
        rows = np.arange(g.num_envs, dtype=np.int64)
        while n < num_samples:
            seats = g.seats.copy()
            kinds = g.kinds[rows, seats]
            decisions += g.num_envs
            n = self._learner_moves(np.flatnonzero(kinds == LEARNER), seats, buf, nxt, last, n, teach)
            for j in np.unique(kinds[kinds >= SNAPSHOT]):
                idx = np.flatnonzero(kinds == j)
                snapshot = self.snapshots[j - SNAPSHOT]
                g.actions[idx] = snapshot.act(g.obs[idx], g.masks[idx], self.generator, with_value=False)[0]
            for i in np.flatnonzero(kinds == HEURISTIC):
                agent = self.heuristics[(i, seats[i])]
                g.actions[i] = agent.act(g.obs[i].copy(), g.masks[i].view(np.int8).copy())
            g.step(rows)
            for i in np.flatnonzero(g.seats == OVER):
                finished.append(self._finish(i, buf, last))
                self._start(i)
        boot = np.zeros(n, np.float32)
        open_i, open_seat = np.nonzero(last >= 0)  # trajectories cut by the end of the rollout: bootstrap
        if self.dense:
            for i, seat in zip(open_i, open_seat):
                self._shape(i, seat, last[i, seat], buf)
        if open_i.size:
            obs = np.stack([g.observe(i, seat) for i, seat in zip(open_i, open_seat)])
            boot[last[open_i, open_seat]] = self.net.value(obs)
        kept = [key for key in buf if key != "teacher" or teach]
        out = self._advantages({key: buf[key][:n].copy() for key in kept}, nxt[:n], boot)
        out["finished"] = finished
        out["decisions"] = decisions
        out["forced"] = int(g.forced[0]) - forced0
        return out

    def _buffers(self, cap: int) -> dict:
        """Sample buffers, kept between rollouts (fresh pages cost more than the copies)."""
        k = self.kernel
        if self._buf is None or self._buf["action"].shape[0] != cap:
            self._buf = {
                "obs": np.zeros((cap, k.OBS_SIZE), np.float32),
                "mask": np.zeros((cap, k.NUM_ACTIONS), bool),
                "action": np.zeros(cap, np.int64),
                "logp": np.zeros(cap, np.float32),
                "value": np.zeros(cap, np.float32),
                "reward": np.zeros(cap, np.float32),
                "terminated": np.zeros(cap, bool),
                "stream": np.zeros(cap, np.int64),
                "teacher": np.zeros(cap, np.int64),
            }
        for key in ("reward", "terminated"):
            self._buf[key][:] = 0
        return self._buf

    def _learner_moves(self, idx, seats, buf, nxt, last, n, teach) -> int:
        g = self.games
        if idx.size == 0:
            return n
        action, logp, value = self.policy.act(g.obs[idx], g.masks[idx], self.generator)
        new = np.arange(n, n + idx.size)
        buf["obs"][new] = g.obs[idx]
        buf["mask"][new] = g.masks[idx]
        buf["action"][new], buf["logp"][new], buf["value"][new] = action, logp, value
        if teach:
            for i, j in zip(idx, new):
                buf["teacher"][j] = self.teacher.act(g.obs[i].copy(), g.masks[i].view(np.int8).copy())
        buf["stream"][new] = self.game_uid[idx] * self.kernel.MAX_PLAYERS + seats[idx]
        prev = last[idx, seats[idx]]
        if self.dense:
            for i, j in zip(idx[prev >= 0], prev[prev >= 0]):
                self._shape(i, seats[i], j, buf)
        nxt[prev[prev >= 0]] = new[prev >= 0]
        last[idx, seats[idx]] = new
        g.actions[idx] = action
        return n + idx.size

    def final_reward(self, i: int) -> np.ndarray:
        """What finished game ``i`` pays each seat: its win share, or a normalised score margin."""
        if self.reward == "win_share":
            return self.games.returns(i)
        return FINAL_REWARDS[self.reward](self.games.scores(i))

    def _shape(self, i: int, seat: int, j: int, buf) -> None:
        """dense: credit sample ``j`` of game ``i``'s ``seat`` with the change of the seat's score reward, taken on
        the scores of now, since it was last credited. Potential-based shaping (Ng et al. 1999): the credits of a
        trajectory sum to its final reward, and the best policy stays the best."""
        now = FINAL_REWARDS[self.reward](self.games.scores(i))[seat]
        buf["reward"][j] += now - self.potential[i, seat]
        self.potential[i, seat] = now

    def _finish(self, i: int, buf, last) -> dict:
        """Credit every policy seat of finished game ``i`` with its final reward (dense: what is left of it)."""
        ret = self.final_reward(i)
        for seat in range(self.num_players):
            j = last[i, seat]
            if j >= 0:
                buf["reward"][j] += ret[seat] - self.potential[i, seat]
                buf["terminated"][j] = True
                last[i, seat] = -1
        return {
            "uid": int(self.game_uid[i]),
            "returns": ret.tolist(),
            "kinds": self.games.kinds[i, : self.num_players].tolist(),
            "last_mover": int(self.games.movers[i]),
        }

    def _advantages(self, data: dict, nxt: np.ndarray, boot: np.ndarray) -> dict:
        order = np.argsort(data["stream"], kind="stable")  # each trajectory contiguous, in time order
        value = data["value"]
        next_value = np.where(nxt >= 0, value[np.maximum(nxt, 0)], np.where(data["terminated"], 0.0, boot))
        done = nxt < 0
        adv = np.zeros_like(value)
        adv[order] = gae(
            value[order],
            next_value[order].astype(np.float32),
            data["reward"][order],
            done[order].astype(np.float32),
            data["terminated"][order].astype(np.float32),
            self.gamma,
            self.gae_lambda,
        )
        data["advantage"] = adv
        data["value_target"] = adv + value
        return data

    # --- exact resume ----------------------------------------------------------------------------
    def get_state(self) -> dict:
        """``GameWorker``'s, with the policy's generator, the games' ids and potentials and the teacher."""
        return {
            **super().get_state(),
            "generator": self.generator.get_state(),
            "game_uid": plain.tensor(self.game_uid),
            "potential": plain.tensor(self.potential),
            "teacher": None if self.teacher is None else plain.heuristic_state(self.teacher),
            "next_uid": int(self.next_uid),
        }

    def set_state(self, state: dict) -> None:
        """Continue exactly from ``get_state``'s ``state``."""
        super().set_state(state)
        self.generator.set_state(state["generator"])
        plain.load_array(self.game_uid, state["game_uid"])
        plain.load_array(self.potential, state["potential"])
        teacher = state["teacher"]
        self.teacher = None if teacher is None else plain.restore_heuristic(self.heuristic_class, teacher)
        self.next_uid = state["next_uid"]
