"""PUCT over the kernel contract, written once: the play search (``inline.py``) and the batched self-play search
(``search.py``) are both made of these steps; they differ in how a leaf is valued and in the form of a prior.

One simulation of a tree:

1. ``start``: copy the root; in hidden-information games ``determinize`` the copy for the root's mover (a fresh
   sample of everything that seat cannot see, so no simulation, and no network input, reads another seat's
   secret); reseed the copy's RNG, so chance events (dice, draws, bags) are sampled anew by the kernel;
2. ``descend`` (selection and expansion), from the root through evaluated nodes: among the actions legal in the
   current state, the one maximising ``Q + c * P * sqrt(N) / (1 + n)``: ``Q`` the mover's mean value of the
   child (the node's own mean for an unvisited child, "first-play urgency"), ``P`` the node's prior over the
   actions legal now, ``N`` the node's visits, ``n`` the child's; a child is made when first chosen;
3. the first node not yet evaluated is the leaf: a finished game is scored exactly by ``returns``; otherwise the
   caller values it (the network's seat-relative values, ``absolute_values``, and maybe a rollout) and
   ``claim_row`` gives it the row of its prior;
4. ``backup``: every node on the path adds the leaf's value vector (one entry per seat); each node's mover
   maximises its own entry.

The tree is open-loop (a node is an action sequence, not a state), as in ``agents/mcts/uct.py``, which handles
chance and hidden information alike: the legal set of a node can differ between samples, so a node keeps its
prior over every action and ``P`` is made over the legal set each time. The prior comes in one of two forms, the
``head`` argument of ``descend`` (the two searches differ here in behaviour, not only in code, and each keeps
its own arithmetic):

- ``head=None`` (the batched search): a node's row holds the network's probabilities, renormalised over the
  legal set (uniform when they give it no mass);
- ``head=(hidden, w_pol, b_pol, 1 / temperature)`` (the play search): a node's row holds logits, NaN until
  computed from the node's trunk activation ``hidden[row]``, softmaxed over the legal set at ``temperature``.

A tree lives in preallocated arrays (``TreeArrays``); nothing is allocated per simulation. The steps that run at
every node or every simulation, allocate nothing and return no array (``descend`` and what it calls,
``claim_row``, ``absolute_values``, ``backup``) are compiled without reference counting (``NO_REFCOUNT``, as the
kernels' per-step functions in ``kernels/_common/dispatch.py``): with it, each call of such a function adds an
atomic incref and decref of every array it is passed, a cost on every simulation that nothing needs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...kernels._common.dispatch import determinize, is_over, legal_mask, step_and_mask, to_move
from ...kernels._common.rng import next_u64, seed_rng
from .numba_net import logit

NO_NODE = -1
NO_REFCOUNT = {"cache": True, "nogil": True, "_nrt": False}  # for functions that neither allocate nor return arrays


class TreeArrays:
    """The arrays of open-loop trees of ``nodes`` nodes each, one tree per index of ``batch`` (``()``: one tree).

    ``counts[..., 0]`` counts the nodes made and ``counts[..., 1]`` the nodes evaluated (the rows of their
    priors); ``row`` maps a node to its row (-1: not evaluated); ``value`` sums the returns backed up through a
    node, one entry per seat; ``path`` holds the current simulation's nodes, root first."""

    def __init__(self, batch: tuple, nodes: int, max_players: int):
        self.counts = np.zeros((*batch, 2), np.int64)
        self.action = np.full((*batch, nodes), -1, np.int32)
        self.first_child = np.full((*batch, nodes), NO_NODE, np.int32)
        self.next_sibling = np.full((*batch, nodes), NO_NODE, np.int32)
        self.row = np.full((*batch, nodes), -1, np.int32)
        self.visits = np.zeros((*batch, nodes), np.int32)
        self.value = np.zeros((*batch, nodes, max_players), np.float64)
        self.path = np.zeros((*batch, nodes + 1), np.int32)

    def tree(self) -> tuple:
        """(counts, action, first_child, next_sibling, row, visits, value, path): the tree (or, batched, the
        trees) as ``descend`` takes it (``one`` picks a tree of a batch)."""
        return (
            self.counts,
            self.action,
            self.first_child,
            self.next_sibling,
            self.row,
            self.visits,
            self.value,
            self.path,
        )

    def clear(self) -> None:
        """Empty every tree: only the root, not evaluated yet."""
        self.counts[..., 0] = 1
        self.counts[..., 1] = 0
        self.first_child[..., 0] = NO_NODE
        self.row[..., 0] = -1
        self.visits[..., 0] = 0
        self.value[..., 0, :] = 0.0


