"""``SingleSeatEnv``: one learning seat of any game as a ``gymnasium.Env``, for SB3 / MaskablePPO.

The other seats are played by agents (random, heuristic, MCTS, a frozen policy, or a pool sampled each
episode). ``step`` applies the learner's action, then plays the opponents until the learner must act
again or the game ends, and returns the learner's own reward: the terminal reward of its seat, also
when the game ended on an opponent's move. The learner's seat rotates over episodes by default, so one
policy learns every seat. ``action_masks()`` is what sb3-contrib's MaskablePPO asks for.

Observation: the game's flat, seat-relative ``float32[OBS_SIZE]`` (a ``Box``); actions: ``Discrete``.
Opponents with ``act_for_seat(record)`` (MCTS) search the record (determinized for their own seat in
hidden-information games); all others see only their observation and mask.

``skip_forced=True`` (the default) applies the learner's decisions that have one legal action without
asking (a lone PASS is no decision: 26-40% of a learner's steps in some games); the game is the same
for the same seed and actions, only who is asked differs. ``illegal_action`` says what an illegal action
does: ``"raise"`` (the class's default, as the AEC envs) raises ``ValueError`` naming it and the legal ones;
``"penalize"`` ends the episode with reward -1, ``info["illegal_move"] = True`` and the action in
``info["action"]``, so checkers that step unmasked random actions (gymnasium's and SB3's ``check_env``) run.
The gymnasium ids default to ``"penalize"`` (``registry.GYMNASIUM_DEFAULTS``): a gymnasium env takes every
element of its action space. A seeded ``reset`` also
restarts the seat rotation, so the same seed gives the same episode. Render modes: ``"ansi"`` (the
text table) and ``"rgb_array"`` (the game's picture, for gymnasium's ``RecordVideo``), both the full
view. Registered as gymnasium ids ``tabletop_zoo/<game>-v0`` (``gymnasium.make("tabletop_zoo/kremlin-v0",
num_players=4, opponents="heuristic", render_mode="rgb_array")``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from tabletop_zoo import registry
from tabletop_zoo.agents import RandomAgent

from ...kernels._common.layout import observation_bounds
from ...kernels._common.record import copy_record
from ..base import ILLEGAL_ACTION_POLICIES
from ._actions import check_learner_action
from ._fast import advance_random

ILLEGAL_MOVE_PENALTY = -1.0  # as the AEC env's illegal_action="penalize"
RENDER_FPS = 2  # board games: a few positions a second is watchable in a video

OpponentSpec = str | object | Sequence[object] | Callable[[np.random.Generator], object]


def resolve_opponents(opponents: OpponentSpec, game_id: str, n_others: int, rng: np.random.Generator) -> list:
    """Agents for the other seats: a name ("random", "heuristic", "mcts"), an agent for every seat, a list
    of n-1 agents, or a callable ``pool(rng)`` returning either (sampled anew each episode)."""
    from tabletop_zoo.agents import make_agent

    if callable(opponents) and not hasattr(opponents, "act"):
        opponents = opponents(rng)
    if isinstance(opponents, str):
        return [make_agent(opponents, game_id, seed=int(rng.integers(2**31))) for _ in range(n_others)]
    if hasattr(opponents, "act"):
        return [opponents] * n_others
    agents = list(opponents)
    if len(agents) != n_others:
        raise ValueError(f"need {n_others} opponents (one per other seat), got {len(agents)}")
    return agents


class SingleSeatEnv(gymnasium.Env):
    """One learning seat of ``game`` as a ``gymnasium.Env`` (see the module docstring); ``options`` are the
    game's options. ``seed`` seeds the episodes' generator (game seeds, opponents, the learner's seat)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": RENDER_FPS}

    def __init__(
        self,
        game: str = registry.DEFAULT_GAME,
        num_players: int | None = None,
        opponents: OpponentSpec = "random",
        learner_seat: int | str = "rotate",
        seed: int | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        skip_forced: bool = True,
        **options,
    ) -> None:
        self.game_id = registry._canonical(game)
        self.kernel = k = registry.kernel(self.game_id)
        self.num_players = k.check_num_players(k.DEFAULT_PLAYERS if num_players is None else num_players)
        self.options = k.resolve_options(**options)
        if learner_seat != "rotate" and not (isinstance(learner_seat, int) and 0 <= learner_seat < self.num_players):
            raise ValueError(f"learner_seat must be 'rotate' or a seat 0..{self.num_players - 1}, got {learner_seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTION_POLICIES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_POLICIES}, got {illegal_action!r}")
        if not isinstance(skip_forced, bool):
            raise TypeError(f"skip_forced must be True or False, got {skip_forced!r}")
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.skip_forced = skip_forced
        self._penalized = False  # the episode ended on the learner's illegal action
        self.learner_seat = learner_seat
        self.opponents = opponents
        self.observation_space = spaces.Box(*observation_bounds(k.OBS_PIECES), dtype=np.float32)
        self.action_space = spaces.Discrete(k.NUM_ACTIONS)
        self._rng = np.random.default_rng(seed)
        self._episode = 0
        self._mask = np.zeros(k.NUM_ACTIONS, np.uint8)
        self._policy_rng = np.zeros(1, np.uint64)
        self._s = None
        self.seat = 0
        self._agents: list = []

    # --- episode ---------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """A new game, played up to the learner's first decision: ``(observation, {"seat", "game_seed"})``.
        The same ``seed`` gives the same episode; ``options`` are ignored (game options are fixed at
        construction)."""
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            self._episode = 0  # the same seed, the same episode (seat included)
        self._penalized = False
        k = self.kernel
        n = self.num_players
        self.seat = self._episode % n if self.learner_seat == "rotate" else self.learner_seat
        self._episode += 1
        game_seed = int(self._rng.integers(2**63))
        others = resolve_opponents(self.opponents, self.game_id, n - 1, self._rng)
        self._agents = others[: self.seat] + [None] + others[self.seat :]
        # Uniformly random opponents are played inside numba (same distribution, one call per step).
        self._all_random = all(isinstance(a, RandomAgent) for a in others)
        self._policy_rng[0] = np.uint64(self._rng.integers(2**63))
        state = k.new_state(n, game_seed, **self.options)
        if self._s is None:
            self._s = state
        else:
            self._s[:] = state  # in place: a batched vector env may own this record's memory
        self._advance()
        return self._observation(), {"seat": self.seat, "game_seed": game_seed}

    def _advance(self) -> None:
        """Play the opponents (and, with skip_forced, the learner's forced moves) until the learner has
        a choice or the game is over."""
        k, s = self.kernel, self._s
        if self._all_random:
            advance_random(s, self.seat, self._policy_rng, self._mask, self.skip_forced)  # one numba call
            return
        while True:
            self._play_opponents()
            if not self.skip_forced or k.is_over(s):
                return
            k.legal_mask(s, self._mask)
            legal = np.flatnonzero(self._mask)
            if legal.size != 1:
                return
            k.step(s, int(legal[0]))  # the learner's only legal action: no decision to ask for

    def _play_opponents(self) -> None:
        k, s = self.kernel, self._s
        obs = np.empty(k.OBS_SIZE, np.float32)
        while not k.is_over(s) and k.to_move(s) != self.seat:
            seat = int(k.to_move(s))
            agent = self._agents[seat]
            k.legal_mask(s, self._mask)
            if hasattr(agent, "act_for_seat"):
                action = agent.act_for_seat(s)
            else:
                k.observe(s, seat, obs)
                action = agent.act(obs.copy(), self._mask.view(np.int8).copy())
            if not (0 <= action < k.NUM_ACTIONS and self._mask[action]):
                raise RuntimeError(f"opponent {type(agent).__name__} in seat {seat} chose illegal action {action}")
            k.step(s, int(action))

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        """The learner's action, then the opponents' moves up to its next decision: ``(observation, reward,
        terminated, truncated, info)``; the reward is the learner's terminal reward (0 before the end), its final
        score and every seat's in ``info`` at the end. An illegal action: see ``illegal_action``."""
        if self._s is None:
            raise RuntimeError("reset() must be called before step()")
        k, s = self.kernel, self._s
        if k.is_over(s) or self._penalized:
            raise RuntimeError("the episode is over; call reset()")
        k.legal_mask(s, self._mask)
        try:
            action = check_learner_action(action, self._mask, self.seat)
        except ValueError:  # out of range or illegal (a non-integer stays a TypeError)
            if self.illegal_action != "penalize":
                raise
            return self._penalize(int(action))
        k.step(s, action)
        self._advance()
        terminated = bool(k.is_over(s))
        reward = 0.0
        info = {"seat": self.seat}
        if terminated:
            ret = np.zeros(k.MAX_PLAYERS)
            k.returns(s, ret)
            reward = float(ret[self.seat])  # the learner's own reward, whoever made the last move
            score = np.zeros(k.MAX_PLAYERS, np.int64)
            k.scores(s, score)
            info.update(score=int(score[self.seat]), scores=score[: self.num_players].tolist())
        return self._observation(), reward, terminated, False, info

    def _penalize(self, action: int):
        """illegal_action="penalize": the episode ends here, the learner gets ILLEGAL_MOVE_PENALTY."""
        self._penalized = True
        info = {"seat": self.seat, "illegal_move": True, "action": action}
        return self._observation(), ILLEGAL_MOVE_PENALTY, True, False, info

    # --- views -----------------------------------------------------------------------------------
    def _observation(self) -> np.ndarray:
        obs = np.empty(self.kernel.OBS_SIZE, np.float32)
        self.kernel.observe(self._s, self.seat, obs)
        return obs

    def action_masks(self) -> np.ndarray:
        """Boolean legal-action mask of the learner (all False once the episode is over)."""
        if self.kernel.is_over(self._s) or self._penalized:
            return np.zeros(self.kernel.NUM_ACTIONS, bool)
        self.kernel.legal_mask(self._s, self._mask)
        return self._mask.astype(bool)

    def get_state(self) -> np.ndarray:
        """A copy of the game's record (the full state, every seat's secrets included)."""
        return copy_record(self._s)

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the text table; ``rgb_array``: the game's uint8[H, W, 3] picture (the full view)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'rgb_array'")
            return None
        if self._s is None:
            raise RuntimeError("reset() must be called before render()")
        door = registry.env_module(self.game_id)
        if self.render_mode == "rgb_array":
            return door.raw_env.render_rgb(self._s)
        return door.render_ansi(self._s)
