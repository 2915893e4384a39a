"""The az search for play: one PUCT tree per move with the network evaluated inside numba.

Self-play searches many games at once and evaluates their leaves in torch batches (``search.py``). An agent
playing one game has one leaf at a time, and a torch call per leaf (~0.5 ms) would be most of a move's
budget. Here the same weights, exported to numpy (``NumbaNet``), are evaluated inside the numba search, so a
simulation costs the network's arithmetic, not an interpreter round trip:

- observations are sparse (65-210 of their 862-2086 entries are non-zero), so the first layer adds up the
  weight rows of the non-zero entries;
- the policy head is evaluated only for the actions legal at a node (5-15 on average), and lazily: a node
  keeps the trunk's last activation, and NaN marks a logit not computed yet (the tree is open-loop, so an
  action may become legal at a node in another determinization or chance sample);
- a leaf's value is ``(1 - mix) * network value + mix * rollout``, the rollout played by the kernel's
  ``rollout_action`` policy as in ``agents/mcts`` (AlphaGo's mixing; ``mix=0`` is AlphaZero's search);
- with ``mix=1`` the network is needed only for a node's prior, so a node is evaluated when a simulation
  first passes through it, at its second visit: most leaves are visited once and never cost a forward pass.

The tree and its storage are those of ``search.py`` for one root (node = action sequence; every simulation
copies the root, determinizes it for the root's mover and reseeds its chance; selection by
``Q + c * P * sqrt(N) / (1 + n)`` with the node's mean as first-play value (P: the network's policy over
the legal actions, at ``temperature``: above 1 flattens it, so the search tries more than the network likes); each node's mover maximises its
own entry of the backed-up value vector). ``grow`` adds simulations to a tree kept in preallocated arrays, so
the agent can stop at a time budget between calls; nothing is allocated per simulation.
"""

from __future__ import annotations

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
from ..mcts.uct import _rollout

NO_NODE = -1


class NumbaNet:
    """An ``AZNet``'s weights as float32 numpy arrays, laid out for the numba forward pass: each trunk layer
    by input row (``layers[l][i]`` is what input i adds to every unit of layer l), the heads by output row."""

    def __init__(self, layers, biases, w_pol, b_pol, w_val, b_val):
        self.layers, self.biases = tuple(layers), tuple(biases)
        self.w_pol, self.b_pol, self.w_val, self.b_val = w_pol, b_pol, w_val, b_val
        self.width = self.biases[-1].size  # the trunk's output, which each evaluated node keeps
        self.widest = max(b.size for b in self.biases)

    @classmethod
    def of(cls, net) -> NumbaNet:
        """The weights of a torch ``AZNet``."""

        def arr(t):
            return np.ascontiguousarray(t.detach().cpu().numpy(), np.float32)

        linears = [m for m in net.trunk if hasattr(m, "weight")]
        return cls(
            [arr(m.weight.T) for m in linears],
            [arr(m.bias) for m in linears],
            arr(net.policy.weight),
            arr(net.policy.bias),
            arr(net.value.weight),
            arr(net.value.bias),
        )

    @classmethod
    def zeros(cls, kernel, depth: int = 2, width: int = 1) -> NumbaNet:
        """A trunk of ``depth`` layers of ``width`` units whose every weight is 0 (uniform prior, value 0): to
        compile the search for a game without torch (numba compiles once per trunk depth; 2 is the default)."""
        f = np.float32
        return cls(
            [np.zeros((kernel.OBS_SIZE, width), f)] + [np.zeros((width, width), f)] * (depth - 1),
            [np.zeros(width, f)] * depth,
            np.zeros((kernel.NUM_ACTIONS, width), f),
            np.zeros(kernel.NUM_ACTIONS, f),
            np.zeros((kernel.MAX_PLAYERS, width), f),
            np.zeros(kernel.MAX_PLAYERS, f),
        )

    def arrays(self) -> tuple:
        return self.layers, self.biases, self.w_pol, self.b_pol, self.w_val, self.b_val


@njit(cache=True, nogil=True)
def _add_scaled(out, x, w):
    """out += x * w, element by element (a loop LLVM vectorises; numpy syntax here would allocate)."""
    for j in range(out.size):
        out[j] += x * w[j]


