"""`tabletop-zoo train TRAINER GAME`: each trainer's command takes its own options and refuses another trainer's
(typer's own error), and the old spelling `train GAME --algo X` runs the same call (the trainers are replaced by
recorders here: no training runs; tests/training/ runs them for real through both spellings)."""

import pathlib
import re

import pytest
import typer
from typer.testing import CliRunner

import tabletop_zoo.cli
from tabletop_zoo.cli import app
from tabletop_zoo.cli.train.alias import IGNORED

ROOT = pathlib.Path(__file__).resolve().parents[1]
RESULT = {"samples": 8, "games": 1, "wall_s": 0.0, "policy": "p.pt", "network": "az.pt", "model": "model.zip"}


@pytest.fixture
def calls(monkeypatch):
    """Each trainer replaced by a recorder of its call: ``calls`` lists (trainer, args, kwargs)."""
    import tabletop_zoo.training
    import tabletop_zoo.training.az
    import tabletop_zoo.training.imitate
    import tabletop_zoo.training.sb3

    seen = []

    def recorder(name):
        def record(*args, **kwargs):
            seen.append((name, args, kwargs))
            return {**RESULT, "meta": RESULT}

        return record

    monkeypatch.setattr(tabletop_zoo.training.sb3, "train_sb3", recorder("maskable_ppo"))
    monkeypatch.setattr(tabletop_zoo.training, "train_selfplay", recorder("selfplay"))
    monkeypatch.setattr(tabletop_zoo.training.az, "train_az", recorder("az"))
    monkeypatch.setattr(tabletop_zoo.training.imitate, "train_imitate", recorder("imitate"))
    return seen


def said(result) -> str:
    """The output without rich's box and line breaks."""
    return " ".join(re.sub("[│╭╮╰╯─]", " ", result.output).split())


# Each trainer's own options (a value for each that differs from its default) and one of another trainer's.
OWN = {
    "maskable_ppo": ["-t", "64", "-n", "3", "--num-envs", "2", "--opponents", "heuristic", "--eval-every", "32"],
    "selfplay": [
        "-t",
        "64",
        "--pool",
        "self=1",
        "--reward",
        "score_margin",
        "--no-dense",
        "--ppo",
        "lr=0.002",
        "-w",
        "2",
    ],
    "az": ["-t", "12", "--simulations", "2", "--pool", "self=1", "--hidden", "16", "-O", "turn_limit=5", "--resume"],
    "imitate": ["-t", "40", "--teacher", "mcts:simulations=5", "--hidden", "16,8", "--seed", "3", "--overwrite"],
}
OTHERS = {
    "maskable_ppo": ["--simulations", "--hidden", "--resume", "--pool", "--option", "--workers", "--backend"],
    "selfplay": ["--simulations", "--teacher", "--opponents"],
    "az": ["--reward", "--dense", "--ppo", "--teacher", "--opponents"],
    "imitate": ["--pool", "--option", "--num-envs", "--eval-every", "--backend", "--simulations"],
}


@pytest.mark.parametrize("algo", OWN)
def test_each_trainer_takes_its_options_and_the_old_spelling_makes_the_same_call(calls, algo, tmp_path):
    out = ["--out", str(tmp_path)]
    new = CliRunner().invoke(app, ["train", algo.replace("_", "-"), "kremlin", *OWN[algo], *out])
    assert new.exit_code == 0, new.output
    assert "deprecated" not in new.output
    old = CliRunner().invoke(app, ["train", "kremlin", *OWN[algo], "--algo", algo, *out])
    assert old.exit_code == 0, old.output
    assert len(calls) == 2 and calls[0] == calls[1] and calls[0][0] == algo
    note = f"note: 'train GAME --algo {algo}' is deprecated and goes in the next release: use 'train "
    assert note + f"{algo.replace('_', '-')} GAME'" in old.stderr and old.stderr.count("\n") == 1


