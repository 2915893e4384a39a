"""``tabletop-zoo train imitate GAME``: az's network learns a teacher's moves (``tabletop_zoo.training.imitate``)."""

from __future__ import annotations

from typing import Annotated

import typer

from ... import registry
from .._common import game_id
from . import options as o

TEACHER_HELP = (
    "the agent whose moves the network learns (default heuristic); a search (e.g. 'mcts:simulations=1000' or "
    "'az:path=DIR/az.pt') teaches its root visit counts"
)


def imitate(
    game: o.Game = registry.DEFAULT_GAME,
    timesteps: Annotated[int, o.timesteps("the teacher's non-forced decisions")] = 50_000,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-n",
            help="player counts the games are played at: one (default: the game's), several ('2,3,4') or 'all'",
        ),
    ] = None,
    teacher: Annotated[str | None, typer.Option("--teacher", help=TEACHER_HELP)] = None,
    hidden: Annotated[str | None, o.hidden("256,256")] = None,
    chunk: Annotated[
        int | None,
        typer.Option("--chunk", help="samples per saved chunk: the run saves its progress and --resume continues it"),
    ] = None,
    out: o.Out = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="start or continue a chunked run with the same settings (needs --chunk)")
    ] = False,
    overwrite: o.Overwrite = False,
    torch_threads: o.TorchThreads = None,
    seed: o.Seed = 0,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            "-w",
            help="processes collecting the chunks side by side (needs --chunk); any number gives the same run, and "
            "a resumed run may use another",
        ),
    ] = 1,
) -> None:
    """Imitation: az's network learns a teacher's moves (or a search's visit counts) and the games' outcomes, a
    supervised start for az. Saves the network (play it as az:path=OUT/az.pt) and OUT/log.json."""
    from ...training.imitate import train_imitate

    gid = game_id(game)
    out = o.run_folder(gid, out, resume)
    with o.refused_in_one_line():
        widths = o.widths(hidden)
        result = train_imitate(
            gid,
            counts(players),
            timesteps,
            teacher or "heuristic",
            **o.given(hidden=widths),
            seed=seed,
            out=out,
            torch_threads=torch_threads,
            progress=True,
            overwrite=overwrite,
            chunk=chunk,
            resume=resume,
            workers=workers,
        )
    net, meta = result["network"], result["meta"]
    typer.echo(f"{meta['samples']} samples, {meta['games']} games in {meta['wall_s']:.0f} s")
    typer.echo(f"network: {net} (play it as az:path={net}); log: {out}/log.json")


def counts(text: str | None) -> int | list[int] | str | None:
    """``--players``: None, ``all``, one count or a comma-separated list (checked by the trainer)."""
    if text is None or text == "all":
        return text
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise ValueError(f"--players must be a count, a list such as 2,3,4, or all; got {text!r}") from None
    return values[0] if len(values) == 1 else values
