"""``tabletop-zoo train TRAINER GAME``: one sub-command per trainer, each declaring only its own options.

The trainers: ``maskable-ppo`` (stable-baselines3, one seat learns), ``selfplay`` (every seat learns, batched PPO),
``az`` (search-guided self-play) and ``imitate`` (az's network learns a teacher's moves). Their shared options are
declared once in ``options``; the old spelling ``train GAME --algo X`` is an alias for one release (``alias``).
"""

from __future__ import annotations

import typer

from . import az, imitate, maskable_ppo, selfplay
from .alias import TrainGroup

# Each trainer's command, named as the trainer (`--algo` of the old spelling) with '-' for '_'.
TRAINERS = {
    "maskable_ppo": maskable_ppo.maskable_ppo,
    "selfplay": selfplay.selfplay,
    "az": az.az,
    "imitate": imitate.imitate,
}

app = typer.Typer(
    cls=TrainGroup,
    help="Train a policy or network: one sub-command per trainer (TRAINER --help lists its options); each shows "
    "progress and the evaluation curve as it goes and saves the model and a learning curve. The old spelling "
    "'train GAME --algo maskable_ppo|selfplay|az|imitate ...' (default maskable_ppo) still works in this release, "
    "with a deprecation note.",
)
for _algo, _command in TRAINERS.items():
    app.command(_algo.replace("_", "-"))(_command)
