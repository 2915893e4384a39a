"""Batched PUCT search in numba, with the network's evaluations done between calls, in one batch.

``B`` searches (one per root: a position of each of B games, or B copies of one) advance together: each
call of ``descend`` runs one simulation of every search down to a leaf and writes the leaf's observation and
legal mask into a row of the batch; the caller evaluates all rows with the network in one forward pass;
``expand_backup`` stores each leaf's prior and backs its value up the path; then the next round. A round is
one simulation of every search, so batching never changes what a search does: batched and one-at-a-time
evaluation give the same trees.

One simulation of search b:

1. copy root b; in hidden-information games ``determinize`` the copy for the root's mover (a fresh sample
   of everything that seat cannot see, so no simulation, and no network input, reads another seat's
   secret); reseed the copy's RNG, so chance events (dice, draws, bags) are sampled anew by the kernel;
2. selection, from the root through evaluated nodes: among the actions legal in the current state, the
   one maximising ``Q + c * P * sqrt(N) / (1 + n)``: ``Q`` the mover's mean value of the child (the node's
   own mean for an unvisited child, "first-play urgency"), ``P`` the node's prior renormalised over the
   actions legal now, ``N`` the node's visits, ``n`` the child's; a child is made when first chosen;
3. the first node not yet evaluated is the leaf: a finished game is scored exactly by ``returns``;
   otherwise its mover's observation and mask go to the batch (the network's prior over every action and
   its seat-relative values: row k is the return of seat ``(mover + k) % players``);
4. backup: every node on the path adds the leaf's value vector (one entry per seat); each node's mover
   maximises its own entry.

The tree is open-loop (a node is an action sequence, not a state), as in ``agents/mcts/uct.py``, which
handles chance and hidden information alike: the legal set of a node can differ between samples, so a
node keeps its prior over every action (``prior[row]``) and the PUCT term renormalises it over the legal
set each time. All storage is preallocated; nothing is allocated per simulation.
"""

import numpy as np
from numba import njit

from ...kernels._common.dispatch import (
    determinize,
    is_over,
    legal_mask,
    observe,
    returns,
    step_and_mask,
    to_move,
)
from ...kernels._common.rng import next_u64, seed_rng

NO_NODE = -1


class Trees:
    """The preallocated arrays of B open-loop search trees of at most ``simulations + 1`` nodes each."""

    def __init__(self, batch: int, simulations: int, num_actions: int, max_players: int, obs_size: int):
        nodes = simulations + 1
        self.batch, self.simulations = batch, simulations
        self.n_nodes = np.ones(batch, np.int32)  # node 0 is the root
        self.n_rows = np.zeros(batch, np.int32)  # evaluated nodes (rows of ``prior``)
        self.action = np.full((batch, nodes), -1, np.int32)
        self.first_child = np.full((batch, nodes), NO_NODE, np.int32)
        self.next_sibling = np.full((batch, nodes), NO_NODE, np.int32)
        self.row = np.full((batch, nodes), -1, np.int32)  # node -> its prior row; -1: not evaluated
        self.visits = np.zeros((batch, nodes), np.int32)
        self.value = np.zeros((batch, nodes, max_players), np.float64)  # summed returns, per seat
        self.prior = np.zeros((batch, nodes, num_actions), np.float32)
        self.path = np.zeros((batch, nodes + 1), np.int32)
        self.depth = np.zeros(batch, np.int32)
        self.rng = np.zeros((batch, 1), np.uint64)
        self.mask = np.zeros((batch, num_actions), np.uint8)
        self.obs = np.zeros((batch, obs_size), np.float32)
        self.mover = np.zeros(batch, np.int64)  # the leaf's mover (-1: the leaf is a finished game)
        self.leaf_value = np.zeros((batch, max_players), np.float64)

    def reset(self, seeds: np.ndarray) -> None:
        """Empty every tree; search b draws its determinizations and chance seeds from ``seeds[b]``."""
        self.n_nodes[:] = 1
        self.n_rows[:] = 0
        self.first_child[:, 0] = NO_NODE
        self.row[:, 0] = -1
        self.visits[:, 0] = 0
        self.value[:, 0] = 0.0
        for b, seed in enumerate(seeds):
            seed_rng(self.rng[b], np.uint64(seed))

    def arrays(self) -> tuple:
        return (
            self.n_nodes,
            self.n_rows,
            self.action,
            self.first_child,
            self.next_sibling,
            self.row,
            self.visits,
            self.value,
            self.prior,
            self.path,
            self.depth,
            self.rng,
            self.mask,
            self.obs,
            self.mover,
            self.leaf_value,
        )


