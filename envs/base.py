"""``KernelAECEnv``: the PettingZoo AEC protocol implemented once, for any rules kernel.

A game's env module subclasses this with ``kernel = <kernel module>`` and a ``render_ansi`` function;
everything else (agents, spaces, seeding, rewards, dead steps, illegal actions, clone/state round
trips, pickling) lives here. Checks happen inside the env rather than in a stack of PettingZoo
wrappers (order enforcing, bounds and illegal-move wrappers cost tens of microseconds a step).

Conventions (PettingZoo classic):
- agents ``player_0 .. player_{n-1}``; ``num_players`` is a constructor argument;
- observation ``{"observation": float32[OBS_SIZE], "action_mask": int8[NUM_ACTIONS]}``, the same mask
  in ``infos[agent]["action_mask"]`` for the agent to move; a seat that is not to move sees an
  all-zero mask; spaces are identical for every seat and player count;
- rewards only at the end (the kernel's ``returns``: 1/k to each of k tied winners by default), final
  scores in ``infos[agent]["score"]``;
- an illegal action raises ``ValueError`` naming it and the legal actions; with
  ``illegal_action="penalize"`` it ends the game, -1 to the offender and 0 to everyone else.
"""

from __future__ import annotations

import copy
import numbers
from types import ModuleType
from typing import Any, Callable

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..kernels._common.env_step import step_mask_observe
from ..kernels._common.record import copy_record

ILLEGAL_ACTION_POLICIES = ("raise", "penalize")
MAX_LISTED_ACTIONS = 30


