"""``AZAgent``: the batched PUCT search guided by a trained ``AZNet``, behind the ``Agent`` protocol."""

from __future__ import annotations

from importlib import resources

import numpy as np

from ...kernels._common import dispatch
from ...kernels._common.validate import check_seed
from .._params import check_float, check_int
from ..search_agent import SearchAgent
from .search import Trees, search_batch


def shipped_network(game_id: str) -> str:
    """The path of the network shipped in the package for ``game_id``; raises when there is none."""
    path = resources.files(__package__).joinpath("weights", f"{game_id}.pt")
    if not path.is_file():
        raise ValueError(
            f"no az network is shipped for {game_id!r} yet: train one with "
            f"`tabletop-zoo train {game_id} --algo az` and pass az:path=<its az.pt>"
        )
    return str(path)


class AZAgent(SearchAgent):
    """Plays the most visited root action of a PUCT search whose leaves the network evaluates.

    Bind it to an env (``play_game``, the arena and the CLI do) and it reads the game record through
    ``env.get_state()``; in hidden-information games the search is handed only a record determinized for
    its own seat, and every simulation determinizes again, so neither the search nor the network ever
    reads another seat's secrets. The same visible position and seed give the same move.
    """

    name = "az"

    def __init__(
        self,
        path: str | None = None,
        simulations: int = 64,
        c: float = 1.25,
        seed: int | None = 0,
        game_id: str | None = None,
        net=None,
        env=None,
    ):
        self.simulations = check_int("simulations", simulations, 1)
        self.c = check_float("c", c, 0.0)
        self.seed = 0 if seed is None else check_seed(seed)
        if net is None:
            from .network import load_az  # torch is imported only when an az agent is made

            if not path:
                if game_id is None:
                    raise ValueError("az agent needs path=<az.pt> or a game id for its shipped network")
                path = shipped_network(game_id)
            net, blob = load_az(path, game_id)
            game_id = blob["game"]
        self.net, self.game_id = net, game_id
        self._trees = None
        if env is not None:
            self.bind(env)

    def bind(self, env) -> AZAgent:
        if self.game_id is not None and env.kernel.GAME_ID != self.game_id:
            raise ValueError(f"this az network plays {self.game_id!r}, not {env.kernel.GAME_ID!r}")
        return super().bind(env)

    def _search(self, record: np.ndarray, seed: np.uint64) -> tuple[np.ndarray, np.ndarray]:
        kernel = dispatch.kernel_for(record.dtype)
        if self._trees is None or self._trees.prior.shape[2] != kernel.NUM_ACTIONS:
            self._trees = Trees(1, self.simulations, kernel.NUM_ACTIONS, kernel.MAX_PLAYERS, kernel.OBS_SIZE)
        players = int(record[0]["num_players"])
        visits, value = search_batch(record, players, self._trees, self.net.evaluate, self.simulations, self.c, [seed])
        return visits[0], value[0]
