"""SB3 zips saved before #49 still load and play (#47): until #49 ``SingleSeatEnv``'s observation space was
``Box(0, inf, (OBS_SIZE,), float32)``, and SB3 wrote those bounds into the zip's ``observation_space`` entry
(``low_repr`` ``0.0``, ``high_repr`` ``inf``); since #49 it has the layout tables' bounds. The fixture is made here
the way the old code saved it: the same MaskablePPO saved once with the old space and once with the new one."""

import json
import zipfile

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from tabletop_zoo import registry  # noqa: E402
from tabletop_zoo.agents import make_agent  # noqa: E402
from tabletop_zoo.training.batch import random_positions  # noqa: E402

GAME = "irish_gauge"


def _observation_entry(path) -> dict:
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read("data"))["observation_space"]


@pytest.fixture(scope="module")
def zips(tmp_path_factory):
    """(model, zip saved with the layout tables' bounds, zip saved as before #49 with 0 and infinity)."""
    from gymnasium import spaces
    from sb3_contrib import MaskablePPO

    from tabletop_zoo.envs.wrappers import SingleSeatEnv

    folder = tmp_path_factory.mktemp("sb3_bounds")
    model = MaskablePPO("MlpPolicy", SingleSeatEnv(GAME, 3), n_steps=16, batch_size=16, device="cpu", seed=0)
    model.save(folder / "bounded.zip")
    model.observation_space = spaces.Box(0.0, np.inf, (registry.kernel(GAME).OBS_SIZE,), np.float32)
    model.save(folder / "before_49.zip")
    return model, folder / "bounded.zip", folder / "before_49.zip"


def test_an_sb3_zip_saved_before_49_with_bounds_0_and_inf_loads_and_plays_identically(zips):
    model, bounded, old = zips
    entry = _observation_entry(old)
    assert (entry["low_repr"], entry["high_repr"]) == ("0.0", "inf")  # the layout of a zip saved before #49
    new_entry = _observation_entry(bounded)
    assert (new_entry["low_repr"], new_entry["high_repr"]) != ("0.0", "inf")
    obs, masks = random_positions(registry.kernel(GAME), 3, 60, 40, seed=1)
    agents = [make_agent("policy", GAME, path=str(path)) for path in (old, bounded)]
    played = [[agent.act(o, m.astype(np.int8)) for o, m in zip(obs, masks, strict=True)] for agent in agents]
    expected = [int(model.predict(o, action_masks=m, deterministic=True)[0]) for o, m in zip(obs, masks, strict=True)]
    assert played[0] == played[1] == expected
    assert len(set(expected)) > 1, "the positions must tell policies apart"
    assert all(m[a] for m, a in zip(masks, played[0], strict=True))
