"""``tabletop-zoo train az GAME``: search-guided self-play, AlphaZero's loop (``tabletop_zoo.training.az``)."""

from __future__ import annotations

from typing import Annotated

import typer

from ... import registry
from .._common import game_id
from . import options as o

POOL_HELP = (
    "who plays the seats: self (the search), heuristic and random, e.g. 'self=0.8,heuristic=0.2' (default self=1)"
)


def az(
    game: o.Game = registry.DEFAULT_GAME,
    timesteps: Annotated[int, o.timesteps("searched (non-forced) decisions")] = 50_000,
    players: o.Players = None,
    num_envs: Annotated[int | None, o.num_envs(32)] = None,
    simulations: Annotated[
        int | None, typer.Option("--simulations", help="search simulations per decision (32)")
    ] = None,
    pool: Annotated[str | None, typer.Option("--pool", help=POOL_HELP)] = None,
    hidden: Annotated[str | None, o.hidden("256,256")] = None,
    option: o.GameOptions = None,
    backend: o.Backend = "local",
    workers: o.Workers = 1,
    address: o.Address = None,
    eval_every: Annotated[int | None, o.eval_every("T/4")] = None,
    eval_games: o.EvalGames = 60,
    out: o.Out = None,
    resume: o.Resume = False,
    overwrite: o.OverwriteOrResume = False,
    torch_threads: o.TorchThreads = None,
    seed: o.Seed = 0,
) -> None:
    """AlphaZero-style self-play: a batched PUCT search guided by the network plays the games, the network learns
    the search's visit counts and the outcomes. Saves the network (play it as az:path=OUT/az.pt), the learning curve
    (CSV + PNG) and checkpoints for --resume."""
    from ...training.az import train_az

    gid = game_id(game)
    out = o.run_folder(gid, out, resume)
    with o.refused_in_one_line():
        options = o.game_options(option)
        settings = {"simulations": simulations, "pool": pool}
        settings |= {"backend": backend, "workers": workers, "address": address, "num_envs": num_envs}
        settings |= {"eval_every": eval_every, "options": options, "hidden": o.widths(hidden)}
        result = train_az(
            gid,
            out=out,
            torch_threads=torch_threads,
            resume=resume,
            overwrite=overwrite,
            progress=True,
            num_players=players,
            timesteps=timesteps,
            eval_games=eval_games,
            seed=seed,
            **o.given(**settings),
        )
    typer.echo(f"{result['samples']} samples, {result['games']} games in {result['wall_s']:.0f} s")
    net = result["network"]
    typer.echo(f"network: {net} (play it as az:path={net}); curve: {out}/curve.png")
