"""The README's example runs as written; the CLI plays, benchmarks and rejects bad input clearly."""

import json
import os
import pathlib
import re
import subprocess
import sys

import pytest
from typer.testing import CliRunner

import tabletop_zoo
from tabletop_zoo.cli import app

ROOT = pathlib.Path(__file__).resolve().parents[1]
runner = CliRunner()


# The README's example and the docs pages' (the manual the README links to): every ```python block runs as written.
EXAMPLE_PAGES = ["README.md", "docs/getting-started.md", "docs/agents.md", "docs/training.md", "docs/play.md"]


def test_readme_python_examples_run(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an example that writes a file writes it here
    blocks = []
    for page in EXAMPLE_PAGES:
        found = re.findall(r"```python\n(.*?)```", (ROOT / page).read_text(), re.S)
        assert found, f"{page} lost its Python examples"
        blocks += [(page, code) for code in found]
    assert len(blocks) >= 5
    for page, code in blocks:  # each example runs on its own, as a reader would paste it
        exec(compile(code, page, "exec"), {})
        printed = capsys.readouterr().out
        if "print(" in code:
            assert printed.strip(), f"{page} example printed nothing:\n{code}"
        if "play_game(" in code or "env.last()" in code:  # a played game names its seats
            assert "player_0" in printed and "player_3" in printed, printed


def test_every_python_example_of_the_docs_is_run():
    """A docs page with a ```python block not listed in EXAMPLE_PAGES would go untested."""
    pages = [p for p in (ROOT / "docs").rglob("*.md") if "```python" in p.read_text()]
    assert sorted(str(p.relative_to(ROOT)) for p in pages) == sorted(p for p in EXAMPLE_PAGES if p != "README.md")


def test_readme_names_the_ci_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    readme = (ROOT / "README.md").read_text()
    # scripts/test brings the browser tests' chromium, then runs pytest; CI's last line is exactly it
    script = ROOT / "scripts" / "test"
    assert "\n    scripts/test\n" in readme and ci.rstrip().splitlines()[-1] == "scripts/test"
    assert re.search(r'^exec python -m pytest -q .*"\$@"$', script.read_text(), re.M) and script.stat().st_mode & 0o111
    assert 'pip install -e ".[test]" && tabletop-zoo arena irish_gauge' in readme
    # CI runs the README's install command as two lines (under set -e a failing left side of && goes on)
    assert 'pip install -e ".[test]"\ntabletop-zoo arena irish_gauge\n' in ci


def test_cli_play_prints_final_standings():
    result = runner.invoke(app, ["play", "irish_gauge", "--players", "3", "--seed", "2"])
    assert result.exit_code == 0, result.output
    assert "final standings" in result.output and result.output.count("score ") == 3
    assert "winner" in result.output


def test_cli_play_takes_agent_specs_and_names_the_rules_winner():
    result = runner.invoke(
        app,
        [
            "play",
            "kremlin",
            "--players",
            "3",
            "--seed",
            "4",
            "--agents",
            "mcts:simulations=5,rollout_depth=2,random,random",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "(mcts:rollout_depth=2,simulations=5)" in result.output
    env = tabletop_zoo.make_env("kremlin", num_players=3)
    from tabletop_zoo.agents import parse_agent_spec
    from tabletop_zoo.play import play_game
    from tabletop_zoo.standings import final_standings

    specs = ["mcts:simulations=5,rollout_depth=2", "random", "random"]
    play_game(
        env, [parse_agent_spec(a, "kremlin").build("kremlin", seed=4 * 1000 + i) for i, a in enumerate(specs)], seed=4
    )
    winners = [f"player_{i}" for i in final_standings(env.kernel, env.get_state()).winners]
    marked = [line.split(". ")[1].split(" ")[0] for line in result.output.splitlines() if line.endswith("winner")]
    assert marked == winners


@pytest.mark.parametrize(
    "args, message",
    [
        (["--seed", "-1"], "seed must be an int in [0, 2**64)"),
        (["--agents", "mcts:simulations=1.5"], "simulations must be an integer >= 1, got 1.5"),
        (["--save-replay", "/nonexistent-folder/game.json"], "folder /nonexistent-folder does not exist"),
        (["--render", "png"], "--render must be 'ansi'"),
    ],
)
def test_cli_play_refuses_bad_input_before_the_game(args, message):
    result = runner.invoke(app, ["play", "irish_gauge", "--players", "3", *args])
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.replace("│", " ").split()), result.output  # (rich's error box)
    assert "final standings" not in result.output


def test_cli_play_is_reproducible_and_renders():
    a = runner.invoke(app, ["play", "irish_gauge", "--seed", "9", "--render", "ansi"])
    b = runner.invoke(app, ["play", "irish_gauge", "--seed", "9", "--render", "ansi"])
    assert a.exit_code == 0 and a.output == b.output
    assert "CALL_DIVIDENDS" in a.output and "Irish Gauge" in a.output


def test_cli_rejects_bad_input():
    for args, message in (
        (["play", "chess"], "unknown game"),
        (["play", "irish_gauge", "--players", "6"], "3 to 5 players"),
        (["play", "irish_gauge", "--agents", "random,random"], "need 1 or 4 agents"),
        (["play", "irish_gauge", "--agents", "genius"], "unknown agent"),
        (["play", "irish_gauge", "--ruleset", "house"], "ruleset must be one of"),
    ):
        result = runner.invoke(app, args)
        assert result.exit_code != 0
        assert message in " ".join(result.output.split()), result.output


def test_cli_bench_json():
    result = runner.invoke(app, ["bench", "irish_gauge", "--json", "--quick"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    rows = data["games"]["irish_gauge"]
    assert list(rows) == ["3", "4", "5"]
    assert all(
        r["kernel_1t"]["decisions_per_s"]["median"] > 0 and r["aec"]["steps_per_s"]["median"] > 0 for r in rows.values()
    )


def test_cli_arena_runs_a_small_tournament(tmp_path):
    out = tmp_path / "run"
    result = runner.invoke(
        app,
        [
            "arena",
            "irish_gauge",
            "--agents",
            "heuristic,random",
            "--players",
            "3",
            "--games",
            "3",
            "--out",
            str(out),
            "--workers",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "win share" in result.output and "head to head" in result.output and (out / "summary.csv").exists()
    again = runner.invoke(
        app,
        ["arena", "irish_gauge", "--agents", "heuristic,random", "--players", "3", "--games", "3", "--out", str(out)],
    )
    assert again.exit_code != 0 and "--resume" in " ".join(again.output.split())
    bad = runner.invoke(app, ["arena", "irish_gauge", "--agents", "mcts:simulation=3"])
    assert bad.exit_code != 0 and "unknown parameter" in " ".join(bad.output.split())


def test_cli_ladder_writes_strength_markdown(tmp_path):
    result = runner.invoke(
        app, ["ladder", "irish_gauge", "--quick", "--games", "3", "--workers", "1", "--out", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    text = (tmp_path / "STRENGTH.md").read_text()
    assert "## irish_gauge, 3 players" in text and "Head to head" in text
    assert re.search(r"decisions; \d+ s of play \(summed over the games", text) and "min of play in all" in text
    for agent in ("`random`", "`heuristic`", "`mcts:simulations=20`"):
        assert agent in text
    assert (tmp_path / "ladder" / "irish_gauge" / "games.jsonl").exists()


def test_cli_version():
    from tabletop_zoo import __version__

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"tabletop-zoo {__version__}"


def test_cli_precompile_reports_each_game_and_refuses_bad_input():
    """The suite has compiled every game already (tests/conftest.py), so this loads from the cache."""
    result = runner.invoke(app, ["precompile", "irish_gauge", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert re.search(r"^irish_gauge: \d+ s CPU$", result.stdout, re.M), result.output
    for args, message in ((["precompile", "chess"], "unknown game"), (["precompile", "--jobs", "-1"], "--jobs")):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and message in result.output, result.output


@pytest.mark.slow
def test_precompile_fills_a_cold_cache_so_that_a_later_process_compiles_nothing(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    first = subprocess.run(
        [sys.executable, "-m", "tabletop_zoo.cli", "precompile", "irish_gauge"], env=env, capture_output=True, text=True
    )
    assert first.returncode == 0, first.stderr[-2000:]
    # A later process runs the same paths: every one of our dispatchers it used loaded from the cache.
    probe = (
        "import gc\n"
        "from numba.core.dispatcher import Dispatcher\n"
        "from tabletop_zoo.precompile import compile_game\n"
        "compile_game('irish_gauge')\n"
        "ours = [d for d in gc.get_objects() if isinstance(d, Dispatcher)"
        " and d.py_func.__module__.startswith('tabletop_zoo.')]\n"
        "print(len(ours), sorted({d.py_func.__qualname__ for d in ours if d.stats.cache_misses}))\n"
    )
    second = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    assert second.returncode == 0, second.stderr[-2000:]
    count, missed = second.stdout.split(" ", 1)
    assert int(count) > 20 and missed.strip() == "[]", second.stdout
