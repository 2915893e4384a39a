"""Combat hot path and its declaration procedure (IMP-CMB-1..4), factory destruction (IMP-DST-1/2).

``resolve_combat`` is the separately tested battle kernel. The declaration procedure runs in phases
FIGHT (mover names a nation or passes) -> ASK (mover picks whom to ask) -> ANSWER (that nation's holder).
Reads/writes: armies, fleets, hostile, moved_army, moved_fleet, factory, cmb_*, mv_region, phase.
"""

import numpy as np
from numba import njit

from .._common.jit import internal
from .board import factories_of
from .board import remove_armies
from .state import PH_ANSWER
from .state import PH_ASK
from .state import PH_DESTROY
from .state import PH_FIGHT
from .state import PH_MOVE
from .tables import DESTROY_ARMIES
from .tables import FIRST_SEA
from .tables import N_HOME
from .tables import N_NATIONS


@internal(cache=True)
def fighting_units(r, n, region):
    """Units of nation n that can fight in region: fleets at sea; armies (+ docked fleets) on land."""
    if region >= FIRST_SEA:
        return np.int32(r.fleets[n, region])
    return np.int32(r.armies[n, region]) + np.int32(r.fleets[n, region])


@internal(cache=True)
def _remove_losses(r, n, region, k, is_mover):
    """IMP-CMB-3 loss order: armies before docked fleets; the mover's acted units first."""
    if region >= FIRST_SEA:
        if is_mover:
            r.moved_fleet[region] -= min(k, r.moved_fleet[region])
        r.fleets[n, region] -= k
        return
    a = min(k, np.int32(r.armies[n, region]))
    if is_mover:
        r.moved_army[region] -= min(a, r.moved_army[region])
    remove_armies(r, n, region, a)
    f = k - a
    if f > 0:
        if is_mover:
            r.moved_fleet[region] -= min(f, r.moved_fleet[region])
        r.fleets[n, region] -= f


@njit(cache=True)
def resolve_combat(r, region, mover, other):
    """IMP-CMB-3/4: 1:1 removal until one side has no fighting unit left; returns the exchanges."""
    k = min(fighting_units(r, mover, region), fighting_units(r, other, region))
    _remove_losses(r, mover, region, k, True)
    _remove_losses(r, other, region, k, False)
    return k


@internal(cache=True)
def participants(r, region, mover):
    """IMP-CMB-2: bitmask of other nations with units in region that can fight there."""
    m = 0
    for n in range(N_NATIONS):
        if n != mover and fighting_units(r, n, region) > 0:
            m |= 1 << n
    return m


@internal(cache=True)
def may_name(r, region, mover, n):
    """IMP-CMB-2: the mover may not name a province's owner while its armies there are friendly."""
    if region < N_HOME and region // 5 == n and r.armies[mover, region] > 0 and not r.hostile[mover, region]:
        return False
    return True


@internal(cache=True)
def start_declaration(r):
    """IMP-CMB-1: an arrival/toggle in mv_region opens the procedure if others can fight there."""
    r.cmb_asked = 0
    r.cmb_defender = -1
    if participants(r, r.mv_region, r.nation) != 0:
        r.phase = PH_FIGHT
    else:
        after_combat(r)


@internal(cache=True)
def _unasked(r):
    """Participants not yet asked; nations whose flag is in the bank always decline (IMP-CMB-2)."""
    m = participants(r, r.mv_region, r.nation) & ~np.int64(r.cmb_asked)
    for n in range(N_NATIONS):
        if (m >> n) & 1 and r.flag[n] < 0:
            m &= ~(1 << n)
    return m


@internal(cache=True)
def do_fight(r, n):
    """FIGHT(n): the mover attacks n, or (ANSWER phase) the asked nation accepts."""
    if r.phase == PH_ANSWER:
        resolve_combat(r, r.mv_region, r.nation, r.cmb_defender)
    else:
        resolve_combat(r, r.mv_region, r.nation, n)
    after_combat(r)


@internal(cache=True)
def do_decline(r):
    """PASS in FIGHT (mover declines) or ANSWER (the asked nation declines)."""
    if r.phase == PH_ANSWER:
        r.cmb_asked |= np.uint8(1 << r.cmb_defender)
    if _unasked(r) != 0:
        r.phase = PH_ASK
    else:
        after_combat(r)  # everyone coexists


@internal(cache=True)
def do_ask(r, n):
    r.cmb_defender = n
    r.phase = PH_ANSWER


@internal(cache=True)
def destruction_possible(r, region, mover):
    """IMP-DST-1 conditions (the last factory can never go: IMP-DST-2)."""
    if region >= N_HOME or region // 5 == mover or not r.factory[region]:
        return False
    b = region // 5
    if r.armies[mover, region] < DESTROY_ARMIES or not r.hostile[mover, region]:
        return False
    if r.armies[b, region] > 0 or r.fleets[b, region] > 0:
        return False
    return factories_of(r, b) >= 2


@internal(cache=True)
def destroy_factory(r, region, mover):
    """IMP-DST-1: remove the factory and 3 of the mover's hostile armies (acted ones first)."""
    r.factory[region] = 0
    r.moved_army[region] -= min(DESTROY_ARMIES, r.moved_army[region])
    remove_armies(r, mover, region, DESTROY_ARMIES)


@internal(cache=True)
def after_combat(r):
    """After the arrival/toggle resolved: factory destruction (automatic or DESTROY_CHOICE), else MOVE."""
    if destruction_possible(r, r.mv_region, r.nation):
        if r.optional_destroy:  # IMP-OPT-5
            r.phase = PH_DESTROY
            return
        destroy_factory(r, r.mv_region, r.nation)
    r.phase = PH_MOVE


@internal(cache=True)
def do_destroy(r, yes):
    if yes:
        destroy_factory(r, r.mv_region, r.nation)
    r.phase = PH_MOVE


@internal(cache=True)
def valid_fight_targets(r):
    """Bitmask of nations the mover may name in FIGHT."""
    m = participants(r, r.mv_region, r.nation)
    for n in range(N_NATIONS):
        if (m >> n) & 1 and not may_name(r, r.mv_region, r.nation, n):
            m &= ~(1 << n)
    return m


@internal(cache=True)
def askable(r):
    return _unasked(r)
