"""``tabletop-zoo train selfplay GAME``: every seat learns, PPO over numba batches (``tabletop_zoo.training``)."""

from __future__ import annotations

from typing import Annotated

import typer

from .._common import key_values
from . import options as o

REWARD_HELP = (
    "what a finished game credits each seat: score_share (default: score minus the table's mean, over the mean: "
    "keeps its signal when the learner trails far behind heuristic seats), score_margin (final score minus the "
    "table's mean, over the largest such gap: in [-1, 1]) or win_share"
)
DENSE_HELP = (
    "with a score reward: credit each decision with the change of its seat's reward on the scores of the moment "
    "(potential-based shaping: a seat's credits still sum to its final reward); default: dense with a score "
    "reward, --no-dense to credit only the final reward"
)
PPO_HELP = (
    "a PPO setting KEY=VALUE (repeatable): rollout_samples (2048), minibatch (256), epochs (10), lr (0.001), "
    "gamma (1), gae_lambda (0.8), clip (0.2), ent_coef (0), vf_coef (0.5), max_grad_norm (0.5), "
    "snapshot_every (2), pool_size (8); kickstart (1) and kickstart_samples (30000): the starting weight of a "
    "cross-entropy to the game's heuristic's moves at the learner's decisions, falling linearly to 0 over that many "
    "samples (0: off); anneal_lr (true): lr falls linearly to 0 by the end of the run; target_kl (0): above 0, "
    "an update stops once the policy's KL from the rollout's passes 1.5x it (SB3's)"
)
POOL_HELP = (
    "who plays the other seats: heuristic=1 (default: the game's heuristic), or a mix of self (the current policy), "
    "snapshot (its past versions), heuristic and random, e.g. 'self=0.6,snapshot=0.2,heuristic=0.1,random=0.1'"
)


@o.batched_options(
    samples="non-forced decisions of every policy seat", total=60_000, envs=32, widths="256,256", every="T/8"
)
def selfplay(
    pool: Annotated[str | None, typer.Option("--pool", help=POOL_HELP)] = None,
    reward: Annotated[str | None, typer.Option("--reward", help=REWARD_HELP)] = None,
    dense: Annotated[bool | None, typer.Option("--dense/--no-dense", help=DENSE_HELP)] = None,
    ppo: Annotated[list[str] | None, typer.Option("--ppo", help=PPO_HELP)] = None,
    **shared,
) -> None:
    """PPO over numba batches: the policy learns in one seat of each game (every seat it plays with --pool self=...).
    The defaults are the best known recipe (tuned in Irish Gauge at 3 players, docs/training.md): 60,000 samples
    against the game's heuristic, kickstarted from its moves (kickstart 1 over 30,000 samples), dense score shares, a
    256,256 network, lr 0.001 annealed, no entropy bonus, 32 games, rollouts of 2048, minibatch 256, 10 epochs, GAE
    lambda 0.8; every option overrides its part, and --resume keeps the run's own settings. Saves the policy (play it
    as policy:path=OUT/policy.pt), the learning curve (CSV + PNG) and checkpoints for --resume."""
    from ...training import train_selfplay

    def own() -> dict:
        return {"pool": pool, "reward": reward, "dense": dense, **ppo_settings(ppo or [])}

    result, out = o.train_batched(train_selfplay, shared, own)
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
