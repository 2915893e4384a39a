"""The az search for play: one PUCT tree per move (``puct.py``) with the network evaluated inside numba.

Self-play searches many games at once and evaluates their leaves in torch batches (``search.py``). An agent
playing one game has one leaf at a time, so here the network is evaluated inside the numba search
(``numba_net.py``), and:

- the policy head is evaluated only for the actions legal at a node (5-15 on average), and lazily: a node
  keeps the trunk's last activation, and NaN marks a logit not computed yet (the tree is open-loop, so an
  action may become legal at a node in another determinization or chance sample); the prior is the softmax
  of the logits over the legal actions at ``temperature`` (above 1 flattens it, so the search tries more than
  the network likes): ``puct.descend`` with a policy ``head``;
- a leaf's value is ``(1 - mix) * network value + mix * rollout``, the rollout played by the kernel's
  ``rollout_action`` policy as in ``agents/mcts`` (AlphaGo's mixing; ``mix=0`` is AlphaZero's search, and then
  this search grows the batched search's tree);
- with ``mix=1`` the network is needed only for a node's prior, so a node is evaluated when a simulation
  first passes through it, at its second visit: most leaves are visited once and never cost a forward pass.

``grow`` adds simulations to a tree kept in preallocated arrays, so the agent can stop at a time budget
between calls; nothing is allocated per simulation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...kernels._common.dispatch import is_over, observe, returns, to_move
from ...kernels._common.rng import seed_rng
from ..mcts.uct import _rollout
from . import puct
from .numba_net import NumbaNet, dot, logit, trunk

__all__ = ["NumbaNet", "Tree", "grow", "logit", "root_statistics", "trunk", "warm_up"]


class Tree(puct.TreeArrays):
    """The preallocated arrays of one open-loop tree of at most ``capacity`` simulations, and its scratch."""

    def __init__(self, capacity: int, kernel, net: NumbaNet):
        super().__init__((), capacity + 1, kernel.MAX_PLAYERS)
        self.capacity = capacity
        self.logits = np.zeros((capacity + 1, kernel.NUM_ACTIONS), np.float32)  # row -> logits, NaN: not yet
        self.hidden = np.zeros((capacity + 1, net.width), np.float32)  # row -> the trunk's activation
        self.state = np.zeros(1, kernel.STATE)
        self.mask = np.zeros(kernel.NUM_ACTIONS, np.uint8)
        self.legal = np.zeros(kernel.NUM_ACTIONS, np.int32)
        self.weight = np.zeros(kernel.NUM_ACTIONS, np.float64)
        self.obs = np.zeros(kernel.OBS_SIZE, np.float32)
        self.buf = np.zeros((2, net.widest), np.float32)
        self.leaf = np.zeros((2, kernel.MAX_PLAYERS), np.float64)  # the leaf's value, the rollout's
        self.relative = np.zeros(kernel.MAX_PLAYERS, np.float32)  # the value head's seat-relative output
        self.rng = np.zeros(1, np.uint64)
        self.source = np.zeros(capacity + 1, np.int32)  # scratch of ``keep``
        self.rows = np.zeros(capacity + 1, np.int32)

    def reset(self, seed: np.uint64) -> None:
        """Empty the tree; its determinizations, chance and rollouts are drawn from ``seed``."""
        self.clear()
        self.reseed(seed)

    def reseed(self, seed: np.uint64) -> None:
        """Draw the next simulations' determinizations, chance and rollouts from ``seed``."""
        seed_rng(self.rng, np.uint64(seed))

    def keep(self, other: Tree, node: int) -> None:
        """Become ``other``'s subtree under ``node`` (visits, values, priors and trunk activations), ``node``
        the root; ``other`` must be a tree of the same capacity, game and network."""
        n = puct.subtree(node, other.tree(), self.tree(), self.source, self.rows)
        self.logits[:n] = other.logits[self.rows[:n]]
        self.hidden[:n] = other.hidden[self.rows[:n]]

    def arrays(self) -> tuple:
        """(tree, logits, hidden, scratch): what ``grow`` takes after the weights."""
        scratch = (
            self.state,
            self.mask,
            self.legal,
            self.weight,
            self.obs,
            self.buf,
            self.leaf,
            self.relative,
            self.rng,
        )
        return self.tree(), self.logits, self.hidden, scratch


