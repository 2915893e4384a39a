"""UCT / single-observer IS-MCTS in numba over the kernel contract.

One ``search`` call grows one tree for ``simulations`` simulations from a root record (``new_tree``, then
``grow``, then ``root_statistics``; ``grow`` can also be called in chunks, e.g. to stop at a wall time):

1. copy the root; in hidden-information games, ``determinize`` it for the searching seat (a fresh
   sample of everything that seat cannot see, so no simulation reads a secret); reseed the copy's RNG
   so chance events (dice, draws) are sampled anew instead of read from the real game's future;
2. selection: from the root, among the children whose action is legal in the current state, take the
   one maximising the mover's mean value + c * sqrt(ln(availability) / visits) (availability counts,
   as in IS-MCTS, because the legal set of a node can differ between samples);
3. expansion: if a legal action has no child yet, add one (chosen uniformly) and step into it;
4. rollout: decisions by the kernel's ``rollout_action`` policy (uniformly random for kernels without that
   optional hook) until the end or ``rollout_depth`` decisions, then score with ``returns`` (finished) or
   the kernel's ``evaluate`` (truncated): one value per seat;
5. backup: every node on the path adds that value vector; each node's value is per seat, and the seat
   moving at a node maximises its own entry.

The tree is open-loop (a node is an action sequence, not a state), which handles chance and hidden
information alike. It lives in preallocated arrays; no Python object is created per node. One legal mask
is carried through descent and rollout: every move is ``step_and_mask``, so each position's mask is
built once, by the kernel call that reaches it.
"""

import numpy as np
from numba import njit

from ...kernels._common.dispatch import (
    determinize,
    evaluate,
    is_over,
    legal_mask,
    max_players,
    num_actions,
    returns,
    rollout_action,
    step_and_mask,
    to_move,
)
from ...kernels._common.rng import next_u64, seed_rng, uniform_int

NO_NODE = -1


@njit(cache=True, nogil=True)
def _play_out(st, depth, mask, rng):
    """Up to ``depth`` decisions of the rollout policy from st, whose legal mask is in ``mask``: the per-step
    loop of a rollout, which allocates nothing (tests/contract/test_no_allocation.py, #18)."""
    d = 0
    while d < depth and not is_over(st):
        step_and_mask(st, rollout_action(st, mask, rng), mask)
        d += 1


@njit(cache=True, nogil=True)
def _rollout(st, depth, mask, rng, value):
    """Play on from st, whose legal mask is in ``mask``; write one value per seat."""
    _play_out(st, depth, mask, rng)
    if is_over(st):
        returns(st, value)
    else:
        evaluate(st, value)


@njit(cache=True, nogil=True)
def new_tree(root, simulations, seed) -> tuple:
    """The arrays of one tree with room for ``simulations`` simulations from root (a node per simulation and
    the root), its generator seeded with ``seed``: (action, first_child, next_sibling, visits, avail, value,
    path, rng, used), ``used[0]`` counting the nodes made so far. ``grow`` continues it, ``root_statistics``
    reads it."""
    max_nodes = simulations + 1
    action = np.full(max_nodes, -1, np.int32)
    first_child = np.full(max_nodes, NO_NODE, np.int32)
    next_sibling = np.full(max_nodes, NO_NODE, np.int32)
    visits = np.zeros(max_nodes, np.int32)
    avail = np.zeros(max_nodes, np.int32)
    value = np.zeros((max_nodes, max_players(root)), np.float64)
    path = np.zeros(max_nodes + 1, np.int32)
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    used = np.ones(1, np.int64)  # the root
    return action, first_child, next_sibling, visits, avail, value, path, rng, used


@njit(cache=True, nogil=True)
def grow(root, simulations, rollout_depth, c, action, first_child, next_sibling, visits, avail, value, path, rng, used) -> int:  # fmt: skip
    """Run ``simulations`` more simulations of the tree made by ``new_tree`` for this root. Everything a
    simulation reads from earlier ones (the tree, ``used`` and the generator) lives in those arrays, so k
    calls of ``grow`` grow the same tree as one call with their sum. Returns the nodes used so far."""
    n_act = num_actions(root)
    n_seats = max_players(root)
    seat0 = to_move(root)
    max_nodes = visits.size
    mask = np.zeros(n_act, np.uint8)
    v = np.zeros(n_seats, np.float64)
    st = root.copy()
    n_nodes = used[0]
    for _ in range(simulations):
        st[0] = root[0]  # a record copy: an array copy's shape check would compile numba's string formatting
        determinize(st, seat0, next_u64(rng))
        seed_rng(st[0].rng, next_u64(rng))  # chance is resampled, never read from the game's future
        node = 0
        depth = 0
        path[0] = 0
        legal_mask(st, mask)
        while not is_over(st):
            seat = to_move(st)
            best = NO_NODE
            best_ucb = -np.inf
            ch = first_child[node]
            while ch != NO_NODE:
                a = action[ch]
                if mask[a] == 1:
                    mask[a] = 2  # legal and already a child
                    avail[ch] += 1
                    ucb = value[ch, seat] / visits[ch] + c * np.sqrt(np.log(avail[ch]) / visits[ch])
                    if ucb > best_ucb:
                        best_ucb = ucb
                        best = ch
                ch = next_sibling[ch]
            unexpanded = 0
            for a in range(n_act):
                unexpanded += mask[a] == 1
            if unexpanded > 0 and n_nodes < max_nodes:
                k = uniform_int(rng, unexpanded)
                for a in range(n_act):
                    if mask[a] == 1:
                        if k == 0:
                            break
                        k -= 1
                child = n_nodes
                n_nodes += 1
                action[child] = a
                avail[child] = 1
                next_sibling[child] = first_child[node]
                first_child[node] = child
                step_and_mask(st, a, mask)
                depth += 1
                path[depth] = child
                break
            if best == NO_NODE:
                for a in range(n_act):
                    mask[a] = mask[a] != 0  # unmark the known children: the rollout reads a plain mask
                break  # tree full and no known child is legal here: roll out from this state
            step_and_mask(st, action[best], mask)
            node = best
            depth += 1
            path[depth] = node
        _rollout(st, rollout_depth, mask, rng, v)
        for i in range(depth + 1):
            visits[path[i]] += 1
            for p in range(n_seats):
                value[path[i], p] += v[p]
    used[0] = n_nodes
    return n_nodes


@njit(cache=True, nogil=True)
def root_statistics(root, action, first_child, next_sibling, visits, value, out_visits, out_value) -> None:
    """Write the root's visits and the root mover's mean value per action."""
    seat0 = to_move(root)
    for a in range(out_visits.size):
        out_visits[a] = 0
        out_value[a] = 0.0
    ch = first_child[0]
    while ch != NO_NODE:
        out_visits[action[ch]] = visits[ch]
        if visits[ch] > 0:
            out_value[action[ch]] = value[ch, seat0] / visits[ch]
        ch = next_sibling[ch]


@njit(cache=True, nogil=True)
def search(root, simulations, rollout_depth, c, seed, out_visits, out_value) -> int:
    """Run the search; write root visits and mean root-mover values per action. Returns nodes used."""
    action, first_child, next_sibling, visits, avail, value, path, rng, used = new_tree(root, simulations, seed)
    grow(root, simulations, rollout_depth, c, action, first_child, next_sibling, visits, avail, value, path, rng, used)
    root_statistics(root, action, first_child, next_sibling, visits, value, out_visits, out_value)
    return used[0]
