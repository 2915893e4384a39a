"""PettingZoo's own habits (#19): max_cycles (also through pettingzoo.make), render_mode="human" with
render_fps, and PettingZoo's render_test."""

from __future__ import annotations

import warnings

import matplotlib
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test

import tabletop_zoo
from tabletop_zoo import registry
from tabletop_zoo.agents import RandomAgent


def _iterate(env, seed: int) -> tuple[int, dict]:
    """Play with random agents through agent_iter; returns (decisions, last infos of each agent)."""
    env.reset(seed=seed)
    agent = RandomAgent(seed)
    decisions, last = 0, {}
    for name in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            last[name] = (term, trunc, reward, info)
            env.step(None)
        else:
            env.step(agent.act(obs["observation"], obs["action_mask"]))
            decisions += 1
    return decisions, last


def test_pettingzoo_make_with_max_cycles_truncates_after_that_many_cycles(game_id):
    """A cycle is num_players decisions (turn order is not round-robin in these games)."""
    env = pettingzoo.make("aec", f"tabletop_zoo/{game_id}-v0", max_cycles=3)
    assert env.max_cycles == 3
    decisions, last = _iterate(env, seed=1)
    assert decisions == 3 * env.num_players
    assert set(last) == set(env.possible_agents)
    for term, trunc, reward, info in last.values():
        assert (term, trunc, reward) == (False, True, 0.0) and info["max_cycles"] and "score" in info
    assert env.agents == []


def test_max_cycles_leaves_shorter_games_alone_and_passes_api_test():
    env = tabletop_zoo.make_env("irish_gauge", num_players=3, max_cycles=10_000)
    full, last = _iterate(env, seed=2)
    assert all(term and not trunc for term, trunc, _, _ in last.values())
    unlimited, _ = _iterate(tabletop_zoo.make_env("irish_gauge", num_players=3), seed=2)
    assert full == unlimited
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(tabletop_zoo.make_env("irish_gauge", num_players=3, max_cycles=20), num_cycles=100)
    for bad in (0, -1, 2.5, True, "10"):
        with pytest.raises(ValueError, match=r"max_cycles must be None \(no limit\) or an int >= 1"):
            tabletop_zoo.make_env("irish_gauge", max_cycles=bad)


def test_every_game_declares_human_rendering_and_render_fps(game_id):
    metadata = registry.env_module(game_id).raw_env.metadata
    assert metadata["render_modes"] == ["ansi", "rgb_array", "human"]
    assert metadata["render_fps"] > 0


def test_human_mode_without_a_display_prints_the_text_board(game_id, monkeypatch, capsys):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    backend = matplotlib.rcParams._get_backend_or_none()
    env = tabletop_zoo.make_env(game_id, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert capsys.readouterr().out.strip() == type(env).render_ansi(env.record).strip()
    assert matplotlib.rcParams._get_backend_or_none() == backend, "the caller's backend must not change"
    env.close()


def test_pettingzoo_render_test(monkeypatch):
    """rgb_array frames are slow, so one game; every game's modes are checked above and in tests/render."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    render_test(lambda render_mode=None: tabletop_zoo.make_env("irish_gauge", num_players=3, render_mode=render_mode))


def test_window_backend_needs_a_display_and_a_window_backend(monkeypatch):
    from tabletop_zoo.envs.render import _window

    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    if _window.sys.platform.startswith("linux"):
        assert _window.window_backend() is None and _window.open_window("x", 2) is None
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.setattr(matplotlib, "get_backend", lambda: "agg")
    assert _window.window_backend() is None  # Agg draws no window: text instead
    monkeypatch.setattr(matplotlib, "get_backend", lambda: "TkAgg")
    assert _window.window_backend() == "tkagg"
    monkeypatch.setattr(matplotlib, "get_backend", lambda: "webagg")
    assert _window.window_backend() is None
