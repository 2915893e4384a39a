"""Every tabletop-zoo game as an OpenSpiel Python game, so OpenSpiel's algorithms and bots run on it.

    import pyspiel
    from tabletop_zoo.interop import openspiel          # registers the games (idempotent)
    game = pyspiel.load_game("tabletop_zoo_irish_gauge", {"players": 3})

Short names are ``tabletop_zoo_<game id>``; parameters ``players`` (default: the env's default count)
and ``seed`` (the kernel's setup seed, default 0). The State is one kernel record (shape ``(1,)``):
OpenSpiel's ``clone`` deep-copies it, ``serialize`` pickles it.

How the kernel contract maps onto OpenSpiel:

- chance: ``CHANCE_MODE == "explicit_stochastic"`` games are ``EXPLICIT_STOCHASTIC``: a decision is
  applied with ``step_decision`` (which stops at the chance node), ``chance_outcomes`` lists the
  outcomes with their exact probabilities, and ``step_chance`` applies the one OpenSpiel picks. Setup
  randomness (shuffles and deals inside ``new_state``) is not a chance node: it is fixed by ``seed``.
- information: ``INFORMATION``. ``observation_tensor(p)`` is ``observe(record, p)``: what seat ``p``
  may see, seat-relative (``p``'s own entries first); it never reads another seat's secrets.
  ``information_state_tensor(p)`` is the same vector (a fixed-size view of the current position, not a
  perfect-recall encoding of past observations). ``information_state_string(p)`` is perfect recall: the
  history in perfect-information games; in hidden-information games, the digest of every observation
  ``p`` received and ``p``'s own actions, rebuilt by replaying the history (exact, O(game length)).
- utility: rewards are terminal; the type is the kernel's ``UTILITY`` (the games load with default
  options): win shares sum to 1 (``CONSTANT_SUM``); a game that can end with no winner and all zeros
  is ``GENERAL_SUM``.
- ``max_game_length`` is the kernel's proven ``MAX_GAME_LENGTH`` bound on decisions.
- ``resample_from_infostate(player, sampler)`` is the kernel's ``determinize``: a state ``player``
  cannot tell from this one (the same observation tensor and information state string), with what it
  cannot see resampled, so OpenSpiel's Python ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``)
  searches our hidden-information games. Its C++ ``pyspiel.ISMCTSBot`` segfaults inside pyspiel on any
  game written in Python, before it calls a method of ours: use the Python bot.

``TruncatedRolloutEvaluator`` is the leaf evaluator of our own MCTS (random decisions up to a depth,
then the kernel's ``evaluate``) written against OpenSpiel's ``Evaluator`` API, so OpenSpiel's
``MCTSBot`` can run the same algorithm as ``tabletop_zoo.agents.mcts`` on the same positions.
"""

from __future__ import annotations

import hashlib
from types import ModuleType

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

from .. import registry
from ..kernels._common.contract import CHANCE, TERMINAL
from ..kernels._common.record import copy_record
from ..kernels._common.validate import record_from

PREFIX = "tabletop_zoo_"

# The kernel's UTILITY (its games are loaded with default options) in OpenSpiel's terms, and what returns sum to.
_UTILITY = {
    "zero_sum": (pyspiel.GameType.Utility.ZERO_SUM, 0.0),
    "constant_sum": (pyspiel.GameType.Utility.CONSTANT_SUM, 1.0),
    "general_sum": (pyspiel.GameType.Utility.GENERAL_SUM, None),
}


def short_name(game_id: str) -> str:
    """The OpenSpiel name of one of our games, e.g. ``tabletop_zoo_irish_gauge``."""
    return PREFIX + registry._canonical(game_id)


def game_type(game_id: str) -> pyspiel.GameType:
    k = registry.kernel(game_id)
    hidden = k.INFORMATION == "imperfect"
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"tabletop-zoo {k.GAME_ID.replace('_', ' ').title()}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.DETERMINISTIC
            if k.CHANCE_MODE == "deterministic"
            else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=_UTILITY[k.UTILITY][0],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=k.MAX_PLAYERS,
        min_num_players=k.MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": k.DEFAULT_PLAYERS, "seed": 0},
    )


