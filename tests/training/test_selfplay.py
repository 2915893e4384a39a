"""Self-play trainer: reward credit, forced decisions, masks, exact resume, every game, Ray, bad input."""

import numpy as np
import pytest
import torch

pytest.importorskip("torchrl")

from tabletop_zoo import registry  # noqa: E402
from tabletop_zoo.agents import make_agent  # noqa: E402
from tabletop_zoo.agents.policy_network import ActorCritic  # noqa: E402
from tabletop_zoo.play import play_game  # noqa: E402
from tabletop_zoo.training import parse_pool, train_selfplay  # noqa: E402
from tabletop_zoo.training.batch import LEARNER, OVER, BatchGames  # noqa: E402
from tabletop_zoo.training.inference import RolloutPolicy  # noqa: E402
from tabletop_zoo.training.rollout import RolloutWorker, gae, score_margins, score_shares  # noqa: E402
from tabletop_zoo.training.selfplay import PLAIN_PPO  # noqa: E402

GAME = "irish_gauge"
TINY = dict(
    num_players=3,
    timesteps=256,
    rollout_samples=128,
    num_envs=8,
    minibatch=64,
    epochs=2,
    eval_games=3,
    eval_opponents=("random",),
    snapshot_every=1,
)


def _worker(pool="self=0.5,random=0.5", envs=16, seed=3):
    w = RolloutWorker(GAME, 3, {}, envs, parse_pool(pool), seed=seed)
    w.set_snapshots(0, [w.net.state_dict()])
    return w


def test_each_seat_is_credited_with_its_own_final_return_even_when_another_seat_ends_the_game():
    w = _worker()
    out = w.collect(w.net.state_dict(), 2000)
    assert len(out["finished"]) >= 10
    maxp = w.kernel.MAX_PLAYERS
    ended_by_other = 0
    for game in out["finished"]:
        for seat, kind in enumerate(game["kinds"]):
            rows = out["stream"] == game["uid"] * maxp + seat
            if kind == LEARNER:
                assert rows.any()
                assert out["reward"][rows].sum() == pytest.approx(game["returns"][seat])
                assert out["terminated"][rows].sum() == 1 and out["terminated"][rows][-1]
            else:
                assert not rows.any()  # random seats are never samples
        ended_by_other += game["kinds"][game["last_mover"]] != LEARNER
    assert ended_by_other > 0  # some games ended on a random seat's move and were still credited


def _credited_finals(reward: str) -> list[np.ndarray]:
    """Self-play games with ``reward``: each finished game's final rewards, after checking that each seat's
    samples were credited exactly its own."""
    w = RolloutWorker(GAME, 3, {}, 16, parse_pool("self=1"), seed=3, reward=reward)
    w.set_snapshots(0, [w.net.state_dict()])
    out = w.collect(w.net.state_dict(), 1500)
    assert len(out["finished"]) >= 5
    finals = []
    for game in out["finished"]:
        finals.append(np.array(game["returns"]))
        for seat in range(3):
            rows = out["stream"] == game["uid"] * w.kernel.MAX_PLAYERS + seat
            assert out["reward"][rows].sum() == pytest.approx(finals[-1][seat])
    return finals


def test_with_the_score_margin_reward_each_seat_gets_its_normalised_margin():
    """reward="score_margin": a finished game credits each policy seat (score - mean) / the table's largest such
    gap, from the kernel's final scores (IG-SCORE-1: cash + printed values): zero-sum, in [-1, 1]."""
    for margins in _credited_finals("score_margin"):
        assert margins.sum() == pytest.approx(0.0, abs=1e-9) and np.abs(margins).max() == pytest.approx(1.0)
    assert score_margins(np.array([10, 40, 100])) == pytest.approx([-0.8, -0.2, 1.0])  # mean 50, largest gap 50
    assert list(score_margins(np.array([7, 7, 7]))) == [0.0, 0.0, 0.0]


