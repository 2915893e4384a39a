"""The games the web app holds: ``PlayGame`` (humans and agents at one table) and ``WatchGame`` (a replay).

Both turn a position into the JSON the browser draws (``view``): the game's picture as the viewer may see
it (its scene drawn by the SVG back-end, see ``boards``), the text table, the move log by name and, on a
human's turn, the legal moves.

Hidden information (``kernel.INFORMATION == "imperfect"``: Kremlin, French Revolution 1789) stays hidden
until the game is over: the table is ``env.render_for(human)`` and the board that seat's scene (its own
secrets and only the public part of the others'; ``SPECTATOR``'s, with no secret, between hot-seat turns), agents' moves are named by ``env.action_name_for(action, human)`` and a move's map
place is only sent when its name hides nothing. With several human seats (hot seat) each human's turn
shows that human's view, every move is named as a spectator sees it, and no table is shown while the
agents move. A game with no human seat is watched like a replay: the full table. After the game ends,
everything is revealed.
"""

from __future__ import annotations

import logging
import threading

import numpy as np

from .. import registry
from ..envs.render.scene import SPECTATOR
from .boards import board_json, place_of
from .checks import ServeError, check_int, one_line
from .seats import HUMAN, MODEL, ModelFolder, Seat, parse_seat, seat_parameters

log = logging.getLogger("tabletop_zoo.serve")


def _outcome(env) -> dict:
    agents = env.possible_agents
    return {"scores": [int(env.infos[a]["score"]) for a in agents], "rewards": [float(env.rewards[a]) for a in agents]}


# --- playing ----------------------------------------------------------------------------------------
class PlayGame:
    """One live game: ``seats[i]`` is ``"human"`` or an agent spec (``mcts:simulations=200``, ``heuristic``...),
    read by ``seats.parse_seat`` (no files: models by name from ``models``).

    Agents move one decision per ``advance()`` (the browser calls it at the pace the user chose), humans
    with ``play(action)``; ``undo()`` takes back the last human move and the agents' moves after it.
    Every argument is checked before an env or agent is built; errors are ``ServeError``.
    """

    def __init__(
        self,
        game: str,
        num_players: int | None,
        seed: int,
        options: dict,
        seats: list[str],
        models: ModelFolder | None = None,
    ):
        try:
            self.game = registry._canonical(game)
        except (TypeError, ValueError) as e:
            raise ServeError(str(e)) from None
        k = registry.kernel(self.game)
        n = registry.kernel(self.game).DEFAULT_PLAYERS if num_players is None else num_players
        n = check_int(n, "players", k.MIN_PLAYERS, k.MAX_PLAYERS)
        self.seed = check_int(seed, "seed", 0, 2**63 - 1)
        if not isinstance(options, dict):
            raise ServeError(
                f"options must be an object of game options ({', '.join(sorted(k.OPTIONS))}), got {options!r}"
            )
        if not isinstance(seats, list) or len(seats) != n or not all(isinstance(x, str) for x in seats):
            raise ServeError(
                f"seats must list {n} strings, one per seat: '{HUMAN}' or an agent spec such as "
                f"'mcts:simulations=200', got {seats!r}"
            )
        parsed = []
        for i, text in enumerate(seats):
            try:
                parsed.append(parse_seat(text, self.game, models or ModelFolder()))
            except ServeError as e:
                raise ServeError(f"seat {i}: {e}") from None
        self.labels = [seat.label for seat in parsed]
        try:
            self.env = registry.make_env(self.game, num_players=n, **options)
        except (TypeError, ValueError, OSError) as e:
            raise ServeError(str(e)) from None
        self.agents = [_build(seat, i, self.game, self.seed, self.env, models) for i, seat in enumerate(parsed)]
        self.humans = [i for i, a in enumerate(self.agents) if a is None]
        # simulations of the search trees this game keeps between moves (az's; mcts frees its tree each move)
        self.kept_simulations = sum(a.simulations for a in self.agents if getattr(a, "name", None) == "az")
        self.hidden = self.env.kernel.INFORMATION == "imperfect"
        self.env.reset(seed=self.seed)
        self.log: list[dict] = []  # per decision: seat, the name the table may read, the full name
        self.human_steps: list[int] = []  # history indexes of human moves, for undo
        self.lock = threading.Lock()
        self.broken: str | None = None  # set when an agent or the rules raised: the game stops there

    # --- whose turn -------------------------------------------------------------------------------
    def over(self) -> bool:
        a = self.env.agent_selection
        return bool(self.env.terminations[a] or self.env.truncations[a])

    def to_move(self) -> int | None:
        return None if self.over() else self.env.possible_agents.index(self.env.agent_selection)

    def viewer(self) -> int | None:
        """Whose view the table shows: the one human, or in hot seat the human to move (else nobody)."""
        if len(self.humans) == 1:
            return self.humans[0]
        mover = self.to_move()
        return mover if mover in self.humans else None

    def _log_viewer(self) -> int | None:
        return self.humans[0] if len(self.humans) == 1 else None  # hot seat: moves named for a spectator

    # --- moves ------------------------------------------------------------------------------------
    def _step(self, action: int) -> None:
        env, seat = self.env, self.to_move()
        full = env.action_name(action)
        public = env.action_name_for(action, self._log_viewer()) if self.hidden and self.humans else full
        env.step(action)
        self.log.append({"seat": seat, "public": public, "full": full, "action": action})

    def advance(self) -> None:
        """One agent decision (the agent to move acts)."""
        seat = self._movable()
        if self.agents[seat] is None:
            raise ServeError(f"player_{seat} is a human seat: choose a move (POST .../move) instead of advancing")
        obs = self.env.observe(self.env.agent_selection)
        self._step(int(self.agents[seat].act(obs["observation"], obs["action_mask"])))

    def play(self, action) -> None:
        """The human to move plays ``action`` (an id from the legal moves of the view)."""
        seat = self._movable()
        if self.agents[seat] is not None:
            raise ServeError(f"player_{seat} is played by {self.labels[seat]}: advance the game instead")
        n = self.env.kernel.NUM_ACTIONS
        action = check_int(action, "action", 0, n - 1)
        if not self.env.action_mask()[action]:
            raise ServeError(
                f"action {action} ({self.env.action_name(action)}) is not legal for player_{seat} now; "
                f"legal: {self.env.legal_actions()[:30]}"
            )
        self.human_steps.append(len(self.env.history))
        self._step(action)

    def _movable(self) -> int:
        if self.over():
            raise ServeError("the game is over: start a new one")
        return self.to_move()

    def undo(self) -> None:
        """Re-play the game from its seed without the last human move and everything after it."""
        if not self.human_steps:
            raise ServeError("nothing to undo: no human move yet")
        keep = self.human_steps.pop()
        actions = self.env.history[:keep]
        self.env.reset(seed=self.seed)
        for a in actions:
            self.env.step(a)  # the game is deterministic given its seed and actions
        del self.log[keep:]

    # --- what the browser sees --------------------------------------------------------------------
    def view(self) -> dict:
        """What the browser draws now: the picture and table as the viewer may see them, moves, status."""
        env, over = self.env, self.over()
        mover, viewer = self.to_move(), self.viewer()
        reveal = over or not self.hidden or not self.humans
        if reveal:
            table = type(env).render_ansi(env.record)
        elif viewer is not None:
            table = env.render_for(viewer)
        else:
            table = "(hot seat: the table is shown on each human's turn)"
        human_turn = mover is not None and self.agents[mover] is None
        legal = (
            [{"action": a, "name": env.action_name(a), "place": _place(self.game, a)} for a in env.legal_actions()]
            if human_turn
            else []
        )
        last = self.log[-1] if self.log else None
        last_place = None
        if last is not None and (reveal or last["public"] == last["full"]):
            last_place = _place(self.game, last["action"])
        return {
            "kind": "play",
            "game": self.game,
            "title": env.metadata["name"],
            "num_players": env.num_players,
            "seed": self.seed,
            "options": dict(env.options),
            "labels": self.labels,
            "humans": self.humans,
            "hidden_information": self.hidden,
            "viewer": viewer,
            "to_move": mover,
            "over": over,
            "waiting": "over" if over else ("human" if human_turn else "agent"),
            "board": board_json(self.game, env.record, None if reveal else SPECTATOR if viewer is None else viewer),
            "table": table,
            "log": [{"seat": e["seat"], "name": e["full"] if reveal else e["public"]} for e in self.log],
            "legal": legal,
            "last_place": last_place,
            "can_undo": bool(self.human_steps) and not self.broken,
            "outcome": _outcome(env) if over else None,
            "broken": self.broken,
        }


