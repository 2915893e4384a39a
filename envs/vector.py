"""``VecGames``: a batch of games of one kind stepped by one numba call, every seat played by the caller.

    vec = tabletop_zoo.make_vec("irish_gauge", num_envs=1024, num_players=4, seed=0)
    out = vec.reset()
    while training:
        actions = policy(out.observation, out.action_mask, out.current_player)   # one action per lane
        out = vec.step(actions)
        # out.rewards[i, p]: what seat p of lane i got for this step (the game's returns when it ended)

Each lane is one game. ``reset()`` and ``step(actions)`` return a ``VecStep`` of arrays, batch first:
``observation[B, OBS_SIZE]`` (the seat to move, seat-relative, as ``env.observe(agent_selection)``),
``action_mask[B, NUM_ACTIONS]``, ``current_player[B]``, ``rewards[B, N]`` (every seat's reward for the step),
``terminated[B]`` and ``truncated[B]``.

Autoreset happens in the same step (Gymnasium's ``SAME_STEP`` mode): a lane whose game ends (``terminated``,
by the rules, or ``truncated``, at ``max_cycles``) has that game's rewards in ``rewards`` and already holds
its next game: the observation, mask and player are the new game's first decision. What the finished game
leaves is kept until the lane's next step in ``final`` (``seed``, ``length``, ``scores``, ``returns`` and the
last ``observation`` as the seat that acted in that step sees it).
Chance is resolved inside the step from each record's own generator, as the AEC env does.

Every lane's game is the AEC env's game: lane ``i`` plays ``make_env(game).reset(seed=vec.seeds[i])``
followed by the same actions (``seeds`` holds the seed of each lane's current game; each lane draws its next
game's seed from its own generator, seeded from ``seed``). With ``skip_forced=True``, decisions with one legal
action are applied inside the step and never returned (``forced[i]`` counts them; the env would have asked
for them). ``threads`` > 1 spreads the lanes over numba's threads with the same results, when the batch has at
least ``LANES_PER_THREAD`` lanes per thread; a smaller batch is stepped on the calling thread (``parallel`` says which),
since starting a parallel region costs more than the lanes it would share out.
With ``observations=False`` nothing is observed (``observation`` and ``final.observation`` are None): masks,
seats, rewards and records as before, at what the rules and masks cost (search, scripted seats, data whose
observations are made later from ``records``).

The arrays returned are this object's buffers, overwritten by the next call (as EnvPool and Pgx users do,
copy what you keep); ``records`` are the lanes' game records, for search and cloning (``kernel.step``,
``MCTSAgent.act_state``): change them only through ``step``.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, NamedTuple

import gymnasium
import numba
import numpy as np

from ..kernels._common import vector as lanes_mod
from ..kernels._common.layout import observation_bounds
from . import first_use

# Fewest lanes per thread for which ``threads`` > 1 runs the parallel loop. Two threads against one on 2 quiet cores
# (benchmarks/VECTOR.md, "Small batches on several threads"): 1.3-2.2x the time at 1-16 lanes, 0.96-1.13x at 32,
# 0.66-0.84x at 64.
LANES_PER_THREAD = 32

if TYPE_CHECKING:  # torchrl is optional (the train extra)
    from .torchrl_env import TorchRLVecEnv


class VecStep(NamedTuple):
    """What ``reset`` and ``step`` return, batch first (the object's buffers: copy what you keep)."""

    observation: np.ndarray | None  # float32[B, OBS_SIZE]: the seat to move's own view (None: observations=False)
    action_mask: np.ndarray  # uint8[B, NUM_ACTIONS]
    current_player: np.ndarray  # int64[B]: the seat to move
    rewards: np.ndarray  # float64[B, N]: every seat's reward for this step
    terminated: np.ndarray  # bool[B]: the lane's game ended by the rules in this step (and restarted)
    truncated: np.ndarray  # bool[B]: the lane's game hit max_cycles in this step (and restarted)


class FinalInfo(NamedTuple):
    """The games that ended in the last step, where ``terminated | truncated`` (other rows are stale)."""

    seed: np.ndarray  # uint64[B]: the finished game's seed
    length: np.ndarray  # int64[B]: its decisions (forced ones included)
    scores: np.ndarray  # int64[B, N]: its final scores
    returns: np.ndarray  # float64[B, N]: its returns (the rewards of that step; 0 when truncated)
    observation: np.ndarray | None  # float32[B, OBS_SIZE]: its last position, seen by the seat that acted in that step


def _warm(kernel, num_players: int, parallel: bool) -> None:
    """Compile the batch's entry (start and step) for ``kernel``, the parallel one if ``parallel``: a batch of the
    fewest lanes that runs it plays a few decisions."""
    threads = 2 if parallel else 1
    vec = VecGames(kernel, threads * LANES_PER_THREAD if parallel else 2, num_players, threads=threads)
    out = vec.reset()
    for _ in range(4):
        out = vec.step(out.action_mask.argmax(1))


def _count(value, name: str, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low:
        raise ValueError(f"{name} must be an int >= {low}, got {value!r}")
    return int(value)


class VecGames:
    """``num_envs`` games of ``kernel`` (see the module docstring); build it with ``tabletop_zoo.make_vec``."""

    def __init__(
        self,
        kernel,
        num_envs: int,
        num_players: int | None = None,
        seed: int = 0,
        *,
        skip_forced: bool = False,
        max_cycles: int | None = None,
        threads: int = 1,
        observations: bool = True,
        all_observations: bool = False,
        **options,
    ) -> None:
        k = self.kernel = kernel
        self.num_envs = _count(num_envs, "num_envs", 1)
        self.num_players = k.check_num_players(k.DEFAULT_PLAYERS if num_players is None else num_players)
        self.options = k.resolve_options(**options)
        self.threads = self._check_threads(threads)
        # the parallel loop only where it pays; the results are the same either way
        self.parallel = self.threads > 1 and self.num_envs >= self.threads * LANES_PER_THREAD
        flags = (skip_forced, observations, all_observations)
        if not all(isinstance(f, bool) for f in flags):
            raise ValueError(f"skip_forced, observations and all_observations must be True or False, got {flags}")
        if all_observations and not observations:
            raise ValueError("all_observations=True needs observations=True (every seat's view is an observation)")
        self.skip_forced, self.observing, self.all_observations = skip_forced, observations, all_observations
        self.max_cycles = None if max_cycles is None else _count(max_cycles, "max_cycles", 1)
        # decisions after which a game is cut, as the AEC env counts them (-1: never)
        self._limit = -1 if max_cycles is None else self.max_cycles * self.num_players
        self._args = k.game_args(self.num_players, **self.options)
        self._seed = k.check_seed(seed)
        self._blank = np.zeros(1, k.STATE)
        self.records = np.zeros(self.num_envs, k.STATE)
        self._lanes = self._allocate()
        self._actions = np.zeros(self.num_envs, np.int64)
        self.observations = (
            np.zeros((self.num_envs, self.num_players, k.OBS_SIZE), np.float32) if all_observations else None
        )
        self._started = False
        # a cold numba cache: compile the batch's entry now, saying so once (as the AEC env does)
        part = "vector-threads" if self.parallel else "vector"
        first_use.compile_once(k.GAME_ID, {part: lambda: _warm(k, self.num_players, self.parallel)})

    def _check_threads(self, threads) -> int:
        threads = _count(threads, "threads", 1)
        if threads > numba.config.NUMBA_NUM_THREADS:
            raise ValueError(f"threads must be in 1..{numba.config.NUMBA_NUM_THREADS} (numba's), got {threads}")
        return threads

    def _allocate(self) -> tuple:
        b, k, n = self.num_envs, self.kernel, self.num_players
        width = k.OBS_SIZE if self.observing else 0  # rows of width 0: the numba loop observes nothing
        arrays = {
            "rngs": np.zeros((b, 1), np.uint64),
            "seeds": np.zeros(b, np.uint64),
            "masks": np.zeros((b, k.NUM_ACTIONS), np.uint8),
            "obs": np.zeros((b, width), np.float32),
            "seats": np.zeros(b, np.int64),
            "rewards": np.zeros((b, n), np.float64),
            "terminated": np.zeros(b, np.bool_),
            "truncated": np.zeros(b, np.bool_),
            "length": np.zeros(b, np.int64),
            "forced": np.zeros(b, np.int64),
            "final_seed": np.zeros(b, np.uint64),
            "final_length": np.zeros(b, np.int64),
            "final_scores": np.zeros((b, k.MAX_PLAYERS), np.int64),
            "final_returns": np.zeros((b, k.MAX_PLAYERS), np.float64),
            "final_obs": np.zeros((b, width), np.float32),
        }
        assert tuple(arrays) == lanes_mod.LANE_ARRAYS
        self._named = arrays
        return tuple(arrays.values())

    # --- the batch -------------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> VecStep:
        """Start a new game in every lane; ``seed`` (default: the constructor's) seeds the lanes' generators."""
        seed = self._seed if seed is None else self.kernel.check_seed(seed)
        states = np.random.SeedSequence(seed).generate_state(self.num_envs, np.uint64)
        self._named["rngs"][:, 0] = states
        self._run(True)
        self._started = True
        return self._result()

    def step(self, actions) -> VecStep:
        """Apply one action per lane (each legal for its seat to move) and return every lane's next decision."""
        if not self._started:
            raise RuntimeError("reset() must be called before step()")
        self._check_actions(actions)
        self._run(False)
        return self._result()

    def _run(self, start: bool) -> None:
        args = (start, self.records, self._actions, self._blank, self.num_players, self._args, self.skip_forced)
        if not self.parallel:
            lane = lanes_mod.run_lanes(*args, self._limit, self._lanes)
        else:
            previous = numba.get_num_threads()
            numba.set_num_threads(self.threads)
            try:
                lane = lanes_mod.run_lanes_parallel(*args, self._limit, self._lanes)
            finally:
                numba.set_num_threads(previous)
        if lane >= 0:  # the kernel contract says a game never ends in its forced opening
            raise RuntimeError(f"lane {lane}: its new game ended before any decision (a kernel bug)")

    def _check_actions(self, actions) -> None:
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be {self.num_envs} integers (one per lane), got shape {a.shape} of {a.dtype}"
            )
        self._actions[:] = a
        masks = self._named["masks"]
        i = lanes_mod.first_illegal(masks, self._actions)
        if i < 0:
            return
        n = self.kernel.NUM_ACTIONS
        if not 0 <= a[i] < n:
            raise ValueError(f"lane {i}: action {int(a[i])} is out of range 0..{n - 1}")
        legal = np.flatnonzero(masks[i]).tolist()
        raise ValueError(
            f"lane {i}: action {int(a[i])} is illegal for seat {int(self._named['seats'][i])}; legal: {legal}"
        )

    def _result(self) -> VecStep:
        named = self._named
        if self.observations is not None:
            lanes_mod.observe_every_seat(self.records, self.num_players, self.observations)
        return VecStep(
            named["obs"] if self.observing else None,
            named["masks"],
            named["seats"],
            named["rewards"],
            named["terminated"],
            named["truncated"],
        )

    # --- what else a caller reads ----------------------------------------------------------------
    def current_seats(self) -> np.ndarray:
        """int64[B]: a copy of the seat to move in each lane (the one the next ``step`` acts for)."""
        return self._named["seats"].copy()

    def gymnasium(self, copy: bool = True) -> GymnasiumView:
        """This batch as a Gymnasium ``VectorEnv`` of the acting seat (``GymnasiumView``)."""
        return GymnasiumView(self, copy)

    def torchrl(self, device: str = "cpu") -> TorchRLVecEnv:
        """This batch as a TorchRL ``EnvBase`` (``tabletop_zoo.envs.torchrl_env.TorchRLVecEnv``; needs torchrl)."""
        from .torchrl_env import TorchRLVecEnv

        return TorchRLVecEnv(self, device=device)

    def need_observations(self, view: str) -> None:
        """Refuse, in one line, a ``view`` of this batch that returns observations when it makes none."""
        if not self.observing:
            raise ValueError(f"{view} needs observations; this batch was made with observations=False")

    @property
    def seeds(self) -> np.ndarray:
        """uint64[B]: the seed of each lane's current game (the AEC env's ``reset(seed=...)``)."""
        return self._named["seeds"]

    @property
    def forced(self) -> np.ndarray:
        """int64[B]: forced decisions each lane applied in the last call (``skip_forced``)."""
        return self._named["forced"]

    @property
    def lengths(self) -> np.ndarray:
        """int64[B]: decisions so far in each lane's current game."""
        return self._named["length"]

    @property
    def final(self) -> FinalInfo:
        """The games that ended in the last step (rows where ``terminated | truncated``)."""
        n, named = self.num_players, self._named
        return FinalInfo(
            named["final_seed"],
            named["final_length"],
            named["final_scores"][:, :n],
            named["final_returns"][:, :n],
            named["final_obs"] if self.observing else None,
        )

    def __repr__(self) -> str:
        return (
            f"VecGames({self.kernel.GAME_ID!r}, num_envs={self.num_envs}, num_players={self.num_players}, "
            f"skip_forced={self.skip_forced}, threads={self.threads}"
            + ("" if self.observing else ", observations=False")
            + ")"
        )


class GymnasiumView(gymnasium.vector.VectorEnv):
    """A Gymnasium 1.x ``VectorEnv`` of the seat to move in each lane (``VecGames.gymnasium()``).

    Each lane asks the seat to move for an action; the reward of a step is that (acting) seat's, and the
    rewards of every seat are in ``infos["rewards"]``; the legal mask of the next decision is in
    ``infos["action_mask"]`` and the seat in ``infos["current_player"]``. Autoreset is ``SAME_STEP``
    (``metadata["autoreset_mode"]``): a lane whose game ended returns its next game's first observation, with
    the finished game's last observation (as the acting seat saw it) in ``infos["final_obs"]`` and its seed,
    length, scores and returns in ``infos["final_info"]`` (Gymnasium's keys and batching: ``"_final_obs"`` marks
    the lanes, ``infos["final_info"]["seed"][i]`` is lane ``i``'s).
    Observations are copied (``copy=True``, Gymnasium's default) unless ``copy=False``.
    """

    metadata = {"autoreset_mode": gymnasium.vector.AutoresetMode.SAME_STEP}

    def __init__(self, vec: VecGames, copy: bool = True) -> None:
        vec.need_observations("the Gymnasium view")
        k = vec.kernel
        self.vec, self.copy = vec, bool(copy)
        self.num_envs = vec.num_envs
        self.single_observation_space = gymnasium.spaces.Box(*observation_bounds(k.OBS_PIECES), dtype=np.float32)
        self.single_action_space = gymnasium.spaces.Discrete(k.NUM_ACTIONS)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, self.num_envs)

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """A new game in every lane: (observations, infos); game options are fixed by ``make_vec``."""
        if options:
            raise ValueError(f"reset() takes no options here (game options are fixed by make_vec), got {options}")
        out = self.vec.reset(seed)
        return self._obs(out), self._infos(out)

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """One action per lane: (observations, the acting seats' rewards, terminated, truncated, infos)."""
        acting = self.vec.current_seats()
        out = self.vec.step(actions)
        reward = out.rewards[np.arange(self.num_envs), acting].astype(np.float32)
        infos = self._infos(out)
        infos["rewards"] = out.rewards.copy()
        for i in np.flatnonzero(out.terminated | out.truncated):
            final = self.vec.final
            # numpy scalars keep their dtype in Gymnasium's batched infos (a uint64 seed overflows an int64 array)
            info = {"seed": final.seed[i], "length": final.length[i], "scores": final.scores[i].copy()}
            info["returns"] = final.returns[i].copy()
            infos = self._add_info(infos, {"final_obs": final.observation[i].copy(), "final_info": info}, i)
        return self._obs(out), reward, out.terminated.copy(), out.truncated.copy(), infos

    def _obs(self, out: VecStep) -> np.ndarray:
        return out.observation.copy() if self.copy else out.observation

    def _infos(self, out: VecStep) -> dict:
        return {"action_mask": out.action_mask.astype(bool), "current_player": out.current_player.copy()}