def test_with_the_score_share_reward_each_seat_gets_its_margin_over_the_mean_score():
    """reward="score_share": (score - mean) / mean, in [-1, n - 1] and zero-sum; a seat far behind two rivals
    still gains by each point it scores, where its normalised margin stays at -1."""
    for shares in _credited_finals("score_share"):
        assert shares.sum() == pytest.approx(0.0, abs=1e-9) and -1 <= shares.min() and shares.max() <= 2
    assert score_shares(np.array([30, 90, 120])) == pytest.approx([-0.625, 0.125, 0.5])  # mean 80
    assert score_margins(np.array([30, 90, 120])) == pytest.approx([-1.0, 0.2, 0.8])  # largest gap 50
    far, less_far = np.array([20, 300, 310]), np.array([100, 300, 310])
    assert score_margins(far)[0] == score_margins(less_far)[0] == -1.0
    assert score_shares(far)[0] == pytest.approx(-19 / 21) and score_shares(less_far)[0] == pytest.approx(-41 / 71)
    assert list(score_shares(np.array([0, 0, 0]))) == [0.0, 0.0, 0.0]


def test_dense_credit_sums_to_the_final_reward_and_changes_no_move():
    """dense=True: each decision is credited with the change of its seat's score share since the seat's previous
    decision (potential-based shaping). The same seed plays the same moves as without it; a trajectory's credits
    sum to its final share, also across two rollouts (the potential carries over the cut); a trajectory cut by the
    end of a rollout has been credited its share at the cut (what the bootstrap value goes on from)."""
    k = registry.kernel(GAME)
    maxp, weights = k.MAX_PLAYERS, ActorCritic(k.OBS_SIZE, k.NUM_ACTIONS).state_dict()
    runs = []
    for dense in (False, True):
        w = RolloutWorker(GAME, 3, {}, 16, parse_pool("self=0.5,random=0.5"), seed=4, reward="score_share", dense=dense)
        w.set_snapshots(0, [weights])
        first = w.collect(weights, 700)
        at_cut = {
            int(w.game_uid[i]) * maxp + seat: score_shares(w.games.scores(i))[seat]
            for i in range(16)
            for seat in range(3)
        }
        runs.append([first, w.collect(weights, 700)])
    (sparse1, sparse2), (dense1, dense2) = runs
    for stream in np.unique(dense1["stream"]):  # every game of the first rollout started in it
        if stream in at_cut:  # still open at the cut
            assert dense1["reward"][dense1["stream"] == stream].sum() == pytest.approx(at_cut[stream], abs=1e-6)
    for a, b in ((sparse1, dense1), (sparse2, dense2)):
        assert np.array_equal(a["action"], b["action"]) and np.array_equal(a["stream"], b["stream"])
        assert a["reward"].sum() != pytest.approx(b["reward"].sum())  # cut trajectories: credited before the end
    spanning = 0
    for game in dense2["finished"]:
        for seat, kind in enumerate(game["kinds"]):
            stream = game["uid"] * maxp + seat
            now, before = dense2["stream"] == stream, dense1["stream"] == stream
            if kind != LEARNER or not now.any():
                continue
            total = dense2["reward"][now].sum() + dense1["reward"][before].sum()
            assert total == pytest.approx(game["returns"][seat], abs=1e-6)
            early = np.concatenate([dense1["reward"][before], dense2["reward"][now]])[:-1]
            assert np.count_nonzero(early) > 0
            spanning += before.any()
    assert spanning > 0
    with pytest.raises(ValueError, match="dense credit needs a score reward"):
        train_selfplay(GAME, out="unused", reward="win_share", dense=True)


def test_kickstart_labels_each_sample_with_the_heuristics_own_choice_and_changes_no_move():
    """kickstart: the worker's teacher (the game's heuristic, its own seeded draws) labels each learner sample with
    what it would play there, legal and replayable in order; the moves played and the rollout's other draws are
    those of a run without it, and a rollout told not to teach carries no labels."""
    from tabletop_zoo.agents import heuristic_class

    k = registry.kernel(GAME)
    weights, runs = ActorCritic(k.OBS_SIZE, k.NUM_ACTIONS).state_dict(), []
    for kickstart in (False, True):
        w = RolloutWorker(GAME, 3, {}, 16, parse_pool("self=0.5,heuristic=0.5"), seed=5, kickstart=kickstart)
        w.set_snapshots(0, [weights])
        runs.append(w.collect(weights, 600, teach=kickstart))
    plain, taught = runs
    assert "teacher" not in plain and np.array_equal(plain["action"], taught["action"])
    labels = taught["teacher"]
    assert taught["mask"][np.arange(labels.size), labels].all()
    assert 0.05 < np.mean(labels == taught["action"]) < 0.95  # an untrained policy agrees with it only by chance
    teacher = heuristic_class(GAME)(seed=int(np.random.default_rng([5, 0, 0x7EAC]).integers(2**31)))
    replay = [teacher.act(o, m.view(np.int8)) for o, m in zip(taught["obs"], taught["mask"])]
    assert np.array_equal(replay, labels)
    assert "teacher" not in w.collect(weights, 100, teach=False)
    with pytest.raises(ValueError, match="teach needs a worker made with kickstart=True"):
        _worker().collect(weights, 10, teach=True)


