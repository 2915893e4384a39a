"""Maneuver: fleet and army moves, railway, sea transport chains, stance (IMP-MAN-*, IMP-FLT-*,
IMP-ARM-*, IMP-STN-*). Combat and destruction after an arrival live in combat.py.

Reads/writes: armies, fleets, hostile, moved_army, moved_fleet, carried, fleets_locked, mv_*, phase.
"""

import numpy as np

from .._common.jit import internal
from .board import ONE
from .board import ZERO
from .board import bit
from .board import has
from .board import last_factory_protected
from .board import low_index
from .board import rail_closure
from .board import rail_ok_mask
from .board import remove_armies
from .board import union_of
from .chips import update_chips
from .combat import start_declaration
from .state import PH_DEST
from .state import PH_MOVE
from .state import PH_SEA
from .state import PH_STANCE
from .tables import FIRST_SEA
from .tables import LAND_ADJ
from .tables import LAND_MASK
from .tables import N_HOME
from .tables import N_NATIONS
from .tables import N_REGIONS
from .tables import N_SEAS
from .tables import PORT_SEA
from .tables import SEA_ADJ
from .tables import SEA_MASK
from .turn import end_action


@internal(cache=True)
def available_seas(r, n):
    """Seas (region bits) holding a fleet of n that has not transported yet (IMP-ARM-4)."""
    m = ZERO
    for k in range(N_SEAS):
        if r.fleets[n, FIRST_SEA + k] > r.carried[k]:
            m |= bit(FIRST_SEA + k)
    return m


@internal(cache=True)
def sea_closure(start, avail):
    """Seas reachable from start through adjacent seas inside avail (start is inside avail)."""
    seen = start
    frontier = start
    while frontier != ZERO:
        nxt = union_of(frontier & SEA_MASK, SEA_ADJ) & avail & ~seen
        seen |= nxt
        frontier = nxt
    return seen


@internal(cache=True)
def landings(seas, rail_ok):
    """Land regions an army can end on after crossing the given seas (+ rail on, IMP-ARM-4)."""
    return rail_closure(union_of(seas & SEA_MASK, LAND_ADJ), rail_ok)


@internal(cache=True)
def embark_seas(pre, avail):
    """Available seas adjacent to any region of pre (where the army can embark)."""
    return union_of(pre & LAND_MASK, SEA_ADJ) & avail


@internal(cache=True)
def army_routes(r, n, origin):
    """(land-only destinations, sea-transport destinations, pre-step rail set) of an army (IMP-ARM-2..5)."""
    rail_ok = rail_ok_mask(r, n)
    pre = rail_closure(bit(origin), rail_ok)  # IMP-ARM-2
    step = union_of(pre & LAND_MASK, LAND_ADJ)  # IMP-ARM-3: one land border
    land = (pre | rail_closure(step, rail_ok)) & ~bit(origin)
    avail = available_seas(r, n)
    sea = ZERO
    if avail != ZERO:
        start = embark_seas(pre, avail)
        if start != ZERO:
            sea = landings(sea_closure(start, avail), rail_ok) & LAND_MASK & ~bit(origin) & ~land
    return land, sea, pre


@internal(cache=True)
def fleet_dests(x):
    """IMP-FLT-1/2: a docked fleet leaves into its port sea; a fleet at sea moves to an adjacent sea."""
    if x < FIRST_SEA:
        return bit(PORT_SEA[x]) if PORT_SEA[x] >= 0 else ZERO
    return SEA_ADJ[x]


@internal(cache=True)
def unacted_armies(r, x):
    return r.armies[r.nation, x] - r.moved_army[x]


@internal(cache=True)
def unacted_fleets(r, x):
    return r.fleets[r.nation, x] - r.moved_fleet[x]


