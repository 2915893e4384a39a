"""``AZAgent``: the PUCT search guided by a trained ``AZNet``, behind the ``Agent`` protocol.

It searches with the network inside numba (``inline.py``); self-play uses the batched search
(``search.py``), whose leaves torch evaluates many games at a time. Both are the PUCT of ``puct.py``.
"""

from __future__ import annotations

import time
from importlib import resources

import numpy as np

from ...kernels._common import dispatch
from ...kernels._common.validate import check_seed
from .._params import check_bool, check_float, check_int
from ..mcts.agent import DEFAULT_ROLLOUT_DEPTH
from ..search_agent import SearchAgent
from . import inline

MAX_SIMULATIONS = 100_000  # the tree's arrays are sized by the budget (Imperial: 4.2 KB a simulation)
SECONDS_CHUNK = 32  # simulations between two looks at the clock under a time budget
REUSE_DEPTH = 8  # decisions after the last search's root within which ``reuse`` looks for the new position
REUSE_STEPS = 256  # the most positions it replays to find it (each a kernel step from Python)


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
    """Plays the most visited root action of a PUCT search: the network's policy is the prior, and a leaf's
    value mixes the network's value with a rollout of the kernel's rollout policy.

    ``simulations`` is the budget per move; ``seconds`` (optional) stops the search earlier, between chunks of
    simulations, at that wall time (then the same position can get a different move). ``early_stop`` (on by
    default) ends a search once its most visited root action leads the next by more than the simulations left:
    the move is the one the whole budget would give, in less time; ``last_visits`` then sums to fewer than
    ``simulations`` (a teacher whose visits are labels searches the whole budget: ``early_stop=false``). ``mix`` is the
    rollout's weight in a leaf's value (0: the network's value alone, as in AlphaZero; 1: the rollout's
    alone, the network guiding only by its prior); ``rollout_depth`` defaults to the game's
    ``ROLLOUT_DEPTH``, as for ``mcts``. ``reuse`` (games of perfect information) goes on from the last search's
    subtree of the position the game reached (the move it played, and any later ones its tree holds), whose
    visits count towards ``simulations``: a seat that decides several times in a row searches each position
    with the same budget in less time.

    Bind it to an env (``play_game``, the arena and the CLI do) and it reads the game record through
    ``env.get_state()``; in hidden-information games the search is handed only a record determinized for
    its own seat, and every simulation determinizes again, so neither the search nor the network ever
    reads another seat's secrets. The same visible position and seed give the same move (without ``seconds``;
    with ``reuse``, the same game to that position does).
    """

    name = "az"
    last_carried = 0  # the root visits the last move's search carried over from the one before (``reuse``)

    def __init__(
        self,
        path: str | None = None,
        simulations: int = 500,
        c: float = 1.25,
        temperature: float = 1.0,
        mix: float = 1.0,
        rollout_depth: int | None = None,
        seconds: float | None = None,
        early_stop: bool = True,
        reuse: bool = False,
        seed: int | None = 0,
        game_id: str | None = None,
        net=None,
        env=None,
    ):
        self.simulations = check_int("simulations", simulations, 2, MAX_SIMULATIONS)  # the first evaluates the root
        self.c = check_float("c", c, 0.0)
        self.temperature = check_float("temperature", temperature, 0.01)
        self.mix = check_float("mix", mix, 0.0)
        if self.mix > 1.0:
            raise ValueError(f"mix must be a number in [0, 1], got {mix!r}")
        self.rollout_depth = None if rollout_depth is None else check_int("rollout_depth", rollout_depth, 0)
        self.seconds = None if seconds is None else check_float("seconds", seconds, 0.0)
        self.early_stop = check_bool("early_stop", early_stop)
        self.reuse = check_bool("reuse", reuse)
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
        self.weights = inline.NumbaNet.of(net)
        self._tree = self._spare = self._root = None  # the last search's tree, a second one for ``reuse``, its root
        if env is not None:
            self.bind(env)

    def bind(self, env) -> AZAgent:
        if self.game_id is not None and env.kernel.GAME_ID != self.game_id:
            raise ValueError(f"this az network plays {self.game_id!r}, not {env.kernel.GAME_ID!r}")
        self._check_reuse(env.kernel)
        return super().bind(env)

    def _check_reuse(self, kernel) -> None:
        if self.reuse and kernel.INFORMATION != "perfect":
            raise ValueError(
                f"reuse needs a game of perfect information, and {kernel.GAME_ID} hides information (each search "
                "starts from a new sample of what its seat cannot see): drop reuse, or set reuse=false"
            )

    def _carry(self, record: np.ndarray, kernel) -> int:
        """With ``reuse``: if ``record`` is a position in the last search's tree (found by replaying its most
        visited lines from that search's root), that subtree becomes the tree; returns its root's visits (0:
        the tree starts empty)."""
        if self._root is None or self._root.dtype != record.dtype:
            return 0
        node = find_position(kernel, self._root, self._tree, record)
        if node < 0:
            return 0
        if self._spare is None:
            self._spare = inline.Tree(self.simulations, kernel, self.weights)
        self._spare.keep(self._tree, node)
        self._tree, self._spare = self._spare, self._tree
        return int(self._tree.visits[0])

    def _search(self, record: np.ndarray, seed: np.uint64) -> tuple[np.ndarray, np.ndarray]:
        kernel = dispatch.kernel_for(record.dtype)
        self._check_reuse(kernel)
        if self._tree is None or self._tree.state.dtype != kernel.STATE:
            self._tree, self._spare, self._root = inline.Tree(self.simulations, kernel, self.weights), None, None
        carried = self.last_carried = self._carry(record, kernel) if self.reuse else 0
        tree = self._tree
        if carried:
            tree.reseed(seed)
        else:
            tree.reset(seed)
        depth = (
            self.rollout_depth
            if self.rollout_depth is not None
            else getattr(kernel, "ROLLOUT_DEPTH", DEFAULT_ROLLOUT_DEPTH)
        )
        args = (
            int(record[0]["num_players"]),
            self.c,
            self.temperature,
            self.mix,
            depth,
            self.weights.arrays(),
            *tree.arrays(),
        )
        left = max(self.simulations - carried, 0)  # visits carried over count towards the budget
        if self.seconds is None:
            if left:
                inline.grow(record, left, 0 if self.early_stop else -1, *args)
        else:  # chunks until the budget, the clock or the lead runs out; the first always runs (the root's children)
            deadline = time.perf_counter() + self.seconds
            while left:
                chunk = min(left, SECONDS_CHUNK)
                ran = inline.grow(record, chunk, left - chunk if self.early_stop else -1, *args)
                left -= ran
                if ran < chunk or left <= 0 or time.perf_counter() >= deadline:
                    break
        visits = np.zeros(kernel.NUM_ACTIONS, np.int32)
        value = np.zeros(kernel.NUM_ACTIONS, np.float64)
        seat = int(kernel.to_move(record))
        t = tree
        inline.root_statistics(
            t.counts, t.action, t.first_child, t.next_sibling, t.visits, t.value, seat, visits, value
        )
        if self.reuse:
            self._root = record.copy()
        return visits, value


