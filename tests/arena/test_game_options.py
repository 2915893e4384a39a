"""``arena`` and ``ladder`` take game options (issue #48): a tournament under Irish Gauge's published rules."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tabletop_zoo.cli import app

runner = CliRunner()


def _said(result) -> str:
    return " ".join(result.output.replace("│", " ").split())  # (rich's error box)


def test_arena_plays_under_the_options_given(tmp_path):
    out = tmp_path / "run"
    args = ["arena", "irish_gauge", "--agents", "random", "--players", "3", "--games", "2", "--workers", "1"]
    r = runner.invoke(app, [*args, "--out", str(out), "--option", "ruleset=published", "-O", "major_city_bonus=1"])
    assert r.exit_code == 0, r.output
    config = json.loads((out / "run.json").read_text())
    assert config["options"] == {"ruleset": "published", "major_city_bonus": 1}
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(games) == 2


def test_a_bad_option_is_one_line_before_any_game(tmp_path):
    base = ["arena", "irish_gauge", "--agents", "random", "--players", "3", "--games", "1", "--out", str(tmp_path)]
    r = runner.invoke(app, [*base, "--option", "ruleset"])
    assert r.exit_code == 2 and "--option must look like KEY=VALUE, e.g. ruleset=published" in _said(r)
    r = runner.invoke(app, [*base, "--option", "ruleset=chess"])
    assert r.exit_code == 2 and "ruleset" in _said(r) and "chess" in _said(r)
    assert not (tmp_path / "games.jsonl").exists()


def test_ladder_passes_its_options_to_every_game(tmp_path):
    r = runner.invoke(
        app,
        ["ladder", "irish_gauge", "--quick", "--games", "2", "--workers", "1", "--out", str(tmp_path)]
        + ["--option", "ruleset=published"],
    )
    assert r.exit_code == 0, r.output
    config = json.loads((tmp_path / "ladder" / "irish_gauge" / "run.json").read_text())
    assert config["options"] == {"ruleset": "published"}
    assert "Game options: `ruleset=published`." in (tmp_path / "STRENGTH.md").read_text()


def test_the_arena_records_each_agents_thinking_time_per_move(tmp_path):
    """Issue #48: "at less time per move" is checked from the run's own files (times.jsonl, summary)."""
    from tabletop_zoo import arena

    summary = arena.run(
        "irish_gauge",
        ["mcts:simulations=30", "random"],
        num_players=3,
        games=3,
        seed=1,
        out=tmp_path,
        workers=1,
        progress=False,
        console=False,
    )
    times = [json.loads(line) for line in (tmp_path / "times.jsonl").read_text().splitlines()]
    games = {json.loads(line)["game"]: json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()}
    assert len(times) == 3
    for t in times:
        record = games[t["game"]]
        assert len(t["thinking"]) == 3  # one [seconds, moves] per seat
        assert sum(moves for _, moves in t["thinking"]) == record["length"]  # every decision was timed
        assert all(seconds >= 0 and moves > 0 for seconds, moves in t["thinking"])
    mcts, rand = (summary["agents"][a]["seconds_per_move"] for a in ("mcts:simulations=30", "random"))
    assert mcts > rand > 0  # a search thinks longer than a random pick
    assert "thinking" not in next(iter(games.values()))  # the record stays the same on every machine
    assert "seconds_per_move" in (tmp_path / "summary.csv").read_text().splitlines()[0]
