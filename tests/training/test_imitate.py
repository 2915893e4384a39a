"""az's supervised start (tabletop_zoo/training/imitate.py): samples are the heuristic's non-forced choices
with seat-relative outcomes, the fit learns them, and the saved network plays as ``az:path=``."""

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import tabletop_zoo  # noqa: E402
from tabletop_zoo.agents import make_agent  # noqa: E402
from tabletop_zoo.training.imitate import collect, train_imitate  # noqa: E402


@pytest.fixture(scope="module")
def data():
    return collect("irish_gauge", 3, 400, explore=0.1, seed=5)


def test_samples_are_non_forced_heuristic_choices(data):
    assert len(data["obs"]) >= 400  # the last game is played to its end
    assert (data["mask"].sum(1) > 1).all()  # forced decisions teach nothing
    assert data["mask"][np.arange(len(data["choice"])), data["choice"]].all()  # every label is legal


def test_the_value_targets_are_seat_relative_outcomes(data):
    """Irish Gauge pays win shares: each sample's targets sum to 1, and entry 0 (the mover) is in [0, 1]."""
    assert np.allclose(data["value"].sum(1), 1.0)
    assert ((data["value"] >= 0) & (data["value"] <= 1)).all()


def test_the_samples_are_the_positions_of_the_game_played():
    """Without exploration the labels are the moves played: replaying the first game's labels from its start
    (forced moves in between) meets every recorded observation and mask again."""
    data = collect("irish_gauge", 3, 50, explore=0.0, seed=7)
    k = tabletop_zoo.kernel("irish_gauge")
    s = k.new_state(3, int(np.random.default_rng(7).integers(2**63)))  # collect's first draw
    mask, view = np.zeros(k.NUM_ACTIONS, np.uint8), np.zeros(k.OBS_SIZE, np.float32)
    first = np.flatnonzero(data["game"] == 0)
    for i in first:
        k.legal_mask(s, mask)
        while mask.sum() == 1:
            k.step(s, int(np.flatnonzero(mask)[0]))
            k.legal_mask(s, mask)
        k.observe(s, int(k.to_move(s)), view)
        assert np.array_equal(view, data["obs"][i]) and np.array_equal(mask, data["mask"][i])
        k.step(s, int(data["choice"][i]))
    assert len(first) > 20 and k.is_over(s)  # the first game was recorded to its end


def test_a_short_run_learns_and_plays(tmp_path):
    result = train_imitate("irish_gauge", 3, 600, epochs=6, hidden=(32, 32), seed=1, out=tmp_path, torch_threads=1)
    log = json.loads((tmp_path / "log.json").read_text())
    assert log["epochs"][-1]["policy_loss"] < log["epochs"][0]["policy_loss"]
    assert log["meta"]["command"].startswith("tabletop-zoo train imitate irish_gauge")
    assert log["meta"]["command"].endswith("--hidden 32,32") and log["meta"]["hidden"] == [32, 32]
    assert 0.0 <= log["meta"]["held_out_agreement"] <= 1.0 and log["meta"]["held_out_samples"] > 0
    agent = make_agent("az", "irish_gauge", path=result["network"], simulations=8, seed=0)
    env = tabletop_zoo.make_env("irish_gauge", num_players=3)
    env.reset(seed=2)
    agent.bind(env)
    assert env.action_mask()[agent.act(None, env.action_mask())] == 1
    # Expert Iteration's loop: the network, searching, teaches the next one its root visit counts
    taught = collect("irish_gauge", 3, 30, 0.1, 2, teacher=f"az:path={result['network']},simulations=8")
    assert np.allclose(taught["policy"].sum(1), 1.0) and (taught["policy"][taught["mask"] == 0] == 0).all()


def test_the_cli_refuses_options_imitate_does_not_take(tmp_path):
    from typer.testing import CliRunner

    from tabletop_zoo.cli import app

    r = CliRunner().invoke(
        app, ["train", "irish_gauge", "--algo", "imitate", "--pool", "self=1", "--out", str(tmp_path)]
    )
    assert r.exit_code != 0 and "No such option: --pool" in r.output