def test_the_options_reach_the_trainers(calls, tmp_path):
    out = ["--out", str(tmp_path)]
    for algo in OWN:
        result = CliRunner().invoke(app, ["train", algo.replace("_", "-"), "kremlin", *OWN[algo], *out])
        assert result.exit_code == 0, result.output
    (_, ppo, ppo_kw), (_, sp, sp_kw), (_, az, az_kw), (_, im, im_kw) = calls
    assert ppo == ("kremlin", 64, "heuristic", 2, 3, str(tmp_path), 0)
    assert (ppo_kw["eval_every"], ppo_kw["eval_games"], ppo_kw["overwrite"]) == (32, 60, False)
    assert sp == ("kremlin",) and sp_kw["timesteps"] == 64 and sp_kw["workers"] == 2 and sp_kw["lr"] == 0.002
    assert (sp_kw["pool"], sp_kw["reward"], sp_kw["dense"], sp_kw["backend"]) == (
        "self=1",
        "score_margin",
        False,
        "local",
    )
    assert not {"num_envs", "hidden", "options", "address", "eval_every"} & set(sp_kw)  # the trainer's defaults
    assert az == ("kremlin",) and (az_kw["simulations"], az_kw["hidden"], az_kw["resume"]) == (2, (16,), True)
    assert az_kw["options"] == {"turn_limit": 5} and az_kw["timesteps"] == 12
    assert im == ("kremlin", None, 40, "mcts:simulations=5") and im_kw["hidden"] == (16, 8)
    assert (im_kw["seed"], im_kw["overwrite"], im_kw["out"]) == (3, True, str(tmp_path))


@pytest.mark.parametrize("algo,option", [(a, o) for a, others in OTHERS.items() for o in others])
def test_each_trainer_refuses_another_trainers_option_in_typers_words(calls, algo, option, tmp_path):
    """The old spelling too, except for the options the old command took and ignored (alias.IGNORED)."""
    spellings = [["train", algo.replace("_", "-"), "kremlin"], ["train", "kremlin", "--algo", algo]]
    if IGNORED[algo].get(option, "?") in (None, "1"):
        spellings.pop()
    for args in spellings:
        result = CliRunner().invoke(app, [*args, option, "1", "--out", str(tmp_path / "r")])
        assert result.exit_code == 2 and f"No such option: {option}" in said(result), result.output
    assert calls == [] and not (tmp_path / "r").exists()


def test_the_old_spelling_defaults_to_maskable_ppo_on_irish_gauge_and_reads_every_way_click_does(calls):
    """`train` alone trained maskable_ppo on irish_gauge, and `--algo=az`, `-w4`, options before the game all
    parse as before; the options the old command ignored for a trainer are dropped, naming them."""
    # one run folder named for both: the default one carries the second it was made in
    assert CliRunner().invoke(app, ["train", "--out", "o"]).exit_code == 0
    assert CliRunner().invoke(app, ["train", "maskable-ppo", "--out", "o"]).exit_code == 0
    assert calls[0] == calls[1] and calls[0][1][0] == "irish_gauge" and calls[0][0] == "maskable_ppo"
    calls.clear()
    for args in (
        ["--algo=az", "-w4", "-t", "8", "kremlin", "--num-envs=8"],
        ["-t8", "--opponents", "heuristic", "--algo", "az", "--workers", "4", "kremlin", "--num-envs", "8"],
    ):
        old = CliRunner().invoke(app, ["train", *args, "--out", "o"])
        assert old.exit_code == 0, old.output
    new = CliRunner().invoke(app, ["train", "az", "kremlin", "-t", "8", "-w", "4", "--num-envs", "8", "--out", "o"])
    assert new.exit_code == 0, new.output
    assert calls[0] == calls[1] == calls[2] and calls[0][2]["workers"] == 4 and calls[0][2]["num_envs"] == 8
    assert "(it ignores --opponents, as it did)" in old.stderr
    calls.clear()
    ignored = ["--opponents", "self", "--address", "x:1", "--eval-games", "3", "--backend", "local", "-w", "1"]
    assert CliRunner().invoke(app, ["train", "--algo", "imitate", *ignored, "--out", "o"]).exit_code == 0
    assert CliRunner().invoke(app, ["train", "imitate", "--out", "o"]).exit_code == 0
    assert (
        CliRunner().invoke(app, ["train", "-w", "3", "--address", "x:1", "--backend", "local", "-o", "o"]).exit_code
        == 0
    )
    assert CliRunner().invoke(app, ["train", "maskable-ppo", "--out", "o"]).exit_code == 0
    assert calls[0] == calls[1] and calls[2] == calls[3]
    refused = CliRunner().invoke(app, ["train", "--algo", "imitate", "--backend", "ray", "--out", "o"])
    assert refused.exit_code == 2 and "No such option: --backend" in said(refused)


