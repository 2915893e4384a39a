"""``KernelAECEnv``: the PettingZoo AEC protocol implemented once, for any rules kernel.

A game's door (``envs/<game>_v0.py``) subclasses this with ``kernel = <kernel module>`` and a ``render_ansi``
function, and sets ``env = raw_env.make``; everything else (metadata, the lazy ``rgb_array`` picture, agents,
spaces, seeding, rewards, dead steps, illegal actions, clone/state round trips, pickling) lives here. Checks
happen inside the env rather than in a stack of PettingZoo wrappers (order enforcing, bounds and illegal-move
wrappers cost tens of microseconds a step).

Conventions (PettingZoo classic):
- agents ``player_0 .. player_{n-1}``; ``num_players`` is a constructor argument;
- observation ``{"observation": float32[OBS_SIZE], "action_mask": int8[NUM_ACTIONS]}``, the same mask
  in ``infos[agent]["action_mask"]`` for the agent to move; a seat that is not to move sees an
  all-zero mask; spaces are identical for every seat and player count;
- rewards only at the end (the kernel's ``returns``: 1/k to each of k tied winners by default), final
  scores in ``infos[agent]["score"]``;
- an illegal action raises ``ValueError`` naming it and the legal actions; with
  ``illegal_action="penalize"`` it ends the game, -1 to the offender and 0 to everyone else;
- ``max_cycles=N`` truncates every agent once N cycles have been played (PettingZoo's convention; turns
  here are not round-robin, so a cycle is ``num_players`` decisions), rewards 0, scores so far in infos;
  ``pettingzoo.make("aec", "tabletop_zoo/<game>-v0", max_cycles=N)`` passes it through;
- render modes ``ansi``, ``rgb_array`` and ``human`` (every game gets ``human`` and ``render_fps``): the
  picture in a matplotlib window where a display exists, else the text board printed.
"""

from __future__ import annotations

import copy
import importlib
import numbers
from collections.abc import Callable
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..kernels._common.env_step import NO_ACTION, env_step
from ..kernels._common.layout import observation_bounds
from ..kernels._common.record import copy_record
from ..kernels._common.validate import check_options_mapping, record_from
from . import first_use

ILLEGAL_ACTION_POLICIES = ("raise", "penalize")
RENDER_FPS = 2  # "human" frames per second: board-game positions, not animation
MAX_LISTED_ACTIONS = 30


def seat_scores(kernel: ModuleType, s: np.ndarray) -> np.ndarray:
    """The kernel's ``scores`` of record ``s``, one per seat (int64[MAX_PLAYERS]), for a text or picture view."""
    score = np.zeros(kernel.MAX_PLAYERS, np.int64)
    kernel.scores(s, score)
    return score


def auction_text(
    r,
    num_players: int,
    high_bid: str,
    currency: str = "",
    no_bid: str = "no bid",
    passed: str = "passed",
    verb: str = "bid",
) -> str:
    """The state of the auction in record ``r`` for a door's text view: the high bid (record field ``high_bid``) and
    its bidder, the seats that passed and the seat to act, in the door's words."""
    bidder = int(r["auc_high_bidder"])
    high = f"{currency}{int(r[high_bid])} by player_{bidder}" if bidder >= 0 else no_bid
    out = ",".join(str(p) for p in range(num_players) if r["auc_passed"][p]) or "-"
    return f"{high}; {passed}: {out}; player_{int(r['auc_bidder'])} to {verb}"


