"""az self-play training (tabletop_zoo/selfplay/az.py): targets, samples, exact resume, the saved network."""

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tabletop_zoo  # noqa: E402
from tabletop_zoo.agents import make_agent  # noqa: E402
from tabletop_zoo.play import play_game  # noqa: E402
from tabletop_zoo.selfplay.az import AZConfig, AZTrainer, relative_returns, train_az  # noqa: E402
from tabletop_zoo.selfplay.batch import HEURISTIC, LEARNER, RANDOM  # noqa: E402

TINY = dict(
    num_players=3,
    num_envs=6,
    simulations=6,
    train_every=36,
    updates=2,
    minibatch=32,
    hidden=(16,),
    replay=1000,
    eval_games=0,
)


def trainer(tmp_path, timesteps, resume=False, **kw):
    return AZTrainer(AZConfig(game="irish_gauge", timesteps=timesteps, **{**TINY, **kw}), tmp_path, 1, resume)


def test_value_targets_are_seat_relative():
    returns = np.array([0.0, 1.0, 0.0])
    assert relative_returns(returns, 1, 3, 5).tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]
    assert relative_returns(returns, 2, 3, 5).tolist() == [0.0, 0.0, 1.0, 0.0, 0.0]


def test_samples_are_searched_decisions_with_their_games_returns(tmp_path):
    t = trainer(tmp_path, 400)
    while t.games_done < 3:
        t.play_round()
    r = t.replay
    assert r.count == sum(1 for _ in range(r.count))  # filled in order
    mask, pi, z = r.mask[: r.count], r.pi[: r.count], r.z[: r.count]
    assert (mask.sum(1) >= 2).all()  # forced decisions are applied without a search: never samples
    assert np.allclose(pi.sum(1), 1.0) and not (pi[mask == 0] > 0).any()  # visit shares over legal actions
    assert np.allclose(z[:, :3].sum(1), 1.0) and not z[:, 3:].any()  # win shares of the 3 seats, padded
    in_flight = sum(len(p) for p in t.pending)
    assert r.count + in_flight == t.samples


@pytest.mark.parametrize("pool", ["self=1", "self=0.5,heuristic=0.3,random=0.2"])
def test_resume_gives_the_same_network_as_an_uninterrupted_run(tmp_path, pool):
    """Split after the first games have ended (training has begun: the replay buffer, the optimiser's
    moments, games in flight with pending samples and the heuristics playing their seats all cross the
    checkpoint)."""
    whole = trainer(tmp_path / "whole", 900, pool=pool)
    whole.run()
    half = trainer(tmp_path / "resumed", 600, pool=pool)
    half.run()
    assert half.log and half.replay.count and any(half.pending)
    resumed = trainer(tmp_path / "resumed", 900, resume=True)
    resumed.run()
    assert len(resumed.log) > len(half.log)
    assert resumed.samples == whole.samples and resumed.games_done == whole.games_done
    for (name, a), b in zip(whole.net.state_dict().items(), resumed.net.state_dict().values()):
        assert torch.equal(a, b), name


def test_heuristic_and_random_seats_play_but_only_searched_seats_give_samples(tmp_path):
    t = trainer(tmp_path, 10_000, pool="self=0.4,heuristic=0.4,random=0.2")
    g = t.games
    searched = heuristic_moves = 0
    while t.games_done < 6:
        waiting = np.flatnonzero(g.seats >= 0)
        kinds = g.kinds[waiting, g.seats[waiting]]
        assert not (kinds == RANDOM).any()  # random seats are played inside numba, never handed to Python
        searched += int((kinds == LEARNER).sum())
        heuristic_moves += int((kinds == HEURISTIC).sum())
        assert t.play_round() == int((kinds == LEARNER).sum())
    assert heuristic_moves > 0 and t.samples == searched
    assert t.replay.count + sum(len(p) for p in t.pending) == searched
    for i in range(g.num_envs):  # every game has a searched seat, and a heuristic for each heuristic seat
        seats = g.kinds[i, : g.num_players]
        assert (seats == LEARNER).any()
        assert {s for (j, s) in t.heuristics if j == i} == set(np.flatnonzero(seats == HEURISTIC).tolist())


