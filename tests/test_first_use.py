"""A game's first compile says so, once (issue #46, "no silent first use"); a warm cache says nothing.

The cold subprocess compiles Irish Gauge (the quickest game) from a fresh cache folder, so it is slow; the
in-process tests check the same bookkeeping with a stand-in for the compile. Timings are never asserted.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import numba
import numpy as np
import pytest

from tabletop_zoo import make_env, make_vec, precompile
from tabletop_zoo.envs import base, first_use

LINE = "tabletop-zoo precompile irish_gauge"
FIRST_USE = (
    "import numpy as np, tabletop_zoo\n"
    "for n in (4, 3):\n"  # two envs of the game, one process: still one line
    "    env = tabletop_zoo.make_env('irish_gauge', num_players=n)\n"
    "    env.reset(seed=0)\n"
    "    rng = np.random.default_rng(0)\n"
    "    for _ in range(20):\n"
    "        obs, *_ = env.last()\n"
    "        legal = np.flatnonzero(obs['action_mask'])\n"
    "        env.step(int(legal[rng.integers(legal.size)]))\n"
    "print(tabletop_zoo.NUMBA_CACHE_DIR)\n"
)


def _first_use(cache) -> tuple[str, str]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    proc = subprocess.run([sys.executable, "-c", FIRST_USE], env=env, capture_output=True, text=True, check=True)
    return proc.stdout.strip(), proc.stderr


@pytest.mark.slow
def test_a_cold_process_says_it_compiles_once_and_a_warm_one_says_nothing(tmp_path):
    folder, stderr = _first_use(tmp_path)
    assert stderr.count(LINE) == 1, stderr
    assert "compiling irish_gauge's rules" in stderr
    warm_folder, stderr = _first_use(tmp_path)
    if warm_folder != folder:  # the sources changed between the two runs: a new cache folder, cold again
        pytest.skip("the sources changed during the test")
    assert LINE not in stderr and "compiling" not in stderr, stderr


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty cache folder and a process that has not checked any game yet."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(first_use, "_done", set())
    monkeypatch.setattr(first_use, "_announced", set())
    return tmp_path


def test_a_cold_part_is_compiled_announced_and_marked_once(fresh, caplog):
    calls = []
    with caplog.at_level(logging.WARNING, logger="tabletop_zoo"):
        assert first_use.compile_once("irish_gauge", {"env": lambda: calls.append("env")})
        assert not first_use.compile_once("irish_gauge", {"env": lambda: calls.append("again")})
    assert calls == ["env"]
    lines = [r.getMessage() for r in caplog.records if r.name == "tabletop_zoo"]
    assert len(lines) == 1 and LINE in lines[0] and "irish_gauge" in lines[0]
    assert first_use.is_compiled("irish_gauge", "env")


def test_a_warm_cache_says_nothing_in_a_new_process(fresh, caplog, monkeypatch):
    first_use.compile_once("irish_gauge", {"env": lambda: None})
    monkeypatch.setattr(first_use, "_done", set())  # what a new process starts with
    monkeypatch.setattr(first_use, "_announced", set())
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tabletop_zoo"):
        assert not first_use.compile_once("irish_gauge", {"env": lambda: pytest.fail("compiled again")})
    assert not caplog.records


def test_one_line_per_game_and_process_even_for_a_later_part(fresh, caplog):
    with caplog.at_level(logging.WARNING, logger="tabletop_zoo"):
        first_use.compile_once("irish_gauge", {"env": lambda: None})
        first_use.compile_once("irish_gauge", {"agent-mcts": lambda: None})
        first_use.compile_once("kremlin", {"env": lambda: None})
    games = [r.getMessage().split("'")[0] for r in caplog.records]
    assert games == ["compiling irish_gauge", "compiling kremlin"]
    assert first_use.is_compiled("irish_gauge", "agent-mcts")


def test_a_failed_compile_leaves_no_marker(fresh):
    def broken():
        raise RuntimeError("killed mid-compile")

    with pytest.raises(RuntimeError):
        first_use.compile_once("irish_gauge", {"env": broken})
    assert not first_use.is_compiled("irish_gauge", "env")


def test_the_cli_says_it_in_one_plain_line_when_stderr_is_not_a_terminal(fresh, capsys):
    with first_use.announcing(precompile.spinner):
        first_use.compile_once("irish_gauge", {"env": lambda: None})
    err = capsys.readouterr().err
    assert err.count(LINE) == 1 and err.count("\n") == 1


def test_the_env_has_the_rules_write_the_masks_the_search_and_the_batch_use(monkeypatch):
    """The AEC env hands out int8 masks (its documented dtype) but has the rules write them as the rows of the
    batch (and the search, and the playouts): one compile of the rules' mask functions serves every path."""
    seen = []
    entry_for = base.env_step

    def spying(kernel):
        entry = entry_for(kernel)

        def call(s, action, mask, obs):
            seen.append(mask.dtype)
            return entry(s, action, mask, obs)

        return call

    monkeypatch.setattr(base, "env_step", spying)
    env = make_env("irish_gauge")
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.action_mask())[0]))
    batch_masks = make_vec("irish_gauge", 2, seed=0).reset().action_mask
    assert len(seen) == 2 and set(seen) == {batch_masks.dtype}
    mover = env.agent_selection
    assert env.action_mask().dtype == np.int8 and env.infos[mover]["action_mask"].dtype == np.int8
    assert env.observe(mover)["action_mask"].dtype == np.int8
