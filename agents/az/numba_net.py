"""An ``AZNet`` evaluated inside numba, for the play search (``inline.py``).

An agent playing one game has one leaf at a time, and a torch call per leaf would be most of a move's
budget. The same weights, exported to numpy (``NumbaNet``), are evaluated inside the numba search, so a
simulation costs the network's arithmetic, not an interpreter round trip:

- observations are sparse (65-210 of their 862-2086 entries are non-zero), so the first layer adds up the
  weight rows of the non-zero entries;
- the policy head is evaluated one action at a time (``logit``), so the search computes only the logits of the
  actions legal at a node, when it first needs them.
"""

from __future__ import annotations

import numpy as np
from numba import njit


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
        """(layers, biases, w_pol, b_pol, w_val, b_val): the weights as the numba search takes them."""
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
def dot(x, y):
    """A dot product LLVM may vectorise (fastmath reorders the sum)."""
    total = np.float32(0.0)
    for j in range(x.size):
        total += x[j] * y[j]
    return total


@njit(cache=True, nogil=True)
def logit(a, hidden, w_pol, b_pol):
    """The policy head's logit of action ``a`` from the trunk's activation ``hidden``."""
    return b_pol[a] + dot(w_pol[a], hidden)