class KernelAECEnv(AECEnv):
    """PettingZoo AEC environment over a rules kernel (see ``tabletop_zoo.kernels._common.contract``)."""

    kernel: ModuleType  # set by each game's env module
    default_players: int
    render_ansi: Callable[..., str]  # render_ansi(s), or render_ansi(s, seat=None) in hidden-information games
    render_rgb: Callable[[np.ndarray], np.ndarray]  # games with "rgb_array" in their render modes
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, num_players: int | None = None, render_mode: str | None = None,
                 illegal_action: str = "raise", **options):
        super().__init__()
        k = self.kernel
        n = self.default_players if num_players is None else num_players
        n = k.check_num_players(n)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTION_POLICIES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_POLICIES}, got {illegal_action!r}")
        self.num_players = n
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.options = k.resolve_options(**options)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.observation_spaces = {a: self._make_observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(k.NUM_ACTIONS) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, np.inf, (k.OBS_SIZE,), np.float32)
        self.seed_used: int | None = None
        self._s: np.ndarray | None = None
        # Decisions applied since reset(seed) (None after set_state: the start is then unknown);
        # with seed_used, options and num_players they replay the game exactly.
        self.history: list[int] | None = None
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        # The mover's legal mask. A fresh array each step: masks handed out are never changed later.
        self._mask = np.zeros(k.NUM_ACTIONS, np.int8)
        self._no_mask = np.zeros(k.NUM_ACTIONS, np.int8)  # what a seat that is not to move sees
        self._obs: np.ndarray | None = None  # the mover's observation, written by the step that selected it
        self.agents = []

    def _make_observation_space(self) -> spaces.Dict:
        k = self.kernel
        return spaces.Dict({
            "observation": spaces.Box(0.0, np.inf, (k.OBS_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (k.NUM_ACTIONS,), np.int8),
        })

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- episode ---------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``seed`` fixes every chance event; ``options`` may change game options."""
        k = self.kernel
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % 2**64)
        seed = k.check_seed(seed)
        if options:
            # Game options change the rules from this game on; other keys (PettingZoo lets callers
            # pass anything) are ignored with a warning rather than silently.
            known = {key: v for key, v in options.items() if key in k.OPTIONS}
            if len(known) < len(options):
                gymnasium.logger.warn(f"reset() ignores unknown options {sorted(set(options) - set(known))}; "
                                      f"game options are {sorted(k.OPTIONS)}")
            self.options = k.resolve_options(**{**self.options, **known})
        self.seed_used = seed
        self._s = k.new_state(self.num_players, seed, **self.options)
        self.history = []
        self._start_bookkeeping()

    def _start_bookkeeping(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.agents[0]
        if self.kernel.is_over(self._s):
            self._finish()
        else:
            mask = np.empty(self.kernel.NUM_ACTIONS, np.int8)
            self.kernel.legal_mask(self._s, mask)
            self._select(int(self.kernel.to_move(self._s)), mask)

    def _select(self, seat: int, mask: np.ndarray, obs: np.ndarray | None = None) -> None:
        """Point agent_selection at the seat to move and publish its mask (in its info, too)."""
        prev = self.agent_selection
        agent = self.possible_agents[seat]
        if prev != agent:
            self.infos[prev] = {}
        self.agent_selection = agent
        self._mask = mask
        self._obs = obs
        self.infos[agent] = {"action_mask": mask}

    def _finish(self, penalized: str | None = None) -> None:
        """The game is over: rewards for everyone, final scores in infos, every seat terminated."""
        k = self.kernel
        n = self.num_players
        if penalized is None:
            ret = np.zeros(k.MAX_PLAYERS, np.float64)
            k.returns(self._s, ret)
        score = np.zeros(k.MAX_PLAYERS, np.int64)
        k.scores(self._s, score)
        # A game stopped by a safety limit (a turn cap) rather than by its rules is a truncation.
        truncated = penalized is None and bool(getattr(k, "is_truncated", lambda s: False)(self._s))
        for i, a in enumerate(self.possible_agents[:n]):
            if a not in self.agents:
                continue
            if penalized is None:
                self.rewards[a] = float(ret[i])
            else:
                self.rewards[a] = -1.0 if a == penalized else 0.0
            self.terminations[a] = not truncated
            self.truncations[a] = truncated
            self.infos[a] = {"score": int(score[i]), "action_mask": self._no_mask}
            if a == penalized:
                self.infos[a]["illegal_move"] = True
        self._mask = self._no_mask
        self._obs = None
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]

    # --- stepping --------------------------------------------------------------------------------
    def step(self, action) -> None:
        if self._s is None:
            raise RuntimeError("reset() must be called before step()")
        if not self.agents:
            raise RuntimeError("the game is over and every agent is done; call reset() to play again")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            action = self._check_action(action, agent)
        k = self.kernel
        if not 0 <= action < k.NUM_ACTIONS:
            action = self._check_action(action, agent)  # raises with the allowed range
        if not self._mask[action]:
            self._illegal(action, agent)
            return
        self._cumulative_rewards[agent] = 0.0
        # Fresh arrays each step: masks and observations handed out are never changed later.
        mask = np.empty(k.NUM_ACTIONS, np.int8)
        obs = np.empty(k.OBS_SIZE, np.float32)
        seat = step_mask_observe(self._s, action, mask, obs)
        if self.history is not None:
            self.history.append(action)
        if seat < 0:  # TERMINAL: step resolves chance itself, so no chance seat reaches the env
            self._finish()
        else:
            self._select(seat, mask, obs)

    def _check_action(self, action, agent: str) -> int:
        n = self.kernel.NUM_ACTIONS
        if action is None:
            raise ValueError(f"{agent} is to move and must choose an action; None is only for agents that are done")
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, bool) or not isinstance(action, numbers.Integral):
            raise TypeError(f"action must be an int in 0..{n - 1}, got {action!r} ({type(action).__name__})")
        action = int(action)
        if not 0 <= action < n:
            raise ValueError(f"action {action} is out of range: the action space is Discrete({n}), ids 0..{n - 1}")
        return action

    def _illegal(self, action: int, agent: str) -> None:
        if self.illegal_action == "penalize":
            self._cumulative_rewards[agent] = 0.0
            self._finish(penalized=agent)
            return
        raise ValueError(f"illegal action {action} ({self.action_name(action)}) for {agent}; "
                         f"legal now: {self._legal_listing()}")

    def _legal_listing(self) -> str:
        legal = np.flatnonzero(self._mask)
        names = [f"{a} {self.action_name(int(a))}" for a in legal[:MAX_LISTED_ACTIONS]]
        more = f" ... and {len(legal) - MAX_LISTED_ACTIONS} more" if len(legal) > MAX_LISTED_ACTIONS else ""
        return "[" + ", ".join(names) + more + "]"

    # --- observing -------------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent == self.agent_selection:
            if self._obs is None:  # after reset/set_state; step() writes it for the next mover
                self._obs = np.empty(self.kernel.OBS_SIZE, np.float32)
                self.kernel.observe(self._s, self._seat[agent], self._obs)
            return {"observation": self._obs, "action_mask": self._mask}
        obs = np.empty(self.kernel.OBS_SIZE, np.float32)
        self.kernel.observe(self._s, self._seat[agent], obs)
        return {"observation": obs, "action_mask": self._no_mask}

    def state(self) -> np.ndarray:
        """The privileged full view (seat order absolute), e.g. for centralised critics."""
        obs = np.empty(self.kernel.OBS_SIZE, np.float32)
        self.kernel.observe(self._s, -1, obs)
        return obs

    def action_mask(self) -> np.ndarray:
        """Legal-action mask (int8) of the agent to move."""
        return self._mask

    def action_name(self, action: int) -> str:
        return self.kernel.action_name(self._s, action)

    def legal_actions(self) -> list[int]:
        return np.flatnonzero(self._mask).tolist()

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the table as text; ``rgb_array``: uint8[800, 1280, 3] pixels of the board."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or "
                                  "'rgb_array' to the constructor")
            return None
        if self._s is None:
            raise RuntimeError("reset() must be called before render()")
        if self.render_mode == "rgb_array":
            return type(self).render_rgb(self._s)
        return type(self).render_ansi(self._s)

    def render_for(self, seat: int) -> str:
        """The ansi table as ``seat`` may see it, whatever the render_mode: for a game with hidden
        information (``kernel.INFORMATION == "imperfect"``) the game's ``render_ansi(s, seat)``, which
        shows that seat's own secrets and only the public part of the others'; a perfect-information
        game shows everything to everyone (``render_ansi(s)``). ``render()`` stays the full view."""
        if self._s is None:
            raise RuntimeError("reset() must be called before render_for()")
        seat = self._check_seat(seat)
        if self.kernel.INFORMATION == "imperfect":
            return type(self).render_ansi(self._s, seat)
        return type(self).render_ansi(self._s)

    def action_name_for(self, action: int, seat: int | None) -> str:
        """The name of ``action``, about to be played now (call it before ``step``), as ``seat`` may see
        it: the kernel's optional ``public_action_name(s, action, viewer)`` hides secret choices of
        other seats (Kremlin's influence allocation); ``seat`` None is a spectator who sees only public
        information. Kernels without it have no secret moves, so this is ``action_name``."""
        if self._s is None:
            raise RuntimeError("reset() must be called before action_name_for()")
        public_name = getattr(self.kernel, "public_action_name", None)
        if public_name is None:
            return self.action_name(action)
        return public_name(self._s, action, None if seat is None else self._check_seat(seat))

    def _check_seat(self, seat) -> int:
        if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be an int in 0..{self.num_players - 1} (player_0 .. "
                             f"player_{self.num_players - 1}), got {seat!r}")
        return int(seat)

    def close(self) -> None:
        pass

    # --- saving and restoring --------------------------------------------------------------------
    @property
    def record(self) -> np.ndarray:
        """The live state record (shape (1,), dtype kernel.STATE); mutate only through step()."""
        return self._s

    def get_state(self) -> np.ndarray:
        """A copy of the whole game as one record; ``tobytes()`` of it serialises the game."""
        if self._s is None:
            raise RuntimeError("reset() must be called before get_state()")
        return copy_record(self._s)

    def set_state(self, state) -> None:
        """Restore a game from a record (or its ``tobytes()``) of this game and player count."""
        k = self.kernel
        if isinstance(state, (bytes, bytearray, memoryview)):
            if len(state) != k.STATE.itemsize:
                raise ValueError(f"a {k.GAME_ID} state is {k.STATE.itemsize} bytes, got {len(state)}")
            state = np.frombuffer(state, dtype=k.STATE)
        if not isinstance(state, np.ndarray) or state.dtype != k.STATE or state.shape != (1,):
            raise ValueError(f"state must be a shape-(1,) record of the {k.GAME_ID} STATE dtype (from get_state())")
        if int(state[0]["num_players"]) != self.num_players:
            raise ValueError(f"state is a {int(state[0]['num_players'])}-player game; this env has {self.num_players}")
        self._s = copy_record(state)
        self.history = None
        self.seed_used = None
        self._start_bookkeeping()

    def clone(self) -> "KernelAECEnv":
        """An independent copy of this env, mid-game included (stepping one never affects the other)."""
        return copy.deepcopy(self)

    # Only ever replaced, never changed in place (spaces, and the masks and observation handed out):
    # a copy may share them.
    _SHARED_ON_COPY = ("observation_spaces", "action_spaces", "state_space", "possible_agents", "_seat", "options",
                       "_no_mask", "_mask", "_obs")

    def __deepcopy__(self, memo) -> "KernelAECEnv":
        # The record is copied as bytes (one memcpy instead of numpy's field-by-field copy of a
        # structured array); shared attributes stay shared, also inside infos; the rest is deep-copied.
        twin = type(self).__new__(type(self))
        memo[id(self)] = twin
        for name in self._SHARED_ON_COPY:
            value = self.__dict__.get(name)
            memo[id(value)] = value
        for name, value in self.__dict__.items():
            if name == "_s":
                value = None if value is None else copy_record(value)
            elif name == "history":  # a list of ints: a shallow copy is a full copy
                value = None if value is None else list(value)
            else:
                value = copy.deepcopy(value, memo)
            twin.__dict__[name] = value
        return twin
