"""``tabletop-zoo train selfplay GAME``: every seat learns, PPO over numba batches (``tabletop_zoo.training``)."""

from __future__ import annotations

from typing import Annotated

import typer

from .._common import key_values
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


@o.batched_options(samples="non-forced decisions of every policy seat", envs=64, widths="64,64, SB3's", every="T/8")
def selfplay(
    pool: Annotated[str | None, typer.Option("--pool", help=POOL_HELP)] = None,
    reward: Annotated[str | None, typer.Option("--reward", help=REWARD_HELP)] = None,
    dense: Annotated[bool, typer.Option("--dense", help=DENSE_HELP)] = False,
    ppo: Annotated[list[str] | None, typer.Option("--ppo", help=PPO_HELP)] = None,
    **shared,
) -> None:
    """Self-play PPO: every seat learns (or plays a --pool member), batched in numba. Saves the policy (play it as
    policy:path=OUT/policy.pt), the learning curve (CSV + PNG) and checkpoints for --resume."""
    from ...training import train_selfplay

    def own() -> dict:
        return {"pool": pool, "reward": reward, "dense": dense or None, **ppo_settings(ppo or [])}

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
