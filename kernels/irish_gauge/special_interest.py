"""Special interests (IG-SI-*): a cube from the bag turns a connected town into a city.

Reads/writes: cube, bag. Town t is hex TOWN_HEX[t]; action SPECIAL_INTEREST[t, k] = 10 + 3t + k.
"""

from .._common.jit import internal
from .actions import A_SPECIAL_INTEREST
from .tables import N_COLOURS
from .tables import N_COMPANIES
from .tables import N_TOWNS
from .tables import TOWN_HEX
from .turn import end_turn


@internal(cache=True)
def _connected_to_holding(r, h):
    """IG-SI-1: some company with a locomotive on h has a certificate held by the active seat."""
    for c in range(N_COMPANIES):
        if r.loco[c, h] and r.held[r.active, c] > 0:
            return True
    return False


@internal(cache=True)
def valid_special_interests(r, mask):
    for t in range(N_TOWNS):
        h = TOWN_HEX[t]
        if r.cube[h] >= 0 or not _connected_to_holding(r, h):  # IG-SI-3, IG-SI-1
            continue
        for k in range(N_COLOURS):
            if r.bag[k] > 0:  # IG-SI-2: only a colour present in the bag
                mask[A_SPECIAL_INTEREST + N_COLOURS * t + k] = 1


@internal(cache=True)
def do_special_interest(r, t, k):
    r.cube[TOWN_HEX[t]] = k  # IG-SI-2: the town is a city of colour k from now on
    r.bag[k] -= 1  # IG-SI-4: the cube leaves the bag (may end the game)
    end_turn(r)