@njit(cache=True, nogil=True)
def trunk(obs, layers, biases, buf, out):
    """The trunk's last activation of ``obs`` into ``out``; ``buf`` (2 x the widest layer) holds a layer's
    input and output in turn. Each layer adds up the weight rows of its non-zero inputs: the observation is
    sparse, and ReLU zeroes about half of every hidden layer."""
    x = buf[0]
    x[: biases[0].size] = biases[0]
    for i in range(obs.size):
        if obs[i] != 0.0:
            _add_scaled(x[: biases[0].size], obs[i], layers[0][i])
    for j in range(biases[0].size):
        x[j] = max(x[j], 0.0)
    cur = 0
    for k in range(1, len(layers)):
        w, n_out = layers[k], biases[k].size
        x, y = buf[cur], buf[1 - cur]
        y[:n_out] = biases[k]
        for i in range(w.shape[0]):
            if x[i] > 0.0:
                _add_scaled(y[:n_out], x[i], w[i])
        for j in range(n_out):
            y[j] = max(y[j], 0.0)
        cur = 1 - cur
    out[:] = buf[cur, : out.size]


@njit(cache=True, nogil=True, fastmath=True)
def _dot(x, y):
    """A dot product LLVM may vectorise (fastmath reorders the sum)."""
    total = np.float32(0.0)
    for j in range(x.size):
        total += x[j] * y[j]
    return total


@njit(cache=True, nogil=True)
def logit(a, hidden, w_pol, b_pol):
    return b_pol[a] + _dot(w_pol[a], hidden)


@njit(cache=True, nogil=True)
def _select(
    node,
    seat,
    mask,
    legal,
    c,
    inv_t,
    action,
    first_child,
    next_sibling,
    row,
    visits,
    value,
    logits,
    hidden,
    w_pol,
    b_pol,
):
    """The PUCT choice at an evaluated node among the legal actions (mask 1): (child or NO_NODE, action).

    One pass over the mask lists the legal actions (into ``legal``) and fills their missing logits; the
    rest works on that list, a few actions where the mask has hundreds."""
    r = row[node]
    n_legal, top = 0, -np.inf
    for a in range(mask.size):
        if mask[a]:
            legal[n_legal] = a
            n_legal += 1
            if np.isnan(logits[r, a]):
                logits[r, a] = logit(a, hidden[r], w_pol, b_pol)
            top = max(top, logits[r, a])
    total = 0.0
    for i in range(n_legal):
        total += np.exp((logits[r, legal[i]] - top) * inv_t)
    n = visits[node]
    fpu = value[node, seat] / n if n > 0 else 0.0
    scale = c * np.sqrt(max(n, 1)) / total
    best_child, best_action, best = NO_NODE, -1, -np.inf
    ch = first_child[node]
    while ch != NO_NODE:
        a = action[ch]
        if mask[a] == 1:
            mask[a] = 2  # legal and already a child
            q = value[ch, seat] / visits[ch] if visits[ch] > 0 else fpu
            score = q + scale * np.exp((logits[r, a] - top) * inv_t) / (1 + visits[ch])
            if score > best:
                best_child, best_action, best = ch, a, score
        ch = next_sibling[ch]
    for i in range(n_legal):  # legal actions without a child yet; then unmark the children
        a = legal[i]
        if mask[a] == 1:
            score = fpu + scale * np.exp((logits[r, a] - top) * inv_t)
            if score > best:
                best_child, best_action, best = NO_NODE, a, score
        mask[a] = 1
    return best_child, best_action


class Tree:
    """The preallocated arrays of one open-loop tree of at most ``capacity`` simulations, and its scratch."""

    def __init__(self, capacity: int, kernel, net: NumbaNet):
        nodes = capacity + 1
        self.capacity = capacity
        self.counts = np.zeros(2, np.int64)  # nodes made, nodes evaluated (rows of ``logits`` and ``hidden``)
        self.action = np.full(nodes, -1, np.int32)
        self.first_child = np.full(nodes, NO_NODE, np.int32)
        self.next_sibling = np.full(nodes, NO_NODE, np.int32)
        self.row = np.full(nodes, -1, np.int32)  # node -> its row; -1: not evaluated
        self.visits = np.zeros(nodes, np.int32)
        self.value = np.zeros((nodes, kernel.MAX_PLAYERS), np.float64)  # summed returns, per seat
        self.logits = np.zeros((nodes, kernel.NUM_ACTIONS), np.float32)
        self.hidden = np.zeros((nodes, net.width), np.float32)
        self.path = np.zeros(nodes + 1, np.int32)
        self.state = np.zeros(1, kernel.STATE)
        self.mask = np.zeros(kernel.NUM_ACTIONS, np.uint8)
        self.legal = np.zeros(kernel.NUM_ACTIONS, np.int32)
        self.obs = np.zeros(kernel.OBS_SIZE, np.float32)
        self.buf = np.zeros((2, net.widest), np.float32)
        self.leaf = np.zeros((2, kernel.MAX_PLAYERS), np.float64)  # the leaf's value, the rollout's
        self.rng = np.zeros(1, np.uint64)

    def reset(self, seed: np.uint64) -> None:
        self.counts[:] = (1, 0)  # node 0 is the root
        self.first_child[0] = NO_NODE
        self.row[0] = -1
        self.visits[0] = 0
        self.value[0] = 0.0
        seed_rng(self.rng, np.uint64(seed))

    def arrays(self) -> tuple:
        return (
            self.counts,
            self.action,
            self.first_child,
            self.next_sibling,
            self.row,
            self.visits,
            self.value,
            self.logits,
            self.hidden,
            self.path,
            self.state,
            self.mask,
            self.legal,
            self.obs,
            self.buf,
            self.leaf,
            self.rng,
        )