def game_info(kernel: ModuleType, num_players: int) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=kernel.NUM_ACTIONS,
        max_chance_outcomes=kernel.NUM_CHANCE_OUTCOMES,
        num_players=num_players,
        min_utility=0.0,
        max_utility=1.0,
        utility_sum=_UTILITY[kernel.UTILITY][1],
        max_game_length=kernel.MAX_GAME_LENGTH,
    )


class KernelGame(pyspiel.Game):
    """One of our games with fixed ``players`` and setup ``seed``; subclassed once per game id."""

    kernel: ModuleType
    state_class: type

    def __init__(self, params=None):
        params = dict(params or {})
        spec = game_type(self.kernel.GAME_ID).parameter_specification
        unknown = sorted(set(params) - set(spec))
        if unknown:
            raise ValueError(
                f"unknown parameter(s) {unknown} for {short_name(self.kernel.GAME_ID)}; allowed: {sorted(spec)}"
            )
        n = self.kernel.check_num_players(params.get("players", spec["players"]))
        seed = self.kernel.check_seed(params.get("seed", spec["seed"]))
        super().__init__(game_type(self.kernel.GAME_ID), game_info(self.kernel, n), {"players": n, "seed": seed})
        self.initial_record = self.kernel.new_state(n, seed)
        self.initial_record.flags.writeable = False

    def new_initial_state(self):
        return self.state_class(self, copy_record(self.initial_record))

    def state_from_record(self, record: np.ndarray) -> KernelState:
        """Wrap a kernel record (e.g. from ``env.get_state()``) as a state of this game (empty history)."""
        # validated like env.set_state: a ValueError listing what is wrong, before any kernel sees it
        state = self.state_class(self, record_from(self.kernel, record, self.num_players(), source="state_from_record"))
        state._origin = _Record(state.record)
        return state

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return KernelObserver(self.kernel, iig_obs_type is not None and iig_obs_type.perfect_recall)


class _Record:
    """Holds a state's record so that OpenSpiel's Clone (a deepcopy of each Python attribute) takes
    the fast byte copy instead of ``ndarray.__deepcopy__``."""

    __slots__ = ("a",)

    def __init__(self, a: np.ndarray):
        self.a = a

    def __deepcopy__(self, memo):
        return _Record(copy_record(self.a))

    def __getstate__(self):
        return self.a

    def __setstate__(self, a):
        # Deserialisation takes a record from outside (a string from a file or another process):
        # validated against the game whose STATE dtype it has, before any kernel sees it.
        self.a = record_from(_kernel_of(a), a, source="OpenSpiel deserialisation")


def _kernel_of(record) -> ModuleType:
    """The kernel whose STATE dtype a deserialised record has; ValueError if none."""
    for game_id in sorted(registry.GAMES):
        k = registry.kernel(game_id)
        if getattr(record, "dtype", None) == k.STATE:
            return k
    raise ValueError(
        f"OpenSpiel deserialisation: not a state record of any tabletop-zoo game, got "
        f"{type(record).__name__} {getattr(record, 'dtype', '')}"
    )


