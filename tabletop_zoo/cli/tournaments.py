"""`tabletop-zoo arena` and `ladder`: seat-rotated tournaments, rated."""

from __future__ import annotations

import typer

from .. import registry
from ._common import AGENT_SPEC_HELP, OPTION_HELP, game_id, key_values


def arena(
    game: str = typer.Argument(registry.DEFAULT_GAME, help="game id"),
    agents: str = typer.Option("mcts,heuristic,random", "--agents", "-a", help=f"the line-up: {AGENT_SPEC_HELP}"),
    players: int | None = typer.Option(None, "--players", "-n", help="seats per game (default: line-up size)"),
    games: int = typer.Option(30, "--games", "-g", help="number of games"),
    seed: int = typer.Option(0, "--seed", "-s", help="run seed: fixes every game's seed and seating"),
    out: str | None = typer.Option(None, "--out", "-o", help="results folder (default: arena_runs/<game>-<date-time>)"),
    backend: str = typer.Option("local", "--backend", help="local (worker processes) or ray"),
    workers: int | None = typer.Option(None, "--workers", "-w", help="parallel workers (default: all cores)"),
    resume: bool = typer.Option(False, "--resume", help="continue the run already in --out"),
    address: str | None = typer.Option(None, "--address", help="Ray cluster address (default: start a local Ray)"),
    option: list[str] = typer.Option([], "--option", "-O", help=f"a game option KEY=VALUE (repeatable): {OPTION_HELP}"),
) -> None:
    """Seat-rotated tournament: ranks from the game's result, whole-run Plackett-Luce ratings with intervals,
    head-to-head table; resumable, on local processes or Ray."""
    from .. import arena as arena_mod

    gid = game_id(game)
    if out is None:
        import datetime

        out = f"arena_runs/{gid}-{datetime.datetime.now():%Y%m%d-%H%M%S}"
    from ..agents.spec import split_specs

    lineup = split_specs(agents)
    try:
        arena_mod.run(
            gid,
            lineup,
            num_players=players,
            games=games,
            seed=seed,
            out=out,
            backend=backend,
            workers=workers,
            resume=resume,
            address=address,
            **key_values("--option", "ruleset=published", option),
        )
    except (ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from None
    typer.echo(f"results in {out}/ (games.jsonl, summary.csv, summary.json, ratings.png)")


def ladder(
    game: str = typer.Argument("all", help="game id, or 'all' (every game, one after another)"),
    agents: str = typer.Option("", "--agents", "-a", help=f"agents to add to the standard line-up: {AGENT_SPEC_HELP}"),
    players: int | None = typer.Option(None, "--players", "-n", help="seats per game (default: line-up size)"),
    games: int | None = typer.Option(
        None, "--games", "-g", help="games per ladder (default: 20 rotations; at 2 players every ordered pair 5 times)"
    ),
    quick: bool = typer.Option(False, "--quick", help="small line-up (mcts:simulations=20) and 2 rotations"),
    out: str = typer.Option(
        "ladder_runs", "--out", "-o", help="folder: OUT/STRENGTH.md and one arena run per game in OUT/ladder/<game>/"
    ),
    seed: int = typer.Option(0, "--seed", "-s", help="run seed"),
    workers: int | None = typer.Option(None, "--workers", "-w", help="parallel workers (default: all cores)"),
    backend: str = typer.Option("local", "--backend", help="local (worker processes) or ray"),
    resume: bool = typer.Option(False, "--resume", help="continue the runs already in OUT/ladder/"),
    option: list[str] = typer.Option(
        [], "--option", "-O", help=f"a game option KEY=VALUE for every ladder (repeatable): {OPTION_HELP}"
    ),
) -> None:
    """Strength ladder: random, heuristic, mcts:simulations=100 and =1000 and az (plus --agents), seat-rotated (at 2
    players a round robin: every two agents meet, in both seat orders), rated and written as Markdown
    (OUT/STRENGTH.md) with the command, versions and wall time."""
    import pathlib
    import shlex
    import sys
    import time

    from ..agents.spec import split_specs
    from ..arena import ladder as ladder_mod

    gids = sorted(registry.GAMES) if game == "all" else [game_id(game)]
    extra = split_specs(agents) if agents.strip() else []
    root = pathlib.Path(out)
    command = "tabletop-zoo ladder " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    env, start, sections = ladder_mod.environment(), time.perf_counter(), []
    try:
        options = key_values("--option", "ruleset=published", option)
        for gid in gids:
            typer.echo(f"ladder: {gid}", err=True)
            summary = ladder_mod.ladder(
                gid,
                players=players,
                agents=extra,
                games=games,
                quick=quick,
                out=root / "ladder",
                seed=seed,
                workers=workers,
                backend=backend,
                resume=resume,
                options=options,
            )
            sections.append((gid, summary))
            ladder_mod.print_summary(gid, summary)  # whole agent names at any width
    except (ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from None
    ladder_mod.write_strength(sections, root / ladder_mod.STRENGTH_FILE, command, env, time.perf_counter() - start)
    typer.echo(f"wrote {root / ladder_mod.STRENGTH_FILE}")


COMMANDS = (arena, ladder)
