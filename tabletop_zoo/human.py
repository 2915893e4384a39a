"""Play in the terminal: human seats pick numbered legal moves, agents play the other seats.

``tabletop-zoo play GAME --human 0`` runs ``HumanGame``. On a human turn it shows the board as that seat
may see it (``env.render_for(seat)``: in games with hidden information, its own secrets and only the
public part of the others'), the moves the agents made since (named by ``env.action_name_for``, which
hides their secret choices), and the legal moves numbered 1..k by ``action_name``; the player types a
number, ``u`` to undo their own last move, or ``q`` to quit. With several human seats (hot seat) each
human turn shows the view of the human to move, and agents' moves are named with every secret hidden.
A decision with one legal move (a lone PASS) is made for the human without asking (``skip_forced``, on
by default) and reported as such; it is not an undo point. Once the game is over the full table is
shown. Undo re-plays the game from its seed without that move
and the agents' replies to it: the game is deterministic given its seed and actions, so re-playing is
exact (agents' own random choices may then differ, as after any new move).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import typer
from rich.columns import Columns
from rich.console import Console
from rich.table import Table
from rich.text import Text

from .standings import final_standings

UNDO, QUIT = "u", "q"


class HumanGame:
    """One terminal game; ``players[i]`` is an ``Agent`` for seat i, or None for a human seat."""

    def __init__(
        self,
        env,
        players: Sequence,
        seed: int,
        labels: Sequence[str] | None = None,
        console: Console | None = None,
        ask: Callable[[str], str] | None = None,
        skip_forced: bool = True,
    ):
        if len(players) != env.num_players:
            raise ValueError(f"{env.num_players} players need {env.num_players} seats, got {len(players)}")
        if all(p is not None for p in players):
            raise ValueError("no human seat: give at least one seat to a human")
        self.env = env
        self.players = list(players)
        self.seed = seed
        self.labels = list(labels) if labels else ["human" if p is None else type(p).__name__ for p in players]
        humans = [i for i, p in enumerate(self.players) if p is None]
        # Who reads the agents' moves: the one human, or with several a spectator (None), so that no
        # human learns anything secret from them.
        self.viewer = humans[0] if len(humans) == 1 else None
        self.console = console or Console(highlight=False)
        self.ask = ask or (lambda text: typer.prompt(text, prompt_suffix=" "))
        self.human_steps: list[int] = []  # history indexes of the human moves, for undo
        self.quit = False
        self.skip_forced = skip_forced

    # --- the game loop ---------------------------------------------------------------------------
    def run(self) -> bool:
        """Play until the game ends (True) or the player quits (False)."""
        env = self.env
        env.reset(seed=self.seed)
        you = ", ".join(f"player_{i}" for i, p in enumerate(self.players) if p is None)
        self.say(
            f"{env.metadata['name']}, {env.num_players} players, seed {self.seed}: you play {you}; "
            f"type a move's number, {UNDO} to undo your last move, {QUIT} to quit"
        )
        if env.kernel.INFORMATION == "imperfect":
            self.say(
                "this game has hidden information: each human turn shows only what the player to move "
                "may see; the full table is shown when the game is over"
            )
        for agent in self.players:
            if agent is not None and hasattr(agent, "bind"):
                agent.bind(env)  # searching agents read the record through the env
        while not self.over():
            seat = self.seat()
            if self.players[seat] is None:
                self.human_turn(seat)
                if self.quit:
                    return False
            else:
                self.agent_turn(seat)
        self.show_result()
        return True

    def over(self) -> bool:
        agent = self.env.agent_selection
        return self.env.terminations[agent] or self.env.truncations[agent]

    def seat(self) -> int:
        return self.env.possible_agents.index(self.env.agent_selection)

    def agent_turn(self, seat: int) -> None:
        obs = self.env.observe(self.env.agent_selection)
        action = int(self.players[seat].act(obs["observation"], obs["action_mask"]))
        name = self.env.action_name_for(action, self.viewer)  # before the step: it names a move from this state
        self.say(f"player_{seat} ({self.labels[seat]}): {name}")
        self.env.step(action)

    def human_turn(self, seat: int) -> None:
        env = self.env
        legal = env.legal_actions()
        if self.skip_forced and len(legal) == 1:  # no choice to make: play it and say so
            self.say(f"player_{seat} (you): {env.action_name(legal[0])} (the only legal move)")
            env.step(legal[0])
            return
        self.say(f"\n--- player_{seat}'s view ---")
        self.console.print(Text(env.render_for(seat)), soft_wrap=True)
        self.say(f"\nplayer_{seat} ({self.labels[seat]}) to move, decision {len(env.history) + 1}:")
        self.console.print(
            Columns(
                [Text(f"{i:>3}. {env.action_name(a)}") for i, a in enumerate(legal, 1)],
                column_first=True,
                padding=(0, 3),
            )
        )
        while True:
            choice = self.read_choice(len(legal))
            if choice == QUIT:
                self.quit = True
                self.say(f"quit after {len(env.history)} decisions; the game is not finished")
                return
            if choice == UNDO:
                if self.undo():
                    return
                continue
            self.human_steps.append(len(env.history))
            self.say(f"player_{seat} (you): {env.action_name(legal[choice - 1])}")
            env.step(legal[choice - 1])
            return

    def read_choice(self, n_moves: int) -> int | str:
        """A move number 1..n, UNDO or QUIT; anything else re-prompts saying what is allowed."""
        allowed = f"a number from 1 to {n_moves}, {UNDO} (undo your last move) or {QUIT} (quit)"
        while True:
            try:
                text = self.ask(f"move [1-{n_moves}, {UNDO}, {QUIT}]").strip().lower()
            except (typer.Abort, EOFError):  # end of input or Ctrl-C
                self.say("\ninput closed")
                return QUIT
            if text in (UNDO, QUIT):
                return text
            if text.isdigit() and 1 <= int(text) <= n_moves:
                return int(text)
            self.say(f"{text!r} is not a move: enter {allowed}")

    def undo(self) -> bool:
        """Take back the last human move and the agents' moves after it: re-play from the seed without them."""
        if not self.human_steps:
            self.say("nothing to undo: no human move yet")
            return False
        keep = self.env.history[: self.human_steps.pop()]
        undone = len(self.env.history) - len(keep)
        self.env.reset(seed=self.seed)
        for action in keep:
            self.env.step(action)
        self.say(f"undone: your last move and the {undone - 1} move(s) after it")
        return True

    # --- output ----------------------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.console.print(Text(text), soft_wrap=True)  # the renderers lay out their own lines

    def show_result(self) -> None:
        env = self.env
        self.say("\n--- game over: the full table ---")
        # The game is over, so secrets may be revealed: the full table, whatever the env's render_mode.
        self.console.print(Text(type(env).render_ansi(env.record)), soft_wrap=True)
        table = Table(title=f"final scores after {len(env.history)} decisions")
        for column in ("seat", "player", "score", "reward"):
            table.add_column(column, justify="right" if column in ("score", "reward") else "left")
        final = final_standings(env.kernel, env.record)  # the rules' winner(s), not the top score
        for i, a in enumerate(env.possible_agents):
            table.add_row(
                a,
                self.labels[i] + ("  winner" if final.ranks[i] == 1 else ""),
                str(final.scores[i]),
                f"{env.rewards[a]:.3g}",
            )
        self.console.print(table)
