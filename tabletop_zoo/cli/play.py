"""The ``tabletop-zoo`` command line: play a game, measure throughput."""

from __future__ import annotations

import json

import typer

from . import registry
from .agents import AGENTS
from .files import atomic_write, check_writable


class _App(typer.Typer):
    """The command line; a damaged numba cache (any command's first compiled call) is one line, not a traceback."""

    def __call__(self, *args, **kwargs):
        from ._numba_cache import DamagedCacheError
        from .precompile import announcing, spinner

        try:
            with announcing(spinner):  # a game's first compile: a spinner on stderr (one line if not a terminal)
                return super().__call__(*args, **kwargs)
        except DamagedCacheError as e:
            typer.echo(f"Error: {e}", err=True)
            raise SystemExit(1) from None


app = _App(
    add_completion=False,
    no_args_is_help=True,
    help="Board games as multi-agent research environments (PettingZoo AEC over numba kernels).",
)


def _version(show: bool) -> None:
    if show:
        from . import __version__

        typer.echo(f"tabletop-zoo {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="print the tabletop-zoo version and exit"
    ),
) -> None:
    """Board games as multi-agent research environments (PettingZoo AEC over numba kernels)."""


def _game(game: str) -> str:
    try:
        return registry._canonical(game)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None


OPTION_HELP = "e.g. ruleset=published (each game's options: tabletop_zoo.kernel(GAME).OPTIONS)"
AGENT_SPEC_HELP = (
    "agent specs 'name[:key=value,...]' (e.g. mcts:simulations=50, policy:path=model.zip; "
    f"agents: {', '.join(sorted(AGENTS))}); separate agents with ',' (or ';' when a value has a comma)"
)


@app.command()
def play(
    game: str = typer.Argument(..., help=f"game id: {', '.join(sorted(registry.GAMES))}"),
    players: int | None = typer.Option(None, "--players", "-n", help="number of players (default: the game's)"),
    seed: int = typer.Option(0, "--seed", "-s", help="game seed in [0, 2**64) (fixes every chance event)"),
    agents: str = typer.Option(
        "random",
        "--agents",
        "-a",
        help=f"one spec per seat, or one for all: {AGENT_SPEC_HELP}; with --human, only for the other seats",
    ),
    render: str | None = typer.Option(None, "--render", "-r", help="'ansi' prints the table after every decision"),
    ruleset: str | None = typer.Option(None, "--ruleset", help="rules variant, e.g. seed (default) or published"),
    human: list[int] | None = typer.Option(
        None, "--human", "-H", help="seat (0-based) you play in the terminal; repeat for hot-seat"
    ),
    save_replay: str | None = typer.Option(
        None, "--save-replay", help="write the game as replay JSON (see 'tabletop-zoo replay')"
    ),
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
            check_writable(save_replay, "the replay")  # before the game: a human's game must not be lost at the end
        env = registry.make_env(gid, num_players=players, render_mode="ansi" if humans else render, **options)
        specs = _seat_specs(agents, env.num_players, humans, gid)
        seats = [
            None if spec is None else spec.build(gid, seed=(seed * 1000 + i) % 2**64) for i, spec in enumerate(specs)
        ]
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
    typer.echo(
        f"{gid}, {env.num_players} players, seed {seed}: final standings (rank from the game's result, then score)"
    )
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
            raise ValueError(
                f"{num_players} players with {len(humans)} human seat(s) need 1 or {others} agents, got {len(names)}"
            )
        raise ValueError(f"{num_players} players need 1 or {num_players} agents, got {len(names)}")
    it = iter([check_agent_spec(n, game_id) for n in names])
    return [None if i in humans else next(it) for i in range(num_players)]


def _save_replay(env, path: str | None, labels: list[str]) -> None:
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
    game_index: int | None = typer.Option(
        None, "--game-index", "-g", help="with a games.jsonl: the arena game number to replay"
    ),
    to_gif: str | None = typer.Option(None, "--to-gif", help="write an animated GIF of the rgb_array frames"),
    to_mp4: str | None = typer.Option(
        None, "--to-mp4", help="write an MP4 (H.264) of the rgb_array frames (extra: video)"
    ),
    fps: float = typer.Option(2.0, "--fps", help="GIF/MP4 frames per second"),
    every: int = typer.Option(1, "--every", help="show every K-th position (the last one always)"),
    max_frames: int | None = typer.Option(
        None, "--max-frames", help="at most this many frames/boards (default: 200 for a GIF, all in text)"
    ),
    step: bool = typer.Option(False, "--step", help="wait for Enter between positions (q quits)"),
    save: str | None = typer.Option(None, "--save", help="also write the (verified) replay as replay JSON"),
) -> None:
    """Re-play a saved game, checking it reproduces: each move (ansi board), an animated GIF or an MP4."""
    from .replay import ReplayError, arena_replay, frame_positions, load_replay, write_video

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
        if to_gif and not to_gif.lower().endswith(".gif"):
            raise ReplayError(f"--to-gif needs a file name ending in .gif, got {to_gif!r}")
        if to_mp4 and not to_mp4.lower().endswith(".mp4"):
            raise ReplayError(f"--to-mp4 needs a file name ending in .mp4, got {to_mp4!r}")
        for video in (v for v in (to_gif, to_mp4) if v):
            frames = write_video(
                rep, video, fps=fps, every=every, progress=True, max_frames=200 if max_frames is None else max_frames
            )
            typer.echo(f"{video}: {frames} frames of {len(rep.actions)} decisions")
        if to_gif or to_mp4:
            return
    except (ValueError, OSError) as e:
        raise typer.BadParameter(str(e)) from None
    _print_replay(rep, set(shown), step)


