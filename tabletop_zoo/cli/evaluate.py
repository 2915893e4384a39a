"""`tabletop-zoo evaluate`: one agent rated against the frozen reference pool."""

from __future__ import annotations

import os
import sys

import typer

from ._common import OPTION_HELP, game_id, key_values


def evaluate(
    agent: str = typer.Argument(
        ...,
        help="the agent: a spec (mcts:simulations=200, policy:path=model.zip) or a class path module:Class whose "
        "instances have act(observation, action_mask) -> int (imported from the current folder or the installed "
        "packages)",
    ),
    game: str = typer.Argument(..., help="game id"),
    players: int = typer.Option(4, "--players", "-n", help="seats per game (a count the pool is published for)"),
    games: int | None = typer.Option(
        None, "--games", "-g", help="games, a multiple of --players (default: whole cycles over the pool, >= 100)"
    ),
    seed: int = typer.Option(0, "--seed", "-s", help="run seed: fixes every game's seed"),
    out: str | None = typer.Option(None, "--out", "-o", help="results folder (default: evaluate_runs/<game>-<time>)"),
    resume: bool = typer.Option(False, "--resume", help="continue the run already in --out"),
    option: list[str] = typer.Option([], "--option", "-O", help=f"a game option KEY=VALUE (repeatable): {OPTION_HELP}"),
) -> None:
    """Rate an agent against the reference pool (random, heuristic, MCTS at two budgets, az) whose ratings are
    published per game and player count: only the agent's rating is fitted, on the pool's fixed scale, with a 95%
    interval and the games a half-width of 50 would need. The pool's version is in every result file."""
    from ..arena.evaluate import TARGET_HALF_WIDTH
    from ..arena.evaluate import evaluate as run_evaluate

    gid = game_id(game)
    if out is None:
        import datetime

        out = f"evaluate_runs/{gid}-{datetime.datetime.now():%Y%m%d-%H%M%S}"
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # a class path names a module of the user's folder, as `python -m` finds it
    try:
        options = key_values("--option", "ruleset=published", option)
        r = run_evaluate(agent, gid, players, games, seed, out, options, resume)
    except (ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from None
    rating, low, high = r["rating"]
    share = r["win_rate"]
    pool = ", ".join(f"{lab} {v[0]:.0f}" for lab, v in r["pool"].items())
    typer.echo(
        f"{r['agent']} in {gid}, {players} players, {r['games']} games: rating {rating:.0f} [{low:.0f}, {high:.0f}] "
        f"on reference pool {r['pool_version']} ({pool}); win share {share[0]:.2f} [{share[1]:.2f}, {share[2]:.2f}] "
        f"(equal share {r['equal_share']:.2f})"
    )
    need = r["games_for_half_width"][str(int(TARGET_HALF_WIDTH))]
    typer.echo(
        f"interval half-width {r['half_width']:.0f}; a half-width of {TARGET_HALF_WIDTH:.0f} needs about {need} games"
    )
    typer.echo(f"results in {out}/ (result.json, games.jsonl)")
