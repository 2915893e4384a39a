"""`tabletop-zoo bench`: throughput of every game next to the references, of training, of make_vec."""

from __future__ import annotations

import json

import typer

from .. import registry
from ..files import atomic_write
from ._common import game_id


def bench(
    game: str = typer.Argument("all", help="game id, or 'all'"),
    as_json: bool = typer.Option(False, "--json", help="print the results as JSON instead of tables"),
    out: str | None = typer.Option(None, "--out", "-o", help="folder for results.json and results.png (plot)"),
    quick: bool = typer.Option(False, "--quick", help="tiny measurements (checks the pipeline; figures meaningless)"),
    seconds: float = typer.Option(1.0, "--seconds", help="seconds per timed run of a throughput loop"),
    repeats: int = typer.Option(5, "--repeats", help="runs per figure (median, min, max)"),
    simulations: int = typer.Option(1000, "--simulations", help="MCTS simulations per searched move"),
) -> None:
    """Every game and player count: kernel, AEC, observe, clone, MCTS and memory, next to PettingZoo and
    OpenSpiel measured in the same run, and OpenSpiel's Python MCTSBot on our games vs our MCTS.
    'bench training': samples/s of the self-play trainer vs MaskablePPO and the network's bound.
    'bench vector': make_vec decisions/s at batch 1 to 4,096, 1 thread and all cores, vs kernel playouts and Pgx."""
    from pathlib import Path

    if game == "training":
        from ..bench import training as bench_training

        result = bench_training.run(quick=quick)
        if out is not None:
            Path(out).mkdir(parents=True, exist_ok=True)
            atomic_write(Path(out) / "training.json", json.dumps(result, indent=1) + "\n")
        typer.echo(json.dumps(result, indent=1) if as_json else bench_training.format_report(result))
        return
    if game == "vector":
        from ..bench import vector as bench_vector

        if seconds <= 0 or repeats < 1:
            raise typer.BadParameter("need --seconds > 0 and --repeats >= 1")
        say = None if as_json else (lambda msg: typer.echo(f"measuring {msg}", err=True))
        result = bench_vector.run(seconds=seconds, repeats=repeats, quick=quick, progress=say)
        if out is not None:
            Path(out).mkdir(parents=True, exist_ok=True)
            atomic_write(Path(out) / "vector.json", json.dumps(result, indent=1) + "\n")
        typer.echo(json.dumps(result, indent=1) if as_json else bench_vector.format_report(result))
        return

    from .. import bench as benchmark

    games = sorted(registry.GAMES) if game == "all" else [game_id(game)]
    if seconds <= 0 or repeats < 1 or simulations < 1:
        raise typer.BadParameter("need --seconds > 0, --repeats >= 1 and --simulations >= 1")
    cfg = (
        benchmark.Config.quick_mode()
        if quick
        else benchmark.Config(
            seconds=seconds, repeats=repeats, mcts_simulations=simulations, headline_simulations=simulations
        )
    )
    busy = benchmark.busy_warning(benchmark.load(), "at the start")
    if busy:
        typer.echo(busy, err=True)
    result = benchmark.run(
        games, cfg, progress=None if as_json else lambda msg: typer.echo(f"measuring {msg}", err=True)
    )
    busy = benchmark.busy_warning(result["load"]["after"], "at the end")
    if busy:
        typer.echo(busy, err=True)
    if out is not None:
        paths = benchmark.write(result, Path(out))
        if not as_json:
            typer.echo(f"wrote {', '.join(str(p) for p in paths)}", err=True)
    typer.echo(json.dumps(result, indent=1) if as_json else benchmark.format_report(result))
