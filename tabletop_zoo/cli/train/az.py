"""``tabletop-zoo train az GAME``: search-guided self-play, AlphaZero's loop (``tabletop_zoo.training.az``)."""

from __future__ import annotations

from typing import Annotated

import typer

from . import options as o

POOL_HELP = (
    "who plays the seats: self (the search), heuristic and random, e.g. 'self=0.8,heuristic=0.2' (default self=1)"
)


@o.batched_options(samples="searched (non-forced) decisions", total=50_000, envs=32, widths="256,256", every="T/4")
def az(
    simulations: Annotated[
        int | None, typer.Option("--simulations", help="search simulations per decision (32)")
    ] = None,
    pool: Annotated[str | None, typer.Option("--pool", help=POOL_HELP)] = None,
    **shared,
) -> None:
    """AlphaZero-style self-play: a batched PUCT search guided by the network plays the games, the network learns
    the search's visit counts and the outcomes. Saves the network (play it as az:path=OUT/az.pt), the learning curve
    (CSV + PNG) and checkpoints for --resume."""
    from ...training.az import train_az

    result, out = o.train_batched(train_az, shared, lambda: {"simulations": simulations, "pool": pool})
    net = result["network"]
    typer.echo(f"network: {net} (play it as az:path={net}); curve: {out}/curve.png")
