"""Building track (IG-BLD-*): 3 BP for one company, placements adjacent to its network.

Costs are in half build points (IG-BLD-7): 2 on an empty hex, 3 where another company already is,
4 on an empty difficult hex. Reads/writes: loco, supply, phase, bld_* fields.
"""

from .._common.jit import internal
from .actions import A_PLACE
from .state import PH_BUILD
from .tables import BUILD_BUDGET
from .tables import COST_DIFFICULT
from .tables import COST_EMPTY
from .tables import COST_SHARED
from .tables import N_COMPANIES
from .tables import N_HEX
from .tables import N_NEIGHBORS
from .tables import NEIGHBORS
from .tables import T_DIFFICULT
from .tables import TERRAIN
from .turn import end_turn

NO_ENTRY = 127  # cost of a hex the company may not enter


@internal(cache=True)
def place_cost(r, c, h):
    """Half-BP cost for company c to enter hex h, or NO_ENTRY (IG-BLD-3, IG-BLD-4, IG-BLD-5)."""
    if r.loco[c, h]:
        return NO_ENTRY  # IG-BLD-5: never two locomotives of one company in a hex
    shared = False
    for other in range(N_COMPANIES):
        if other != c and r.loco[other, h]:
            shared = True
    if TERRAIN[h] == T_DIFFICULT:
        return NO_ENTRY if shared else COST_DIFFICULT  # IG-BLD-4: a difficult hex holds one company
    return COST_SHARED if shared else COST_EMPTY  # IG-BLD-3


@internal(cache=True)
def valid_placements(r, c, budget, mask):
    """Set PLACE[h] in mask for every legal placement; return how many (IG-BLD-6, IG-BLD-8)."""
    if r.supply[c] <= 0:
        return 0
    n = 0
    for h in range(N_HEX):
        if not r.loco[c, h]:
            continue
        for i in range(N_NEIGHBORS[h]):  # IG-BLD-6: adjacent to the company's network
            g = NEIGHBORS[h, i]
            if mask[A_PLACE + g] == 0 and place_cost(r, c, g) <= budget:
                mask[A_PLACE + g] = 1
                n += 1
    return n


@internal(cache=True)
def can_place(r, c, budget):
    """True if company c has at least one legal placement within budget (no mask written)."""
    if r.supply[c] <= 0:
        return False
    for h in range(N_HEX):
        if r.loco[c, h]:
            for i in range(N_NEIGHBORS[h]):
                if place_cost(r, c, NEIGHBORS[h, i]) <= budget:
                    return True
    return False


@internal(cache=True)
def valid_start_build(r, c):
    """IG-BLD-1: the active seat holds c, c has locomotives, and some placement is legal."""
    return r.held[r.active, c] > 0 and can_place(r, c, BUILD_BUDGET)


@internal(cache=True)
def start_build(r, c):
    r.phase = PH_BUILD
    r.bld_company = c
    r.bld_budget = BUILD_BUDGET  # IG-BLD-2: 3 BP, all for this one company
    r.bld_placed = 0


@internal(cache=True)
def end_build(r):
    r.bld_company = -1
    r.bld_budget = 0
    r.bld_placed = 0
    end_turn(r)  # IG-BLD-2: unspent BP are lost


@internal(cache=True)
def do_place(r, h):
    c = r.bld_company
    r.bld_budget -= place_cost(r, c, h)  # IG-BLD-7: cost fixed at the moment of placement
    r.loco[c, h] = 1
    r.supply[c] -= 1
    r.bld_placed += 1
    if not can_place(r, c, r.bld_budget):
        end_build(r)  # IG-BLD-9: ends by itself when nothing more can be placed
