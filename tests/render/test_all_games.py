"""Every registered game renders rgb_array frames of the documented size (issue #11).

One test over every game in ``tabletop_zoo.GAMES`` at its smallest and largest player count, through
the PettingZoo env: after reset and after some random decisions.
"""

from __future__ import annotations

import numpy as np
import pytest

import tabletop_zoo
from tabletop_zoo import registry

FRAME = (800, 1280, 3)
EXTREMES = [
    (g, n)
    for g in sorted(tabletop_zoo.GAMES)
    for n in sorted({registry.player_counts(g)[0], registry.player_counts(g)[-1]})
]


@pytest.mark.parametrize("game, num_players", EXTREMES, ids=[f"{g}-{n}p" for g, n in EXTREMES])
def test_rgb_array_frames_after_reset_and_random_steps(game, num_players):
    env = tabletop_zoo.make_env(game, num_players=num_players, render_mode="rgb_array")
    assert "rgb_array" in env.metadata["render_modes"], f"{game} does not list rgb_array"
    env.reset(seed=num_players)
    first = env.render()
    rng = np.random.default_rng(num_players)
    for _ in range(40):
        if not env.agents:
            break
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]))))
    later = env.render()
    for img in (first, later):
        assert isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.shape == FRAME
        assert img.std() > 20  # not a blank frame
    assert not np.array_equal(first, later)
