"""``tabletop-zoo train selfplay GAME``: every seat learns, PPO over numba batches (``tabletop_zoo.training``)."""

from __future__ import annotations

from typing import Annotated

import typer

from ... import registry
from .._common import game_id, key_values
from . import options as o

REWARD_HELP = (
    "what a finished game credits each seat: win_share (default), score_margin (final score minus the table's "
    "mean, over the largest such gap: in [-1, 1]) or score_share (score minus the mean, over the mean: keeps its "
    "signal when the learner trails far behind heuristic seats)"
)
DENSE_HELP = (
    "with a score reward: credit each decision with the change of its seat's reward on the scores of the moment "
    "(potential-based shaping: a seat's credits still sum to its final reward)"
)
PPO_HELP = (
    "a PPO setting KEY=VALUE (repeatable): rollout_samples (4096), minibatch (1024), epochs (4), lr (0.0003), "
    "gamma (1), gae_lambda (0.95), clip (0.2), ent_coef (0.01), vf_coef (0.5), max_grad_norm (0.5), "
    "snapshot_every (2), pool_size (8); kickstart (0) and kickstart_samples (30000): the starting weight of a "
    "cross-entropy to the game's heuristic's moves at the learner's decisions, falling linearly to 0 over that many "
    "samples; anneal_lr (false): true makes lr fall linearly to 0 by the end of the run; target_kl (0): above 0, "
    "an update stops once the policy's KL from the rollout's passes 1.5x it (SB3's)"
)
POOL_HELP = "who plays the seats, e.g. 'self=0.6,snapshot=0.2,heuristic=0.1,random=0.1' (the default)"


def selfplay(
    game: o.Game = registry.DEFAULT_GAME,
    timesteps: Annotated[int, o.timesteps("non-forced decisions of every policy seat")] = 50_000,
    players: o.Players = None,
    num_envs: Annotated[int | None, o.num_envs(64)] = None,
    pool: Annotated[str | None, typer.Option("--pool", help=POOL_HELP)] = None,
    reward: Annotated[str | None, typer.Option("--reward", help=REWARD_HELP)] = None,
    dense: Annotated[bool, typer.Option("--dense", help=DENSE_HELP)] = False,
    ppo: Annotated[list[str] | None, typer.Option("--ppo", help=PPO_HELP)] = None,
    hidden: Annotated[str | None, o.hidden("64,64, SB3's")] = None,
    option: o.GameOptions = None,
    backend: o.Backend = "local",
    workers: o.Workers = 1,
    address: o.Address = None,
    eval_every: Annotated[int | None, o.eval_every("T/8")] = None,
    eval_games: o.EvalGames = 60,
    out: o.Out = None,
    resume: o.Resume = False,
    overwrite: o.OverwriteOrResume = False,
    torch_threads: o.TorchThreads = None,
    seed: o.Seed = 0,
) -> None:
    """Self-play PPO: every seat learns (or plays a --pool member), batched in numba. Saves the policy (play it as
    policy:path=OUT/policy.pt), the learning curve (CSV + PNG) and checkpoints for --resume."""
    from ...training import train_selfplay

    gid = game_id(game)
    out = o.run_folder(gid, out, resume)
    with o.refused_in_one_line():
        options = o.game_options(option)
        settings = {"pool": pool, "reward": reward, "dense": dense or None, **ppo_settings(ppo or [])}
        settings |= {"backend": backend, "workers": workers, "address": address, "num_envs": num_envs}
        settings |= {"eval_every": eval_every, "options": options, "hidden": o.widths(hidden)}
        result = train_selfplay(
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
            **o.given(**settings),
        )
    typer.echo(f"{result['samples']} samples, {result['games']} games in {result['wall_s']:.0f} s")
    model = result["policy"]
    typer.echo(f"model: {model} (play it as policy:path={model}); curve: {out}/curve.png, {out}/curve.csv")


def ppo_settings(pairs: list[str]) -> dict:
    """``--ppo KEY=VALUE`` texts as self-play settings (only the PPO ones; the trainer checks the values)."""
    from ...training.selfplay import PPO_SETTINGS

    settings = key_values("--ppo", "lr=0.001", pairs)
    unknown = sorted(set(settings) - set(PPO_SETTINGS))
    if unknown:
        raise ValueError(f"--ppo: unknown setting(s) {', '.join(unknown)}; allowed: {', '.join(PPO_SETTINGS)}")
    return settings