@njit(cache=True, nogil=True)
def one(trees, b):
    """Tree ``b`` of a batch's ``TreeArrays.tree()``: views, nothing copied."""
    counts, action, first_child, next_sibling, row, visits, value, path = trees
    return counts[b], action[b], first_child[b], next_sibling[b], row[b], visits[b], value[b], path[b]


@njit(cache=True, nogil=True)
def start(root, st, rng, mask):
    """Step 1: ``st`` becomes the root, determinized for its mover and reseeded from ``rng``; ``mask`` its legal
    actions."""
    st[0] = root[0]  # a record copy: an array copy's shape check would compile numba's string formatting
    determinize(st, to_move(root), next_u64(rng))
    seed_rng(st[0].rng, next_u64(rng))  # chance is resampled, never read from the game's future
    legal_mask(st, mask)


@njit(**NO_REFCOUNT)
def list_legal(mask, legal):
    """Lists the legal actions of ``mask`` (nonzero entries) into ``legal``, in increasing order; returns their
    number. It reads the mask eight entries at a time: a descent lists the legal actions of every node it
    passes, and most of a mask (hundreds of actions, 5-15 legal) is zero."""
    full = mask.size // 8 * 8
    words = mask[:full].view(np.uint64)
    n = 0
    for w in range(words.size):
        if words[w] != 0:
            for a in range(8 * w, 8 * w + 8):
                if mask[a]:
                    legal[n] = a
                    n += 1
    for a in range(full, mask.size):
        if mask[a]:
            legal[n] = a
            n += 1
    return n


@njit(**NO_REFCOUNT)
def _prior_terms(prior, mask, legal, weight, c, n):
    """The batched search's prior (probabilities): lists the legal actions into ``legal`` and writes each one's
    ``c * P`` into ``weight``; returns (their number, ``sqrt(N)``), the scale of the exploration term."""
    n_legal = list_legal(mask, legal)
    legal_p = 0.0
    for i in range(n_legal):
        legal_p += prior[legal[i]]
    for i in range(n_legal):
        a = legal[i]
        weight[a] = c * (prior[a] / legal_p if legal_p > 0 else 1.0 / n_legal)
    return n_legal, np.sqrt(max(n, 1))


@njit(**NO_REFCOUNT)
def _logit_terms(logits, hidden, w_pol, b_pol, inv_t, mask, legal, weight, c, n):
    """The play search's prior (lazy logits at a temperature): lists the legal actions into ``legal``, computes
    their missing logits and writes each one's unnormalised ``P`` into ``weight``; returns (their number,
    ``c * sqrt(N) / (the sum of the weights)``), the scale of the exploration term."""
    n_legal, top = list_legal(mask, legal), -np.inf
    for i in range(n_legal):
        a = legal[i]
        if np.isnan(logits[a]):
            logits[a] = logit(a, hidden, w_pol, b_pol)
        top = max(top, logits[a])
    total = 0.0
    for i in range(n_legal):
        a = legal[i]
        weight[a] = np.exp((logits[a] - top) * inv_t)
        total += weight[a]
    return n_legal, c * np.sqrt(max(n, 1)) / total


@njit(**NO_REFCOUNT)
def select(node, seat, mask, legal, n_legal, weight, scale, action, first_child, next_sibling, visits, value):
    """Step 2's choice at an evaluated node among the legal actions (mask 1; ``legal`` lists them): the one
    maximising ``Q + scale * weight[a] / (1 + n)``; returns (its child or NO_NODE, the action). Ties go to
    the newest child, then to the lowest action without a child."""
    n = visits[node]
    fpu = value[node, seat] / n if n > 0 else 0.0
    best_child, best_action, best = NO_NODE, -1, -np.inf
    ch = first_child[node]
    while ch != NO_NODE:
        a = action[ch]
        if mask[a] == 1:
            mask[a] = 2  # legal and already a child
            q = value[ch, seat] / visits[ch] if visits[ch] > 0 else fpu
            score = q + scale * weight[a] / (1 + visits[ch])
            if score > best:
                best_child, best_action, best = ch, a, score
        ch = next_sibling[ch]
    for i in range(n_legal):  # legal actions without a child yet; then unmark the children
        a = legal[i]
        if mask[a] == 1:
            score = fpu + scale * weight[a]
            if score > best:
                best_child, best_action, best = NO_NODE, a, score
        mask[a] = 1
    return best_child, best_action


@njit(**NO_REFCOUNT)
def add_child(node, a, counts, action, first_child, next_sibling, row, visits, value):
    """Expansion: a new, unevaluated child of ``node`` for action ``a``; returns it."""
    child = counts[0]
    counts[0] += 1
    action[child] = a
    first_child[child] = NO_NODE
    next_sibling[child] = first_child[node]
    first_child[node] = child
    row[child] = -1
    visits[child] = 0
    value[child] = 0.0
    return child


