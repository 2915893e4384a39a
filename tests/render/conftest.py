"""Fixtures shared by the per-game rendering tests: each module defines ``states`` and imports its
renderer as ``pic``; ``frames`` draws every state once per module."""

import numpy as np
import pytest


@pytest.fixture(scope="module")
def frames(request, states) -> dict[str, np.ndarray]:
    return {name: request.module.pic.render_rgb(s) for name, s in states.items()}
