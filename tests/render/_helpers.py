"""Shared pieces of the rendering tests: the frame size and records after random decisions."""

from __future__ import annotations

import numpy as np

import tabletop_zoo
from tabletop_zoo.envs.render import _canvas, mpl

FRAME = (800, 1280, 3)  # every game's documented rgb_array size (envs/render/_canvas.py)


def play(kernel, num_players: int, seed: int, decisions: int | None, **options) -> np.ndarray:
    """A record after ``decisions`` uniformly random decisions (None: to the end of the game)."""
    s = kernel.new_state(num_players, seed, **options)
    mask = np.zeros(kernel.NUM_ACTIONS, np.uint8)
    rng = np.random.default_rng(seed)
    done = 0
    while not kernel.is_over(s) and (decisions is None or done < decisions):
        kernel.legal_mask(s, mask)
        legal = np.flatnonzero(mask)
        kernel.step(s, int(legal[rng.integers(legal.size)]))
        done += 1
    return s


def assert_distinct(frames: dict[str, np.ndarray]) -> None:
    """No two of the named frames are the same picture."""
    names = list(frames)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            assert not np.array_equal(frames[a], frames[b]), (a, b)


def assert_reused_frame_is_fresh(game_id: str, pic) -> None:
    """Frames reuse cached static layers and one figure (issue #19): after several moves rendered along the way,
    the frame equals the one a fresh env, set to the same record, draws with every renderer cache emptied."""
    env = tabletop_zoo.make_env(game_id, num_players=4, render_mode="rgb_array")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    env.render()
    for _ in range(3):
        for _ in range(4):
            env.step(int(rng.choice(env.legal_actions())))
        after = env.render()
    fresh = tabletop_zoo.make_env(game_id, num_players=4, render_mode="rgb_array")
    fresh.reset(seed=0)
    fresh.set_state(env.get_state())
    for module in (pic, _canvas, mpl):
        for f in vars(module).values():
            if hasattr(f, "cache_clear"):
                f.cache_clear()
    again = fresh.render()
    assert after.shape == again.shape and after.dtype == again.dtype
    assert np.array_equal(after, again)
