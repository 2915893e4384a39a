"""Rondel and the nation's economic actions: factory, production, import (IMP-RON-*, IMP-FAC-*,
IMP-PRO-*, IMP-IMP-*), plus the dispatch of each rondel space.

Reads/writes: rondel_pos, passed_investor, cash, treasury, factory, armies, fleets, chip, chips_left,
imp_count, phase and the maneuver context it resets.
"""

import numpy as np
from numba import njit

from .._common.jit import internal
from .board import cash_to_bank
from .board import is_blocked
from .board import is_port
from .board import supply_left
from .board import treasury_to_bank
from .investor import interest_owed_to_others
from .investor import pay_interest
from .maneuver import clear_moves
from .state import PH_FACTORY
from .state import PH_GAME_OVER
from .state import PH_IMPORT
from .state import PH_MOVE
from .tables import EXTRA_STEP_COST
from .tables import FACTORY_COST
from .tables import FACTORY_TYPE
from .tables import FREE_STEPS
from .tables import FT_SHIPYARD
from .tables import IMPORT_COST
from .tables import IMPORT_MAX
from .tables import MAX_STEPS
from .tables import N_RONDEL
from .tables import SP_FACTORY
from .tables import SP_IMPORT
from .tables import SP_INVESTOR
from .tables import SP_MANEUVER_1
from .tables import SP_MANEUVER_2
from .tables import SP_PRODUCTION_1
from .tables import SP_PRODUCTION_2
from .taxation import collect_taxes
from .turn import end_action
from .turn import start_activity


# --- rondel ------------------------------------------------------------------------------------
@internal(cache=True)
def rondel_steps(old, new):
    """Clockwise steps from old to new (old -1 = centre: 0)."""
    if old < 0:
        return 0
    return (new - old) % N_RONDEL


@njit(cache=True)
def rondel_cost(old, new):
    """IMP-RON-2/3: free placement, 3 free steps, 2 per extra step."""
    return max(0, rondel_steps(old, new) - FREE_STEPS) * EXTRA_STEP_COST


@njit(cache=True)
def passes_investor(old, new):
    """IMP-RON-5: Investor lies strictly between old and new (never for the first placement)."""
    if old < 0:
        return False
    d = rondel_steps(old, new)
    return 0 < (SP_INVESTOR - old) % N_RONDEL < d


# IMP-RON-2/3/6 over (old + 1, new), old -1 = the centre: whether the move is allowed, and its cost (the same
# rondel_steps and rondel_cost, looked up: the mask and the forced-decision check test all 8 spaces each turn)
_RONDEL_OK = np.array(
    [
        [old < 0 or 0 < rondel_steps.py_func(old, new) <= MAX_STEPS for new in range(N_RONDEL)]
        for old in range(-1, N_RONDEL)
    ],
    np.bool_,
)
_RONDEL_COST = np.array(
    [
        [max(0, rondel_steps.py_func(old, new) - FREE_STEPS) * EXTRA_STEP_COST for new in range(N_RONDEL)]
        for old in range(-1, N_RONDEL)
    ],
    np.int64,
)


@internal(cache=True)
def valid_rondel(r, n, space):
    """IMP-RON-2/3/6 and IMP-INV-3."""
    old = r.rondel_pos[n]
    if not _RONDEL_OK[old + 1, space]:
        return False
    cost = _RONDEL_COST[old + 1, space]
    holder = r.flag[n]
    if cost > r.cash[holder]:
        return False
    if space == SP_INVESTOR:  # IMP-INV-3: payments must complete
        return r.treasury[n] + r.cash[holder] - cost >= interest_owed_to_others(r, n)
    return True


@internal(cache=True)
def do_rondel(r, space):
    """Move the current nation's marker and resolve the space (IMP-RON-*, dispatch of §4)."""
    n = r.nation
    old = r.rondel_pos[n]
    cost = rondel_cost(old, space)
    if cost > 0:
        cash_to_bank(r, r.flag[n], cost)  # IMP-RON-3
    r.passed_investor = passes_investor(old, space)  # IMP-RON-5
    r.rondel_pos[n] = space
    if space == SP_FACTORY:
        r.phase = PH_FACTORY
    elif space == SP_PRODUCTION_1 or space == SP_PRODUCTION_2:
        produce(r, n)
        end_action(r)
    elif space == SP_MANEUVER_1 or space == SP_MANEUVER_2:
        start_maneuver(r)
    elif space == SP_INVESTOR:
        pay_interest(r, n)  # IMP-INV-1
        start_activity(r)
    elif space == SP_IMPORT:
        r.imp_count = 0
        r.phase = PH_IMPORT
    else:  # SP_TAXATION
        if collect_taxes(r, n):
            r.passed_investor = 0
            r.phase = PH_GAME_OVER  # IMP-END-1: nothing further, no investor activity
        else:
            end_action(r)


