"""Issue #45, the smaller rough edges: each is one clear line, not a traceback from deep inside."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from tabletop_zoo import registry
from tabletop_zoo.arena.files import read_games
from tabletop_zoo.replay import ReplayError, arena_replay, load_replay

from ._fakes import FailingRay


def test_observe_and_last_before_reset_say_reset_is_needed(game_id):
    env = registry.make_env(game_id)
    for call in (lambda: env.observe("player_0"), env.last, env.state, lambda: env.action_name(0)):
        with pytest.raises(RuntimeError, match=r"reset\(\) must be called before"):
            call()


def test_observe_of_an_unknown_agent_names_the_agents(game_id):
    env = registry.make_env(game_id)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"no agent 'nobody' in this game; agents are \['player_0'"):
        env.observe("nobody")


@pytest.mark.parametrize("outside", [-1, "num_actions", 10**9])
def test_action_name_outside_the_action_space_raises_in_every_game(game_id, outside):
    """French Revolution named -1 'invalid(-1)' where the other rooms raise."""
    k = registry.kernel(game_id)
    action = k.NUM_ACTIONS if outside == "num_actions" else outside
    with pytest.raises(ValueError, match=rf"action {action} is out of range 0\.\.{k.NUM_ACTIONS - 1}"):
        k.action_name(k.new_state(k.DEFAULT_PLAYERS, 0), action)


def test_a_replay_that_is_not_utf8_is_named(tmp_path):
    bad = tmp_path / "game.json"
    bad.write_bytes(b'{"game": "irish_gauge", "actions": [1, \xff\xfe]}')
    with pytest.raises(ReplayError, match=rf"^{bad} is damaged: byte 39 is not UTF-8 text") as e:
        load_replay(bad)
    assert "\n" not in str(e.value)


def test_arena_files_that_are_not_utf8_are_named(tmp_path):
    games = tmp_path / "games.jsonl"
    games.write_bytes(b'{"game": 0}\n\xff\n')
    (tmp_path / "run.json").write_text(json.dumps({"game": "irish_gauge", "players": 3}))
    with pytest.raises(ValueError, match=rf"^{games} is damaged: byte 12 is not UTF-8"):
        read_games(games, 3)
    with pytest.raises(ReplayError, match=rf"^{games} is damaged"):
        arena_replay(games, 0)


def _python(code: str, cache: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True)


def test_a_damaged_numba_cache_names_the_folder_to_delete(tmp_path):
    """Cut every compiled file of a real cache short, as a full disk or a kill would."""
    call = """
        import numpy as np
        import tabletop_zoo
        from tabletop_zoo.kernels._common import rng
        r = np.zeros(1, np.uint64)
        rng.seed_rng(r, 7)
        print(tabletop_zoo.NUMBA_CACHE_DIR, rng.next_u64(r))
    """
    first = _python(call, str(tmp_path))
    assert first.returncode == 0, first.stderr
    folder, value = first.stdout.split()
    damaged = [p for p in tmp_path.rglob("*.nbc")]
    assert damaged
    for p in damaged:
        p.write_bytes(p.read_bytes()[:100])
    second = _python(call, str(tmp_path))
    assert second.returncode != 0
    last = second.stderr.strip().splitlines()[-1]
    assert last.startswith("tabletop_zoo._numba_cache.DamagedCacheError: numba's compiled-code cache is damaged")
    assert last.endswith(f"delete {folder} and run again (it holds only compiled code)")


def test_the_cli_reports_a_damaged_cache_in_one_line(tmp_path):
    """Any command's first compiled call may find the damage; the CLI prints one line and exits 1."""
    run = """
        import pickle, sys
        from numba.core import caching
        def damaged(self, sig, target_context):
            raise pickle.UnpicklingError("pickle data was truncated")
        caching.Cache._load_overload = damaged
        from tabletop_zoo.cli import app
        sys.argv = ["tabletop-zoo", "play", "irish_gauge"]
        app()
    """
    done = _python(run, str(tmp_path))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]  # (after the cold cache's first-use line)
    assert last.startswith("Error: numba's compiled-code cache is damaged (UnpicklingError: pickle data was")
    assert "delete " in last


def test_an_arena_folder_turned_read_only_keeps_its_games_and_says_how_to_finish(tmp_path, monkeypatch):
    """The final rewrite fails (the folder became read-only after the games): one line, the games kept."""
    from tabletop_zoo import arena
    from tabletop_zoo.arena import tournament as run_mod

    def read_only(path, text):
        raise PermissionError(13, "Permission denied", str(path))

    kwargs = dict(games=2, seed=5, out=tmp_path, workers=1, progress=False, console=False)
    real_write = run_mod.atomic_write
    monkeypatch.setattr(
        run_mod, "atomic_write", lambda p, t: (read_only if p.name == "games.jsonl" else real_write)(p, t)
    )
    with pytest.raises(ValueError) as e:
        arena.run("irish_gauge", ["random", "random", "random"], **kwargs)
    assert str(e.value) == (
        f"cannot write the results to {tmp_path}: Permission denied; the 2 finished games are kept in "
        f"{tmp_path / 'games.jsonl'}: make the folder writable and rerun with --resume to write the summary"
    )
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 2
    assert not (tmp_path / "summary.json").exists()
    monkeypatch.setattr(run_mod, "atomic_write", real_write)
    summary = arena.run("irish_gauge", ["random", "random", "random"], resume=True, **kwargs)
    assert summary["games"] == 2 and (tmp_path / "summary.json").exists()


def test_play_refuses_a_replay_path_it_cannot_write_before_the_game():
    """/proc takes no new file even for root (permission bits would say nothing there): tried for real."""
    from typer.testing import CliRunner

    from tabletop_zoo.cli import app

    result = CliRunner().invoke(app, ["play", "irish_gauge", "--save-replay", "/proc/game.json"])
    assert result.exit_code == 2
    said = " ".join(result.output.replace("│", " ").split())  # (rich's error box)
    assert "cannot write the replay /proc/game.json: No such file or directory" in said
    assert "final standings" not in result.output  # refused before any move


def test_a_write_that_fails_leaves_the_old_file_and_no_temporary(tmp_path):
    from tabletop_zoo.files import atomic_write, replaced_on_success

    target = tmp_path / "replay.json"
    atomic_write(target, "finished game\n")
    with pytest.raises(OSError, match="disk full"):
        with replaced_on_success(target) as tmp:
            tmp.write_text("half a gam")
            raise OSError(28, "disk full")
    assert target.read_text() == "finished game\n"
    assert [p.name for p in tmp_path.iterdir()] == ["replay.json"]


def test_an_arena_on_a_ray_that_fails_to_start_says_so_in_one_line(tmp_path, monkeypatch):
    from tabletop_zoo import arena

    monkeypatch.setitem(sys.modules, "ray", FailingRay(TimeoutError, "Timed out while waiting for the GCS"))
    kwargs = dict(games=2, out=tmp_path, workers=2, backend="ray", progress=False, console=False)
    with pytest.raises(ValueError) as refused:
        arena.run("irish_gauge", ["random", "random", "random"], **kwargs)
    assert str(refused.value) == (
        "the ray backend failed starting a local Ray with 2 CPUs: Timed out while waiting for the GCS; "
        "retry when less loaded, or use --backend local"
    )
