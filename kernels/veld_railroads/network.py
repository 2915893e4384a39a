"""Track legality shared by building and free sections: networks, borders, one-way sections, ZASM
connection and build prices (VR-BUILD-2/3, VR-BORDER-1, VR-ZASM-4, VR-BOER-1).

Reads: section_owner, touch, row, opened, treasury_cash. Writes (lay_section only): section_owner,
touch, n_sections.
"""

from .._common.jit import internal
from .tables import BOER_WAR_ROW
from .tables import BORDER_CLOSED
from .tables import COST_BOER_SINGLE
from .tables import COST_DOUBLE
from .tables import COST_SINGLE
from .tables import HOME
from .tables import N_RAILROADS
from .tables import N_SECTIONS
from .tables import N_SETTLEMENTS
from .tables import SEC_A
from .tables import SEC_B
from .tables import SEC_BORDER
from .tables import SEC_ONE_WAY
from .tables import ZASM
from .tables import ZASM_UNCONNECTED_MULTIPLIER


@internal(cache=True)
def in_network(r, rr, s):
    """VR-BUILD-2(2): rr's network = its home plus every end of its built sections."""
    return s == HOME[rr] or r.touch[rr, s] == 1


@internal(cache=True)
def tracked(r, s):
    """Some railroad has a section ending at settlement s (an OR over the railroads, without an early exit that
    would mispredict: the observation asks it of every settlement in every step)."""
    reached = 0
    for rr in range(N_RAILROADS):
        reached |= r.touch[rr, s]
    return reached != 0


@internal(cache=True)
def border_open(r, e):
    """VR-BORDER-1/2: a section crossing a border closed in this row cannot be built."""
    b = SEC_BORDER[e]
    return b < 0 or BORDER_CLOSED[r.row - 1, b] == 0


@internal(cache=True)
def section_legal(r, rr, e):
    """VR-BUILD-2: unbuilt, touches rr's network (from end a if one-way), border open this row."""
    if r.section_owner[e] >= 0:  # VR-BUILD-2(1)
        return False
    if not border_open(r, e):  # VR-BUILD-2(4)
        return False
    if SEC_ONE_WAY[e]:
        return in_network(r, rr, SEC_A[e])  # VR-BUILD-2(3): built from a toward b only
    return in_network(r, rr, SEC_A[e]) or in_network(r, rr, SEC_B[e])  # VR-BUILD-2(2)


@internal(cache=True)
def near_end(r, rr, e):
    """The end of a legal section already in rr's network (a for a one-way section)."""
    if SEC_ONE_WAY[e] or in_network(r, rr, SEC_A[e]):
        return SEC_A[e]
    return SEC_B[e]


@internal(cache=True)
def other_end(e, s):
    return SEC_B[e] if SEC_A[e] == s else SEC_A[e]


@internal(cache=True)
def any_legal_section(r, rr):
    for e in range(N_SECTIONS):
        if section_legal(r, rr, e):
            return True
    return False


@internal(cache=True)
def zasm_connected(r):
    """VR-ZASM-4: a settlement of ZASM's network is also an end of another railroad's section."""
    for s in range(N_SETTLEMENTS):
        if in_network(r, ZASM, s):
            for rr in range(N_RAILROADS):
                if rr != ZASM and r.touch[rr, s]:
                    return True
    return False


@internal(cache=True)
def cost_multiplier(r, rr):
    """VR-BUILD-3, VR-ZASM-4: ZASM pays double while unconnected (judged before the build)."""
    if rr == ZASM and not zasm_connected(r):
        return ZASM_UNCONNECTED_MULTIPLIER
    return 1


@internal(cache=True)
def single_cost(r, rr):
    """VR-BUILD-3 / VR-BOER-1: $5 (ZASM unconnected $10); $7 in the Boer War row."""
    if r.row == BOER_WAR_ROW:
        return COST_BOER_SINGLE  # VR-BOER-1 (ZASM cannot build then, VR-BOER-2)
    return COST_SINGLE * cost_multiplier(r, rr)


@internal(cache=True)
def double_cost(r, rr):
    """VR-BUILD-3: $15 (ZASM unconnected $30)."""
    return COST_DOUBLE * cost_multiplier(r, rr)


@internal(cache=True)
def lay_section(r, rr, e):
    """Draw section e in rr's colour (VR-GEN-7); keeps the touch / n_sections caches."""
    r.section_owner[e] = rr
    r.touch[rr, SEC_A[e]] = 1
    r.touch[rr, SEC_B[e]] = 1
    r.n_sections[rr] += 1
