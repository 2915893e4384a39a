"""Self-play tournaments: seat-rotated games, ranks from the game's result, whole-run ratings, local or Ray.

    tabletop-zoo arena irish_gauge --agents mcts,heuristic,random --players 3 --games 30 --out arena_out

- ``run``: the schedule, workers, resume (``tournament.py``); the run folder's files and lock (``files.py``).
- ranks per game from the kernel's returns, then scores (``tabletop_zoo.standings``).
- ``ratings.py``: a Plackett-Luce fit over all games with bootstrap intervals; ``stats.py``: Wilson intervals
  for win shares, bootstrap for mean ranks, the head-to-head table; ``report.py``: tables, CSV, JSON, PNG.
"""

from ..agents.spec import AgentSpec, parse_agent_spec, split_specs
from .files import GAMES_FILE, RUN_FILE, read_games
from .ratings import fit_ratings
from .report import summarize
from .tournament import agent_seed, game_seed, play_one, run, seating

__all__ = [
    "run",
    "summarize",
    "fit_ratings",
    "parse_agent_spec",
    "split_specs",
    "AgentSpec",
    "game_seed",
    "agent_seed",
    "seating",
    "play_one",
    "read_games",
    "GAMES_FILE",
    "RUN_FILE",
]
