"""What a client may put in a seat: agent names and parameters, never a file, and searches within limits.

A seat is ``human`` or an agent spec in the syntax of ``agents/spec.py`` (``mcts:simulations=200``,
``heuristic``), with two differences. Parameters are numbers or ``true``/``false``: no parameter naming a
file (``path=``) is taken from a client. The agents that play a trained model take ``model=NAME`` instead
(``policy:model=ppo.zip``, ``az:model=irish_gauge/az.pt``), NAME one of the files the server was started
with (``--models DIR``, listed by ``/api/catalogue``); the server resolves the name to the file itself.

Searching seats are bounded so that no move costs more than ``MAX_SECONDS`` of wall time: every seat with a
``seconds`` parameter (``mcts``, ``az``) gets ``seconds=MAX_SECONDS`` unless it asks for less; ``threads``
is at most ``MAX_THREADS``; ``simulations`` is at most ``MAX_SIMULATIONS`` (mcts 200,000, below its own cap of
1,000,000; az 10,000: its tree stays allocated with the seat, about 4.2 KB a simulation in Imperial).
"""

from __future__ import annotations

import math
import numbers
import os
import pathlib
from dataclasses import dataclass

from ..agents import AGENTS, AgentSpec, agent_parameters
from ..agents.spec import split_spec
from .checks import ServeError, check_int, check_text

HUMAN = "human"
MODEL = "model"  # the seat parameter naming a model of the --models folder
FILE_PARAMETERS = ("path",)  # agent parameters that name a file: the server sets them, a client never does
MODEL_AGENTS = {".zip": ("policy",), ".pt": ("policy", "az")}  # a model file's suffix -> the agents playing it
MAX_SECONDS = 10.0  # wall time a searching seat may spend on one move (also its default)
MAX_THREADS = min(4, os.cpu_count() or 1)  # one seat's search threads: one game cannot take every core
# az: about 42 MB of tree per seat in Imperial, kept between moves; mcts: 14 MB a search at six seats, freed after
# each move (within MAX_SECONDS a search reaches far fewer anyway), so concurrent requests stay within memory
MAX_SIMULATIONS = {"az": 10_000, "mcts": 200_000}


@dataclass(frozen=True)
class Seat:
    """A parsed seat: ``label`` as the table shows it (the client's spelling), ``spec`` the agent to build
    (``None`` for a human) with its ``model=`` resolved to ``path=``, and ``model`` the name it was given."""

    label: str
    spec: AgentSpec | None
    model: str | None = None


def _inside(path: pathlib.Path, root: pathlib.Path) -> bool:
    return path.resolve().is_relative_to(root)


class ModelFolder:
    """The model files a server was started with, offered by name (their path inside the folder); files
    whose real path leaves the folder (a symlink out) are not offered, and nothing else can be named."""

    def __init__(self, root: str | pathlib.Path | None = None):
        self.root = None if root is None else pathlib.Path(root).resolve()
        if self.root is not None and not self.root.is_dir():
            raise ValueError(f"--models {root}: not a folder (give the folder holding the model files to offer)")

    def models(self) -> dict[str, tuple[str, ...]]:
        """Model name -> the agents that play it, for every model file inside the folder."""
        found: dict[str, tuple[str, ...]] = {}
        if self.root is None:
            return found
        for folder, subfolders, files in os.walk(self.root):  # does not enter linked folders
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            for name in sorted(files):
                path = pathlib.Path(folder, name)
                agents = MODEL_AGENTS.get(path.suffix)
                if agents and not name.startswith(".") and _inside(path, self.root) and path.resolve().is_file():
                    found[path.relative_to(self.root).as_posix()] = agents
        return found

    def path(self, name, agent: str) -> str:
        """The file of model ``name`` for ``agent``; anything but a name the folder offers is refused."""
        models = self.models()
        offered = ", ".join(models) or "none"
        if self.root is None:
            raise ServeError("this server offers no models: start it with --models DIR to play model files")
        if not isinstance(name, str) or name.startswith(("/", "\\")) or ".." in name.replace("\\", "/").split("/"):
            raise ServeError(f"model={name!r}: name a model as /api/catalogue lists it, not a path; models: {offered}")
        if name not in models:
            raise ServeError(f"no model {name!r} on this server; models: {offered}")
        if agent not in models[name]:
            raise ServeError(f"model {name!r} cannot be played by {agent} (only by {', '.join(models[name])})")
        return str((self.root / name).resolve())


def seat_parameters(name: str, game_id: str | None) -> list[str]:
    """The parameters a client may give agent ``name``: its own, without those naming a file, with
    ``model`` for the agents that load one."""
    own = agent_parameters(name, game_id)
    kept = [p for p in own if p not in FILE_PARAMETERS and p != MODEL]
    return kept + [MODEL] if any(p in own for p in FILE_PARAMETERS) else kept


def parse_seat(text: str, game_id: str, models: ModelFolder) -> Seat:
    """A seat's text as a ``Seat``; raises ``ServeError`` saying what was wrong and what is allowed."""
    check_text(text, "a seat")
    text = text.strip()
    if text == HUMAN:
        return Seat(HUMAN, None)
    name, params = _split(text)
    if name not in AGENTS:
        raise ServeError(f"unknown agent {name!r}; a seat is '{HUMAN}' or one of: {', '.join(sorted(AGENTS))}")
    allowed = seat_parameters(name, game_id)
    _check_parameters(name, params, allowed, models)
    label = AgentSpec(name, params).label
    model = params.pop(MODEL, None)
    if model is not None:
        model = str(model)
        params["path"] = models.path(model, name)
    _bound_search(name, params, allowed)
    return Seat(label, AgentSpec(name, params), model)


def _split(text: str) -> tuple[str, dict]:
    """``name:key=value,...`` into the name and its parameters, as ``agents/spec.py`` reads them."""
    try:
        return split_spec(text)
    except ValueError as e:
        raise ServeError(str(e)) from None


def _check_parameters(name: str, params: dict, allowed: list[str], models: ModelFolder) -> None:
    files = [key for key in params if key in FILE_PARAMETERS]
    if files:
        offered = ", ".join(models.models()) or "none: the server was started without --models"
        raise ServeError(f"{files[0]}= names a file, which a client may not do: play a model by model=NAME ({offered})")
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ServeError(f"unknown parameter(s) {unknown} for agent {name!r}; allowed: {', '.join(allowed) or 'none'}")
    for key, value in params.items():
        if isinstance(value, str) and key != MODEL:
            raise ServeError(f"{key}={value!r}: a seat's parameters are numbers or true/false (text only in model=)")


def _bound_search(name: str, params: dict, allowed: list[str]) -> None:
    """Give a searching seat its time limit, and refuse threads and simulations beyond this server's."""
    if "seconds" in allowed:
        seconds = params.get("seconds", MAX_SECONDS)
        ok = isinstance(seconds, numbers.Real) and not isinstance(seconds, bool) and math.isfinite(seconds)
        if not ok or not 0 <= seconds <= MAX_SECONDS:
            raise ServeError(f"seconds must be a number in 0..{MAX_SECONDS} (this server's limit), got {seconds!r}")
        params["seconds"] = seconds
    if "threads" in params:
        check_int(params["threads"], f"{name} threads (this server's limit)", 1, MAX_THREADS)
    cap = MAX_SIMULATIONS.get(name)
    if cap is not None and "simulations" in params:
        check_int(params["simulations"], f"{name} simulations (this server's limit)", 1, cap)