@internal(cache=True)
def start_maneuver(r):
    """Reset the maneuver bookkeeping (IMP-MAN-3) and open MOVE_SELECT."""
    clear_moves(r)
    r.mv_origin = r.mv_dest = r.mv_last = r.mv_region = -1
    r.mv_chain = 0
    r.phase = PH_MOVE


# --- factory -----------------------------------------------------------------------------------
@internal(cache=True)
def valid_build(r, h):
    """IMP-FAC-1/2: own province, no factory, unblocked, affordable."""
    n = r.nation
    if h // 5 != n or r.factory[h] or is_blocked(r, h):
        return False
    money = r.treasury[n]
    if r.factory_topup:  # IMP-OPT-4
        money += r.cash[r.flag[n]]
    return money >= FACTORY_COST


@internal(cache=True)
def do_build(r, h):
    n = r.nation
    from_treasury = min(FACTORY_COST, r.treasury[n])
    treasury_to_bank(r, n, from_treasury)  # IMP-FAC-2
    if from_treasury < FACTORY_COST:
        cash_to_bank(r, r.flag[n], FACTORY_COST - from_treasury)  # IMP-OPT-4 shortfall
    r.factory[h] = 1
    end_action(r)


# --- production --------------------------------------------------------------------------------
@internal(cache=True)
def place_home_chip(r, n, h):
    """IMP-PRO-3 / IMP-OPT-1: own chip on an own home province (one per province)."""
    if r.home_tax_chips and r.chip[h] < 0 and r.chips_left[n] > 0:
        r.chip[h] = n
        r.chips_left[n] -= 1


@internal(cache=True)
def produce(r, n):
    """IMP-PRO-1/2/3: every unblocked factory produces one unit, in increasing region index; the supply of
    each kind counted once and then kept (each unit produced takes one from it)."""
    left_armies, left_fleets = supply_left(r, n, 0), supply_left(r, n, 1)
    for h in range(5 * n, 5 * n + 5):
        if not r.factory[h] or is_blocked(r, h):
            continue
        if FACTORY_TYPE[h] == FT_SHIPYARD:
            if left_fleets <= 0:
                continue  # IMP-PRO-2
            r.fleets[n, h] += 1  # docked
            left_fleets -= 1
        else:
            if left_armies <= 0:
                continue  # IMP-PRO-2
            r.armies[n, h] += 1
            left_armies -= 1
        place_home_chip(r, n, h)


# --- import ------------------------------------------------------------------------------------
@internal(cache=True)
def valid_import(r, h, kind):
    """IMP-IMP-1/2: own unblocked province (a port for fleets), 1 in the treasury, unit in supply."""
    n = r.nation
    if h // 5 != n or is_blocked(r, h) or r.treasury[n] < IMPORT_COST:
        return False
    if kind == 1 and not is_port(h):
        return False
    return supply_left(r, n, kind) > 0


@internal(cache=True)
def do_import(r, h, kind):
    n = r.nation
    treasury_to_bank(r, n, IMPORT_COST)  # IMP-IMP-1
    if kind == 0:
        r.armies[n, h] += 1
    else:
        r.fleets[n, h] += 1
    r.imp_count += 1
    if r.imp_count >= IMPORT_MAX:
        end_action(r)


@internal(cache=True)
def _import_kinds(r):
    """Which kinds the current nation may import anywhere (IMP-IMP-1/2: 1 in the treasury, a unit of that
    kind in supply), as (army, fleet): worked out once, not once per province and kind."""
    n = r.nation
    if r.treasury[n] < IMPORT_COST:
        return False, False
    return supply_left(r, n, 0) > 0, supply_left(r, n, 1) > 0


@internal(cache=True)
def fill_imports(r, out, a_army, a_fleet):
    """Set out[a_army + h] / out[a_fleet + h] for every valid_import(r, h, 0 / 1) (IMP-IMP-1/2)."""
    army, fleet = _import_kinds(r)
    if not (army or fleet):
        return
    for h in range(5 * r.nation, 5 * r.nation + 5):
        if is_blocked(r, h):
            continue
        if army:
            out[a_army + h] = 1
        if fleet and is_port(h):
            out[a_fleet + h] = 1


@internal(cache=True)
def any_import(r):
    """Whether any valid_import(r, h, kind) holds (IMP-IMP-1/2)."""
    army, fleet = _import_kinds(r)
    if not (army or fleet):
        return False
    for h in range(5 * r.nation, 5 * r.nation + 5):
        if not is_blocked(r, h) and (army or (fleet and is_port(h))):
            return True
    return False
