"""Training throughput: env-only steps/s of the single-seat view and the batched vector env, and
MaskablePPO frames/s on our env next to the same learner on a trivial masked env of identical sizes,
measured in the same run (target: ours >= 90% of the trivial env's fps).

    python benchmarks/training.py [--game irish_gauge] [--players 3] [--timesteps 8192]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import time

import gymnasium
import numpy as np
from gymnasium import spaces


class TrivialMaskedEnv(gymnasium.Env):
    """Same observation and action sizes, no game: random observation, a fixed half of actions legal."""

    def __init__(self, obs_size: int, n_actions: int, length: int = 40):
        self.observation_space = spaces.Box(0.0, np.inf, (obs_size,), np.float32)
        self.action_space = spaces.Discrete(n_actions)
        self._mask = np.zeros(n_actions, bool)
        self._mask[::2] = True
        self._obs = np.zeros(obs_size, np.float32)
        self.length, self.t = length, 0

    def reset(self, *, seed=None, options=None):
        self.t = 0
        return self._obs, {}

    def step(self, action):
        self.t += 1
        done = self.t >= self.length
        return self._obs, float(done), done, False, {}

    def action_masks(self):
        return self._mask


def env_steps_per_s(step_fn, seconds: float = 2.0) -> float:
    n, end = 0, time.perf_counter() + seconds
    t0 = time.perf_counter()
    while time.perf_counter() < end:
        n += step_fn()
    return n / (time.perf_counter() - t0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="irish_gauge")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--n-envs", type=int, default=8)
    parser.add_argument("--timesteps", type=int, default=8192)
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path(__file__).parent / "results")
    args = parser.parse_args()

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from tabletop_zoo.envs.wrappers import KernelVecEnv, SingleSeatEnv

    single = SingleSeatEnv(args.game, args.players, seed=0)
    single.reset()

    def single_step():
        mask = single.action_masks()
        _, _, done, _, _ = single.step(int(np.flatnonzero(mask)[0]))
        if done:
            single.reset()
        return 1

    vec = KernelVecEnv(args.game, args.n_envs, args.players, seed=0)
    vec.reset()

    def vec_step():
        vec.step(vec.action_masks().argmax(1))
        return args.n_envs

    env_steps_per_s(single_step, 0.5)
    env_steps_per_s(vec_step, 0.5)  # warm-up (numba cache)
    result = {
        "game": args.game,
        "players": args.players,
        "single_seat_steps_per_s": env_steps_per_s(single_step),
        "vector_env_steps_per_s": env_steps_per_s(vec_step),
    }

    def ppo_fps(env) -> float:
        model = MaskablePPO("MlpPolicy", env, n_steps=256, batch_size=256, seed=0, verbose=0, device="cpu")
        model.learn(512)  # warm-up
        t0 = time.perf_counter()
        model.learn(args.timesteps, reset_num_timesteps=False)
        return args.timesteps / (time.perf_counter() - t0)

    k = single.kernel
    trivial = DummyVecEnv([lambda: TrivialMaskedEnv(k.OBS_SIZE, k.NUM_ACTIONS) for _ in range(args.n_envs)])
    result["maskable_ppo_fps_ours"] = ppo_fps(KernelVecEnv(args.game, args.n_envs, args.players, seed=1))
    result["maskable_ppo_fps_trivial"] = ppo_fps(trivial)
    result["ratio"] = result["maskable_ppo_fps_ours"] / result["maskable_ppo_fps_trivial"]
    text = (
        f"{args.game} {args.players}p: single-seat env {result['single_seat_steps_per_s']:,.0f} steps/s, "
        f"vector env ({args.n_envs} games) {result['vector_env_steps_per_s']:,.0f} steps/s; MaskablePPO "
        f"{result['maskable_ppo_fps_ours']:,.0f} fps vs {result['maskable_ppo_fps_trivial']:,.0f} fps on a "
        f"trivial masked env of the same sizes ({100 * result['ratio']:.0f}%)"
    )
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "training.json").write_text(json.dumps(result, indent=1))
    (args.out / "training.txt").write_text(text + "\n")


if __name__ == "__main__":
    main()
