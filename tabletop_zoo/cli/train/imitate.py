"""``tabletop-zoo train imitate GAME``: az's network learns a teacher's moves (``tabletop_zoo.training.imitate``)."""

from __future__ import annotations

from typing import Annotated

import typer

from .._common import game_id
from . import options as o

TEACHER_HELP = (
    "the agent whose moves the network learns (default heuristic); a search (e.g. 'mcts:simulations=1000' or "
    "'az:path=DIR/az.pt') teaches its root visit counts"
)


def imitate(
    game: o.Game = "irish_gauge",
    timesteps: Annotated[int, o.timesteps("the teacher's non-forced decisions")] = 50_000,
    players: o.Players = None,
    teacher: Annotated[str | None, typer.Option("--teacher", help=TEACHER_HELP)] = None,
    hidden: Annotated[str | None, o.hidden("256,256")] = None,
    out: o.Out = None,
    overwrite: o.Overwrite = False,
    torch_threads: o.TorchThreads = None,
    seed: o.Seed = 0,
) -> None:
    """Imitation: az's network learns a teacher's moves (or a search's visit counts) and the games' outcomes, a
    supervised start for az. Saves the network (play it as az:path=OUT/az.pt) and OUT/log.json."""
    from ...training.imitate import train_imitate

    gid = game_id(game)
    out = o.run_folder(gid, out)
    with o.refused_in_one_line():
        widths = o.widths(hidden)
        result = train_imitate(
            gid,
            players,
            timesteps,
            teacher or "heuristic",
            **o.given(hidden=widths),
            seed=seed,
            out=out,
            torch_threads=torch_threads,
            progress=True,
            overwrite=overwrite,
        )
    net, meta = result["network"], result["meta"]
    typer.echo(f"{meta['samples']} samples, {meta['games']} games in {meta['wall_s']:.0f} s")
    typer.echo(f"network: {net} (play it as az:path={net}); log: {out}/log.json")