def _print_replay(rep, shown: set[int], wait: bool) -> None:
    """Every move by name; the board (ansi) at the positions in ``shown``."""
    typer.echo(
        f"{rep.game}, {rep.num_players} players, seed {rep.seed}, {len(rep.actions)} decisions (replay verified)"
    )
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
    from . import arena as arena_mod

    gid = _game(game)
    if out is None:
        import datetime

        out = f"arena_runs/{gid}-{datetime.datetime.now():%Y%m%d-%H%M%S}"
    from .agents.spec import split_specs

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
            **_key_values("--option", "ruleset=published", option),
        )
    except (ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from None
    typer.echo(f"results in {out}/ (games.jsonl, summary.csv, summary.json, ratings.png)")


@app.command()
def ladder(
    game: str = typer.Argument("all", help="game id, or 'all' (every game, one after another)"),
    agents: str = typer.Option("", "--agents", "-a", help=f"agents to add to the standard line-up: {AGENT_SPEC_HELP}"),
    players: int | None = typer.Option(None, "--players", "-n", help="seats per game (default: line-up size)"),
    games: int | None = typer.Option(None, "--games", "-g", help="games per ladder (default: 20 rotations)"),
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
        options = _key_values("--option", "ruleset=published", option)
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
            Console().print(Markdown(ladder_mod.markdown(gid, summary)))
    except (ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from None
    ladder_mod.write_strength(sections, root / ladder_mod.STRENGTH_FILE, command, env, time.perf_counter() - start)
    typer.echo(f"wrote {root / ladder_mod.STRENGTH_FILE}")


def _key_values(flag: str, example: str, pairs: list[str]) -> dict:
    """``--flag KEY=VALUE`` texts as a dict (values read like agent parameters); the receiver checks them."""
    from .agents.spec import parse_value

    options = {}
    for text in pairs:
        key, eq, value = text.partition("=")
        if not eq or not key.strip():
            raise ValueError(f"{flag} must look like KEY=VALUE, e.g. {example}, got {text!r}")
        options[key.strip()] = parse_value(value.strip())
    return options


def _ppo_settings(pairs: list[str]) -> dict:
    """``--ppo KEY=VALUE`` texts as self-play settings (only the PPO ones; the trainer checks the values)."""
    from .selfplay.trainer import PPO_SETTINGS

    settings = _key_values("--ppo", "lr=0.001", pairs)
    unknown = sorted(set(settings) - set(PPO_SETTINGS))
    if unknown:
        raise ValueError(f"--ppo: unknown setting(s) {', '.join(unknown)}; allowed: {', '.join(PPO_SETTINGS)}")
    return settings


def _widths(text: str) -> tuple[int, ...]:
    """``--hidden 128,128`` as layer widths (the trainer checks each is >= 1)."""
    try:
        widths = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ValueError(f"--hidden must be layer widths separated by commas, e.g. 128,128, got {text!r}") from None
    return widths


@app.command()
def train(
    game: str = typer.Argument("irish_gauge", help="game id"),
    algo: str = typer.Option(
        "maskable_ppo",
        "--algo",
        help="selfplay (every seat learns, batched PPO), az (search-guided self-play), imitate (az's network learns "
        "the heuristic's moves and the games' outcomes) or maskable_ppo (SB3, one seat)",
    ),
    timesteps: int = typer.Option(
        50_000,
        "--timesteps",
        "-t",
        help="samples: the learner's decisions (selfplay: non-forced ones of every policy seat)",
    ),
    players: int | None = typer.Option(None, "--players", "-n", help="number of players (default: the game's)"),
    num_envs: int | None = typer.Option(
        None, "--num-envs", "--n-envs", help="games stepped together in numba (default: selfplay 64, maskable_ppo 8)"
    ),
    pool: str | None = typer.Option(
        None,
        "--pool",
        help="selfplay, az: who plays the seats, e.g. 'self=0.6,snapshot=0.2,heuristic=0.1,random=0.1' (selfplay's "
        "default); az draws from self, heuristic and random (default self=1)",
    ),
    opponents: str = typer.Option("random", "--opponents", help="maskable_ppo: random, heuristic or self (snapshots)"),
    torch_threads: int | None = typer.Option(
        None, "--torch-threads", help="torch threads (default: one per core this run may use)"
    ),
    backend: str = typer.Option(
        "local", "--backend", help="selfplay, az: where the workers play the training games: local or ray"
    ),
    workers: int = typer.Option(
        1,
        "--workers",
        "-w",
        help="selfplay, az: workers sharing the --num-envs games (Ray actors with --backend ray; the same seed and "
        "workers give the same result on either backend)",
    ),
    address: str | None = typer.Option(None, "--address", help="Ray cluster address (default: start a local Ray)"),
    eval_every: int | None = typer.Option(None, "--eval-every", help="samples between evaluations (default T/8)"),
    eval_games: int = typer.Option(60, "--eval-games", help="seat-rotated games per evaluation and opponent"),
    out: str | None = typer.Option(None, "--out", "-o", help="folder (default: train_runs/<game>-<date-time>)"),
    resume: bool = typer.Option(False, "--resume", help="selfplay, az: continue exactly from OUT/checkpoint.pt"),
    overwrite: bool = typer.Option(
        False,
        "--overwrite",
        help="replace the run in OUT; without it, a folder holding a run is refused unless --resume",
    ),
    simulations: int | None = typer.Option(None, "--simulations", help="az: search simulations per decision (32)"),
    reward: str | None = typer.Option(
        None,
        "--reward",
        help="selfplay: what a finished game credits each seat: win_share (default), score_margin (final "
        "score minus the table's mean, over the largest such gap: in [-1, 1]) or score_share (score minus the "
        "mean, over the mean: keeps its signal when the learner trails far behind heuristic seats)",
    ),
    dense: bool = typer.Option(
        False,
        "--dense",
        help="selfplay, with a score reward: credit each decision with the change of its seat's reward on the "
        "scores of the moment (potential-based shaping: a seat's credits still sum to its final reward)",
    ),
    ppo: list[str] = typer.Option(
        [],
        "--ppo",
        help="selfplay: a PPO setting KEY=VALUE (repeatable): rollout_samples (4096), minibatch (1024), epochs (4), "
        "lr (0.0003), gamma (1), gae_lambda (0.95), clip (0.2), ent_coef (0.01), vf_coef (0.5), max_grad_norm (0.5), "
        "snapshot_every (2), pool_size (8); kickstart (0) and kickstart_samples (30000): the starting weight of a "
        "cross-entropy to the game's heuristic's moves at the learner's decisions, falling linearly to 0 over that "
        "many samples; anneal_lr (false): true makes lr fall linearly to 0 by the end of the run; target_kl (0): "
        "above 0, an update stops once the policy's KL from the rollout's passes 1.5x it (SB3's)",
    ),
    option: list[str] = typer.Option(
        [],
        "--option",
        "-O",
        help="selfplay, az: a game option KEY=VALUE for the training games (repeatable), e.g. "
        "turn_limit_ranking=true (kremlin), as the env takes it; each kernel's OPTIONS lists them",
    ),
    teacher: str | None = typer.Option(
        None,
        "--teacher",
        help="imitate: the agent whose moves the network learns (default heuristic); a search (e.g. "
        "'mcts:simulations=1000' or 'az:path=DIR/az.pt') teaches its root visit counts",
    ),
    hidden: str | None = typer.Option(
        None,
        "--hidden",
        help="selfplay, az, imitate: the network's hidden layer widths, e.g. 128,128 (default: 64,64 for selfplay, "
        "SB3's; 256,256 for az and imitate)",
    ),
    seed: int = typer.Option(0, "--seed", "-s"),
) -> None:
    """Train a policy; shows progress and the evaluation curve as it goes, saves the model, a learning curve
    (CSV + PNG) and (selfplay) checkpoints for --resume."""
    from .train import ALGOS

    gid = _game(game)
    if algo not in ALGOS:
        raise typer.BadParameter(f"--algo must be one of {', '.join(ALGOS)}, got {algo!r}")
    if out is None:
        if resume:
            raise typer.BadParameter("--resume needs --out (the folder of the run to continue)")
        import datetime

        out = f"train_runs/{gid}-{datetime.datetime.now():%Y%m%d-%H%M%S}"
    try:
        if simulations is not None and algo != "az":
            raise ValueError("--simulations is an az option (use --algo az)")
        if reward is not None and algo != "selfplay":
            raise ValueError("--reward is a selfplay option (use --algo selfplay)")
        if teacher is not None and algo != "imitate":
            raise ValueError("--teacher is an imitate option (use --algo imitate)")
        options = _key_values("--option", "turn_limit_ranking=true", option)
        ppo_settings = _ppo_settings(ppo)
        if (ppo_settings or dense) and algo != "selfplay":
            raise ValueError("--ppo and --dense are selfplay options (use --algo selfplay)")
        widths = None if hidden is None else _widths(hidden)
        if widths is not None and algo not in ("selfplay", "az", "imitate"):
            raise ValueError("--hidden is a selfplay, az and imitate option (maskable_ppo uses SB3's MlpPolicy)")
        if algo == "imitate":
            given = {"--resume": resume, "--pool": pool, "--option": options, "--num-envs": num_envs}
            given.update({"--backend": backend != "local", "--workers": workers != 1, "--eval-every": eval_every})
            if any(given.values()):
                raise ValueError(f"{', '.join(k for k, v in given.items() if v)}: not options of --algo imitate")
            from .selfplay.imitate import train_imitate

            result = train_imitate(
                gid,
                players,
                timesteps,
                teacher or "heuristic",
                **({} if widths is None else {"hidden": widths}),
                seed=seed,
                out=out,
                torch_threads=torch_threads,
                progress=True,
                overwrite=overwrite,
            )
            net, meta = result["network"], result["meta"]
            typer.echo(f"{meta['samples']} samples, {meta['games']} games in {meta['wall_s']:.0f} s")
            typer.echo(f"network: {net} (play it as az:path={net}); log: {out}/log.json")
            return
        if options and algo not in ("selfplay", "az"):
            raise ValueError("--option is a selfplay and az option (use --algo selfplay or az)")
        if algo in ("selfplay", "az"):
            if algo == "selfplay":
                from .selfplay import train_selfplay as run

                chosen = {"pool": pool, "reward": reward, "dense": dense or None, **ppo_settings}
            else:
                from .selfplay.az import train_az as run

                chosen = {"simulations": simulations, "pool": pool}
            chosen.update(backend=backend, workers=workers, address=address)
            chosen.update(num_envs=num_envs, eval_every=eval_every, options=options or None, hidden=widths)
            result = run(
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
                **{k: v for k, v in chosen.items() if v is not None},
            )
            typer.echo(f"{result['samples']} samples, {result['games']} games in {result['wall_s']:.0f} s")
            if algo == "az":
                net = result["network"]
                typer.echo(f"network: {net} (play it as az:path={net}); curve: {out}/curve.png")
                return
            model = result["policy"]
        else:
            if resume or pool is not None or backend != "local":
                raise ValueError(
                    "--resume, --pool and --backend are selfplay and az options (use --algo selfplay or az)"
                )
            from .train import train as run_training

            result = run_training(
                gid,
                algo,
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
    except (ValueError, TypeError) as e:
        raise typer.BadParameter(str(e)) from None
    typer.echo(f"model: {model} (play it as policy:path={model}); curve: {out}/curve.png, {out}/curve.csv")


@app.command()
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
        from .bench import training as bench_training

        result = bench_training.run(quick=quick)
        if out is not None:
            Path(out).mkdir(parents=True, exist_ok=True)
            atomic_write(Path(out) / "training.json", json.dumps(result, indent=1) + "\n")
        typer.echo(json.dumps(result, indent=1) if as_json else bench_training.format_report(result))
        return
    if game == "vector":
        from .bench import vector as bench_vector

        if seconds <= 0 or repeats < 1:
            raise typer.BadParameter("need --seconds > 0 and --repeats >= 1")
        say = None if as_json else (lambda msg: typer.echo(f"measuring {msg}", err=True))
        result = bench_vector.run(seconds=seconds, repeats=repeats, quick=quick, progress=say)
        if out is not None:
            Path(out).mkdir(parents=True, exist_ok=True)
            atomic_write(Path(out) / "vector.json", json.dumps(result, indent=1) + "\n")
        typer.echo(json.dumps(result, indent=1) if as_json else bench_vector.format_report(result))
        return

    from . import bench as benchmark

    games = sorted(registry.GAMES) if game == "all" else [_game(game)]
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


@app.command()
def precompile(
    games: list[str] | None = typer.Argument(None, help="game ids (default: every game)"),
    jobs: int = typer.Option(0, "--jobs", "-j", help="processes compiling at once (0: one per core)"),
) -> None:
    """Compile every game's numba code (rules, env, vector env, MCTS, self-play batches) into the on-disk
    cache now, one game per process, so that later processes (workers, a cluster, a tournament) start warm."""
    import os

    from .precompile import precompile as run

    chosen = [_game(g) for g in games or []] or None
    if jobs < 0:
        raise typer.BadParameter(f"--jobs must be >= 0 (0: one per core), got {jobs}")
    total = run(chosen, jobs or os.cpu_count() or 1, report=lambda g, sec: typer.echo(f"{g}: {sec:.0f} s CPU"))
    typer.echo(f"compiled {len(total)} games in {sum(total.values()):.0f} s CPU", err=True)


@app.command()
def serve(
    host: str = typer.Option(
        "127.0.0.1",
        "--host",
        help="address to bind (127.0.0.1: this machine only); requests must name it or a loopback name as their "
        "Host (bound to 0.0.0.0 or ::, this machine's host name)",
    ),
    port: int = typer.Option(8000, "--port", help="TCP port"),
    runs: list[str] | None = typer.Option(
        None,
        "--runs",
        help="arena run folder or folder of replay files the browser may "
        "watch; repeat for several (nothing else is read)",
    ),
    models: str | None = typer.Option(
        None,
        "--models",
        help="folder of model files (.zip, .pt) the browser may play, by name: a seat policy:model=NAME or "
        "az:model=NAME, NAME a file's path inside the folder (a seat never names a file itself)",
    ),
) -> None:
    """Watch and play in the browser: a local web app (open http://HOST:PORT) to play against agents, watch
    them at a chosen pace, and step through arena games and replays. The app has no authentication: it
    answers only Host names of this machine's loopback or HOST, and warns when HOST is not loopback."""
    try:
        from .serve import create_app
        from .serve.guard import is_loopback
    except ImportError as e:
        raise typer.BadParameter(f'the web app needs the serve extra: pip install -e ".[serve]" ({e})') from None
    import uvicorn

    if not 0 < port < 65536:
        raise typer.BadParameter(f"--port must be 1..65535, got {port}")
    try:
        web = create_app(runs or [], models=models, host=host)
    except ValueError as e:
        raise typer.BadParameter(str(e)) from None
    if not is_loopback(host):
        typer.echo(
            f"warning: --host {host} is reachable from other machines and the app has no authentication: anyone "
            f"who can reach port {port} can start games and spend this machine's CPU (--host 127.0.0.1 keeps it local)",
            err=True,
        )
    typer.echo(f"tabletop-zoo serving on http://{host}:{port}/ (Ctrl-C stops)")
    uvicorn.run(web, host=host, port=port, log_level="warning")


if __name__ == "__main__":  # pragma: no cover
    app()