class KernelAECEnv(AECEnv):
    """PettingZoo AEC environment over a rules kernel (see ``tabletop_zoo.kernels._common.contract``)."""

    kernel: ModuleType  # set by each game's door
    render_ansi: Callable[..., str]  # render_ansi(s), or render_ansi(s, seat=None) in hidden-information games
    metadata: dict[str, Any] = {}  # a door's is derived from its kernel (below)

    def __init_subclass__(cls, **kwargs):
        # The door names its kernel; the env's name follows from the kernel's id and version, and every game
        # renders "ansi", "rgb_array" (its picture, below) and "human" (that picture, else its text) at RENDER_FPS.
        # Metadata a door states (or a subclass inherits) wins: a game without a picture lists ["ansi"].
        super().__init_subclass__(**kwargs)
        k = getattr(cls, "kernel", None)
        if k is None:  # a shared base of doors, not a game
            return
        derived = {
            "render_modes": ["ansi", "rgb_array"],
            "name": f"{k.GAME_ID}_v{k.VERSION}",
            "is_parallelizable": False,
            "render_fps": RENDER_FPS,
        }
        metadata = {**derived, **cls.metadata}
        modes = metadata["render_modes"]
        cls.metadata = {**metadata, "render_modes": modes + ["human"] * ("human" not in modes)}

    @classmethod
    def render_rgb(cls, s: np.ndarray) -> np.ndarray:
        """The ``rgb_array`` frame of record ``s``, uint8[800, 1280, 3], drawn by ``envs/render/<GAME_ID>.py``
        (imported on first use, so matplotlib loads only for games that are drawn)."""
        picture = importlib.import_module(f"{__package__}.render.{cls.kernel.GAME_ID}")
        return picture.render_rgb(s)

    @classmethod
    def make(cls, **kwargs) -> KernelAECEnv:
        """The environment (a door's ``env()``). Checks are built in, so no PettingZoo wrappers are stacked on
        top."""
        return cls(**kwargs)

    def __init__(
        self,
        num_players: int | None = None,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        max_cycles: int | None = None,
        **options,
    ) -> None:
        super().__init__()
        k = self.kernel
        n = k.DEFAULT_PLAYERS if num_players is None else num_players
        n = k.check_num_players(n)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, got {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTION_POLICIES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_POLICIES}, got {illegal_action!r}")
        if max_cycles is not None and (
            isinstance(max_cycles, bool) or not isinstance(max_cycles, numbers.Integral) or max_cycles < 1
        ):
            raise ValueError(f"max_cycles must be None (no limit) or an int >= 1, got {max_cycles!r}")
        self.max_cycles = None if max_cycles is None else int(max_cycles)
        # Decisions after which every agent is truncated (0: no limit); counted from reset/set_state.
        self._decision_limit = 0 if max_cycles is None else int(max_cycles) * n
        self._decisions = 0
        self._window = None  # render_mode="human": the matplotlib window, opened on the first render
        self.num_players = n
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.options = k.resolve_options(**options)
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._attach_spaces()
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
        first_use.env_first_use(type(self))  # a cold numba cache: compile the game's env path now, saying so once

    def _make_observation_space(self) -> spaces.Dict:
        k = self.kernel
        return spaces.Dict(
            {
                "observation": spaces.Box(*observation_bounds(k.OBS_PIECES), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (k.NUM_ACTIONS,), np.int8),
            }
        )

    @classmethod
    def _class_spaces(cls) -> tuple[spaces.Dict, spaces.Discrete, spaces.Box]:
        """(observation, action, state) space templates of this game, built once per class: they are the same for
        every seat and player count, so every env and seat shares their bound arrays (an env stays a few KiB
        beside its record)."""
        shared = cls.__dict__.get("_spaces")
        if shared is None:
            shared = (
                cls._make_observation_space(cls),
                spaces.Discrete(cls.kernel.NUM_ACTIONS),
                spaces.Box(*observation_bounds(cls.kernel.OBS_PIECES), dtype=np.float32),
            )
            cls._spaces = shared
        return shared

    def _attach_spaces(self) -> None:
        # One set of space objects per env, shared by its seats: each env has its own random generators (seeding
        # or sampling one env's spaces never moves another's, as PettingZoo's seed_test expects), while the bound
        # arrays inside, the bulk of a space, stay shared with the class's templates (shallow copies).
        obs, act, state = self._class_spaces()
        obs = spaces.Dict({key: copy.copy(sub) for key, sub in obs.spaces.items()})
        act = copy.copy(act)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self.state_space = copy.copy(state)

    def observation_space(self, agent: str) -> spaces.Space:
        """``Dict(observation=Box[OBS_SIZE], action_mask=Box[NUM_ACTIONS])``, the same for every seat."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(NUM_ACTIONS)``, the same for every seat; the mask says which actions are legal now."""
        return self.action_spaces[agent]

    # --- episode ---------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``seed`` fixes every chance event; ``options`` may change game options."""
        k = self.kernel
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % 2**64)
        seed = k.check_seed(seed)
        options = check_options_mapping(options)
        if options:
            # Game options change the rules from this game on; other keys (PettingZoo lets callers
            # pass anything) are ignored with a warning rather than silently.
            known = {key: v for key, v in options.items() if key in k.OPTIONS}
            if len(known) < len(options):
                gymnasium.logger.warn(
                    f"reset() ignores unknown options {sorted(set(options) - set(known))}; "
                    f"game options are {sorted(k.OPTIONS)}"
                )
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
        self._decisions = 0
        self.agent_selection = self.agents[0]
        if self.kernel.is_over(self._s):
            self._finish()
        else:
            mask = np.empty(self.kernel.NUM_ACTIONS, np.uint8)
            obs = np.empty(self.kernel.OBS_SIZE, np.float32)
            self._select(int(env_step(self.kernel)(self._s, NO_ACTION, mask, obs)), mask, obs)

    def _select(self, seat: int, mask: np.ndarray, obs: np.ndarray | None = None) -> None:
        """Point agent_selection at the seat to move and publish its mask (in its info, too). The rules write masks
        as uint8 rows, as for the search, batches and playouts (one compile of the rules' mask functions serves
        them all); the env hands out the same bytes as int8, its documented dtype."""
        mask = mask.view(np.int8)
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
    def step(self, action: int | None) -> None:
        """Apply the action of the agent to move (``None`` for an agent that is done). An illegal action raises
        ``ValueError`` naming it and the legal ones, or, with ``illegal_action="penalize"``, ends the game."""
        self._require_reset("step()")
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
        mask = np.empty(k.NUM_ACTIONS, np.uint8)
        obs = np.empty(k.OBS_SIZE, np.float32)
        seat = env_step(k)(self._s, action, mask, obs)
        if self.history is not None:
            self.history.append(action)
        self._decisions += 1
        if seat < 0:  # TERMINAL: step resolves chance itself, so no chance seat reaches the env
            self._finish()
        else:
            self._select(seat, mask, obs)
            if self._decisions == self._decision_limit:
                self._truncate()

    def _truncate(self) -> None:
        """max_cycles reached: every agent truncated, no reward (the game has no result), scores so far."""
        score = np.zeros(self.kernel.MAX_PLAYERS, np.int64)
        self.kernel.scores(self._s, score)
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = 0.0
            self.truncations[a] = True
            self.infos[a] = {"score": int(score[i]), "action_mask": self._no_mask, "max_cycles": True}
        self._mask = self._no_mask

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
        raise ValueError(
            f"illegal action {action} ({self.action_name(action)}) for {agent}; legal now: {self._legal_listing()}"
        )

    def _legal_listing(self) -> str:
        legal = np.flatnonzero(self._mask)
        names = [f"{a} {self.action_name(int(a))}" for a in legal[:MAX_LISTED_ACTIONS]]
        more = f" ... and {len(legal) - MAX_LISTED_ACTIONS} more" if len(legal) > MAX_LISTED_ACTIONS else ""
        return "[" + ", ".join(names) + more + "]"

    # --- observing -------------------------------------------------------------------------------
    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict]:
        """``(observation, cumulative reward, terminated, truncated, info)`` of the agent to move."""
        self._require_reset("last()")
        return super().last(observe)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation", "action_mask"}`` of ``agent``, seat-relative; the mask is all zero unless it is to
        move."""
        self._require_reset("observe()")
        if agent not in self._seat:
            raise ValueError(f"observe: no agent {agent!r} in this game; agents are {self.possible_agents}")
        if agent == self.agent_selection:
            if self._obs is None:  # after the game ended or unpickling; reset() and step() write it for the mover
                self._obs = np.empty(self.kernel.OBS_SIZE, np.float32)
                self.kernel.observe(self._s, self._seat[agent], self._obs)
            return {"observation": self._obs, "action_mask": self._mask}
        obs = np.empty(self.kernel.OBS_SIZE, np.float32)
        self.kernel.observe(self._s, self._seat[agent], obs)
        return {"observation": obs, "action_mask": self._no_mask}

    def state(self) -> np.ndarray:
        """The privileged full view (seat order absolute), e.g. for centralised critics."""
        self._require_reset("state()")
        obs = np.empty(self.kernel.OBS_SIZE, np.float32)
        self.kernel.observe(self._s, -1, obs)
        return obs

    def action_mask(self) -> np.ndarray:
        """Legal-action mask (int8) of the agent to move."""
        return self._mask

    def action_name(self, action: int) -> str:
        """The kernel's name of ``action`` in the current position (the full view: secret choices included)."""
        self._require_reset("action_name()")
        return self.kernel.action_name(self._s, action)

    def _require_reset(self, what: str) -> None:
        """A clear error for a call that needs a game, before any kernel sees the missing record."""
        if self._s is None:
            raise RuntimeError(f"reset() must be called before {what}")

    def legal_actions(self) -> list[int]:
        """The ids of the legal actions of the agent to move (empty once the game is over)."""
        return np.flatnonzero(self._mask).tolist()

    def render(self) -> str | np.ndarray | None:
        """``ansi``: the table as text; ``rgb_array``: uint8[800, 1280, 3] pixels of the board; ``human``:
        that picture in a matplotlib window (shown ``1 / render_fps`` s) where a display exists, else the
        text printed; returns None."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode; pass render_mode='ansi', "
                "'rgb_array' or 'human' to the constructor"
            )
            return None
        self._require_reset("render()")
        if self.render_mode == "rgb_array":
            return type(self).render_rgb(self._s)
        if self.render_mode == "human":
            return self._render_human()
        return type(self).render_ansi(self._s)

    def _render_human(self) -> None:
        if self._window is None and "rgb_array" in self.metadata["render_modes"]:
            from .render._window import open_window

            self._window = open_window(self.metadata.get("name", self.kernel.GAME_ID), self.metadata["render_fps"])
            if self._window is None:
                self._window = False  # no display or no window backend: the text board from now on
        if self._window:
            self._window.show(type(self).render_rgb(self._s))
        else:
            print(type(self).render_ansi(self._s), end="\n\n", flush=True)

    def render_for(self, seat: int) -> str:
        """The ansi table as ``seat`` may see it, whatever the render_mode: for a game with hidden
        information (``kernel.INFORMATION == "imperfect"``) the game's ``render_ansi(s, seat)``, which
        shows that seat's own secrets and only the public part of the others'; a perfect-information
        game shows everything to everyone (``render_ansi(s)``). ``render()`` stays the full view."""
        self._require_reset("render_for()")
        seat = self._check_seat(seat)
        if self.kernel.INFORMATION == "imperfect":
            return type(self).render_ansi(self._s, seat)
        return type(self).render_ansi(self._s)

    def action_name_for(self, action: int, seat: int | None) -> str:
        """The name of ``action``, about to be played now (call it before ``step``), as ``seat`` may see
        it: the kernel's optional ``public_action_name(s, action, viewer)`` hides secret choices of
        other seats (Kremlin's influence allocation); ``seat`` None is a spectator who sees only public
        information. Kernels without it have no secret moves, so this is ``action_name``."""
        self._require_reset("action_name_for()")
        public_name = getattr(self.kernel, "public_action_name", None)
        if public_name is None:
            return self.action_name(action)
        return public_name(self._s, action, None if seat is None else self._check_seat(seat))

    def _check_seat(self, seat) -> int:
        if isinstance(seat, bool) or not isinstance(seat, numbers.Integral) or not 0 <= seat < self.num_players:
            raise ValueError(
                f"seat must be an int in 0..{self.num_players - 1} (player_0 .. "
                f"player_{self.num_players - 1}), got {seat!r}"
            )
        return int(seat)

    def close(self) -> None:
        """Close the ``human`` render window, if one is open."""
        if self._window:
            self._window.close()
        self._window = None

    # --- saving and restoring --------------------------------------------------------------------
    @property
    def record(self) -> np.ndarray:
        """The live state record (shape (1,), dtype kernel.STATE); mutate only through step()."""
        return self._s

    def get_state(self) -> np.ndarray:
        """A copy of the whole game as one record; ``tobytes()`` of it serialises the game."""
        self._require_reset("get_state()")
        return copy_record(self._s)

    def set_state(self, state) -> None:
        """Restore a game from a record (or its ``tobytes()``) of this game and player count.

        The record is checked by the kernel's ``validate`` first (every index and amount in range, the
        invariants hold, the seat to move can move): anything else is a ValueError listing what is wrong,
        and the env keeps its current game."""
        record = record_from(self.kernel, state, self.num_players, source="set_state")
        if not self.kernel.is_over(record) and int(self.kernel.to_move(record)) < 0:
            # The env never rests at a chance node (step() samples chance itself): nobody would be to move.
            raise ValueError(
                f"set_state: the {self.kernel.GAME_ID} record is at a chance node; the env holds "
                "decision points only (resolve it with the kernel's sample_chance/step_chance first)"
            )
        self._s = record
        self.history = None
        self.seed_used = None
        self._start_bookkeeping()

    def clone(self) -> KernelAECEnv:
        """An independent copy of this env, mid-game included (stepping one never affects the other)."""
        return copy.deepcopy(self)

    # Only ever replaced, never changed in place (spaces, and the masks and observation handed out):
    # a copy may share them.
    _SHARED_ON_COPY = (
        "observation_spaces",
        "action_spaces",
        "state_space",
        "possible_agents",
        "_seat",
        "options",
        "_no_mask",
        "_mask",
        "_obs",
    )

    # Left out of a pickle and rebuilt on load: the class's spaces and the mover's observation (observe()
    # recomputes it from the record), so a pickled game is its record's bytes, its masks and the bookkeeping.
    # A window is this process's screen: a pickled env opens its own when it renders.
    _REBUILT_ON_LOAD = ("observation_spaces", "action_spaces", "state_space", "_obs", "_window")

    def __getstate__(self) -> dict:
        state = {name: v for name, v in self.__dict__.items() if name not in self._REBUILT_ON_LOAD}
        if self._s is not None:  # the record as bytes: its dtype is the kernel's, no need to pickle it
            state["_s"] = self._s.tobytes()
        return state

    def __setstate__(self, state: dict) -> None:
        # Unpickling takes a record from outside (bytes on disk or from another process): validate it.
        record = state.get("_s")
        if record is not None:
            state["_s"] = record_from(type(self).kernel, record, state.get("num_players"), source="unpickled env")
        self.__dict__.update(state)
        self._attach_spaces()
        self._obs = None
        self._window = None

    def __deepcopy__(self, memo) -> KernelAECEnv:
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
            elif name == "_window":  # a copy opens its own window when it renders
                value = None
            elif name == "history":  # a list of ints: a shallow copy is a full copy
                value = None if value is None else list(value)
            else:
                value = copy.deepcopy(value, memo)
            twin.__dict__[name] = value
        return twin