class KernelState(pyspiel.State):
    """A position: one kernel record (Clone and Serialize copy the Python attributes)."""

    kernel: ModuleType

    def __init__(self, game, record):
        super().__init__(game)
        self._rec = _Record(record)
        self._recall = None  # per-seat perfect-recall digests, kept only once someone asks for them
        self._origin = None  # the record history() starts from, when not the game's initial record

    @property
    def _s(self) -> np.ndarray:
        return self._rec.a

    @property
    def record(self) -> np.ndarray:
        """A copy of the kernel record of this position."""
        return copy_record(self._rec.a)

    def current_player(self):
        seat = int(self.kernel.to_move(self._s))
        if seat == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if seat == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return seat

    def _legal_actions(self, player):
        mask = np.zeros(self.kernel.NUM_ACTIONS, np.uint8)
        self.kernel.legal_mask(self._s, mask)
        return np.flatnonzero(mask).tolist()

    def chance_outcomes(self):
        k = self.kernel
        ids = np.zeros(max(k.NUM_CHANCE_OUTCOMES, 1), np.int64)
        probs = np.zeros(ids.size, np.float64)
        n = k.chance_outcomes(self._s, ids, probs) if k.CHANCE_MODE != "deterministic" else 0
        order = np.argsort(ids[:n], kind="stable")
        return list(zip(ids[:n][order].tolist(), probs[:n][order].tolist()))

    def _apply_action(self, action):
        k = self.kernel
        mover = int(k.to_move(self._s))
        if k.CHANCE_MODE == "deterministic":
            self._check_decision(action)
            k.step(self._s, action)
        elif k.is_chance(self._s):
            if action not in dict(self.chance_outcomes()):
                raise ValueError(f"{action} is not a pending chance outcome; outcomes: {self.chance_outcomes()}")
            k.step_chance(self._s, action)
        else:
            self._check_decision(action)
            k.step_decision(self._s, action)  # stops at the chance node this decision opens
        if self._recall is not None:
            self._recall = [
                _recall_digest(k, self._s, p, prev, action if p == mover else -1) for p, prev in enumerate(self._recall)
            ]

    def _check_decision(self, action):
        if self.kernel.is_over(self._s):
            raise ValueError(f"action {action} applied to a finished game")
        mask = np.zeros(self.kernel.NUM_ACTIONS, np.uint8)
        self.kernel.legal_mask(self._s, mask)
        if not 0 <= action < mask.size or not mask[action]:
            legal = [f"{a} ({self.kernel.action_name(self._s, int(a))})" for a in np.flatnonzero(mask)[:20]]
            raise ValueError(f"illegal action {action}; legal: {', '.join(legal)}")

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {action}"
        return self.kernel.action_name(self._s, int(action))

    def is_terminal(self):
        return bool(self.kernel.is_over(self._s))

    def returns(self):
        out = np.zeros(self.kernel.MAX_PLAYERS, np.float64)
        self.kernel.returns(self._s, out)
        return out[: self.num_players()].tolist()

    def evaluate(self):
        """The kernel's estimate of ``returns()`` (= returns when over), as our MCTS scores leaves."""
        out = np.zeros(self.kernel.MAX_PLAYERS, np.float64)
        self.kernel.evaluate(self._s, out)
        return out[: self.num_players()]

    def recall_digest(self, player: int) -> str:
        """Digest of everything ``player`` observed and did since the initial state (perfect recall)."""
        if self._recall is None:
            replay = self
            if self.history():
                game = self.get_game()
                replay = game.new_initial_state() if self._origin is None else game.state_from_record(self._origin.a)
            replay._recall = [_recall_digest(self.kernel, replay._s, p, "", -1) for p in range(self.num_players())]
            for action in self.history():
                replay.apply_action(action)
            self._recall = replay._recall
        return self._recall[player]

    def resample_from_infostate(self, player, probability_sampler):
        """A state ``player`` cannot tell from this one: the kernel's ``determinize`` resamples what
        ``player`` cannot see. ``probability_sampler()`` returns a float in [0, 1) (OpenSpiel passes a
        ``UniformProbabilitySampler``); its draw seeds the resampling. The sample keeps this state's
        perfect-recall digests, so its ``information_state_string(player)`` is this state's."""
        k = self.kernel
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players():
            raise ValueError(f"player must be a seat 0..{self.num_players() - 1}, got {player!r}")
        self.recall_digest(player)  # fills self._recall, which the sample inherits
        sample = type(self)(self.get_game(), self.record)
        sample._recall = list(self._recall)
        if k.INFORMATION == "imperfect":  # perfect information: nothing to resample
            k.determinize(sample._s, player, int(probability_sampler() * 2**53))
        return sample

    def render(self) -> str:
        """The game's text table (the env's ``render_ansi``)."""
        return registry.env_module(self.kernel.GAME_ID).raw_env.render_ansi(self._s)

    def __str__(self):
        # Exact and cheap (OpenSpiel compares and keys states by this string); render() is the table.
        digest = hashlib.blake2b(self._s.tobytes(), digest_size=16).hexdigest()
        return f"{self.kernel.GAME_ID} to_move={int(self.kernel.to_move(self._s))} record={digest}"


