"""`tabletop-zoo play`: one full game between agents (or you, in the terminal)."""

from __future__ import annotations

import typer

from .. import registry
from ..files import check_writable
from ._common import AGENT_SPEC_HELP, game_id


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
    from ..play import play_game

    gid = game_id(game)
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
        from ..human import HumanGame

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


def _seat_specs(agents: str, num_players: int, humans: list[int], game: str) -> list:
    """Checked agent spec per seat (None for a human seat) from --agents and --human."""
    from ..agents.spec import check_agent_spec, split_specs

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
    it = iter([check_agent_spec(n, game) for n in names])
    return [None if i in humans else next(it) for i in range(num_players)]


def _save_replay(env, path: str | None, labels: list[str]) -> None:
    if path:
        from ..replay import save_replay

        try:
            replay = save_replay(env, path, agents=labels)
        except OSError as e:
            raise typer.BadParameter(f"cannot write the replay to {path}: {e.strerror or e}") from None
        state = "finished" if replay.finished else "unfinished"
        typer.echo(f"replay of the {state} game ({len(replay.actions)} decisions) saved to {path}")
