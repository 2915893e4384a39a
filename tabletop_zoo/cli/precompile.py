"""`tabletop-zoo precompile`: fill the numba cache before many processes start."""

from __future__ import annotations

import typer

from ._common import game_id


def precompile(
    games: list[str] | None = typer.Argument(None, help="game ids (default: every game)"),
    jobs: int = typer.Option(0, "--jobs", "-j", help="processes compiling at once (0: one per core)"),
) -> None:
    """Compile every game's numba code (rules, env, vector env, MCTS, self-play batches) into the on-disk
    cache now, one game per process, so that later processes (workers, a cluster, a tournament) start warm."""
    import os

    from ..precompile import precompile as run

    chosen = [game_id(g) for g in games or []] or None
    if jobs < 0:
        raise typer.BadParameter(f"--jobs must be >= 0 (0: one per core), got {jobs}")
    total = run(chosen, jobs or os.cpu_count() or 1, report=lambda g, sec: typer.echo(f"{g}: {sec:.0f} s CPU"))
    typer.echo(f"compiled {len(total)} games in {sum(total.values()):.0f} s CPU", err=True)
