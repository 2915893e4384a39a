"""``tabletop-zoo bench training``: samples/s of the self-play trainer vs sb3-contrib MaskablePPO, in one run.

Irish Gauge, 3 players, the same network (SB3's default MlpPolicy: actor and critic of two tanh layers of
64). Measured here, one after the other, with the same torch threads:

- ``selfplay_fps``: the self-play trainer at ``PLAIN_PPO``'s settings (SB3's network and PPO sizes, the mixed
  self-play pool: its defaults before #48), rollout + PPO update, after one warm-up update: the median over
  ``rounds`` updates of each update's samples/s;
- ``sb3_fps``: MaskablePPO at SB3's defaults (n_steps 2048, minibatch 64, 10 epochs) on ``KernelVecEnv``
  against random opponents; ``sb3_equal_fps``: the same at the trainer's update settings (samples per
  update, minibatch, epochs, 8 envs);
- ``sb3_trivial_fps``: MaskablePPO at SB3's defaults on a trivial masked env of the same observation and
  action sizes (no game, a fixed half of the actions legal): ``env_share`` = sb3_fps / sb3_trivial_fps
  shows what the game itself costs SB3's learner (near 1: the env is not the bottleneck, SB3's loop is);
- ``bound_fps``: what the network alone allows: one forward per sample at the trainer's batch of games (the
  faster of torch's and the rollout's numba forward, on real positions of the game), plus ``epochs`` forward +
  backward + Adam steps per sample at its minibatch, timed on random inputs: the median over ``rounds``
  measurements.

The trainer's updates and the bound's measurements alternate, one of each a round, so both see the machine in
the same moments (on a shared machine the load moves within seconds: one update's rate varied 6.8k-9.6k and one
bound 12k-16k a few seconds apart), and both figures are medians of their rounds (each round's figures are in
``selfplay_fps_rounds`` and ``bound_fps_rounds``). ``ratio`` = selfplay_fps / sb3_fps (goal >= 10) and
``bound_share`` = selfplay_fps / bound_fps (goal >= 0.5). The machine's load average is recorded before and after
(a busy machine makes every figure low, but the ratios are measured under the same load).
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

import numpy as np

from .. import registry
from ..kernels._common.layout import observation_bounds

if TYPE_CHECKING:
    from ..training.selfplay import SelfPlayConfig

GAME, PLAYERS = registry.DEFAULT_GAME, 3


def plain_config() -> SelfPlayConfig:
    """The self-play settings measured: ``PLAIN_PPO`` (SB3's network and PPO sizes), so the comparison with
    MaskablePPO is on the same network."""
    from ..training.selfplay import PLAIN_PPO, SelfPlayConfig

    return SelfPlayConfig(game=GAME, num_players=PLAYERS, **PLAIN_PPO)


def selfplay_and_bound(rounds: int, threads: int, repeats: int) -> tuple[list[float], list[float]]:
    """Each round: one bound measurement (``repeats`` timings of each part, the best), then one update of the
    self-play trainer at ``PLAIN_PPO``'s settings (its samples/s), after a warm-up update."""
    import tempfile

    from ..training import SelfPlayTrainer

    bound = bound_meter(threads, repeats)
    trainer_rates, bound_rates = [], []
    with tempfile.TemporaryDirectory() as out:
        trainer = SelfPlayTrainer(plain_config(), out, torch_threads=threads)
        trainer.update()  # warm-up: numba and torch first calls
        for _ in range(rounds):
            bound_rates.append(bound())
            t0, n0 = time.perf_counter(), trainer.samples
            trainer.update()
            trainer_rates.append((trainer.samples - n0) / (time.perf_counter() - t0))
    return trainer_rates, bound_rates


def trivial_env(n_envs: int):
    """A vector of masked envs with the game's observation and action sizes and no game at all."""
    import gymnasium
    from gymnasium import spaces
    from stable_baselines3.common.vec_env import DummyVecEnv

    from .. import registry

    k = registry.kernel(GAME)

    class TrivialMaskedEnv(gymnasium.Env):
        observation_space = spaces.Box(*observation_bounds(k.OBS_PIECES), dtype=np.float32)
        action_space = spaces.Discrete(k.NUM_ACTIONS)
        mask = np.arange(k.NUM_ACTIONS) % 2 == 0
        obs = np.zeros(k.OBS_SIZE, np.float32)
        length = 40  # decisions per episode, about a learner seat's share of a 3-player game

        def reset(self, *, seed=None, options=None):
            self.t = 0
            return self.obs, {}

        def step(self, action):
            self.t += 1
            done = self.t >= self.length
            return self.obs, float(done), done, False, {}

        def action_masks(self):
            return self.mask

    return DummyVecEnv([TrivialMaskedEnv] * n_envs)


def sb3_fps(timesteps: int, threads: int, trivial: bool = False, **ppo) -> float:
    """MaskablePPO samples/s on ``KernelVecEnv`` against random opponents (or on the trivial env)."""
    import torch
    from sb3_contrib import MaskablePPO

    from ..envs.wrappers import KernelVecEnv

    torch.set_num_threads(threads)
    n_envs = ppo.pop("n_envs", 1)
    env = trivial_env(n_envs) if trivial else KernelVecEnv(GAME, n_envs, PLAYERS, seed=1)
    model = MaskablePPO("MlpPolicy", env, seed=0, verbose=0, device="cpu", **ppo)
    model.learn(model.n_steps * n_envs)  # warm-up: one full rollout and update
    t0 = time.perf_counter()
    model.learn(timesteps, reset_num_timesteps=False)
    return timesteps / (time.perf_counter() - t0)


def bound_meter(threads: int, repeats: int = 5):
    """A measurement of the bound, to call once per round: samples/s of one forward per sample at the trainer's
    batch of games (the faster of torch's forward and the rollout's numba one, on real positions) + its epochs of
    update work per sample (each part the best of ``repeats`` timings)."""
    import torch

    from .. import registry
    from ..agents.policy_network import ActorCritic
    from ..training.batch import random_positions
    from ..training.inference import RolloutPolicy
    from ..training.ppo import legal_softmax

    torch.set_num_threads(threads)
    cfg = plain_config().check()
    k = registry.kernel(GAME)
    net = ActorCritic(k.OBS_SIZE, k.NUM_ACTIONS, cfg.hidden)
    rollout_policy = RolloutPolicy(net)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    rng = np.random.default_rng(0)
    obs = rng.random((cfg.minibatch, k.OBS_SIZE), dtype=np.float32)
    mask = rng.random((cfg.minibatch, k.NUM_ACTIONS)) < 0.3
    mask[:, 0] = True
    gen = torch.Generator().manual_seed(0)
    small = random_positions(k, PLAYERS, cfg.num_envs, 40)

    def torch_forward():
        net.act(*small, gen)

    def rollout_forward():
        rollout_policy.act(*small, gen)

    o, m, a = torch.from_numpy(obs), torch.from_numpy(mask), torch.zeros(cfg.minibatch, dtype=torch.long)

    def update():
        logp, probs = legal_softmax(net.actor(o), m)  # the trainer's masked softmax
        loss = -logp.gather(1, a[:, None]).mean() + (net.critic(o) ** 2).mean() - 0.01 * (probs * logp).sum(-1).mean()
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
        opt.step()

    def best(fn, n):
        fn()
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            times.append((time.perf_counter() - t0) / n)
        return min(times)

    def measure() -> float:
        forward = min(best(torch_forward, 20), best(rollout_forward, 20))
        per_sample = forward / cfg.num_envs + cfg.epochs * best(update, 3) / cfg.minibatch
        return 1.0 / per_sample

    return measure


def run(quick: bool = False, threads: int | None = None) -> dict:
    """All figures of the comparison (``quick``: tiny runs that only check the pipeline)."""
    from ..training.run import cores_in_use

    threads = threads or cores_in_use()
    cfg = plain_config()
    load_before = os.getloadavg()[0]
    trainer_rates, bound_rates = selfplay_and_bound(1 if quick else 7, threads, 1 if quick else 3)
    result = {
        "game": GAME,
        "players": PLAYERS,
        "torch_threads": threads,
        "quick": quick,
        "selfplay_settings": {
            "num_envs": cfg.num_envs,
            "rollout_samples": cfg.rollout_samples,
            "minibatch": cfg.minibatch,
            "epochs": cfg.epochs,
        },
        "selfplay_fps": float(np.median(trainer_rates)),
        "selfplay_fps_rounds": trainer_rates,
        "sb3_fps": sb3_fps(128 if quick else 4096, threads, **({"n_steps": 64} if quick else {})),
        "sb3_trivial_fps": sb3_fps(128 if quick else 4096, threads, True, **({"n_steps": 64} if quick else {})),
        "sb3_equal_fps": sb3_fps(
            256 if quick else 2 * cfg.rollout_samples,
            threads,
            n_envs=8,
            n_steps=(256 if quick else cfg.rollout_samples) // 8,
            batch_size=cfg.minibatch if not quick else 64,
            n_epochs=cfg.epochs,
        ),
        "bound_fps": float(np.median(bound_rates)),
        "bound_fps_rounds": bound_rates,
    }
    result["ratio"] = result["selfplay_fps"] / result["sb3_fps"]
    result["ratio_equal_settings"] = result["selfplay_fps"] / result["sb3_equal_fps"]
    result["bound_share"] = result["selfplay_fps"] / result["bound_fps"]
    result["env_share"] = result["sb3_fps"] / result["sb3_trivial_fps"]
    result["load_avg"] = [load_before, os.getloadavg()[0]]
    result["cores"] = os.cpu_count()
    return result


def format_report(r: dict) -> str:
    return (
        f"{r['game']} {r['players']}p, torch threads {r['torch_threads']} (load {r['load_avg'][0]:.1f} -> "
        f"{r['load_avg'][1]:.1f} on {r['cores']} cores)\n"
        f"  self-play trainer (defaults)       {r['selfplay_fps']:>9,.0f} samples/s\n"
        f"  MaskablePPO, SB3 defaults          {r['sb3_fps']:>9,.0f} samples/s   ratio {r['ratio']:.1f}x (goal >= 10)\n"
        f"  MaskablePPO, SB3 defaults, no game {r['sb3_trivial_fps']:>9,.0f} samples/s   the game costs SB3 "
        f"{100 * (1 - r['env_share']):.0f}% of its speed\n"
        f"  MaskablePPO, trainer's settings    {r['sb3_equal_fps']:>9,.0f} samples/s   ratio "
        f"{r['ratio_equal_settings']:.1f}x\n"
        f"  network bound                      {r['bound_fps']:>9,.0f} samples/s   trainer at "
        f"{100 * r['bound_share']:.0f}% (goal >= 50%; medians of {len(r['bound_fps_rounds'])} alternating rounds)"
    )
