"""az self-play training (tabletop_zoo/training/az.py, az_worker.py): targets, samples, workers on either
backend, exact resume, the saved network."""

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tabletop_zoo  # noqa: E402
from tabletop_zoo.agents import make_agent  # noqa: E402
from tabletop_zoo.play import play_game  # noqa: E402
from tabletop_zoo.training.az import AZConfig, AZTrainer, train_az  # noqa: E402
from tabletop_zoo.training.az_worker import relative_returns  # noqa: E402
from tabletop_zoo.training.batch import HEURISTIC, LEARNER, RANDOM  # noqa: E402

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


def assert_same_parameters(a, b):
    for (name, x), y in zip(a.net.state_dict().items(), b.net.state_dict().values(), strict=True):
        assert torch.equal(x, y), name


@pytest.fixture(scope="module")
def ray_session():
    """One local Ray of two CPUs for the module's Ray tests (the trainer leaves a running Ray alone)."""
    ray = pytest.importorskip("ray")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()


def test_value_targets_are_seat_relative():
    returns = np.array([0.0, 1.0, 0.0])
    assert relative_returns(returns, 1, 3, 5).tolist() == [1.0, 0.0, 0.0, 0.0, 0.0]
    assert relative_returns(returns, 2, 3, 5).tolist() == [0.0, 0.0, 1.0, 0.0, 0.0]


def test_samples_are_searched_decisions_with_their_games_returns(tmp_path):
    t = trainer(tmp_path, 400)
    w = t.workers.workers[0]
    searched = 0
    while w.games_done < 3:
        searched += w.round()
    in_flight = sum(len(p) for p in w.pending)
    r = w.take()
    mask, pi, z = r["mask"], r["pi"], r["z"]
    assert (mask.sum(1) >= 2).all()  # forced decisions are applied without a search: never samples
    assert np.allclose(pi.sum(1), 1.0) and not (pi[mask == 0] > 0).any()  # visit shares over legal actions
    assert np.allclose(z[:, :3].sum(1), 1.0) and not z[:, 3:].any()  # win shares of the 3 seats, padded
    assert len(mask) + in_flight == searched


@pytest.mark.parametrize("pool", ["self=1", "self=0.5,heuristic=0.3,random=0.2"])
def test_one_worker_plays_and_trains_as_the_single_process_trainer_did(tmp_path, pool):
    """The az trainer before workers (#21) played one round at a time and trained from the same generator as
    soon as ``train_every`` new samples were in: replayed here by hand with one worker sharing the learner's
    generator and network, it gives the parameters and the replay of a run with one worker, so the
    checkpoints and results of the single-process trainer stay meaningful."""
    run = trainer(tmp_path / "run", 900, pool=pool)
    run.run()
    ref = trainer(tmp_path / "ref", 900, pool=pool)
    w = ref.workers.workers[0]
    w.rng, w.net = ref.rng, ref.net  # one generator and one network, as in the single-process trainer
    samples = since_train = 0
    while samples < 900:
        n = w.round()
        for obs, mask, pi, z in w.done:
            ref.replay.add(obs, mask, pi, z)
        w.done = []
        samples += n
        since_train += n
        if since_train >= ref.cfg.train_every and ref.replay.count:
            since_train = 0
            ref.train_round()
    assert run.samples == samples and run.version == ref.version > 5
    assert_same_parameters(run, ref)
    for c in [c for chunks in run.incoming for c in chunks]:  # what came in since the last training round
        run.replay.add_many(c["obs"], c["mask"], c["pi"], c["z"])
    for key in ("obs", "mask", "pi", "z"):
        assert np.array_equal(getattr(run.replay, key), getattr(ref.replay, key)), key


@pytest.mark.parametrize(
    "pool, workers", [("self=1", 1), ("self=0.5,heuristic=0.3,random=0.2", 1), ("self=0.5,heuristic=0.3,random=0.2", 2)]
)
def test_resume_gives_the_same_network_as_an_uninterrupted_run(tmp_path, pool, workers):
    """Split after the first games have ended (training has begun: the replay buffer, the optimiser's
    moments, each worker's games in flight with pending samples and the heuristics playing their seats all
    cross the checkpoint). The two runs evaluate at different points (``eval_every`` is a quarter of each
    first run) and the split stops between training rounds: neither changes what the workers play."""
    whole = trainer(tmp_path / "whole", 900, pool=pool, workers=workers)
    whole.run()
    half = trainer(tmp_path / "resumed", 600, pool=pool, workers=workers)
    half.run()
    states = half.workers.get_state()
    assert half.log and half.replay.count and len(states) == workers and all(any(s["pending"]) for s in states)
    resumed = trainer(tmp_path / "resumed", 900, resume=True)
    assert resumed.cfg.workers == workers
    resumed.run()
    assert len(resumed.log) > len(half.log)
    assert resumed.samples == whole.samples and resumed.games_done == whole.games_done
    assert_same_parameters(whole, resumed)


