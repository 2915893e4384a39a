"""`tabletop-zoo precompile`: fill the numba cache before many processes start."""

from __future__ import annotations

import typer

from ._common import game_id


def precompile(
    games: list[str] | None = typer.Argument(None, help="game ids (default: every game)"),
    jobs: int = typer.Option(0, "--jobs", "-j", help="processes compiling at once (0: one per core)"),
    ship: bool = typer.Option(
        False, "--ship", help="release build: the env path of the games, for a baseline CPU, into the package"
    ),
) -> None:
    """Compile every game's numba code (rules, env, vector env, MCTS, self-play batches) into the on-disk
    cache now, one game per process, so that later processes (workers, a cluster, a tournament) start warm.

    With ``--ship`` (at release time, before building the wheel): compile what a first use compiles (the env path)
    for a baseline CPU into ``tabletop_zoo/compiled/<digest>/``, the machine code the wheel carries."""
    import os

    from ..precompile import precompile as run
    from ..precompile import ship as run_ship

    chosen = [game_id(g) for g in games or []] or None
    if jobs < 0:
        raise typer.BadParameter(f"--jobs must be >= 0 (0: one per core), got {jobs}")
    if ship:
        folder = run_ship(chosen, jobs or os.cpu_count() or 1, report=lambda g, s: typer.echo(f"{g}: {s:.0f} s CPU"))
        size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
        typer.echo(f"shipped machine code in {folder} ({size / 1e6:.1f} MB)", err=True)
        return
    total = run(chosen, jobs or os.cpu_count() or 1, report=lambda g, sec: typer.echo(f"{g}: {sec:.0f} s CPU"))
    typer.echo(f"compiled {len(total)} games in {sum(total.values()):.0f} s CPU", err=True)
