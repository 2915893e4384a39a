"""``tabletop-zoo train maskable-ppo GAME``: stable-baselines3's MaskablePPO learns one seat (``tabletop_zoo.training.sb3``)."""

from __future__ import annotations

from typing import Annotated

import typer

from ... import registry
from .._common import game_id
from . import options as o


def maskable_ppo(
    game: o.Game = registry.DEFAULT_GAME,
    timesteps: Annotated[int, o.timesteps("the learner's decisions")] = 50_000,
    players: o.Players = None,
    num_envs: Annotated[int | None, o.num_envs(8)] = None,
    opponents: Annotated[
        str, typer.Option("--opponents", help="who plays the other seats: random, heuristic or self (snapshots)")
    ] = "random",
    eval_every: Annotated[int | None, o.eval_every("T/5, at least one rollout")] = None,
    eval_games: o.EvalGames = 60,
    out: o.Out = None,
    overwrite: o.Overwrite = False,
    torch_threads: o.TorchThreads = None,
    seed: o.Seed = 0,
) -> None:
    """MaskablePPO (SB3, sb3-contrib) learns one seat; the others play --opponents. Saves the model (play it as
    policy:path=OUT/model.zip) and the learning curve (CSV + PNG)."""
    from ...training import sb3

    gid = game_id(game)
    out = o.run_folder(gid, out)
    with o.refused_in_one_line():
        result = sb3.train_sb3(
            gid,
            timesteps,
            opponents,
            num_envs or 8,
            players,
            out,
            seed,
            eval_every=eval_every,
            eval_games=eval_games,
            progress=True,
            torch_threads=torch_threads,
            overwrite=overwrite,
        )
    model = result["model"]
    typer.echo(f"model: {model} (play it as policy:path={model}); curve: {out}/curve.png, {out}/curve.csv")