def test_kickstart_weight_and_annealed_learning_rate_fall_linearly(tmp_path):
    """The kickstart term's weight starts at ``kickstart`` and reaches 0 at ``kickstart_samples``; from then on the
    workers stop labelling (no teacher term). With ``anneal_lr`` each update's learning rate is ``lr`` times the
    share of the run still to come; without it, ``lr`` throughout."""
    settings = dict(TINY, timesteps=512, kickstart=2.0, kickstart_samples=256, anneal_lr=True, lr=0.002)
    run = train_selfplay(GAME, out=tmp_path, torch_threads=1, **settings)
    log = torch.load(tmp_path / "checkpoint.pt", weights_only=True)["log"]
    starts = [0] + [row["samples"] for row in log[:-1]]
    assert [row["kick_coef"] for row in log] == pytest.approx([2.0 * max(0.0, 1 - s / 256) for s in starts])
    assert [row["lr"] for row in log] == pytest.approx([0.002 * (1 - s / 512) for s in starts])
    train_selfplay(GAME, out=tmp_path / "flat", torch_threads=1, **TINY, anneal_lr=False)
    assert {row["lr"] for row in torch.load(tmp_path / "flat" / "checkpoint.pt", weights_only=True)["log"]} == {1e-3}
    assert log[0]["kick_coef"] == 2.0 and log[-1]["kick_coef"] == 0.0 and log[-1]["loss_kickstart"] == 0.0
    assert all(row["loss_kickstart"] > 0 for row in log if row["kick_coef"] > 0)
    assert run["samples"] >= 512
    with pytest.raises(ValueError, match=r"kickstart must be a number in \[0, 100\], got -1"):
        train_selfplay(GAME, out=tmp_path / "bad", kickstart=-1)
    with pytest.raises(ValueError, match="kickstart_samples must be an integer >= 1"):
        train_selfplay(GAME, out=tmp_path / "bad", kickstart=1.0, kickstart_samples=0)
    with pytest.raises(ValueError, match=r"target_kl must be a number in \[0, 10\], got -0.1"):
        train_selfplay(GAME, out=tmp_path / "bad", target_kl=-0.1)
    with pytest.raises(ValueError, match="anneal_lr must be True or False, got 'yes'"):
        train_selfplay(GAME, out=tmp_path / "bad", anneal_lr="yes")


def test_forced_decisions_are_applied_but_never_samples():
    w = _worker(pool="self=1")
    out = w.collect(w.net.state_dict(), 600)
    assert out["forced"] > 0
    assert (out["mask"].sum(1) >= 2).all()
    assert out["mask"][np.arange(len(out["action"])), out["action"]].all()


def test_gae_scan_matches_torchrl():
    from torchrl.objectives.value.functional import generalized_advantage_estimate

    rng = np.random.default_rng(0)
    n = 300
    value, next_value, reward = (rng.random(n, dtype=np.float32) for _ in range(3))
    done = rng.random(n) < 0.1
    terminated = done & (rng.random(n) < 0.5)
    ours = gae(value, next_value, reward, done.astype(np.float32), terminated.astype(np.float32), 0.99, 0.9)
    t = [torch.as_tensor(x)[:, None] for x in (value, next_value, reward, done, terminated)]
    ref, _ = generalized_advantage_estimate(0.99, 0.9, *t)
    np.testing.assert_allclose(ours, ref[:, 0].numpy(), rtol=1e-4, atol=1e-5)