@njit(cache=True, nogil=True)
def _evaluate(st, node, counts, row, obs, layers, biases, buf, hidden, logits):
    """Give ``node`` (reached in state ``st``) the next row: the trunk's activation of its mover's observation,
    and its logits marked not computed yet; returns the row."""
    r = counts[1]
    counts[1] += 1
    row[node] = r
    observe(st, to_move(st), obs)
    trunk(obs, layers, biases, buf, hidden[r])
    logits[r] = np.nan
    return r


@njit(cache=True, nogil=True)
def grow(
    root,
    simulations,
    num_players,
    c,
    temperature,
    mix,
    rollout_depth,
    weights,
    counts,
    action,
    first_child,
    next_sibling,
    row,
    visits,
    value,
    logits,
    hidden,
    path,
    st,
    mask,
    legal,
    obs,
    buf,
    leaf,
    rng,
):
    """Add ``simulations`` simulations to the tree (fewer if it fills up); returns how many were run."""
    layers, biases, w_pol, b_pol, w_val, b_val = weights
    seat0 = to_move(root)
    v, z = leaf[0], leaf[1]
    inv_t = 1.0 / temperature
    done = 0
    while done < simulations and counts[0] < action.size:
        st[:] = root[:]
        determinize(st, seat0, next_u64(rng))
        seed_rng(st[0].rng, next_u64(rng))  # chance is resampled, never read from the game's future
        legal_mask(st, mask)
        node, d = 0, 0
        path[0] = 0
        while not is_over(st):
            if row[node] < 0:
                if mix < 1.0 or visits[node] == 0:
                    break  # the leaf
                _evaluate(st, node, counts, row, obs, layers, biases, buf, hidden, logits)  # its second visit
            seat = to_move(st)
            child, a = _select(
                node,
                seat,
                mask,
                legal,
                c,
                inv_t,
                action,
                first_child,
                next_sibling,
                row,
                visits,
                value,
                logits,
                hidden,
                w_pol,
                b_pol,
            )
            if child == NO_NODE:
                child = counts[0]
                counts[0] += 1
                action[child] = a
                first_child[child] = NO_NODE
                next_sibling[child] = first_child[node]
                first_child[node] = child
                row[child] = -1
                visits[child] = 0
                value[child] = 0.0
            step_and_mask(st, a, mask)
            node = child
            d += 1
            path[d] = node
        v[:] = 0.0
        if is_over(st):
            returns(st, v)
        elif mix < 1.0:  # a new leaf: the network's value (its prior is stored for later visits) and a rollout's
            r = _evaluate(st, node, counts, row, obs, layers, biases, buf, hidden, logits)
            seat = to_move(st)
            for k in range(num_players):  # the value head is seat-relative: entry k is seat (mover + k)
                v[(seat + k) % num_players] = (1.0 - mix) * (b_val[k] + _dot(w_val[k], hidden[r]))
            if mix > 0.0:
                _rollout(st, rollout_depth, mask, rng, z)
                for p in range(num_players):
                    v[p] += mix * z[p]
        else:  # mix 1: the rollout alone values a new leaf; the network's prior waits for a second visit
            _rollout(st, rollout_depth, mask, rng, v)
        for i in range(d + 1):
            visits[path[i]] += 1
            for p in range(num_players):
                value[path[i], p] += v[p]
        done += 1
    return done


@njit(cache=True, nogil=True)
def root_statistics(counts, action, first_child, next_sibling, visits, value, seat0, out_visits, out_value):
    """Root visits and the root mover's mean value per action."""
    out_visits[:] = 0
    out_value[:] = 0.0
    ch = first_child[0]
    while ch != NO_NODE:
        a = action[ch]
        out_visits[a] = visits[ch]
        if visits[ch] > 0:
            out_value[a] = value[ch, seat0] / visits[ch]
        ch = next_sibling[ch]


def warm_up(kernel, num_players: int) -> None:
    """Compile (or load from numba's cache) the search for ``kernel``'s game and a two-layer trunk."""
    net = NumbaNet.zeros(kernel)
    tree = Tree(2, kernel, net)
    tree.reset(np.uint64(0))
    grow(kernel.new_state(num_players, 0), 2, num_players, 1.0, 1.0, 0.5, 2, net.arrays(), *tree.arrays())
