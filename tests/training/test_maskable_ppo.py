"""MaskablePPO end to end: the pipeline runs and saves; a policy plays in the arena; training helps."""

import csv
import math

import pytest

pytest.importorskip("sb3_contrib")

from tabletop_zoo import arena  # noqa: E402
from tabletop_zoo.training.sb3 import evaluate, train_sb3  # noqa: E402

GAME = "irish_gauge"


def test_training_pipeline_saves_model_curve_and_plays_as_an_agent(tmp_path):
    import torch

    train_sb3(GAME, timesteps=256, n_envs=4, num_players=3, out=tmp_path, eval_games=4, seed=1, torch_threads=1)
    assert torch.get_num_threads() == 1  # set explicitly (#19): torch's default takes every core
    assert (tmp_path / "model.zip").exists() and (tmp_path / "curve.png").exists()
    assert not (tmp_path / "snapshots").exists()  # written only by self-play runs that use it
    rows = list(csv.DictReader((tmp_path / "curve.csv").open()))
    assert rows[0]["timesteps"] == "0" and int(rows[-1]["timesteps"]) >= 256
    summary = arena.run(
        GAME,
        [f"policy:path={tmp_path / 'model.zip'}", "random"],
        num_players=3,
        games=3,
        out=tmp_path / "arena",
        workers=1,
        progress=False,
    )
    assert summary["games"] == 3


def test_self_play_keeps_a_snapshot_pool(tmp_path):
    train_sb3(
        GAME,
        timesteps=512,
        n_envs=4,
        num_players=3,
        opponents="self",
        out=tmp_path,
        eval_every=256,
        eval_games=2,
        seed=2,
    )
    assert len(list((tmp_path / "snapshots").glob("*.zip"))) >= 1


def test_bad_training_input(tmp_path):
    with pytest.raises(ValueError, match="opponents must be one of"):
        train_sb3(GAME, opponents="grandmaster", out=tmp_path)
    with pytest.raises(ValueError, match="policy agent needs path"):
        arena.parse_agent_spec("policy", GAME) and __import__("tabletop_zoo").agents.make_agent("policy", GAME)


@pytest.mark.slow
def test_training_raises_the_win_rate_against_random(tmp_path):
    """Win share vs random before and after 20k steps, 200 evaluation games each; one-sided z-test."""
    result = train_sb3(GAME, timesteps=20_000, n_envs=8, num_players=3, out=tmp_path, eval_games=20, seed=3)
    from sb3_contrib import MaskablePPO

    from tabletop_zoo.agents.policy_agent import load_sb3

    before = evaluate(MaskablePPO("MlpPolicy", _probe_env(), seed=3), GAME, 3, "random", games=200, seed=11)
    after = evaluate(load_sb3(result["model"], GAME), GAME, 3, "random", games=200, seed=11)
    se = math.sqrt(max(before * (1 - before), 0.05) / 200 + max(after * (1 - after), 0.05) / 200)
    assert (after - before) / se > 2.33, (before, after)


def _probe_env():
    from tabletop_zoo.envs.wrappers import KernelVecEnv

    return KernelVecEnv(GAME, num_envs=2, num_players=3, seed=0)
