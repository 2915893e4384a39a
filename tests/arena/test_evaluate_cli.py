"""`tabletop-zoo evaluate` on the command line: refusals in one line, before any game."""

from __future__ import annotations

import textwrap

import pytest
from typer.testing import CliRunner

from tabletop_zoo.cli import app

runner = CliRunner()


def _said(result) -> str:
    return " ".join(result.output.replace("│", " ").split())  # (rich's error box)


@pytest.mark.parametrize(
    "args, message",
    [
        (["my_agents_cli_48:NotAnAgent", "irish_gauge"], "my_agents_cli_48:NotAnAgent is not an agent"),
        (["no_such_module_48:Agent", "irish_gauge"], "cannot import module 'no_such_module_48'"),
        (["heuristic", "irish_gauge", "--players", "9"], "played by 3 to 5 players, got 9"),
        (["heuristic", "irish_gauge", "--option", "ruleset"], "--option must look like KEY=VALUE"),
    ],
)
def test_cli_evaluate_refuses_bad_input_before_any_game(args, message, tmp_path, monkeypatch):
    from tabletop_zoo.arena import evaluate as ev

    entry = {
        "games": 5,
        "seed": 0,
        "options": {},
        "command": "-",
        "ratings": {"random": [0.0] * 3, "heuristic": [1.0] * 3},
    }
    pool = ev.build_pool({"irish_gauge": {"4": entry}})
    monkeypatch.setattr(ev, "load_pool", lambda path=None: pool)
    (tmp_path / "my_agents_cli_48.py").write_text(textwrap.dedent("class NotAnAgent:\n    pass\n"))
    monkeypatch.chdir(tmp_path)  # the command imports class paths from the current folder
    result = runner.invoke(app, ["evaluate", *args, "--out", "ev"])
    assert result.exit_code == 2, result.output
    assert message in _said(result), result.output
    assert not (tmp_path / "ev" / "games.jsonl").exists()


def test_cli_evaluate_refuses_a_count_without_a_published_pool(monkeypatch, tmp_path):
    """A (game, count) the pool has no entry for: one line naming the counts it has."""
    from tabletop_zoo.arena import evaluate as ev

    pool = ev.build_pool({})
    monkeypatch.setattr(ev, "load_pool", lambda path=None: pool)
    result = runner.invoke(app, ["evaluate", "heuristic", "kremlin", "--players", "6", "--out", str(tmp_path / "ev")])
    assert result.exit_code == 2, result.output
    assert "no published reference pool for kremlin at 6 players" in _said(result), result.output


def test_cli_evaluate_says_the_rating_the_pool_and_the_games_needed(monkeypatch, tmp_path):
    """A short run against a two-member pool: the rating with its interval, the pool's version, the games a
    half-width of 50 needs, and where the results are."""
    from tabletop_zoo.arena import evaluate as ev

    entry = {"games": 5, "seed": 0, "options": {}, "command": "-"}
    entry["ratings"] = {"random": [0.0, 0.0, 0.0], "heuristic": [500.0, 400.0, 600.0]}
    pool = ev.build_pool({"irish_gauge": {"3": entry}})
    monkeypatch.setattr(ev, "load_pool", lambda path=None: pool)
    out = tmp_path / "ev"
    result = runner.invoke(
        app, ["evaluate", "heuristic", "irish_gauge", "-n", "3", "-g", "3", "-s", "9", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    said = _said(result)
    assert "heuristic in irish_gauge, 3 players, 3 games: rating" in said and pool["version"] in said
    assert "a half-width of 50 needs about" in said and (out / "result.json").is_file()