def test_the_saved_network_plays_by_path(tmp_path):
    result = train_az("irish_gauge", out=tmp_path, torch_threads=1, timesteps=40, **{**TINY, "eval_games": 3})
    assert [r["opponent"] for r in result["curve"]][:2] == ["random", "heuristic"]
    assert (tmp_path / "curve.png").is_file() and (tmp_path / "checkpoint.pt").is_file()
    env = tabletop_zoo.make_env("irish_gauge", num_players=3)
    agents = [make_agent("az", "irish_gauge", seed=0, path=result["network"], simulations=4)] + [
        make_agent("random", "irish_gauge", seed=s) for s in (1, 2)
    ]
    rewards = play_game(env, agents, seed=3)
    assert sum(r["reward"] for r in rewards.values()) == pytest.approx(1.0)


def test_bad_settings_fail_before_any_work(tmp_path):
    with pytest.raises(ValueError, match="simulations must be an integer >= 1"):
        train_az("irish_gauge", out=tmp_path, simulations=0)
    with pytest.raises(ValueError, match="noise must be a number in"):
        train_az("irish_gauge", out=tmp_path, noise=2.0)
    with pytest.raises(ValueError, match="unknown az setting"):
        train_az("irish_gauge", out=tmp_path, gamma=0.9)
    with pytest.raises(ValueError, match="an az pool draws from self, heuristic and random"):
        train_az("irish_gauge", out=tmp_path, pool="self=0.5,snapshot=0.5")
    with pytest.raises(ValueError, match="pool probabilities must sum to 1"):
        train_az("irish_gauge", out=tmp_path, pool="self=0.5")
    with pytest.raises(ValueError, match="no checkpoint at"):
        train_az("irish_gauge", out=tmp_path / "none", resume=True)
    assert not (tmp_path / "none").exists()


def test_the_cli_trains_and_resumes_an_az_run(tmp_path):
    from typer.testing import CliRunner

    from tabletop_zoo.cli import app

    args = ["train", "irish_gauge", "--algo", "az", "--players", "3", "--timesteps", "12", "--num-envs", "4"]
    args += ["--simulations", "2", "--eval-games", "1", "--torch-threads", "1", "--out", str(tmp_path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert f"az:path={tmp_path / 'az.pt'}" in result.output.replace("\n", "")
    again = CliRunner().invoke(app, [*args[:7], "24", *args[8:], "--resume"])
    assert again.exit_code == 0, again.output
    assert "24 samples" in again.output
    bad = CliRunner().invoke(
        app, ["train", "irish_gauge", "--algo", "selfplay", "--simulations", "3", "--out", str(tmp_path / "b")]
    )
    assert bad.exit_code != 0 and "--simulations is an az option" in bad.output


def test_the_cli_passes_game_options_to_the_training_games(tmp_path):
    """``--option KEY=VALUE`` sets the training games' options (config.json keeps them resolved); a bad one is
    refused before anything is written, naming what is allowed."""
    from typer.testing import CliRunner

    from tabletop_zoo.cli import app

    args = ["train", "kremlin", "--algo", "az", "--players", "3", "--timesteps", "8", "--num-envs", "2"]
    args += ["--simulations", "2", "--eval-games", "1", "--torch-threads", "1"]
    result = CliRunner().invoke(app, [*args, "-O", "turn_limit_ranking=true", "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "a" / "config.json").read_text())["options"]["turn_limit_ranking"] is True
    from tabletop_zoo.agents.az.network import load_az

    command = load_az(tmp_path / "a" / "az.pt")[1]["meta"]["command"]
    assert command.endswith("--option turn_limit_ranking=true"), command  # the other options are the defaults
    for option, message in (
        ("turn_limit_ranking", "--option must look like KEY=VALUE"),
        ("speed=3", "speed"),
    ):
        bad = CliRunner().invoke(app, [*args, "--option", option, "--out", str(tmp_path / "b")])
        assert bad.exit_code != 0 and message in " ".join(bad.output.split()), bad.output
        assert not (tmp_path / "b").exists()
    sb3 = CliRunner().invoke(app, ["train", "kremlin", "-O", "turn_limit=5", "--out", str(tmp_path / "c")])
    assert sb3.exit_code != 0 and "--option is a selfplay and az option" in " ".join(sb3.output.split())