def test_the_old_spelling_refuses_an_unknown_trainer_by_name():
    result = CliRunner().invoke(app, ["train", "irish_gauge", "--algo", "dqn"])
    assert result.exit_code == 2
    assert "--algo must be one of maskable_ppo, selfplay, az, imitate, got 'dqn'" in said(result)


def test_each_trainers_help_lists_only_its_options():
    for algo, others in OTHERS.items():
        text = said(CliRunner().invoke(app, ["train", algo.replace("_", "-"), "--help"]))
        assert all(option not in text for option in others if option != "--option"), (algo, text)
    group = said(CliRunner().invoke(app, ["train", "--help"]))
    assert all(name in group for name in ("maskable-ppo", "selfplay", "az", "imitate", "--algo"))


def test_every_command_module_is_a_command_of_the_app():
    """A new module in tabletop_zoo/cli/ is all a new command takes: the app finds it (its function of the same
    name, its COMMANDS, or its sub-app)."""
    commands = set(typer.main.get_command(app).commands)
    assert {"play", "replay", "arena", "ladder", "bench", "precompile", "serve", "train"} <= commands
    for name, module in tabletop_zoo.cli.command_modules().items():
        assert {f.__name__ for f in getattr(module, "COMMANDS", ())} | {name} - {"tournaments"} <= commands, name


def test_the_docs_show_the_new_spelling():
    """The docs' training commands use `train TRAINER GAME`; only docs/cli.md shows the old spelling (the alias)."""
    for page in ["README.md", *map(str, (ROOT / "docs").rglob("*.md"))]:
        text = (ROOT / page).read_text()
        if not page.endswith("cli.md"):
            assert "--algo" not in text, page


def test_the_new_spelling_trains_for_real(tmp_path):
    """A tiny imitate run end to end (the other trainers run through the CLI in tests/training/)."""
    args = ["train", "imitate", "irish_gauge", "-n", "3", "-t", "40", "--hidden", "16", "--torch-threads", "1"]
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path)])
    assert result.exit_code == 0 and "deprecated" not in result.output, result.output
    assert f"az:path={tmp_path / 'az.pt'}" in result.output.replace("\n", "") and (tmp_path / "log.json").exists()


def test_imitate_takes_several_player_counts_a_chunk_resume_and_workers(calls, tmp_path):
    """`train imitate` passes --players as one count, a list or all, and --chunk/--resume/--workers to the trainer
    (#48)."""
    base = ["train", "imitate", "kremlin", "--out", str(tmp_path)]
    for given, passed in (("4", 4), ("3,5", [3, 5]), ("all", "all")):
        result = CliRunner().invoke(app, [*base, "--players", given, "--chunk", "64", "--resume", "-w", "2"])
        assert result.exit_code == 0, result.output
        args, kwargs = calls[-1][1], calls[-1][2]
        assert args[1] == passed and kwargs["chunk"] == 64 and kwargs["resume"] is True and kwargs["workers"] == 2
    assert CliRunner().invoke(app, base).exit_code == 0 and calls[-1][2]["workers"] == 1
    bad = CliRunner().invoke(app, [*base, "--players", "three"])
    assert bad.exit_code != 0 and "--players must be a count, a list such as 2,3,4, or all" in said(bad)
