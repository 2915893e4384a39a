"""Observations and the heuristics' choices pinned bit for bit (issue #47: the scales moved into the layout tables).

The digests below were taken before the observation scales moved from the encoders' literals into the kernels'
layout tables and the heuristics started reading raw quantities through ``ObsReader``: a change of one float in
any observation, or of one heuristic choice, changes a digest. A deliberate change of encoding bumps the env
version and regenerates them (``python -m tests.contract.test_observation_golden`` prints the new ones).
"""

from __future__ import annotations

import hashlib

import numpy as np

from tabletop_zoo import registry
from tabletop_zoo.agents import heuristic_class

from ..conftest import GAME_COUNTS, random_trajectory

EVERY = 5  # observe every 5th record of a random playout (every seat and the table's view)
ASK_EVERY = 3  # ask the heuristic at every 3rd decision with a choice

# (game, num_players) -> sha256 of the float32 bytes of every observation of the playout
OBSERVATIONS = {
    ("french_revolution_1789", 2): "6f4f491638917552e6bd71371e078e8814f0ea62795b88c9b699242ba841035c",
    ("french_revolution_1789", 3): "a25f0f42dffe67af69d213d6b9c831bdf87aa467f45cd53f993ba20b0b47c9be",
    ("french_revolution_1789", 4): "e3d14650ac62fd603fff76e384aaa9fe056c78fdcb84210ab795bb8be6e4c575",
    ("french_revolution_1789", 5): "8eb60d13a4c525d4646cc094e0f658cac2b5f40f16bb616a173c89ae7985702c",
    ("imperial", 2): "0ad66850384b05af4e32778ee4b04a76334103e30fe3321ada26fd0615089d69",
    ("imperial", 3): "d2e3c980e1a1e8eec65ff0a31cc7d1c610ca38a76b1edd334c34ae8e95eb0d86",
    ("imperial", 4): "5e8479d4a546cbbd79e3f9a476e9a8edfc175e6268f7e8a700586795b61990e7",
    ("imperial", 5): "e5410e1c5f5e3601da5e0fdd7223dc1409b58b20a022aff955468f6851d99593",
    ("imperial", 6): "a5b7b143a0aeb16014d181fe319d528e20c5a5bc64ad909ed12239b51bfe595a",
    ("irish_gauge", 3): "6298904da1dd5ea0a5da3d66f9643ceffa9ad4f2f0131a28285d1b2d24f3a150",
    ("irish_gauge", 4): "602b3d783050fe2d72537a23f720cef7bc48f822e59ba05916d84058456d0ec8",
    ("irish_gauge", 5): "a97aaa9d8da17c3c3bbe13b0feb6fbde4711be74b722d2589cc0f9fcd2c666bf",
    ("kremlin", 3): "c16132d6ce0026e7ab49d00cd81036be13bfcff77239aef4056f3068a65bef64",
    ("kremlin", 4): "f573256f1d81b0eaf01354fdd5f0584e2e8326506d0633a136f858ea3dc89425",
    ("kremlin", 5): "2bcbddadd9ffb2c880ffd5884d694d5b82d085988863b29907b6a6e87f326190",
    ("kremlin", 6): "5e971a2353cdab96ed99285a4c7158df0f9a2d2af710ec95c5dd5887684b329f",
    ("veld_railroads", 3): "5e15e45409ebb350ef61fbb58f56c916839fc94010bc9a5ce2492e30d9fa196a",
    ("veld_railroads", 4): "6de3c8fa1d287141d7e61d41eefc01043a7571071be69b2ccb0c4834bcfd2ac7",
    ("veld_railroads", 5): "935ed7fe0bcb245f4908a94b96ba623bfb1fc4e506b9a4459bb273d42336dc39",
    ("veld_railroads", 6): "45fd40b845d7744bb1ce79383a5238b5acb4406da9deb502b8e44845f28e4c5c",
}
# (game, num_players) -> sha256 of the heuristic's choices along the playout
CHOICES = {
    ("french_revolution_1789", 2): "7c6bac0941bc1262b12764c64d88d755f8faae0c8c0cb592f010a8f0f9c4ebf6",
    ("french_revolution_1789", 3): "83dbcf548919247608a88922bbb6726b9832056f581180b9159dc3f8bbbb5660",
    ("french_revolution_1789", 4): "96b95ec703fe126b5ff4ebb2a9e369c39727c455024db4db622353dc2cc4889f",
    ("french_revolution_1789", 5): "093cfffcdf9bc2a3c2ef92e6473aa50646bb5db70f3488cca60e91f6ab479d03",
    ("imperial", 2): "f509e10b2a0283f4347d538460606b883ce70a8aeb6ee4fa20ff35a70c44c0cc",
    ("imperial", 3): "431ba5fdb9cfb7b57435e79cea8ac99fbaa800ee576bf93712a045bb07ff8352",
    ("imperial", 4): "d291b450cff0dc59a71be3f75734f41a6c468ba41b2a12b9f8d2a44d64428414",
    ("imperial", 5): "d02d072578a2bd77dc1f593626a2a9705bbee6948c94a646e40ebdfe3a6e1d91",
    ("imperial", 6): "dad8785008c1c949916ad3405a9602a196cd325fb790565a59b9c11b71a36645",
    ("irish_gauge", 3): "6eda80f3881e801cf155d4868ccb71a64b8a9f64a81cbc865e65593ff6793d73",
    ("irish_gauge", 4): "6c146a81ee4b8ec93482ce708d0efed4899f4903a7b90d824162c7d045dde664",
    ("irish_gauge", 5): "8e3cbf07f63b45bb905334d9a48d38ba3ce3a9d200864b1d402ebb74dce58ab5",
    ("kremlin", 3): "0462699cf8e644dea13e66ce461cc93c197be3c0b9fd0a058c6ec57c29064ec8",
    ("kremlin", 4): "22ee43c94abbc55d77df6e84fe39e90407e56a98a69d3c4955cec7f9fe6fdf4a",
    ("kremlin", 5): "948efa329d706de0a97df25029fdf88a756e7680c69a76f18e73c42c8290de85",
    ("kremlin", 6): "6f44c7e17d300bdb775ec527e3830aa4b331b981141b2482f126125eec5ec037",
    ("veld_railroads", 3): "61ba3188b3b8b92af713097a71de2048b70ef4404e9e99ada2f989d381ee289b",
    ("veld_railroads", 4): "d62fd7755db6e3fbb415a9e8f2ccb668622636fe615baad004f02dcc184acc2c",
    ("veld_railroads", 5): "f10a829e3c8c9ff3c3db9b9e6935108cf1d019857c04e1529c119b868732280a",
    ("veld_railroads", 6): "85c987f43f6da3651afd8a8a6cd586fc90c4c694c9c5a02d0749b475d41fa0ae",
}


