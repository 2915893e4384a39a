"""The ``tabletop-zoo`` command line: play a game, measure throughput."""

from __future__ import annotations

import json
from typing import Optional

import typer

from . import registry
from .agents import AGENTS, make_agent

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Board games as multi-agent research environments (PettingZoo AEC over numba kernels).")


def _game(game: str) -> str:
    try:
        return registry._canonical(game)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None


AGENT_SPEC_HELP = ("agent specs 'name[:key=value,...]' (e.g. mcts:simulations=50, policy:path=model.zip; "
                   f"agents: {', '.join(sorted(AGENTS))}); separate agents with ',' (or ';' when a value has a comma)")


@app.command()
def play(
    game: str = typer.Argument(..., help=f"game id: {', '.join(sorted(registry.GAMES))}"),
    players: Optional[int] = typer.Option(None, "--players", "-n", help="number of players (default: the game's)"),
    seed: int = typer.Option(0, "--seed", "-s", help="game seed in [0, 2**64) (fixes every chance event)"),
    agents: str = typer.Option("random", "--agents", "-a",
                               help=f"one spec per seat, or one for all: {AGENT_SPEC_HELP}; with --human, only "
                                    "for the other seats"),
    render: Optional[str] = typer.Option(None, "--render", "-r", help="'ansi' prints the table after every decision"),
    ruleset: Optional[str] = typer.Option(None, "--ruleset", help="rules variant, e.g. seed (default) or published"),
    human: Optional[list[int]] = typer.Option(None, "--human", "-H",
                                              help="seat (0-based) you play in the terminal; repeat for hot-seat"),
    save_replay: Optional[str] = typer.Option(None, "--save-replay",
                                              help="write the game as replay JSON (see 'tabletop-zoo replay')"),
) -> None:
    """Play one full game and print the final standings; with --human you choose moves in the terminal."""
    from .play import play_game

    gid = _game(game)
    options = {"ruleset": ruleset} if ruleset else {}
    humans = sorted(set(human or []))
    try:
        registry.kernel(gid).check_seed(seed)
        if render not in (None, "ansi"):
            raise ValueError(f"--render must be 'ansi', got {render!r}")
        if save_replay:
            _check_writable(save_replay)  # before the game: a human's game must not be lost at the end
        env = registry.make_env(gid, num_players=players, render_mode="ansi" if humans else render, **options)
        specs = _seat_specs(agents, env.num_players, humans, gid)
        seats = [None if spec is None else spec.build(gid, seed=(seed * 1000 + i) % 2**64)
                 for i, spec in enumerate(specs)]
    except (ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from None
    labels = ["human" if spec is None else spec.label for spec in specs]
    if humans:
        from .human import HumanGame

        HumanGame(env, seats, seed, labels).run()
        _save_replay(env, save_replay, labels)
        return

    def log(env, agent, action):
        if render:
            typer.echo(env.render() + "\n")
        typer.echo(f"{agent}: {env.action_name(action)}")

    result = play_game(env, seats, seed=seed, on_decision=log if render else None)
    if render:
        typer.echo(env.render())
    typer.echo(f"{gid}, {env.num_players} players, seed {seed}: final standings (rank from the game's result, "
               "then score)")
    for i, agent in enumerate(env.possible_agents):
        r = result[agent]
        mark = "  winner" if r["winner"] else ""
        typer.echo(f"  {r['rank']}. {agent} ({labels[i]}): score {r['score']}, reward {r['reward']:.3g}{mark}")
    _save_replay(env, save_replay, labels)


def _seat_specs(agents: str, num_players: int, humans: list[int], game_id: str) -> list:
    """Checked agent spec per seat (None for a human seat) from --agents and --human."""
    from .agents.spec import check_agent_spec, split_specs

    bad = [h for h in humans if not 0 <= h < num_players]
    if bad:
        raise ValueError(f"--human seat {bad[0]} does not exist: seats are 0..{num_players - 1}")
    names = split_specs(agents)
    others = num_players - len(humans)
    if len(names) == 1:
        names *= others
    if len(names) != others:
        if humans:
            raise ValueError(f"{num_players} players with {len(humans)} human seat(s) need 1 or {others} agents, "
                             f"got {len(names)}")
        raise ValueError(f"{num_players} players need 1 or {num_players} agents, got {len(names)}")
    it = iter([check_agent_spec(n, game_id) for n in names])
    return [None if i in humans else next(it) for i in range(num_players)]


def _check_writable(path: str) -> None:
    """Refuse an output file that cannot be written, before any work (the file itself is left untouched)."""
    import os
    import pathlib

    target = pathlib.Path(path)
    folder = target.parent if str(target.parent) else pathlib.Path(".")
    if target.is_dir():
        raise ValueError(f"cannot write {path}: it is a folder")
    if not folder.is_dir():
        raise ValueError(f"cannot write {path}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise ValueError(f"cannot write {path}: permission denied")


def _save_replay(env, path: Optional[str], labels: list[str]) -> None:
    if path:
        from .replay import save_replay

        try:
            replay = save_replay(env, path, agents=labels)
        except OSError as e:
            raise typer.BadParameter(f"cannot write the replay to {path}: {e.strerror or e}") from None
        state = "finished" if replay.finished else "unfinished"
        typer.echo(f"replay of the {state} game ({len(replay.actions)} decisions) saved to {path}")


@app.command()
def replay(
    file: str = typer.Argument(..., help="replay JSON (from play --save-replay), or an arena games.jsonl"),
    game_index: Optional[int] = typer.Option(None, "--game-index", "-g",
                                             help="with a games.jsonl: the arena game number to replay"),
    to_gif: Optional[str] = typer.Option(None, "--to-gif", help="write an animated GIF of the rgb_array frames"),
    fps: float = typer.Option(2.0, "--fps", help="GIF frames per second"),
    every: int = typer.Option(1, "--every", help="show every K-th position (the last one always)"),
    max_frames: Optional[int] = typer.Option(None, "--max-frames",
                                             help="at most this many frames/boards (default: 200 for a GIF, all in text)"),
    step: bool = typer.Option(False, "--step", help="wait for Enter between positions (q quits)"),
    save: Optional[str] = typer.Option(None, "--save", help="also write the (verified) replay as replay JSON"),
) -> None:
    """Re-play a saved game, checking it reproduces: each move (ansi board) or an animated GIF."""
    from .replay import ReplayError, arena_replay, frame_positions, load_replay, write_gif

    try:
        if file.endswith(".jsonl") or game_index is not None:
            if game_index is None:
                raise ReplayError(f"{file} holds many arena games: choose one with --game-index N")
            rep = arena_replay(file, game_index)
        else:
            rep = load_replay(file)
        shown = frame_positions(len(rep.actions), every, max_frames)  # checks --every and --max-frames
        if save:
            rep.save(save)
            typer.echo(f"replay saved to {save}")
        if to_gif:
            frames = write_gif(rep, to_gif, fps=fps, every=every, max_frames=200 if max_frames is None else max_frames)
            typer.echo(f"{to_gif}: {frames} frames of {len(rep.actions)} decisions")
            return
    except (ValueError, OSError) as e:
        raise typer.BadParameter(str(e)) from None
    _print_replay(rep, set(shown), step)


def _print_replay(rep, shown: set[int], wait: bool) -> None:
    """Every move by name; the board (ansi) at the positions in ``shown``."""
    typer.echo(f"{rep.game}, {rep.num_players} players, seed {rep.seed}, {len(rep.actions)} decisions "
               f"(replay verified)")
    for position in rep.steps("ansi"):
        if position.action is not None:
            typer.echo(position.label)
        if position.index in shown:
            typer.echo(position.frame + "\n")
            if wait and position.index < len(rep.actions):
                if typer.prompt("Enter: next, q: quit", default="", show_default=False).strip().lower() == "q":
                    return
    if rep.finished:
        typer.echo("final scores: " + ", ".join(f"player_{i} {s}" for i, s in enumerate(rep.scores)))


@app.command()
def arena(
    game: str = typer.Argument("irish_gauge", help="game id"),
    agents: str = typer.Option("mcts,heuristic,random", "--agents", "-a", help=f"the line-up: {AGENT_SPEC_HELP}"),
    players: Optional[int] = typer.Option(None, "--players", "-n", help="seats per game (default: line-up size)"),
    games: int = typer.Option(30, "--games", "-g", help="number of games"),
    seed: int = typer.Option(0, "--seed", "-s", help="run seed: fixes every game's seed and seating"),
    out: Optional[str] = typer.Option(None, "--out", "-o",
                                      help="results folder (default: arena_runs/<game>-<date-time>)"),
    backend: str = typer.Option("local", "--backend", help="local (worker processes) or ray"),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="parallel workers (default: all cores)"),
    resume: bool = typer.Option(False, "--resume", help="continue the run already in --out"),
    address: Optional[str] = typer.Option(None, "--address", help="Ray cluster address (default: start a local Ray)"),
) -> None:
    """Seat-rotated tournament: ranks from the game's result, whole-run Plackett-Luce ratings with intervals,
    head-to-head table; resumable, on local processes or Ray."""
    from . import arena as arena_mod

    gid = _game(game)
    if out is None:
        import datetime

        out = f"arena_runs/{gid}-{datetime.datetime.now():%Y%m%d-%H%M%S}"
    from .agents.spec import split_specs

    lineup = split_specs(agents)
    try:
        arena_mod.run(gid, lineup, num_players=players, games=games, seed=seed, out=out, backend=backend,
                      workers=workers, resume=resume, address=address)
    except (ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from None
    typer.echo(f"results in {out}/ (games.jsonl, summary.csv, summary.json, ratings.png)")


@app.command()
def ladder(
    game: str = typer.Argument("all", help="game id, or 'all' (every game, one after another)"),
    agents: str = typer.Option("", "--agents", "-a", help=f"agents to add to the standard line-up: {AGENT_SPEC_HELP}"),
    players: Optional[int] = typer.Option(None, "--players", "-n", help="seats per game (default: line-up size)"),
    games: Optional[int] = typer.Option(None, "--games", "-g", help="games per ladder (default: 20 rotations)"),
    quick: bool = typer.Option(False, "--quick", help="small line-up (mcts:simulations=20) and 2 rotations"),
    out: str = typer.Option("ladder_runs", "--out", "-o",
                            help="folder: OUT/STRENGTH.md and one arena run per game in OUT/ladder/<game>/"),
    seed: int = typer.Option(0, "--seed", "-s", help="run seed"),
    workers: Optional[int] = typer.Option(None, "--workers", "-w", help="parallel workers (default: all cores)"),
    backend: str = typer.Option("local", "--backend", help="local (worker processes) or ray"),
    resume: bool = typer.Option(False, "--resume", help="continue the runs already in OUT/ladder/"),
) -> None:
    """Strength ladder: random, heuristic, mcts:simulations=100 and =1000 (plus --agents), seat-rotated, rated
    and written as Markdown (OUT/STRENGTH.md) with the command, versions and wall time."""
    import pathlib
    import shlex
    import sys
    import time

    from rich.console import Console
    from rich.markdown import Markdown

    from .agents.spec import split_specs
    from .arena import ladder as ladder_mod

    gids = sorted(registry.GAMES) if game == "all" else [_game(game)]
    extra = split_specs(agents) if agents.strip() else []
    root = pathlib.Path(out)
    command = "tabletop-zoo ladder " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    env, start, sections = ladder_mod.environment(), time.perf_counter(), []
    try:
        for gid in gids:
            typer.echo(f"ladder: {gid}", err=True)
            summary = ladder_mod.ladder(gid, players=players, agents=extra, games=games, quick=quick,
                                        out=root / "ladder", seed=seed, workers=workers, backend=backend,
                                        resume=resume)
            sections.append((gid, summary))
            Console().print(Markdown(ladder_mod.markdown(gid, summary)))
    except (ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from None
    ladder_mod.write_strength(sections, root / ladder_mod.STRENGTH_FILE, command, env, time.perf_counter() - start)
    typer.echo(f"wrote {root / ladder_mod.STRENGTH_FILE}")


@app.command()
def train(
    game: str = typer.Argument("irish_gauge", help="game id"),
    algo: str = typer.Option("maskable_ppo", "--algo", help="maskable_ppo"),
    timesteps: int = typer.Option(50_000, "--timesteps", "-t", help="environment steps of the learner"),
    opponents: str = typer.Option("random", "--opponents", help="random, heuristic or self (snapshot pool)"),
    n_envs: int = typer.Option(8, "--n-envs", help="games stepped together (one numba call with random opponents)"),
    players: Optional[int] = typer.Option(None, "--players", "-n", help="number of players"),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="folder (default: train_runs/<game>-<date-time>)"),
    seed: int = typer.Option(0, "--seed", "-s"),
) -> None:
    """Train MaskablePPO on one seat; saves the model and a learning curve (CSV + PNG)."""
    from .train import train as run_training

    gid = _game(game)
    if out is None:
        import datetime

        out = f"train_runs/{gid}-{datetime.datetime.now():%Y%m%d-%H%M%S}"
    try:
        result = run_training(gid, algo, timesteps, opponents, n_envs, players, out, seed, progress=False)
    except (ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from None
    for steps, share in result["curve"]:
        typer.echo(f"  {steps:>9} steps: win share {share:.2f}")
    typer.echo(f"model: {result['model']}; curve: {out}/curve.png, {out}/curve.csv")


@app.command()
def bench(
    game: str = typer.Argument("all", help="game id, or 'all'"),
    as_json: bool = typer.Option(False, "--json", help="print the results as JSON instead of tables"),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="folder for results.json and results.png (plot)"),
    quick: bool = typer.Option(False, "--quick", help="tiny measurements (checks the pipeline; figures meaningless)"),
    seconds: float = typer.Option(1.0, "--seconds", help="seconds per timed run of a throughput loop"),
    repeats: int = typer.Option(5, "--repeats", help="runs per figure (median, min, max)"),
    simulations: int = typer.Option(1000, "--simulations", help="MCTS simulations per searched move"),
) -> None:
    """Every game and player count: kernel, AEC, observe, clone, MCTS and memory, next to PettingZoo and
    OpenSpiel measured in the same run, and OpenSpiel's Python MCTSBot on our games vs our MCTS."""
    from pathlib import Path

    from . import benchmark

    games = sorted(registry.GAMES) if game == "all" else [_game(game)]
    if seconds <= 0 or repeats < 1 or simulations < 1:
        raise typer.BadParameter("need --seconds > 0, --repeats >= 1 and --simulations >= 1")
    cfg = benchmark.Config.quick_mode() if quick else benchmark.Config(
        seconds=seconds, repeats=repeats, mcts_simulations=simulations, headline_simulations=simulations)
    result = benchmark.run(games, cfg, progress=None if as_json else lambda msg: typer.echo(f"measuring {msg}", err=True))
    if out is not None:
        paths = benchmark.write(result, Path(out))
        if not as_json:
            typer.echo(f"wrote {', '.join(str(p) for p in paths)}", err=True)
    typer.echo(json.dumps(result, indent=1) if as_json else benchmark.format_report(result))


if __name__ == "__main__":  # pragma: no cover
    app()
