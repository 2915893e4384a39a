"""Ray RLlib on any game: the AEC env through RLlib's own ``PettingZooEnv`` wrapper, masked PPO.

RLlib's ``PettingZooEnv`` turns the AEC env into a turn-based ``MultiAgentEnv``: each step carries the
one seat to move, and when the game ends every seat receives its terminal reward. The observation
stays our ``Dict(observation, action_mask)``; ``MaskedPPOModule`` feeds ``observation`` to RLlib's
default PPO networks and sets the logits of illegal actions to the float minimum, so no illegal
action is ever sampled. By default every seat shares one policy (self-play with parameter sharing).

    from tabletop_zoo.rllib import ppo_config
    algo = ppo_config("irish_gauge", num_players=3).build_algo()
    result = algo.train()

Needs the ``rllib`` extra (``pip install "tabletop-zoo[rllib]"``: ``ray[rllib]`` and torch).
"""

from __future__ import annotations

from typing import Any

from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.utils.torch_utils import FLOAT_MIN
from ray.tune.registry import register_env

from . import registry

SHARED_POLICY = "shared"


def rllib_env(game: str, num_players: int | None = None, **options) -> PettingZooEnv:
    """``game``'s AEC env inside RLlib's ``PettingZooEnv`` (a turn-based ``MultiAgentEnv``)."""
    return PettingZooEnv(registry.make_env(game, num_players=num_players, **options))


def register(game: str) -> str:
    """Register ``game`` with RLlib's env registry (env_config = make_env keyword arguments); returns the name."""
    game_id = registry._canonical(game)
    name = f"tabletop_zoo/{game_id}"
    register_env(name, lambda config: rllib_env(game_id, **dict(config)))
    return name


class MaskedPPOModule(DefaultPPOTorchRLModule):
    """RLlib's default PPO module over the ``observation`` entry, with illegal actions masked out."""

    def __init__(self, *, observation_space=None, **kwargs):
        # The default encoder is built for the inner Box; the Dict is restored after setup so that
        # RLlib's connectors still see (and batch) the whole observation.
        self._dict_space = observation_space
        super().__init__(observation_space=observation_space["observation"], **kwargs)

    def setup(self):
        super().setup()
        self.observation_space = self._dict_space

    @staticmethod
    def _split(batch: dict[str, Any]):
        """(action mask, a shallow copy of batch whose OBS is the plain observation); batch is not changed."""
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):  # already split
            return None, batch
        inner = dict(batch)
        inner[Columns.OBS] = obs["observation"]
        return obs["action_mask"], inner

    @staticmethod
    def _mask(out: dict[str, Any], mask) -> dict[str, Any]:
        if mask is not None:
            logits = out[Columns.ACTION_DIST_INPUTS]
            out[Columns.ACTION_DIST_INPUTS] = logits.masked_fill(mask == 0, FLOAT_MIN)
        return out

    def _forward(self, batch, **kwargs):
        mask, inner = self._split(batch)
        return self._mask(super()._forward(inner, **kwargs), mask)

    def _forward_train(self, batch, **kwargs):
        mask, inner = self._split(batch)
        return self._mask(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch, embeddings=None):
        _, inner = self._split(batch)
        return super().compute_values(inner, embeddings)


def ppo_config(
    game: str,
    num_players: int | None = None,
    hidden: tuple[int, ...] = (128, 128),
    train_batch_size: int = 2000,
    minibatch_size: int = 250,
    num_epochs: int = 4,
    env_runners: int = 0,
    seed: int | None = 0,
    **options,
) -> PPOConfig:
    """A PPOConfig for ``game``: every seat mapped to one shared ``MaskedPPOModule`` policy."""
    name = register(game)
    env_config = {"num_players": num_players, **options}
    registry.make_env(registry._canonical(game), **env_config)  # bad options raise here, not in a Ray worker
    return (
        PPOConfig()
        # RLlib's env pre-check steps an action sampled from the space, ignoring the mask: our env
        # (rightly) rejects it as illegal, so the check is off. The contract suite checks the env.
        .environment(name, env_config=env_config, disable_env_checking=True)
        .framework("torch")
        .env_runners(num_env_runners=env_runners)
        .multi_agent(policies={SHARED_POLICY}, policy_mapping_fn=lambda agent_id, *args, **kw: SHARED_POLICY)
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    SHARED_POLICY: RLModuleSpec(
                        module_class=MaskedPPOModule, model_config={"fcnet_hiddens": list(hidden)}
                    ),
                }
            )
        )
        .training(train_batch_size_per_learner=train_batch_size, minibatch_size=minibatch_size, num_epochs=num_epochs)
        .debugging(seed=seed)
    )
