"""Shared fixtures: the registry drives the contract suite, so every new game joins automatically."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo import registry

GAME_COUNTS = [(g, n) for g in sorted(tabletop_zoo.GAMES) for n in registry.player_counts(g)]
# The contract tests that only some games need run only on those games (no skips for the rest).
STOCHASTIC_COUNTS = [(g, n) for g, n in GAME_COUNTS if registry.kernel(g).CHANCE_MODE != "deterministic"]
HIDDEN_COUNTS = [(g, n) for g, n in GAME_COUNTS if registry.kernel(g).INFORMATION == "imperfect"]


def pytest_configure(config):
    """Under pytest-xdist, compile each game once before the workers start (tabletop_zoo/precompile.py).

    On a cold numba cache the workers would otherwise compile the same kernels side by side whenever they
    reach tests of the same game at once. The games are those the command line names (tests/<game>/...),
    or all of them.
    """
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not isinstance(workers, int) or workers < 2 or config.option.collectonly:
        return
    from tabletop_zoo.precompile import precompile

    per_arg = [set(pathlib.Path(arg.split("::")[0]).parts) & set(tabletop_zoo.GAMES) for arg in config.args]
    games = sorted(set().union(*per_arg)) if per_arg and all(per_arg) else None  # all games unless each arg names one
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    say = terminal.write_line if terminal else print
    say(f"precompiling {', '.join(games or sorted(tabletop_zoo.GAMES))} with {workers} processes")
    precompile(games, workers, report=lambda g, sec: say(f"  {g}: {sec:.0f} s CPU"))


def pytest_generate_tests(metafunc):
    for name, cases in (
        ("game_n", GAME_COUNTS),
        ("stochastic_game_n", STOCHASTIC_COUNTS),
        ("hidden_game_n", HIDDEN_COUNTS),
    ):
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, cases, ids=[f"{g}-{n}p" for g, n in cases])
    if "game_id" in metafunc.fixturenames:
        metafunc.parametrize("game_id", sorted(tabletop_zoo.GAMES))


def random_trajectory(k, num_players: int, seed: int, policy_seed: int, max_steps: int | None = None, **options):
    """Yield (record, mask) before each decision of a uniformly random game, then the final record."""
    rng = np.random.default_rng(policy_seed)
    s = k.new_state(num_players, seed, **options)
    mask = np.zeros(k.NUM_ACTIONS, np.uint8)
    steps = 0
    while not k.is_over(s) and (max_steps is None or steps < max_steps):
        k.legal_mask(s, mask)
        yield s, mask
        legal = np.flatnonzero(mask)
        k.step(s, int(legal[rng.integers(legal.size)]))
        steps += 1
    yield s, None


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


@pytest.fixture(scope="module")
def frames(request, states) -> dict:
    """The rgb_array frame of every record of the module's ``states`` (a rendering test of
    ``tests/<game>/test_render.py``, which imports its renderer as ``pic``), drawn once per module."""
    return {name: request.module.pic.render_rgb(s) for name, s in states.items()}