def find_position(kernel, root: np.ndarray, tree: inline.Tree, record: np.ndarray) -> int:
    """The node of ``tree`` (searched from ``root``) whose position is ``record``, or -1: breadth first over the
    nodes with children, the most visited first, at most ``REUSE_DEPTH`` decisions deep and ``REUSE_STEPS``
    replayed decisions. A position is the whole record, its generator included, so a replay matches only
    what the game really reached (the same chance outcomes too)."""
    want = record.tobytes()
    level, steps = [(0, root)], 0
    for depth in range(REUSE_DEPTH + 1):
        deeper = []
        for node, state in level:
            if state.tobytes() == want:
                return node
            if depth == REUSE_DEPTH or kernel.is_over(state):
                continue
            for child in _children_with_children(tree, node):
                if steps == REUSE_STEPS:
                    return -1
                after = state.copy()
                kernel.step(after, int(tree.action[child]))
                steps += 1
                deeper.append((child, after))
        level = deeper
    return -1


def _children_with_children(tree: inline.Tree, node: int) -> list[int]:
    """The children of ``node`` that have children of their own (a subtree worth keeping), most visited first."""
    found = []
    child = tree.first_child[node]
    while child != inline.puct.NO_NODE:
        if tree.first_child[child] != inline.puct.NO_NODE:
            found.append(int(child))
        child = tree.next_sibling[child]
    return sorted(found, key=lambda c: -int(tree.visits[c]))
