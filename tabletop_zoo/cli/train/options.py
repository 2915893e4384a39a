"""The options of the trainer commands, each declared once, and the steps every trainer command shares.

A trainer command names its parameters with these types (``players: Players = None``), so an option that several
trainers take reads the same everywhere, and a trainer that does not declare one refuses it (typer's own
"No such option" error). The default of an option stays in the command's signature, where typer shows it.
"""

from __future__ import annotations

import contextlib
import datetime
import inspect
from collections.abc import Callable, Iterator
from typing import Annotated

import typer

from ... import registry
from .._common import game_id, key_values

Game = Annotated[str, typer.Argument(help="game id")]
Players = Annotated[int | None, typer.Option("--players", "-n", help="number of players (default: the game's)")]
Seed = Annotated[int, typer.Option("--seed", "-s", help="run seed")]
Out = Annotated[str | None, typer.Option("--out", "-o", help="folder (default: train_runs/<game>-<date-time>)")]
Overwrite = Annotated[
    bool,
    typer.Option("--overwrite", help="replace the run in OUT; without it, a folder holding a run is refused"),
]
OverwriteOrResume = Annotated[
    bool,
    typer.Option(
        "--overwrite",
        help="replace the run in OUT; without it, a folder holding a run is refused unless --resume",
    ),
]
Resume = Annotated[bool, typer.Option("--resume", help="continue exactly from OUT/checkpoint.pt")]
TorchThreads = Annotated[
    int | None, typer.Option("--torch-threads", help="torch threads (default: one per core this run may use)")
]
EvalGames = Annotated[int, typer.Option("--eval-games", help="seat-rotated games per evaluation and opponent")]
Backend = Annotated[str, typer.Option("--backend", help="where the workers play the training games: local or ray")]
Workers = Annotated[
    int,
    typer.Option(
        "--workers",
        "-w",
        help="workers sharing the --num-envs games (Ray actors with --backend ray; the same seed and workers give "
        "the same result on either backend)",
    ),
]
Address = Annotated[str | None, typer.Option("--address", help="Ray cluster address (default: start a local Ray)")]
GameOptions = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        "-O",
        help="a game option KEY=VALUE for the training games (repeatable), e.g. turn_limit_ranking=true (kremlin), "
        "as the env takes it; each kernel's OPTIONS lists them",
    ),
]


def timesteps(what: str) -> typer.models.OptionInfo:
    """``--timesteps``: how many samples a run takes; ``what`` says what one sample is for this trainer."""
    return typer.Option("--timesteps", "-t", help=f"samples: {what}")


def num_envs(default: int) -> typer.models.OptionInfo:
    """``--num-envs``: the games stepped together; ``default`` is this trainer's."""
    return typer.Option("--num-envs", "--n-envs", help=f"games stepped together in numba (default {default})")


def eval_every(default: str) -> typer.models.OptionInfo:
    """``--eval-every``: the samples between evaluations; ``default`` is this trainer's (T: --timesteps)."""
    return typer.Option("--eval-every", help=f"samples between evaluations (default {default})")


def hidden(default: str) -> typer.models.OptionInfo:
    """``--hidden``: the network's hidden layer widths; ``default`` is this trainer's."""
    return typer.Option("--hidden", help=f"the network's hidden layer widths, e.g. 128,128 (default {default})")


def widths(text: str | None) -> tuple[int, ...] | None:
    """``--hidden 128,128`` as layer widths (None when not given; the trainer checks each is >= 1)."""
    if text is None:
        return None
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"--hidden must be layer widths separated by commas, e.g. 128,128, got {text!r}") from None


def game_options(pairs: list[str] | None) -> dict | None:
    """``--option KEY=VALUE`` texts as the training games' options (None when none is given)."""
    return key_values("--option", "turn_limit_ranking=true", pairs or []) or None


def run_folder(gid: str, out: str | None, resume: bool = False) -> str:
    """``--out``, or a new ``train_runs/<game>-<date-time>`` (a resume must name the run it continues)."""
    if out is not None:
        return out
    if resume:
        raise typer.BadParameter("--resume needs --out (the folder of the run to continue)")
    return f"train_runs/{gid}-{datetime.datetime.now():%Y%m%d-%H%M%S}"


@contextlib.contextmanager
def refused_in_one_line() -> Iterator[None]:
    """A trainer's ``ValueError``/``TypeError`` (a bad setting, a folder holding a run) as typer's one-line error."""
    try:
        yield
    except (ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from None


def given(**settings) -> dict:
    """The settings given on the command line (None means "the trainer's default")."""
    return {k: v for k, v in settings.items() if v is not None}


def _keyword(name: str, annotation, default) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)


def batched_options(samples: str, total: int, envs: int, widths: str, every: str) -> Callable[[Callable], Callable]:
    """A batched trainer's command (selfplay, az) declares only its own options and ``**shared``; this puts them
    among the options every batched trainer takes, declared here once, in the signature typer reads. The
    trainer's defaults, as ``--help`` shows them: what one sample is (``samples``), how many (``total``), the games stepped together
    (``envs``), the hidden widths (``widths``) and the samples between evaluations (``every``)."""
    head = [
        _keyword("game", Game, registry.DEFAULT_GAME),
        _keyword("timesteps", Annotated[int, timesteps(samples)], total),
        _keyword("players", Players, None),
        _keyword("num_envs", Annotated[int | None, num_envs(envs)], None),
    ]
    tail = [
        _keyword("hidden", Annotated[str | None, hidden(widths)], None),
        _keyword("option", GameOptions, None),
        _keyword("backend", Backend, "local"),
        _keyword("workers", Workers, 1),
        _keyword("address", Address, None),
        _keyword("eval_every", Annotated[int | None, eval_every(every)], None),
        _keyword("eval_games", EvalGames, 60),
        _keyword("out", Out, None),
        _keyword("resume", Resume, False),
        _keyword("overwrite", OverwriteOrResume, False),
        _keyword("torch_threads", TorchThreads, None),
        _keyword("seed", Seed, 0),
    ]

    def declare(command: Callable) -> Callable:
        own = inspect.signature(command, eval_str=True)
        mine = [p.replace(kind=p.KEYWORD_ONLY) for p in own.parameters.values() if p.kind is not p.VAR_KEYWORD]
        command.__signature__ = own.replace(parameters=[*head, *mine, *tail])
        return command

    return declare


# What a batched trainer's command passes on to the trainer as it is.
BATCHED_SETTINGS = ("backend", "workers", "address", "num_envs", "eval_every")
BATCHED_RUN = ("torch_threads", "resume", "overwrite", "timesteps", "eval_games", "seed")


def train_batched(train: Callable[..., dict], command: dict, own: Callable[[], dict]) -> tuple[dict, str]:
    """What a batched trainer's command (selfplay, az) does with ``command``, its shared options by name (the
    ``**shared`` of ``batched_options``): the run folder,
    the settings given (``own()``: the trainer's own ones, read where a bad value is refused in one line like the
    rest), the run ``train(...)`` with a progress bar, and its size printed. Returns the run's result and folder."""
    gid = game_id(command["game"])
    out = run_folder(gid, command["out"], command["resume"])
    with refused_in_one_line():
        options = game_options(command["option"])
        settings = own() | {name: command[name] for name in BATCHED_SETTINGS}
        settings |= {"options": options, "hidden": widths(command["hidden"])}
        run = {name: command[name] for name in BATCHED_RUN}
        result = train(gid, out=out, progress=True, num_players=command["players"], **run, **given(**settings))
    typer.echo(f"{result['samples']} samples, {result['games']} games in {result['wall_s']:.0f} s")
    return result, out