@pytest.mark.slow
@pytest.mark.parametrize("forward", ["torch", "rollout"])
def test_no_illegal_action_is_sampled_in_100k_policy_steps(forward):
    k = registry.kernel(GAME)
    net = ActorCritic(k.OBS_SIZE, k.NUM_ACTIONS)
    with torch.no_grad():  # sharpen the untrained logits so masking, not luck, keeps actions legal
        net.actor[-1].weight.mul_(500.0)
    act = net.act if forward == "torch" else RolloutPolicy(net).act  # the trainer's rollouts play the second
    gen = torch.Generator().manual_seed(1)
    envs = 200
    b = BatchGames(k, envs, 3, {})
    for i in range(envs):
        b.start(i, i, 10_000 + i, np.full(3, LEARNER))
    steps = 0
    rows = np.arange(envs)
    while steps < 100_000:
        action = act(b.obs, b.masks, gen)[0]
        assert b.masks[rows, action].all()
        b.actions[:] = action
        b.step(rows)  # raises on an illegal action
        steps += envs
        for i in np.flatnonzero(b.seats == OVER):
            b.start(i, steps + i, steps - i, np.full(3, LEARNER))


@pytest.mark.parametrize(
    "credit",
    [
        {},
        {key: PLAIN_PPO[key] for key in ("pool", "reward", "dense", "kickstart", "anneal_lr", "ent_coef", "hidden")},
        {"kickstart": 1.0, "kickstart_samples": 192, "anneal_lr": True, "target_kl": 0.05},
    ],
    ids=["recipe", "plain_win_share", "kickstart_anneal_target_kl"],
)
def test_resume_gives_the_same_parameters_as_an_uninterrupted_run(tmp_path, credit):
    whole = train_selfplay(GAME, out=tmp_path / "whole", torch_threads=1, **TINY, **credit)
    half = dict(TINY, timesteps=128, **credit)
    train_selfplay(GAME, out=tmp_path / "split", torch_threads=1, **half)
    resumed = train_selfplay(GAME, out=tmp_path / "split", torch_threads=1, resume=True, timesteps=256)
    assert whole["samples"] == resumed["samples"]
    a = torch.load(tmp_path / "whole" / "checkpoint.pt", weights_only=True)
    b = torch.load(tmp_path / "split" / "checkpoint.pt", weights_only=True)
    for key in a["net"]:
        assert torch.equal(a["net"][key], b["net"][key]), key
    assert [r["update"] for r in b["log"]] == [1, 2]


@pytest.mark.parametrize(
    "game", [pytest.param(g, marks=[] if g == GAME else [pytest.mark.slow]) for g in sorted(registry.GAMES)]
)
def test_a_short_run_on_every_game_saves_a_policy_that_plays_through_policy_path(game, tmp_path):
    n = registry.kernel(game).MIN_PLAYERS
    result = train_selfplay(
        game,
        out=tmp_path,
        torch_threads=1,
        **dict(TINY, num_players=n, eval_opponents=("random", "heuristic"), eval_games=2, timesteps=128),
    )
    for name in ("policy.pt", "checkpoint.pt", "log.csv", "curve.csv", "curve.png", "config.json"):
        assert (tmp_path / name).exists(), name
    assert {r["opponent"] for r in result["curve"]} == {"random", "heuristic"}
    env = registry.make_env(game, num_players=n)
    agents = [make_agent("policy", game, seed=1, path=str(tmp_path / "policy.pt"))] + [
        make_agent("random", game, seed=i) for i in range(1, n)
    ]
    final = play_game(env, agents, seed=5)
    assert len(final) == n
    from_checkpoint = make_agent("policy", game, path=str(tmp_path / "checkpoint.pt")).model.net  # the same policy
    for key, value in agents[0].model.net.state_dict().items():
        assert torch.equal(value, from_checkpoint.state_dict()[key]), key