def _build(seat: Seat, i: int, game: str, seed: int, env, models: ModelFolder | None):
    """Seat ``i``'s agent, bound to ``env`` (``None`` for a human). Any failure, from a bad value to a model
    file its loader refuses, is this seat's ``ServeError``, with the model's path shown by its name."""
    if seat.spec is None:
        return None
    try:
        agent = seat.spec.build(game, seed=seed * 1000 + i)
        if hasattr(agent, "bind"):
            agent.bind(env)  # searching agents read the record through the env
        return agent
    except Exception as e:
        known = isinstance(e, (TypeError, ValueError, OSError))
        if not known:
            log.warning("seat %d (%s) could not be made", i, seat.label, exc_info=e)
        message = one_line(str(e) if known else f"{type(e).__name__}: {e}")
        if seat.model is not None:
            message = message.replace(seat.spec.params["path"], seat.model)
        elif MODEL in seat_parameters(seat.spec.name, game):
            offered = ", ".join((models or ModelFolder()).models()) or "none"
            message = f"{message} (this server takes model=NAME instead of path=; models: {offered})"
        raise ServeError(f"seat {i} ({seat.label}): {message}") from None


def _place(game: str, action: int) -> str | None:
    return place_of(game, action)


# --- watching ---------------------------------------------------------------------------------------
class WatchGame:
    """A recorded game (a verified ``Replay``) to step through: every position kept as a record."""

    def __init__(self, replay, source: str):
        self.replay, self.source = replay, source
        self.game = replay.game
        self.env_class = type(replay.make_env())
        self.positions: list[np.ndarray] = []
        self.log: list[dict] = []
        for step in replay.steps():
            self.positions.append(step.state)
            if step.action is not None:
                self.log.append({"seat": step.seat, "name": step.action_name, "action": step.action})
        self.lock = threading.Lock()
        self.broken: str | None = None

    def view(self, at) -> dict:
        """Position ``at`` (0 = the start) as the browser draws it: the privileged picture and the full table."""
        total = len(self.replay.actions)
        at = check_int(at, "position", 0, total)
        s = self.positions[at]
        return {
            "kind": "watch",
            "game": self.game,
            "source": self.source,
            "num_players": self.replay.num_players,
            "seed": self.replay.seed,
            "options": dict(self.replay.options),
            "labels": self.replay.agents,
            "at": at,
            "total": total,
            "board": board_json(self.game, s, None),
            "table": self.env_class.render_ansi(s),
            "log": [{"seat": e["seat"], "name": e["name"]} for e in self.log[:at]],
            "last_place": _place(self.game, self.log[at - 1]["action"]) if at else None,
            "outcome": (
                {"scores": self.replay.scores, "rewards": self.replay.rewards}
                if at == total and self.replay.finished
                else None
            ),
        }