def observation_digest(game: str, n: int) -> str:
    """The sha256 of every observation (each seat's and the table's) of every 5th record of a seeded random game."""
    k = registry.kernel(game)
    out = np.zeros(k.OBS_SIZE, np.float32)
    digest = hashlib.sha256()
    for i, (s, _) in enumerate(random_trajectory(k, n, seed=47, policy_seed=n)):
        if i % EVERY == 0:
            for seat in range(-1, n):
                k.observe(s, seat, out)
                digest.update(out.tobytes())
    return digest.hexdigest()


def choice_digest(game: str, n: int) -> str:
    """The sha256 of the heuristic's choice at every 3rd decision with a choice of a seeded random game."""
    k = registry.kernel(game)
    agent = heuristic_class(game)(seed=n)
    obs = np.zeros(k.OBS_SIZE, np.float32)
    choices = []
    for i, (s, mask) in enumerate(random_trajectory(k, n, seed=470, policy_seed=n)):
        phase = k.PHASE_NAMES[int(s[0]["phase"])]
        if mask is not None and mask.sum() > 1 and i % ASK_EVERY == 0 and phase in agent.decision_phases():
            k.observe(s, int(k.to_move(s)), obs)
            choices.append(agent.act(obs, mask))
    return hashlib.sha256(np.asarray(choices, np.int64).tobytes()).hexdigest()


def test_observations_equal_the_ones_before_the_scales_moved(game_n):
    assert observation_digest(*game_n) == OBSERVATIONS[game_n]


def test_heuristics_choose_as_before_the_scales_moved(game_n):
    assert choice_digest(*game_n) == CHOICES[game_n]


if __name__ == "__main__":
    for name, digest in (("OBSERVATIONS", observation_digest), ("CHOICES", choice_digest)):
        print(f"{name} = {{")
        for game, n in GAME_COUNTS:
            print(f'    ("{game}", {n}): "{digest(game, n)}",')
        print("}")
