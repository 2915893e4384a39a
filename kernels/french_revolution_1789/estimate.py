"""Position evaluation for truncated search rollouts: ``estimate``, the win-share estimate of a game in progress.

Each seat's expected final VP = VP now + for every remaining scoring phase (this turn's included)
the VP its persons and cities would score under the regime the vote markers now on the boxes would set
(FR-REG-1, FR-SCO-1..3; the regime in force while no box holds votes) + RP / 20 (a tie-break and a proxy
for future cards). These become win shares with a softmax (temperature TEMPERATURE VP), on the scale of
``returns``. Scoring by the voted regime, not the one in force, lets a vote count as soon as it is cast: a
rollout cut off in the action phase would otherwise score every vote of that phase as worth nothing, and a
search then passes early while its rival votes the regime its own persons score in.
"""

import sys

from numba import njit

from .._common.scoring import softmax_estimate
from .phases import exile_count
from .phases import voted_regime
from .state import ST_DEAD
from .state import ST_EXILED
from .tables import CARD_PERSON
from .tables import CARD_SCORE
from .tables import CITY_VP
from .tables import EXILE_VP
from .tables import N_CARDS
from .tables import N_CITIES
from .tables import N_TURNS

TEMPERATURE = 4.0


@njit(cache=True)
def strengths(s, out):
    """Each seat's expected final VP (see above) into the zeroed float64[MAX_PLAYERS] ``out``."""
    r = s[0]
    left = N_TURNS - r.turn
    band = EXILE_VP[exile_count(r)]
    regime = voted_regime(r)
    for p in range(r.num_players):
        out[p] = r.vp[p] + r.rp[p] / 20.0
    for c in range(N_CARDS):
        p = r.card_owner[c]
        if p < 0 or not CARD_PERSON[c] or r.card_status[c] == ST_DEAD:
            continue
        out[p] += left * (band if r.card_status[c] == ST_EXILED else CARD_SCORE[c, regime])
    for c in range(N_CITIES):
        if r.city_owner[c] >= 0:
            out[r.city_owner[c]] += left * CITY_VP[c]


estimate = softmax_estimate(sys.modules[__name__])