@njit(cache=True, nogil=True)
def _evaluate(st, node, counts, row, obs, layers, biases, buf, hidden, logits):
    """Give ``node`` (reached in state ``st``) the next row: the trunk's activation of its mover's observation,
    and its logits marked not computed yet; returns the row."""
    r = puct.claim_row(node, counts, row)
    observe(st, to_move(st), obs)
    trunk(obs, layers, biases, buf, hidden[r])
    logits[r] = np.nan
    return r


@njit(cache=True, nogil=True)
def _network_value(st, node, num_players, scale, weights, counts, row, logits, hidden, obs, buf, relative, out):
    """A new leaf ``node`` reached in ``st`` is evaluated (its prior is stored for later visits); ``out`` =
    ``scale`` x the network's value of it, per seat."""
    layers, biases, _, _, w_val, b_val = weights
    r = _evaluate(st, node, counts, row, obs, layers, biases, buf, hidden, logits)
    for k in range(num_players):
        relative[k] = b_val[k] + dot(w_val[k], hidden[r])
    puct.absolute_values(to_move(st), num_players, relative, scale, out)


@njit(cache=True, nogil=True)
def grow(
    root, simulations, planned, num_players, c, temperature, mix, rollout_depth, weights, tree, logits, hidden, scratch
):
    """Add ``simulations`` simulations to the tree (``Tree.arrays()``; fewer if it fills up); returns how many
    were run. ``planned`` >= 0 stops early: the caller will add ``planned`` more after this call, and once the
    root's most visited action leads the next by more than every simulation left, none can change the move
    (each simulation adds one visit to one root action), so the rest are not run; -1 never stops early.
    A leaf's value (step 3 of ``puct``) is written here, not in a function of its own: a call per simulation
    with the tree's arrays would count references to each of them."""
    layers, biases, w_pol, b_pol, _, _ = weights
    counts, action, first_child, next_sibling, row, visits, value, path = tree
    st, mask, legal, weight, obs, buf, leaf, relative, rng = scratch
    head = (hidden, w_pol, b_pol, 1.0 / temperature)
    v, z = leaf[0], leaf[1]  # the leaf's value, the rollout's
    done = 0
    while done < simulations and counts[0] < action.size:
        puct.start(root, st, rng, mask)
        node, d = puct.descend(st, mask, legal, weight, c, logits, head, tree, 0, 0)
        while mix >= 1.0 and visits[node] > 0 and not is_over(st):  # mix 1: evaluated at its second visit
            _evaluate(st, node, counts, row, obs, layers, biases, buf, hidden, logits)
            node, d = puct.descend(st, mask, legal, weight, c, logits, head, tree, node, d)
        if is_over(st):
            v[:] = 0.0
            returns(st, v)
        elif mix < 1.0:  # the network's value and a rollout's
            _network_value(
                st, node, num_players, 1.0 - mix, weights, counts, row, logits, hidden, obs, buf, relative, v
            )
            if mix > 0.0:
                _rollout(st, rollout_depth, mask, rng, z)
                for p in range(num_players):
                    v[p] += mix * z[p]
        else:  # mix 1: the rollout alone values a new leaf; the network's prior waits for a second visit
            v[:] = 0.0
            _rollout(st, rollout_depth, mask, rng, v)
        puct.backup(path, d, v, num_players, visits, value)
        done += 1
        if planned >= 0 and puct.root_lead(first_child, next_sibling, visits) > simulations - done + planned:
            break
    return done


def root_statistics(counts, action, first_child, next_sibling, visits, value, seat0, out_visits, out_value) -> None:
    """Root visits and the root mover's mean value per action (``counts`` is not read: the tree's arrays in
    ``Tree``'s order)."""
    puct.root_statistics(action, first_child, next_sibling, visits, value, seat0, out_visits, out_value)


def warm_up(kernel, num_players: int) -> None:
    """Compile (or load from numba's cache) the search for ``kernel``'s game and a two-layer trunk."""
    net = NumbaNet.zeros(kernel)
    tree = Tree(2, kernel, net)
    tree.reset(np.uint64(0))
    grow(kernel.new_state(num_players, 0), 2, 0, num_players, 1.0, 1.0, 0.5, 2, net.arrays(), *tree.arrays())
