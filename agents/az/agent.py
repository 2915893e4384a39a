"""``AZAgent``: the batched PUCT search guided by a trained ``AZNet``, behind the ``Agent`` protocol."""

from __future__ import annotations

import zlib
from importlib import resources

import numpy as np

from ...kernels._common import dispatch
from ...kernels._common.record import copy_record
from ...kernels._common.validate import check_seed
from .._params import check_float, check_int
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


class AZAgent:
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
        self.env = None
        self._trees = None
        self.last_visits: np.ndarray | None = None
        if env is not None:
            self.bind(env)

    def bind(self, env) -> AZAgent:
        if self.game_id is not None and env.kernel.GAME_ID != self.game_id:
            raise ValueError(f"this az network plays {self.game_id!r}, not {env.kernel.GAME_ID!r}")
        self.env = env
        dispatch.register(env.kernel)
        return self

    def _move_seed(self, record: np.ndarray, seat: int) -> np.uint64:
        kernel = dispatch.kernel_for(record.dtype)
        view = np.zeros(kernel.OBS_SIZE, np.float32)
        kernel.observe(record, seat, view)
        return np.uint64((self.seed * 0x9E3779B1 + zlib.crc32(view.tobytes())) % 2**64)

    def act_for_seat(self, record: np.ndarray) -> int:
        """Search as the seat to move, from what that seat may know."""
        kernel = dispatch.kernel_for(record.dtype)
        if kernel.is_over(record):
            raise ValueError("the game is over: there is no move to search")
        seat = int(kernel.to_move(record))
        seed = self._move_seed(record, seat)
        record = copy_record(record)
        if kernel.INFORMATION == "imperfect":
            kernel.determinize(record, seat, seed)
        if self._trees is None or self._trees.prior.shape[2] != kernel.NUM_ACTIONS:
            self._trees = Trees(1, self.simulations, kernel.NUM_ACTIONS, kernel.MAX_PLAYERS, kernel.OBS_SIZE)
        players = int(record[0]["num_players"])
        visits, value = search_batch(record, players, self._trees, self.net.evaluate, self.simulations, self.c, [seed])
        self.last_visits = visits[0]
        best = np.flatnonzero(visits[0] == visits[0].max())
        return int(best[np.argmax(value[0, best])])  # most visits; ties by value, then lowest id

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if self.env is None:
            raise RuntimeError("AZAgent searches the game record: bind(env) first, or call act_for_seat(record)")
        return self.act_for_seat(self.env.get_state())