@njit(cache=True, nogil=True)
def _select(b, node, seat, mask, c, row, first_child, next_sibling, action, visits, value, prior):
    """The PUCT choice at an evaluated node among the legal actions (mask 1); (child or NO_NODE, action)."""
    p = prior[b, row[b, node]]
    legal_p = 0.0
    n_legal = 0
    for a in range(mask.size):
        if mask[a]:
            legal_p += p[a]
            n_legal += 1
    n = visits[b, node]
    fpu = value[b, node, seat] / n if n > 0 else 0.0
    sqrt_n = np.sqrt(max(n, 1))
    best_child, best_action, best = NO_NODE, -1, -np.inf
    ch = first_child[b, node]
    while ch != NO_NODE:
        a = action[b, ch]
        if mask[a] == 1:
            mask[a] = 2  # legal and already a child
            pa = p[a] / legal_p if legal_p > 0 else 1.0 / n_legal
            q = value[b, ch, seat] / visits[b, ch] if visits[b, ch] > 0 else fpu
            score = q + c * pa * sqrt_n / (1 + visits[b, ch])
            if score > best:
                best_child, best_action, best = ch, a, score
        ch = next_sibling[b, ch]
    for a in range(mask.size):  # legal actions without a child yet
        if mask[a] == 1:
            pa = p[a] / legal_p if legal_p > 0 else 1.0 / n_legal
            score = fpu + c * pa * sqrt_n
            if score > best:
                best_child, best_action, best = NO_NODE, a, score
        mask[a] = mask[a] != 0  # unmark: the step below rebuilds the mask anyway
    return best_child, best_action


@njit(cache=True, nogil=True)
def descend(
    roots,
    states,
    c,
    n_nodes,
    n_rows,
    action,
    first_child,
    next_sibling,
    row,
    visits,
    value,
    prior,
    path,
    depth,
    rng,
    mask,
    obs,
    mover,
    leaf_value,
):
    """One simulation of every search down to its leaf (steps 1-3 above); returns how many leaves need
    the network (rows with ``mover >= 0``)."""
    need = 0
    for b in range(roots.shape[0]):
        st = states[b : b + 1]
        st[:] = roots[b : b + 1]
        seat0 = to_move(st)
        determinize(st, seat0, next_u64(rng[b]))
        seed_rng(st[0].rng, next_u64(rng[b]))  # chance is resampled, never read from the game's future
        m = mask[b]
        legal_mask(st, m)
        node, d = 0, 0
        path[b, 0] = 0
        while row[b, node] >= 0 and not is_over(st):
            seat = to_move(st)
            child, a = _select(b, node, seat, m, c, row, first_child, next_sibling, action, visits, value, prior)
            if child == NO_NODE:
                child = n_nodes[b]
                n_nodes[b] += 1
                action[b, child] = a
                first_child[b, child] = NO_NODE
                next_sibling[b, child] = first_child[b, node]
                first_child[b, node] = child
                row[b, child] = -1
                visits[b, child] = 0
                value[b, child] = 0.0
            step_and_mask(st, a, m)
            node = child
            d += 1
            path[b, d] = node
        depth[b] = d
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
def expand_backup(
    n_searches,
    num_players,
    net_prior,
    net_value,
    n_rows,
    row,
    visits,
    value,
    prior,
    path,
    depth,
    mover,
    leaf_value,
):
    """Store each evaluated leaf's prior (``net_prior[b]``, over every action) and back up every search's
    leaf value: the network's seat-relative ``net_value[b]`` turned to absolute seats, or the exact
    ``leaf_value[b]`` of a finished game (step 4 above)."""
    for b in range(n_searches):
        leaf = path[b, depth[b]]
        seat = mover[b]
        if seat >= 0:
            r = n_rows[b]
            n_rows[b] += 1
            row[b, leaf] = r
            prior[b, r] = net_prior[b]
            leaf_value[b] = 0.0
            for k in range(num_players):
                leaf_value[b, (seat + k) % num_players] = net_value[b, k]
        for i in range(depth[b] + 1):
            node = path[b, i]
            visits[b, node] += 1
            for p in range(num_players):
                value[b, node, p] += leaf_value[b, p]


@njit(cache=True, nogil=True)
def root_statistics(n_nodes, action, first_child, next_sibling, visits, value, seat0, out_visits, out_value):
    """Root visits and the root mover's mean value per action, for every search."""
    out_visits[:] = 0
    out_value[:] = 0.0
    for b in range(out_visits.shape[0]):
        ch = first_child[b, 0]
        while ch != NO_NODE:
            a = action[b, ch]
            out_visits[b, a] = visits[b, ch]
            if visits[b, ch] > 0:
                out_value[b, a] = value[b, ch, seat0[b]] / visits[b, ch]
            ch = next_sibling[b, ch]


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
    for round_ in range(simulations):
        if descend(roots, states, float(c), *arrays):
            rows = np.flatnonzero(trees.mover[:batch] >= 0)
            net_prior[rows], net_value[rows] = evaluate(trees.obs[rows], trees.mask[rows], num_players)
            if round_ == 0 and root_noise is not None:  # every leaf of the first round is a root
                net_prior[rows] = root_noise(net_prior[rows], trees.mask[rows])
        expand_backup(
            batch,
            num_players,
            net_prior,
            net_value,
            trees.n_rows,
            trees.row,
            trees.visits,
            trees.value,
            trees.prior,
            trees.path,
            trees.depth,
            trees.mover,
            trees.leaf_value,
        )
    visits = np.zeros((batch, trees.prior.shape[2]), np.int32)
    mean = np.zeros(visits.shape, np.float64)
    seat0 = np.array([to_move(roots[b : b + 1]) for b in range(batch)], np.int64)
    root_statistics(
        trees.n_nodes,
        trees.action,
        trees.first_child,
        trees.next_sibling,
        trees.visits,
        trees.value,
        seat0,
        visits,
        mean,
    )
    return visits, mean