def test_bad_settings_are_refused_before_any_work(tmp_path):
    with pytest.raises(ValueError, match="pool probabilities must sum to 1"):
        parse_pool("self=0.5,random=0.2")
    with pytest.raises(ValueError, match="unknown pool member 'grandmaster'"):
        parse_pool("grandmaster=1")
    with pytest.raises(ValueError, match="num_envs must be an integer >= 1"):
        train_selfplay(GAME, out=tmp_path, num_envs=0)
    with pytest.raises(ValueError, match="backend must be one of"):
        train_selfplay(GAME, out=tmp_path, backend="slurm")
    with pytest.raises(ValueError, match="is a Ray cluster's: it needs backend='ray', got 'local'"):
        train_selfplay(GAME, out=tmp_path, address="10.0.0.1:6379")
    with pytest.raises(ValueError, match="reward must be one of win_share, score_margin, score_share, got 'rank'"):
        train_selfplay(GAME, out=tmp_path, reward="rank")
    with pytest.raises(ValueError, match="unknown self-play setting"):
        train_selfplay(GAME, out=tmp_path, n_steps=5)
    with pytest.raises(ValueError, match="no checkpoint"):
        train_selfplay(GAME, out=tmp_path / "none", resume=True)
    assert not (tmp_path / "none").exists()


@pytest.mark.slow
def test_ray_backend_on_loopback_gives_the_local_result_with_one_worker(tmp_path):
    pytest.importorskip("ray")
    settings = dict(TINY, timesteps=128, kickstart=1.0, kickstart_samples=64)  # the teacher's labels too
    local = train_selfplay(GAME, out=tmp_path / "local", torch_threads=1, **settings)
    ray_run = train_selfplay(GAME, out=tmp_path / "ray", torch_threads=1, backend="ray", **settings)
    assert local["samples"] == ray_run["samples"]
    a = torch.load(tmp_path / "local" / "checkpoint.pt", weights_only=True)["net"]
    b = torch.load(tmp_path / "ray" / "checkpoint.pt", weights_only=True)["net"]
    assert all(torch.equal(a[key], b[key]) for key in a)


