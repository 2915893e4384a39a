"""stable-baselines3's MaskablePPO learns one seat of a game against random, heuristic or self-play opponents.

    tabletop-zoo train maskable-ppo irish_gauge --timesteps 50000 --opponents random --n-envs 8

Writes ``OUT/model.zip``, the learning curve ``OUT/curve.csv`` / ``OUT/curve.png`` (the learner's win
share against the training opponents, measured on seat-rotated evaluation games at regular intervals,
starting before any learning) and, for self-play, ``OUT/snapshots/*.zip``: the frozen copies of the
policy that the opponents are sampled from each episode (plus random players, so the pool is never empty).
The batched trainer where every seat learns is the sibling ``selfplay``.
"""

from __future__ import annotations

import io
import pathlib

import numpy as np

from .. import registry
from ..arena.files import atomic_write
from ..progress import Progress
from .run import prepare_out, save_figure, set_torch_threads, write_rows

OPPONENTS = ("random", "heuristic", "self")


def evaluate(model, game_id: str, num_players: int, opponents, games: int = 60, seed: int = 0) -> float:
    """Mean terminal reward (win share) of the model's seat over seat-rotated games."""
    from tabletop_zoo.envs.wrappers import SingleSeatEnv

    env = SingleSeatEnv(game_id, num_players, opponents=opponents, seed=seed)
    total = 0.0
    for _ in range(games):
        obs, _ = env.reset()
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, done, _, _ = env.step(int(action))
        total += reward
    return total / games


class SnapshotPool:
    """Self-play opponents: each episode, every other seat plays a random frozen snapshot (or random)."""

    def __init__(self, folder: pathlib.Path, game_id: str):
        self.folder, self.game_id = folder, game_id
        self.agents: list = []

    def add(self, model, step: int) -> None:
        from ..agents.policy_agent import PolicyAgent, load_sb3

        path = self.folder / f"step_{step:09d}.zip"
        buffer = io.BytesIO()
        model.save(buffer)
        atomic_write(path, buffer.getvalue())
        # read back without unpickling (the saved zip's serialized entries rebuilt from the game): a frozen copy
        self.agents.append(PolicyAgent(model=load_sb3(path, self.game_id), deterministic=False))

    def __call__(self, rng: np.random.Generator):
        from ..agents import RandomAgent

        choices = self.agents + [RandomAgent(int(rng.integers(2**31)))]
        return choices[int(rng.integers(len(choices)))]


def train_sb3(
    game_id: str,
    timesteps: int = 50_000,
    opponents: str = "random",
    n_envs: int = 8,
    num_players: int | None = None,
    out: str | pathlib.Path = "train_runs/run",
    seed: int = 0,
    eval_every: int | None = None,
    eval_games: int = 60,
    progress: bool = False,
    torch_threads: int | None = None,
    overwrite: bool = False,
) -> dict:
    """Train and return {"model": path, "curve": [(timesteps, win share), ...]}.

    ``torch_threads`` defaults to one per core this process may use; ``progress`` shows the timesteps done
    and their rate over the run (a live bar on a terminal, plain lines elsewhere: ``tabletop_zoo.progress``) and
    prints each evaluation as it is measured. A folder that holds a run is refused unless ``overwrite``
    (``run.prepare_out``); a MaskablePPO run has no checkpoint to resume."""
    game_id = registry._canonical(game_id)
    if opponents not in OPPONENTS:
        raise ValueError(f"opponents must be one of {OPPONENTS}, got {opponents!r}")
    if timesteps < 1 or n_envs < 1:
        raise ValueError("timesteps and n_envs must be >= 1")
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:
        raise ValueError("training needs the train extra: pip install 'tabletop-zoo[train]'") from None
    from tabletop_zoo.envs.wrappers import KernelVecEnv

    set_torch_threads(torch_threads)  # unset, torch takes every core: 20x slowdowns on shared machines
    kernel = registry.kernel(game_id)
    num_players = kernel.check_num_players(kernel.DEFAULT_PLAYERS if num_players is None else num_players)
    out = prepare_out(out, overwrite=overwrite)
    pool = None
    if opponents == "self":  # only a self-play run has snapshots to keep
        (out / "snapshots").mkdir(exist_ok=True)
        pool = SnapshotPool(out / "snapshots", game_id)
    env = KernelVecEnv(game_id, n_envs, num_players, opponents=pool if pool is not None else opponents, seed=seed)
    n_steps = max(16, min(512, timesteps // n_envs))
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=n_steps, batch_size=min(256, n_steps * n_envs), seed=seed, verbose=0, device="cpu"
    )
    eval_opponents = "random" if opponents == "self" else opponents
    curve = _learn(
        model,
        timesteps,
        eval_every or max(timesteps // 5, n_steps * n_envs),
        pool,
        progress,
        lambda: evaluate(model, game_id, num_players, eval_opponents, eval_games, seed),
        eval_opponents,
    )
    buffer = io.BytesIO()
    model.save(buffer)
    atomic_write(out / "model.zip", buffer.getvalue())
    title = f"{game_id}, {num_players} players, vs {opponents} (evaluated vs {eval_opponents})"
    _write_curve(curve, out, title, 1.0 / num_players)
    return {"model": str(out / "model.zip"), "curve": curve}


def _learn(model, timesteps: int, eval_every: int, pool, progress: bool, measure_share, eval_opponents: str) -> list:
    """``model.learn`` with the learning curve: the win share before learning, every ``eval_every`` timesteps and
    at the end (a snapshot added to ``pool`` at each measurement of a self-play run)."""
    from stable_baselines3.common.callbacks import BaseCallback

    bar = Progress("timesteps", timesteps, "steps", enabled=progress)
    curve: list[tuple[int, float]] = []

    def measure(done: int) -> None:
        curve.append((done, measure_share()))
        result = f"win share {curve[-1][1]:.2f} vs {eval_opponents}"
        bar.update(done, status=result)
        bar.note(f"{done:>9} steps: {result}")

    class Curve(BaseCallback):
        def _on_step(self) -> bool:
            bar.update(self.num_timesteps)
            if self.num_timesteps - curve[-1][0] >= eval_every:
                measure(self.num_timesteps)
                if pool is not None:
                    pool.add(model, self.num_timesteps)
            return True

    measure(0)
    try:
        model.learn(total_timesteps=timesteps, callback=Curve())
        if curve[-1][0] != model.num_timesteps:
            measure(model.num_timesteps)
    finally:
        bar.stop()
    return curve


def _write_curve(curve, out: pathlib.Path, title: str, equal_share: float) -> None:
    write_rows(out / "curve.csv", [list(c) for c in curve], ["timesteps", "win_share"])
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 4))  # no pyplot: the caller's matplotlib backend and state stay untouched
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.plot([c[0] for c in curve], [c[1] for c in curve], marker="o", label="learner")
    ax.axhline(equal_share, color="grey", linestyle="--", label="equal share")
    ax.set_xlabel("timesteps")
    ax.set_ylabel("win share")
    ax.set_title(title, fontsize=9)
    ax.legend()
    fig.tight_layout()
    save_figure(fig, out / "curve.png")