def test_heuristic_labels_are_one_hot_policies(data):
    assert np.array_equal(data["policy"].argmax(1), data["choice"]) and (data["policy"].max(1) == 1.0).all()
    assert np.allclose(data["policy"].sum(1), 1.0)


@pytest.fixture(scope="module")
def searched():
    return collect("kremlin", 3, 60, explore=0.1, seed=3, teacher="mcts:simulations=24")


def test_a_search_teaches_its_root_visit_counts(searched):
    """An MCTS teacher's label is its root visits normalised: a distribution over legal actions only, whose
    most visited action is the move it chose, and spread over more than one action (Kremlin hides hands:
    the teacher searches determinizations for its own seat)."""
    policy, mask = searched["policy"], searched["mask"]
    assert np.allclose(policy.sum(1), 1.0) and (policy[mask == 0] == 0).all()
    assert (policy[np.arange(len(policy)), searched["choice"]] == policy.max(1)).all()
    assert (np.count_nonzero(policy, axis=1) > 1).mean() > 0.5
    assert (mask.sum(1) > 1).all()  # forced moves are played without a search and are not samples


def test_a_soft_target_is_learned(searched):
    """The cross-entropy against visit distributions falls, and the fitted network's favourite legal action
    agrees with the teacher's more often than before fitting."""
    from tabletop_zoo.agents.az.network import AZNet
    from tabletop_zoo.training.imitate import agreement, fit

    k = tabletop_zoo.kernel("kremlin")
    torch.manual_seed(0)
    net = AZNet(k.OBS_SIZE, k.NUM_ACTIONS, k.MAX_PLAYERS, (32,))
    before = agreement(net, searched)
    log = fit(net, searched, epochs=30, minibatch=64, lr=3e-3, seed=0)
    assert log[-1]["policy_loss"] < log[0]["policy_loss"]
    assert agreement(net, searched) > before


def test_the_cli_refuses_a_bad_teacher_before_any_game(tmp_path):
    from typer.testing import CliRunner

    from tabletop_zoo.cli import app

    base = ["train", "irish_gauge", "--out", str(tmp_path)]
    r = CliRunner().invoke(app, [*base, "--algo", "imitate", "--teacher", "mcts:simulations=0"])
    assert r.exit_code != 0 and "simulations" in r.output and not (tmp_path / "az.pt").exists()
    r = CliRunner().invoke(app, [*base, "--algo", "selfplay", "--teacher", "heuristic"])
    assert r.exit_code != 0 and "No such option: --teacher" in r.output


def test_the_cli_sets_the_network_widths_and_refuses_bad_ones_before_any_game(tmp_path):
    from typer.testing import CliRunner

    from tabletop_zoo.cli import app

    base = ["train", "irish_gauge", "--players", "3", "--timesteps", "40", "--out", str(tmp_path)]
    for bad, says in (
        ("64,x", "--hidden must be layer widths"),
        ("64,0", "hidden layer width must be an integer >= 1"),
    ):
        r = CliRunner().invoke(app, [*base, "--algo", "imitate", "--hidden", bad])
        assert r.exit_code != 0 and says in r.output and not (tmp_path / "az.pt").exists()
    r = CliRunner().invoke(app, [*base, "--algo", "maskable_ppo", "--hidden", "8"])
    assert r.exit_code != 0 and "No such option: --hidden" in r.output
    r = CliRunner().invoke(app, [*base, "--algo", "imitate", "--hidden", "16"])
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "log.json").read_text())["meta"]["hidden"] == [16]
    assert torch.load(tmp_path / "az.pt", weights_only=True)["hidden"] == [16]


def test_an_az_teacher_searches_its_whole_budget():
    """A search's root visits are its labels: an az teacher never stops early (a stop once the move is settled
    would label fewer, more peaked visits), and asking it to is refused before any game."""
    from tabletop_zoo.training.imitate import teacher_spec

    assert teacher_spec("az:simulations=8", "irish_gauge").params == {"simulations": 8, "early_stop": False}
    assert teacher_spec("az:early_stop=false", "irish_gauge").params == {"early_stop": False}
    assert teacher_spec("mcts:simulations=8", "irish_gauge").params == {"simulations": 8}
    with pytest.raises(ValueError, match="must search its whole budget"):
        teacher_spec("az:early_stop=true", "irish_gauge")