def test_where_the_workers_pause_changes_nothing(tmp_path):
    """With two workers, calls that stop at random points (as evaluations and the end of a run do) give the
    parameters of a run that stops only at its end: each worker plays the same rounds between two training
    rounds, and the samples reach the replay in the same order."""
    settings = dict(workers=2, pool="self=0.5,heuristic=0.3,random=0.2", train_every=100)
    whole = trainer(tmp_path / "whole", 1200, eval_every=10_000, **settings)
    whole.run()
    t = trainer(tmp_path / "paused", 1200, **settings)
    rng = np.random.default_rng(0)
    pauses = 0
    while not t.reached(1200):
        t.play(min(t.samples + int(rng.integers(1, 30)), 1200))
        pauses += 1
        if t.training_due():
            t.train_round()
    assert t.version == whole.version > 5 and pauses > 2 * t.version and t.games_done == whole.games_done > 10
    assert_same_parameters(whole, t)


def test_two_workers_give_the_same_parameters_on_the_local_and_the_ray_backend(tmp_path, ray_session):
    """The same seed and worker count: identical parameters, samples and logs whether the workers run one
    after the other in this process or as two Ray actors (one CPU and one torch thread each); a Ray run
    resumes on the local backend (the backend is the resuming call's) and ends where a local run does."""
    local = trainer(tmp_path / "local", 600, workers=2, pool="self=0.7,heuristic=0.3")
    local.run()
    ray_run = trainer(tmp_path / "ray", 600, workers=2, pool="self=0.7,heuristic=0.3", backend="ray")
    ray_run.run()
    assert ray_session.is_initialized()  # the trainer leaves a Ray it did not start running
    assert ray_run.version == local.version > 3 and ray_run.samples == local.samples
    assert [r["policy_loss"] for r in ray_run.log] == [r["policy_loss"] for r in local.log]
    assert_same_parameters(local, ray_run)
    on_local = trainer(tmp_path / "ray", 900, resume=True)
    assert on_local.cfg.backend == "local" and on_local.cfg.workers == 2
    on_local.run()
    whole = trainer(tmp_path / "whole", 900, workers=2, pool="self=0.7,heuristic=0.3")
    whole.run()
    assert_same_parameters(whole, on_local)


def test_a_checkpoint_that_holds_pickled_objects_is_refused_in_one_line_and_another_trainers_is_named(tmp_path):
    """Formats 1 (the single-process trainer) and 2 held numpy objects (records, arrays), which only unpickling
    reads: such a checkpoint is refused, never loaded, with one line saying why and what to do. The checkpoint a
    run writes now holds tensors and plain values only (``weights_only`` reads it)."""
    half = trainer(tmp_path / "old", 300)
    half.run()
    path = tmp_path / "old" / "checkpoint.pt"
    assert torch.load(path, weights_only=True)["format"] == "tabletop_zoo.az.checkpoint/3"
    torch.save({"format": "tabletop_zoo.az.checkpoint/2", "replay": {"obs": np.zeros((2, 3), np.float32)}}, path)
    with pytest.raises(ValueError) as refused:
        trainer(tmp_path / "old", 900, resume=True)
    line = str(refused.value)
    assert "\n" not in line and "holds pickled Python objects" in line and "--overwrite" in line
    torch.save({"format": "tabletop_zoo.selfplay.checkpoint/2"}, path)
    with pytest.raises(ValueError, match="is not a checkpoint of this trainer .* not 'tabletop_zoo.az.checkpoint/3'"):
        trainer(tmp_path / "old", 900, resume=True)


def test_heuristic_and_random_seats_play_but_only_searched_seats_give_samples(tmp_path):
    t = trainer(tmp_path, 10_000, pool="self=0.4,heuristic=0.4,random=0.2")
    w = t.workers.workers[0]
    w.start()
    g = w.games
    searched = heuristic_moves = 0
    while w.games_done < 6:
        waiting = np.flatnonzero(g.seats >= 0)
        kinds = g.kinds[waiting, g.seats[waiting]]
        assert not (kinds == RANDOM).any()  # random seats are played inside numba, never handed to Python
        searched += int((kinds == LEARNER).sum())
        heuristic_moves += int((kinds == HEURISTIC).sum())
        assert w.round() == int((kinds == LEARNER).sum())
    assert heuristic_moves > 0
    assert len(w.done) + sum(len(p) for p in w.pending) == searched
    for i in range(g.num_envs):  # every game has a searched seat, and a heuristic for each heuristic seat
        seats = g.kinds[i, : g.num_players]
        assert (seats == LEARNER).any()
        assert {s for (j, s) in w.heuristics if j == i} == set(np.flatnonzero(seats == HEURISTIC).tolist())