@internal(cache=True)
def dest_mask(r, x):
    """All destinations of the unacted units in x (IMP-MAN-2: no fleet move once an army acted)."""
    m = ZERO
    if unacted_fleets(r, x) > 0 and not r.fleets_locked:
        m |= fleet_dests(x)
    if x < FIRST_SEA and unacted_armies(r, x) > 0:
        land, sea, _ = army_routes(r, r.nation, x)
        m |= land | sea
    return m


@internal(cache=True)
def sure_dests(r, x):
    """Part of dest_mask(r, x) known without the army's routes: the unacted fleets' moves and the army's land
    borders (IMP-ARM-3: one land border is always a step); two of them settle that x has a choice."""
    m = ZERO
    if unacted_fleets(r, x) > 0 and not r.fleets_locked:
        m |= fleet_dests(x)
    if x < FIRST_SEA and unacted_armies(r, x) > 0:
        m |= LAND_ADJ[x]
    return m


@internal(cache=True)
def valid_origin(r, x):
    """IMP-MAN-3: an unacted unit with >= 1 legal destination."""
    if unacted_fleets(r, x) > 0 and not r.fleets_locked:
        return True  # every port has a port sea and every sea has a neighbour
    if x < FIRST_SEA and unacted_armies(r, x) > 0:
        if LAND_ADJ[x] != ZERO:
            return True  # a land border is always a legal step
        return dest_mask(r, x) != ZERO
    return False


# land regions without a land border (Dublin): an army there may have no destination (IMP-MAN-3)
_NO_LAND_BORDER = np.array([x for x in range(FIRST_SEA) if LAND_ADJ[x] == ZERO], np.int64)


@internal(cache=True)
def origins(r):
    """The regions x with valid_origin(r, x) (IMP-MAN-3), as region bits: one branch-free pass over the unacted units
    (a call per region cost three times as much), then valid_origin where an army may have nowhere to go."""
    n = r.nation
    free = np.uint64(r.fleets_locked == 0)  # IMP-MAN-2
    fleets, armies = r.fleets[n], r.armies[n]
    moved_fleet, moved_army = r.moved_fleet, r.moved_army
    m = ZERO
    for x in range(N_REGIONS):
        unacted = (free & np.uint64(fleets[x] > moved_fleet[x])) | np.uint64(armies[x] > moved_army[x])
        m |= unacted << np.uint64(x)
    for x in _NO_LAND_BORDER:
        if has(m, x) and not valid_origin(r, x):
            m &= ~bit(x)
    return m


