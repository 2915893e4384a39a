"""Batched PUCT search (``puct.py``), with the network's evaluations done between numba calls, in one batch.

``B`` searches (one per root: a position of each of B games, or B copies of one) advance together: each call of
``descend`` runs one simulation of every search down to a leaf and writes the leaf's observation and legal mask
into a row of the batch; the caller evaluates all rows with the network in one forward pass (the network's
prior over every action and its seat-relative values); ``expand_backup`` stores each leaf's prior and backs its
value up the path; then the next round. A round is one simulation of every search, so batching never changes
what a search does: batched and one-at-a-time evaluation give the same trees.

A leaf's value is the network's alone (AlphaZero's search); a node's prior is the network's probabilities,
renormalised over the actions legal in each sample (``puct.descend`` with ``head=None``).
"""

import numpy as np
from numba import njit

from ...kernels._common.dispatch import is_over, observe, returns, to_move
from ...kernels._common.rng import seed_rng
from . import puct


class Trees(puct.TreeArrays):
    """The preallocated arrays of B open-loop search trees of at most ``simulations + 1`` nodes each, and
    their scratch."""

    def __init__(self, batch: int, simulations: int, num_actions: int, max_players: int, obs_size: int):
        super().__init__((batch,), simulations + 1, max_players)
        self.batch, self.simulations = batch, simulations
        self.prior = np.zeros((batch, simulations + 1, num_actions), np.float32)  # row -> the network's prior
        self.depth = np.zeros(batch, np.int32)
        self.rng = np.zeros((batch, 1), np.uint64)
        self.mask = np.zeros((batch, num_actions), np.uint8)
        self.legal = np.zeros(num_actions, np.int32)
        self.weight = np.zeros(num_actions, np.float64)
        self.obs = np.zeros((batch, obs_size), np.float32)
        self.mover = np.zeros(batch, np.int64)  # the leaf's mover (-1: the leaf is a finished game)
        self.leaf_value = np.zeros((batch, max_players), np.float64)

    def reset(self, seeds: np.ndarray) -> None:
        """Empty every tree; search b draws its determinizations and chance seeds from ``seeds[b]``."""
        self.clear()
        for b, seed in enumerate(seeds):
            seed_rng(self.rng[b], np.uint64(seed))

    def arrays(self) -> tuple:
        """(trees, prior, depth, rng, mask, legal, weight, obs, mover, leaf_value): what ``descend`` takes after
        the roots, their states and ``c``."""
        scratch = (self.rng, self.mask, self.legal, self.weight, self.obs, self.mover, self.leaf_value)
        return (self.tree(), self.prior, self.depth, *scratch)


@njit(cache=True, nogil=True)
def descend(roots, states, c, trees, prior, depth, rng, mask, legal, weight, obs, mover, leaf_value):
    """One simulation of every search down to its leaf (``puct`` steps 1-3); returns how many leaves need the
    network (rows with ``mover >= 0``: their observation is in ``obs``, their mask in ``mask``)."""
    need = 0
    for b in range(roots.shape[0]):
        st, tree = states[b : b + 1], puct.one(trees, b)
        puct.start(roots[b : b + 1], st, rng[b], mask[b])
        _, depth[b] = puct.descend(st, mask[b], legal, weight, c, prior[b], None, tree, 0, 0)
        if is_over(st):
            mover[b] = -1
            returns(st, leaf_value[b])
        else:
            seat = to_move(st)
            mover[b] = seat
            observe(st, seat, obs[b])
            need += 1
    return need


@njit(cache=True, nogil=True)
def expand_backup(n_searches, num_players, net_prior, net_value, trees, prior, depth, mover, leaf_value):
    """Store each evaluated leaf's prior (``net_prior[b]``, over every action) and back up every search's
    leaf value: the network's seat-relative ``net_value[b]`` turned to absolute seats, or the exact
    ``leaf_value[b]`` of a finished game (``puct`` steps 3-4)."""
    for b in range(n_searches):
        counts, _, _, _, row, visits, value, path = puct.one(trees, b)
        if mover[b] >= 0:
            prior[b, puct.claim_row(path[depth[b]], counts, row)] = net_prior[b]
            puct.absolute_values(mover[b], num_players, net_value[b], 1.0, leaf_value[b])
        puct.backup(path, depth[b], leaf_value[b], num_players, visits, value)


def uniform_evaluator(obs: np.ndarray, mask: np.ndarray, num_players: int) -> tuple[np.ndarray, np.ndarray]:
    """The network-free evaluator: a uniform prior over the legal actions and value 0 for every seat."""
    legal = mask.astype(np.float32)
    return legal / legal.sum(axis=1, keepdims=True), np.zeros((len(obs), num_players), np.float32)


def search_batch(
    roots: np.ndarray, num_players: int, trees: Trees, evaluate, simulations: int, c: float, seeds, root_noise=None
) -> tuple[np.ndarray, np.ndarray]:
    """Search every record of ``roots`` (one position each, all with ``num_players`` seats) for
    ``simulations`` rounds. ``evaluate(obs[k], mask[k], num_players) -> (prior[k, actions], value[k,
    num_players])`` is called once a round, on the leaves that need the network (seat-relative values);
    ``seeds[b]`` seeds search b's determinizations and chance.

    ``trees`` may hold more searches than there are roots (the first ``len(roots)`` are used).
    ``root_noise(prior[B, actions], mask[B, actions]) -> prior`` (self-play exploration, e.g. Dirichlet
    noise) changes the roots' priors: they are the first round's leaves.

    Returns (visits int32[B, actions], the root mover's mean value float64[B, actions])."""
    batch = len(roots)
    if not 1 <= batch <= trees.batch or not 1 <= simulations <= trees.simulations:
        raise ValueError(
            f"the trees hold 1 to {trees.batch} searches of 1 to {trees.simulations} simulations; "
            f"got {batch} roots and {simulations} simulations"
        )
    trees.reset(np.asarray(seeds, np.uint64))
    states = roots.copy()
    arrays = trees.arrays()
    net_prior = np.zeros((batch, trees.prior.shape[2]), np.float32)
    net_value = np.zeros((batch, num_players), np.float32)
    t = trees
    for round_ in range(simulations):
        if descend(roots, states, float(c), *arrays):
            rows = np.flatnonzero(t.mover[:batch] >= 0)
            net_prior[rows], net_value[rows] = evaluate(t.obs[rows], t.mask[rows], num_players)
            if round_ == 0 and root_noise is not None:  # every leaf of the first round is a root
                net_prior[rows] = root_noise(net_prior[rows], t.mask[rows])
        expand_backup(batch, num_players, net_prior, net_value, t.tree(), t.prior, t.depth, t.mover, t.leaf_value)
    visits = np.zeros((batch, t.prior.shape[2]), np.int32)
    mean = np.zeros(visits.shape, np.float64)
    for b in range(batch):
        seat0 = int(to_move(roots[b : b + 1]))
        puct.root_statistics(
            t.action[b], t.first_child[b], t.next_sibling[b], t.visits[b], t.value[b], seat0, visits[b], mean[b]
        )
    return visits, mean