@njit(**NO_REFCOUNT)
def descend(st, mask, legal, weight, c, priors, head, tree, node, depth):
    """Step 2 from ``node`` (at ``depth`` on the path): select and step through evaluated nodes, making a child
    when first chosen, until an unevaluated node or the end of the game; returns (that node, its depth).

    ``tree`` is one tree's ``TreeArrays.tree()``, ``priors[row]`` a node's prior in the form ``head`` says (see
    the module docstring); ``legal`` and ``weight`` are scratch of one entry per action."""
    counts, action, first_child, next_sibling, row, visits, value, path = tree
    path[depth] = node
    while row[node] >= 0 and not is_over(st):
        seat = to_move(st)
        r = row[node]
        if head is None:
            n_legal, scale = _prior_terms(priors[r], mask, legal, weight, c, visits[node])
        else:
            hidden, w_pol, b_pol, inv_t = head
            n_legal, scale = _logit_terms(
                priors[r], hidden[r], w_pol, b_pol, inv_t, mask, legal, weight, c, visits[node]
            )
        child, a = select(
            node, seat, mask, legal, n_legal, weight, scale, action, first_child, next_sibling, visits, value
        )
        if child == NO_NODE:
            child = add_child(node, a, counts, action, first_child, next_sibling, row, visits, value)
        step_and_mask(st, a, mask)
        node = child
        depth += 1
        path[depth] = node
    return node, depth


@njit(**NO_REFCOUNT)
def claim_row(node, counts, row):
    """Mark ``node`` evaluated: it gets the next row for its prior (and trunk activation); returns the row."""
    r = counts[1]
    counts[1] += 1
    row[node] = r
    return r


@njit(**NO_REFCOUNT)
def absolute_values(seat, num_players, relative, scale, out):
    """``out`` = ``scale`` x the network's seat-relative values of a leaf whose mover is ``seat``: entry k of
    ``relative`` is the return of seat ``(seat + k) % num_players``."""
    out[:] = 0.0
    for k in range(num_players):
        out[(seat + k) % num_players] = scale * relative[k]


@njit(**NO_REFCOUNT)
def backup(path, depth, leaf_value, num_players, visits, value):
    """Step 4: every node of ``path[: depth + 1]`` counts a visit and adds the leaf's value vector."""
    for i in range(depth + 1):
        node = path[i]
        visits[node] += 1
        for p in range(num_players):
            value[node, p] += leaf_value[p]


@njit(**NO_REFCOUNT)
def root_lead(first_child, next_sibling, visits):
    """How many visits the root's most visited child has more than the next one (an action without a child
    has none)."""
    best, second = 0, 0
    ch = first_child[0]
    while ch != NO_NODE:
        n = visits[ch]
        if n > best:
            best, second = n, best
        elif n > second:
            second = n
        ch = next_sibling[ch]
    return best - second


@njit(cache=True, nogil=True)
def subtree(node, src, dst, source, rows):
    """Copy the subtree of ``src`` under ``node`` into ``dst`` (both a ``TreeArrays.tree()``), ``node`` becoming
    its root, breadth first and every node's children in their order (the search's ties depend on it);
    ``source[i]`` is the node of ``src`` copied to node i, ``rows[k]`` the ``src`` row of ``dst``'s row k (the
    caller copies what it keeps per row). Returns the number of rows."""
    _, s_action, s_first, s_next, s_row, s_visits, s_value, _ = src
    counts, action, first_child, next_sibling, row, visits, value, _ = dst
    source[0], next_sibling[0] = node, NO_NODE
    made, n_rows, i = 1, 0, 0
    while i < made:
        q = source[i]
        action[i], visits[i], value[i] = s_action[q], s_visits[q], s_value[q]
        row[i] = -1
        if s_row[q] >= 0:
            rows[n_rows] = s_row[q]
            row[i] = n_rows
            n_rows += 1
        first_child[i] = NO_NODE
        prev = NO_NODE
        ch = s_first[q]
        while ch != NO_NODE:
            source[made] = ch
            if prev == NO_NODE:
                first_child[i] = made
            else:
                next_sibling[prev] = made
            next_sibling[made] = NO_NODE
            prev = made
            made += 1
            ch = s_next[ch]
        i += 1
    counts[0], counts[1] = made, n_rows
    return n_rows


@njit(cache=True, nogil=True)
def root_statistics(action, first_child, next_sibling, visits, value, seat0, out_visits, out_value):
    """A tree's root visits and the root mover's (``seat0``) mean value per action."""
    out_visits[:] = 0
    out_value[:] = 0.0
    ch = first_child[0]
    while ch != NO_NODE:
        a = action[ch]
        out_visits[a] = visits[ch]
        if visits[ch] > 0:
            out_value[a] = value[ch, seat0] / visits[ch]
        ch = next_sibling[ch]