# _FOREIGN[n, h]: home province h belongs to another nation than n
_FOREIGN = np.array([[h // 5 != n for h in range(N_HOME)] for n in range(N_NATIONS)], np.uint8)


@internal(cache=True)
def toggles(r):
    """The home provinces h with valid_toggle(r, h) (IMP-STN-2/3), as bits; most hold no unacted army of the mover in a
    foreign province, which one branch-free pass over the 30 finds first."""
    n = r.nation
    armies, moved_army, foreign = r.armies[n], r.moved_army, _FOREIGN[n]
    m = ZERO
    for h in range(N_HOME):
        m |= np.uint64((armies[h] > moved_army[h]) & foreign[h]) << np.uint64(h)
    candidates = m
    while candidates != ZERO:
        h = low_index(candidates)
        candidates &= candidates - ONE
        if not valid_toggle(r, h):
            m &= ~bit(h)
    return m


@internal(cache=True)
def valid_toggle(r, h):
    """IMP-STN-2/3: unacted own armies in a foreign home province; no toggle to hostile onto a last factory."""
    n = r.nation
    if h // 5 == n or unacted_armies(r, h) <= 0:
        return False
    if not r.hostile[n, h] and last_factory_protected(r, h):
        return False
    return True


@internal(cache=True)
def do_select_origin(r, x):
    r.mv_origin = x
    r.phase = PH_DEST


@internal(cache=True)
def do_select_dest(r, d):
    """A sea moves a fleet; land moves an army, directly or through SEA_CHOICE (IMP-ARM-6)."""
    o = r.mv_origin
    n = r.nation
    if d >= FIRST_SEA:
        r.fleets[n, o] -= 1
        r.fleets[n, d] += 1
        r.moved_fleet[d] += 1
        r.mv_origin = -1
        r.mv_region = d
        start_declaration(r)
        return
    if has(LAND_ADJ[o], d):
        move_army(r, o, d)  # a land border is always in the land routes (IMP-ARM-3)
        return
    land, _, _ = army_routes(r, n, o)
    if has(land, d):
        move_army(r, o, d)
        return
    r.mv_dest = d
    r.mv_chain = ZERO
    r.mv_last = -1
    r.phase = PH_SEA


@internal(cache=True)
def valid_seas(r):
    """Seas that keep a transport chain to mv_dest possible (IMP-ARM-4/6); bitmask of region bits."""
    n = r.nation
    rail_ok = rail_ok_mask(r, n)
    avail = available_seas(r, n) & ~r.mv_chain
    if r.mv_last < 0:
        pre = rail_closure(bit(r.mv_origin), rail_ok)
        cand = embark_seas(pre, avail)
    else:
        cand = SEA_ADJ[r.mv_last] & avail
    out = ZERO
    for k in range(N_SEAS):
        c = FIRST_SEA + k
        if has(cand, c) and has(landings(sea_closure(bit(c), avail), rail_ok), r.mv_dest):
            out |= bit(c)
    return out


@internal(cache=True)
def do_sea(r, c):
    """Extend the chain; land as soon as mv_dest is reachable from c (IMP-ARM-6)."""
    r.mv_chain |= bit(c)
    r.mv_last = c
    if has(landings(bit(c), rail_ok_mask(r, r.nation)), r.mv_dest):
        for k in range(N_SEAS):
            if has(r.mv_chain, FIRST_SEA + k):
                r.carried[k] += 1  # one army per fleet per maneuver
        r.mv_chain = ZERO
        r.mv_last = -1
        move_army(r, r.mv_origin, r.mv_dest)


@internal(cache=True)
def move_army(r, o, d):
    """Move one unacted army o -> d and resolve the arrival (stance, combat, destruction)."""
    n = r.nation
    remove_armies(r, n, o, 1)
    r.armies[n, d] += 1
    r.moved_army[d] += 1
    r.fleets_locked = 1  # IMP-MAN-2
    r.mv_origin = -1
    r.mv_dest = -1
    r.mv_region = d
    if d < N_HOME and d // 5 != n:
        r.phase = PH_STANCE  # IMP-STN-1
    else:
        start_declaration(r)


@internal(cache=True)
def do_stance(r, hostile):
    """IMP-STN-1: the whole group takes the entering army's stance."""
    r.hostile[r.nation, r.mv_region] = hostile
    start_declaration(r)


@internal(cache=True)
def do_toggle(r, h):
    """IMP-STN-2: flip the group's stance; all its armies act; a turn to hostile may start combat."""
    n = r.nation
    r.hostile[n, h] = 1 - r.hostile[n, h]
    r.moved_army[h] = r.armies[n, h]
    r.fleets_locked = 1
    r.mv_region = h
    if r.hostile[n, h]:
        start_declaration(r)
    else:
        r.phase = PH_MOVE


@internal(cache=True)
def clear_moves(r):
    """IMP-MAN-3: no unit has acted and no fleet has carried yet; fleets are unlocked."""
    for x in range(N_REGIONS):
        r.moved_army[x] = 0
        r.moved_fleet[x] = 0
    for k in range(N_SEAS):
        r.carried[k] = 0
    r.fleets_locked = 0


@internal(cache=True)
def do_done(r):
    """DONE: tax-chip update (IMP-CHP-2), then the end of the space action."""
    update_chips(r, r.nation)
    r.mv_region = -1
    r.mv_origin = -1
    clear_moves(r)
    end_action(r)