def test_the_cli_passes_ppo_settings_and_dense_credit(tmp_path):
    """``--ppo KEY=VALUE`` sets the PPO settings and ``--dense`` the dense credit (config.json keeps them); the help
    names every setting with its default; a bad one is refused before anything is written, naming what is allowed."""
    import dataclasses
    import json
    import re

    from typer.testing import CliRunner

    from tabletop_zoo.cli import app
    from tabletop_zoo.training.selfplay import PPO_SETTINGS, SelfPlayConfig

    args = ["train", GAME, "--algo", "selfplay", "--players", "3", "--timesteps", "64", "--num-envs", "4"]
    args += ["--eval-games", "1", "--torch-threads", "1", "--reward", "score_share", "--dense"]
    ppo = ["--ppo", "rollout_samples=64", "--ppo", "minibatch=32", "--ppo", "lr=0.002", "--ppo", "gae_lambda=0.8"]
    ppo += ["--ppo", "kickstart=1.5", "--ppo", "kickstart_samples=32", "--ppo", "anneal_lr=true"]
    result = CliRunner().invoke(app, [*args, *ppo, "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    config = json.loads((tmp_path / "a" / "config.json").read_text())
    assert config["dense"] is True and config["reward"] == "score_share"
    assert (config["rollout_samples"], config["minibatch"], config["lr"], config["gae_lambda"]) == (64, 32, 0.002, 0.8)
    assert (config["kickstart"], config["kickstart_samples"], config["anneal_lr"]) == (1.5, 32, True)

    def text(result) -> str:  # the output without rich's box and line breaks
        return " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())

    help_text = text(CliRunner().invoke(app, ["train", "selfplay", "--help"]))
    defaults = {f.name: f.default for f in dataclasses.fields(SelfPlayConfig)}
    for name in PPO_SETTINGS:
        default = defaults[name]
        assert f"{name} ({str(default).lower() if isinstance(default, bool) else f'{default:g}'})" in help_text, name
    for shown in (
        "[default: 60000]",
        "(default 32)",
        "(default 256,256)",
        "heuristic=1 (default",
        "score_share (default",
    ):
        assert shown in help_text, shown  # the recipe's defaults (#48), also in the dataclass:
    assert (defaults["timesteps"], defaults["num_envs"], defaults["hidden"]) == (60_000, 32, (256, 256))
    assert (defaults["pool"], defaults["reward"]) == ("heuristic=1", "score_share")
    for extra, message in (
        (["--ppo", "lr"], "--ppo must look like KEY=VALUE"),
        (["--ppo", "batch=3"], "--ppo: unknown setting(s) batch; allowed: rollout_samples, minibatch"),
        (["--ppo", "lr=0"], "lr must be a number in [0, 1] and > 0, got 0"),
        (["--reward", "win_share"], "dense credit needs a score reward"),
    ):
        bad = CliRunner().invoke(app, [*args, *extra, "--out", str(tmp_path / "b")])
        assert bad.exit_code != 0 and message in text(bad), bad.output
        assert not (tmp_path / "b").exists()
    az = CliRunner().invoke(app, ["train", GAME, "--algo", "az", "--dense", "--out", str(tmp_path / "c")])
    assert az.exit_code != 0 and "No such option: --dense" in text(az)


def _documented_recipe() -> list[str]:
    """The kickstart recipe's command as docs/training.md spells it out, flag by flag (without its --out)."""
    import pathlib
    import shlex

    text = (pathlib.Path(__file__).resolve().parents[2] / "docs" / "training.md").read_text()
    block = next(b for b in text.split("```bash")[1:] if "--ppo kickstart=1" in b).split("```")[0]
    command = next(c for c in block.replace("\\\n", " ").splitlines() if "--ppo kickstart=1" in c)
    words = shlex.split(command)
    return words[1 : words.index("--out")]  # after "tabletop-zoo"


def test_train_selfplay_with_no_tuning_flag_runs_the_documented_recipe(monkeypatch, tmp_path):
    """#48: `tabletop-zoo train selfplay GAME` with no tuning flag gets every setting of the documented kickstart
    recipe (so the same seed gives the same run), and every flag still overrides its part."""
    import dataclasses

    from typer.testing import CliRunner

    import tabletop_zoo.training
    from tabletop_zoo.cli import app
    from tabletop_zoo.training.selfplay import SelfPlayConfig

    configs = []

    def resolved(game, out, **kwargs):
        settings = {k: v for k, v in kwargs.items() if k not in ("torch_threads", "resume", "overwrite", "progress")}
        configs.append(dataclasses.asdict(SelfPlayConfig(game=game, **settings).check()))
        return {"samples": 0, "games": 0, "wall_s": 0.0, "policy": f"{out}/policy.pt"}

    monkeypatch.setattr(tabletop_zoo.training, "train_selfplay", resolved)
    recipe = _documented_recipe()
    assert recipe[:3] == ["train", "selfplay", "irish_gauge"] and recipe.count("--ppo") == 8
    plain = ["train", "selfplay", "irish_gauge", "--players", "3", "--timesteps", "60000"]
    override = [*plain, "--reward", "win_share", "--pool", "self=1", "--hidden", "64,64", "--ppo", "kickstart=0"]
    for args in (recipe, plain, override):
        result = CliRunner().invoke(app, [*args, "--out", str(tmp_path)])
        assert result.exit_code == 0, result.output
    assert configs[0] == configs[1]
    assert configs[1]["kickstart"] == 1.0 and configs[1]["hidden"] == (256, 256) and configs[1]["dense"] is True
    changed = {k for k in configs[1] if configs[1][k] != configs[2][k]}
    assert changed == {"reward", "dense", "pool", "hidden", "kickstart"} and configs[2]["dense"] is False


def test_a_run_saved_before_a_setting_existed_resumes_with_the_value_it_ran_with(tmp_path):
    """A checkpoint without a setting (saved before it existed) resumes with the value that run had, PLAIN_PPO's
    (the defaults before #48), not today's recipe."""
    plain = {key: PLAIN_PPO[key] for key in ("pool", "reward", "dense", "kickstart", "anneal_lr", "ent_coef")}
    train_selfplay(GAME, out=tmp_path, torch_threads=1, **dict(TINY, timesteps=128, hidden=(64, 64), **plain))
    saved = torch.load(tmp_path / "checkpoint.pt", weights_only=True)
    for key in ("reward", "dense", "kickstart", "anneal_lr"):
        del saved["config"][key]
    torch.save(saved, tmp_path / "checkpoint.pt")
    train_selfplay(GAME, out=tmp_path, torch_threads=1, resume=True, timesteps=256)
    config = torch.load(tmp_path / "checkpoint.pt", weights_only=True)["config"]
    assert {key: config[key] for key in plain} == plain