class KernelObserver:
    """OpenSpiel PyObserver: the tensor is ``observe(record, player)``, named by ``OBS_PIECES``."""

    def __init__(self, kernel: ModuleType, perfect_recall: bool):
        self.kernel = kernel
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(kernel.OBS_SIZE, np.float32)
        # Pieces in offset order: OpenSpiel concatenates the dict values in iteration order.
        self.dict = {
            p.name: self.tensor[p.offset : p.offset + p.size].reshape(p.shape)
            for p in sorted(kernel.OBS_PIECES, key=lambda p: p.offset)
        }

    def set_from(self, state, player):
        self.kernel.observe(state._s, player, self.tensor)

    def string_from(self, state, player):
        if not self.perfect_recall:
            return _observation_string(self.kernel, state._s, player)
        if self.kernel.INFORMATION == "perfect":
            return state.history_str()  # the position and how it was reached: perfect recall
        return f"p{player} recall={state.recall_digest(player)}"


def _observation_string(kernel: ModuleType, record: np.ndarray, player: int) -> str:
    """The seat's observation, piece by piece, nonzero entries only (index:value)."""
    view = np.zeros(kernel.OBS_SIZE, np.float32)
    kernel.observe(record, player, view)
    parts = [f"p{player}"]
    for p in sorted(kernel.OBS_PIECES, key=lambda p: p.offset):
        chunk = view[p.offset : p.offset + p.size]
        nz = np.flatnonzero(chunk)
        if nz.size:
            parts.append(p.name + "=" + ",".join(f"{i}:{chunk[i]:g}" for i in nz))
    return " ".join(parts)


def _recall_digest(kernel: ModuleType, record: np.ndarray, player: int, previous: str, own_action: int) -> str:
    """Chain the previous digest, ``player``'s own action (-1: someone else moved) and its new view."""
    view = np.zeros(kernel.OBS_SIZE, np.float32)
    kernel.observe(record, player, view)
    h = hashlib.blake2b(previous.encode(), digest_size=16)
    h.update(own_action.to_bytes(4, "little", signed=True))
    h.update(view.tobytes())
    return h.hexdigest()


class TruncatedRolloutEvaluator(mcts.Evaluator):
    """Uniformly random decisions (chance sampled by its probabilities) for at most ``depth`` decisions,
    then ``returns()`` if the game ended, else the kernel's ``evaluate``: the leaf evaluation of
    ``tabletop_zoo.agents.mcts``, through OpenSpiel's State API."""

    def __init__(self, depth: int = 20, random_state: np.random.RandomState | None = None):
        if depth < 0:
            raise ValueError(f"depth must be >= 0, got {depth}")
        self.depth = depth
        self._random_state = random_state or np.random.RandomState()

    def evaluate(self, state):
        working = state.clone()
        decisions = 0
        while not working.is_terminal() and (decisions < self.depth or working.is_chance_node()):
            if working.is_chance_node():
                actions, probs = zip(*working.chance_outcomes())
                working.apply_action(int(self._random_state.choice(actions, p=probs)))
            else:
                working.apply_action(int(self._random_state.choice(working.legal_actions())))
                decisions += 1
        return np.array(working.returns()) if working.is_terminal() else working.evaluate()

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _classes(game_id: str) -> type:
    """The KernelGame subclass of one game (with its KernelState subclass)."""
    k = registry.kernel(game_id)
    name = "".join(w.title() for w in k.GAME_ID.split("_"))
    state_class = type(f"{name}State", (KernelState,), {"kernel": k, "__module__": __name__})
    return type(f"{name}Game", (KernelGame,), {"kernel": k, "state_class": state_class, "__module__": __name__})


GAME_CLASSES: dict[str, type] = {}


def register() -> list[str]:
    """Register every game in the registry with pyspiel (once); returns the short names."""
    known = set(pyspiel.registered_names())
    for game_id in sorted(registry.GAMES):
        if game_id not in GAME_CLASSES:
            GAME_CLASSES[game_id] = _classes(game_id)
        if short_name(game_id) not in known:
            pyspiel.register_game(game_type(game_id), GAME_CLASSES[game_id])
    return [short_name(g) for g in sorted(registry.GAMES)]


def load_game(game_id: str, num_players: int | None = None, seed: int = 0) -> pyspiel.Game:
    """``pyspiel.load_game`` for one of our game ids, e.g. ``load_game("kremlin", 4)``."""
    register()
    params = {"seed": seed} if num_players is None else {"players": num_players, "seed": seed}
    return pyspiel.load_game(short_name(game_id), params)


register()