def test_the_saved_network_plays_by_path(tmp_path):
    result = train_az("irish_gauge", out=tmp_path, torch_threads=1, timesteps=40, **{**TINY, "eval_games": 3})
    # the curve is against random players, the heuristic and rollout MCTS
    assert [r["opponent"] for r in result["curve"]][:3] == ["random", "heuristic", "mcts:simulations=100"]
    assert all(0.0 <= r["low"] <= r["win_share"] <= r["high"] <= 1.0 and r["games"] == 3 for r in result["curve"])
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
    with pytest.raises(ValueError, match="workers must be an integer >= 1, got 0"):
        train_az("irish_gauge", out=tmp_path / "none", workers=0)
    with pytest.raises(ValueError, match=r"num_envs \(2\) must be at least workers \(3\)"):
        train_az("irish_gauge", out=tmp_path / "none", num_envs=2, workers=3)
    with pytest.raises(ValueError, match="backend must be one of"):
        train_az("irish_gauge", out=tmp_path / "none", backend="slurm")
    for opponents, says in (
        (("az",), "evaluation opponent must be 'random', 'heuristic' or 'mcts"),
        (("heuristic:depth=2",), "evaluation opponent must be"),
        (("mcts:simulations=0",), "simulations must be an integer >= 1"),
        ("heuristic", "eval_opponents must be a list of agent specs"),
    ):
        with pytest.raises(ValueError, match=says):
            train_az("irish_gauge", out=tmp_path / "none", eval_opponents=opponents)
    assert not (tmp_path / "none").exists()


def test_the_cli_trains_and_resumes_an_az_run(tmp_path):
    from typer.testing import CliRunner

    from tabletop_zoo.cli import app

    args = ["train", "irish_gauge", "--algo", "az", "--players", "3", "--timesteps", "12", "--num-envs", "4"]
    args += ["--simulations", "2", "--eval-games", "1", "--torch-threads", "1", "--workers", "2"]
    args += ["--out", str(tmp_path)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert f"az:path={tmp_path / 'az.pt'}" in result.output.replace("\n", "")
    assert json.loads((tmp_path / "config.json").read_text())["workers"] == 2
    again = CliRunner().invoke(app, [*args[:7], "24", *args[8:], "--resume"])
    assert again.exit_code == 0, again.output
    assert "24 samples" in again.output
    base = ["train", "irish_gauge", "--algo", "az", "--num-envs", "2", "--out", str(tmp_path / "w")]
    for extra, message in (
        (["--workers", "0"], "workers must be an integer >= 1, got 0"),
        (["--workers", "3"], "num_envs (2) must be at least workers (3)"),
        (["--backend", "slurm"], "backend must be one of ('local', 'ray'), got 'slurm'"),
        (["--address", "10.0.0.1:6379"], "is a Ray cluster's"),
    ):
        bad = CliRunner().invoke(app, [*base, *extra])
        assert bad.exit_code != 0 and message in " ".join(bad.output.split()), bad.output
    assert not (tmp_path / "w").exists()
    bad = CliRunner().invoke(
        app, ["train", "irish_gauge", "--algo", "selfplay", "--simulations", "3", "--out", str(tmp_path / "b")]
    )
    assert bad.exit_code != 0 and "No such option: --simulations" in bad.output


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
    assert sb3.exit_code != 0 and "No such option: -O" in " ".join(sb3.output.split())


def test_an_evaluation_against_rollout_mcts_is_seeded_and_plays_hidden_information_games():
    from tabletop_zoo import registry
    from tabletop_zoo.agents.policy_network import ActorCritic
    from tabletop_zoo.training.evaluate import evaluate
    from tabletop_zoo.training.selfplay import SelfPlayConfig

    k = registry.kernel("kremlin")  # secret hands: each MCTS seat searches its own determinization
    net = ActorCritic(k.OBS_SIZE, k.NUM_ACTIONS, (8,))
    runs = [evaluate(net, k, "kremlin", 3, k.resolve_options(), "mcts:simulations=4", 3, 5) for _ in range(2)]
    assert runs[0] == runs[1] and runs[0]["opponent"] == "mcts:simulations=4" and runs[0]["games"] == 3
    assert 0.0 <= runs[0]["low"] <= runs[0]["win_share"] <= runs[0]["high"] <= 1.0
    # the self-play trainer takes the same opponents
    cfg = SelfPlayConfig(game="kremlin", eval_opponents=["random", "mcts:simulations=4"]).check()
    assert cfg.eval_opponents == ("random", "mcts:simulations=4")
