"""Position evaluation for truncated search rollouts: ``estimate``, the win-share estimate of a game in progress.

Each seat's strength = 3 per successful speech (KRM-END-1 needs 3) + a share of the worth of gamers:
a gamer is worth most as chairman (scaled by its speech chance: fewer broke markers), then as senior,
junior, member, civilian, and less the more broke markers and age it has. NOW_SHARE of that worth goes
to its current controller, the rest to the seat whose sheet (minus burned points) is the largest on it,
i.e. who controls it once everyone declares all.
Strengths become win shares with a softmax (temperature TEMPERATURE), on the scale of ``returns``.
"""

import sys

import numpy as np

from .._common.jit import internal
from .._common.scoring import softmax_estimate
from .tables import EXPERIENCE
from .tables import LOC_OTH
from .tables import LOC_RET
from .tables import N_GAMERS

TEMPERATURE = 0.4
SPEECH_WEIGHT = 3.0
# worth of controlling the holder of each location: P00..P12, civilians, other circles, retired
LOC_WEIGHT = np.array([2.0, 0.8, 0.6, 0.6, 0.5, 0.4, 0.35, 0.35, 0.25, 0.25, 0.25, 0.25, 0.25, 0.1, 0.05, 0.0])
SPEECH_CHANCE = np.array([1.0, 0.7, 0.35], np.float64)  # by broke markers (KRM-YEP-2)
NOW_SHARE = 0.4  # share of a gamer's worth for controlling it now; the rest goes to its potential controller


@internal(cache=True)
def _worth(r, g):
    w = LOC_WEIGHT[r.loc[g]]
    if r.loc[g] == 0:
        w *= SPEECH_CHANCE[min(r.broke[g], 2)]
    # health: broke markers and age (experience + SP) bring retirement closer (KRM-FIN, KRM-GEN-3/4)
    age = EXPERIENCE[g] + r.sp[g]
    return w * max(0.1, 1.0 - 0.25 * r.broke[g] - max(0, age - 70) / 40.0)


@internal(cache=True)
def strengths(s, out):
    """Unnormalised strength per seat (see module docstring) into the zeroed float64[MAX_PLAYERS] ``out``."""
    r = s[0]
    n = r.num_players
    for p in range(n):
        out[p] = SPEECH_WEIGHT * r.speeches[p]
    for g in range(N_GAMERS):
        if r.loc[g] == LOC_RET:
            continue
        w = _worth(r, g)
        c = r.controller[g]
        if c >= 0:
            out[c] += NOW_SHARE * w
        if r.loc[g] == LOC_OTH:
            continue
        best = -1  # who controls g if every seat declares all it has left (ties: the current controller)
        top = 0
        for p in range(n):
            total = r.assigned[p, g] - r.burned[p, g]
            if total > top or (total == top and total > 0 and p == c):
                best = p
                top = total
        if best >= 0:
            out[best] += (1.0 - NOW_SHARE) * w


estimate = softmax_estimate(sys.modules[__name__])
