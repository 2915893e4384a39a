"""Rollout policy for truncated search rollouts (the optional kernel hook ``rollout_action``).

Uniformly random rollouts misplay Imperial where its worth is decided. A random investor buys one of up to
540 bond purchases and almost never passes, so a few investor rounds pour every seat's cash (which scores
one for one, IMP-SCR-2) into bonds of nations that will never pay a multiplier (IMP-SCR-1). A random rondel
move pays for extra steps out of the flag holder's cash (IMP-RON-3) and seldom taxes, so power, the game's
clock and every bond's multiplier (IMP-TAX-4), hardly moves within a rollout. A random maneuver is a long
walk of origin and destination picks that ends only when DONE is drawn, fights battles it loses and
claims no region on purpose (IMP-CHP-2). So the rollouts play the beginner's strategy of the ``heuristic``
agent (agents/heuristics/imperial.py), written here over the record:

- rondel: the space that scores best for the nation (Taxation by its power and success bonus, Factory
  when affordable, Production, Import, Maneuver while units stand at home, Investor for interest and
  the card), less 1.5 per money a paid step costs;
- factory, import: the kind the nation is short of, where fewest foreign (factory) or own (import)
  units stand; no import with less than 2 in the treasury;
- maneuver: units out of home towards neutral regions and seas without the nation's chip, away from
  stronger foreign stacks; DONE when no unit is worth moving; seas where own fleets are strongest;
  hostile only with 3 armies; fight only a weaker side, ask the weakest first, destroy factories;
- investor: the bond that takes or keeps control of the most promising nation, else the best interest
  per money; pass when no bond is worth it;
- with probability ROLLOUT_EXPLORE a decision is uniformly random instead, so rollouts still sample
  alternatives; ties between equally good units or destinations are broken at random.
"""

from numba import njit

from .._common.jit import internal
from .._common.masks import sample_legal
from .._common.rng import uniform_float
from .._common.rng import uniform_int
from .actions import A_ASK
from .actions import A_BUILD
from .actions import A_BUY
from .actions import A_DEST
from .actions import A_DESTROY
from .actions import A_FIGHT
from .actions import A_FRIENDLY
from .actions import A_HOSTILE
from .actions import A_IMPORT_ARMY
from .actions import A_IMPORT_FLEET
from .actions import A_ORIGIN
from .actions import A_PASS
from .actions import A_RONDEL
from .actions import A_SEA
from .board import has
from .board import is_blocked
from .economy import rondel_cost
from .economy import rondel_steps
from .investor import interest_owed
from .investor import investment
from .state import PH_ANSWER
from .state import PH_ASK
from .state import PH_BUY
from .state import PH_DEST
from .state import PH_DESTROY
from .state import PH_FACTORY
from .state import PH_FIGHT
from .state import PH_IMPORT
from .state import PH_MOVE
from .state import PH_RONDEL
from .state import PH_SEA
from .state import PH_STANCE
from .tables import BOND_COST
from .tables import BOND_INTEREST
from .tables import FACTORY_COST
from .tables import FACTORY_TYPE
from .tables import FIRST_NEUTRAL
from .tables import FIRST_SEA
from .tables import FT_SHIPYARD
from .tables import LAND_ADJ
from .tables import N_NATIONS
from .tables import N_REGIONS
from .tables import N_SEAS
from .tables import TAX_MAX_POS
from .tables import TAX_MIN_POS
from .tables import UNIT_LIMIT
from .taxation import tax_revenue

ROLLOUT_EXPLORE = 0.1  # chance of a uniformly random decision
PASS_FLOOR = 0.5  # a bond purchase must score above this to be made


# --- reading the board ----------------------------------------------------------------------------
@internal(cache=True)
def _strength(r, n, x):
    """Units of nation n that can fight in region x: fleets at sea, armies and docked fleets on land."""
    if x >= FIRST_SEA:
        return r.fleets[n, x]
    return r.armies[n, x] + r.fleets[n, x]


@internal(cache=True)
def _foreign(r, n, x):
    """Units of every nation but n in region x."""
    t = 0
    for m in range(N_NATIONS):
        if m != n:
            t += _strength(r, m, x)
    return t


@internal(cache=True)
def _threat(r, n, h):
    """Foreign units in home province h and its land neighbours."""
    t = _foreign(r, n, h)
    for x in range(FIRST_SEA):
        if has(LAND_ADJ[h], x):
            t += _foreign(r, n, x)
    return t


@internal(cache=True)
def _home_units(r, n, h):
    return r.armies[n, h] + r.fleets[n, h]


# --- rondel ---------------------------------------------------------------------------------------
@internal(cache=True)
def _space_value(r, n, sp, units, at_home):
    """How much nation n gains from the action of rondel space sp (before the cost of getting there)."""
    treasury = r.treasury[n]
    if sp == 7:  # Taxation: power points and success bonus (IMP-TAX-2/4), income above upkeep (IMP-TAX-3)
        tax = tax_revenue(r, n)
        chart = min(max(tax, TAX_MIN_POS), TAX_MAX_POS)
        return 2.0 * (chart - TAX_MIN_POS) + max(0, chart - r.tax_pos[n]) + 0.3 * max(0, tax - units)
    if sp == 0:  # Factory (IMP-FAC-1/2): a free, unblocked home province and the money
        idle = 0
        for h in range(5 * n, 5 * n + 5):
            idle += not r.factory[h] and not is_blocked(r, h)
        return 6.0 if treasury >= FACTORY_COST and idle > 0 else -2.0
    if sp == 1 or sp == 5:  # Production (IMP-PRO-1/2)
        factories = 0
        for h in range(5 * n, 5 * n + 5):
            factories += r.factory[h]
        supply = UNIT_LIMIT[n, 0] + UNIT_LIMIT[n, 1] - units
        return 1.5 * min(factories, supply) if units < 8 else 0.5
    if sp == 4:  # Import (IMP-IMP-1)
        return min(3, treasury) * 1.2 if units < 6 and treasury >= 2 else -1.0
    if sp == 2 or sp == 6:  # Maneuver: units at home should go out and claim regions (IMP-CHP-2)
        return 1.5 * at_home + 0.5 * (units - at_home) if units else -2.0
    card = 3.0 if r.investor_card == r.flag[n] else 0.0  # Investor: interest and the card (IMP-INV-2/5)
    return 2.0 + card + 0.5 * interest_owed(r, n, r.flag[n])


@internal(cache=True)
def _rondel_action(r, mask):
    """The best-scoring legal space, less 1.5 per money of paid steps (IMP-RON-3)."""
    n = r.nation
    units = at_home = 0
    for x in range(N_REGIONS):
        units += r.armies[n, x] + r.fleets[n, x]
    for h in range(5 * n, 5 * n + 5):
        at_home += _home_units(r, n, h)
    old = r.rondel_pos[n]
    best, best_score = -1, -1e9
    for sp in range(8):
        if not mask[A_RONDEL + sp]:
            continue
        score = _space_value(r, n, sp, units, at_home)
        score -= 1.5 * rondel_cost(old, sp) + 0.01 * rondel_steps(old, sp)
        if score > best_score:
            best, best_score = A_RONDEL + sp, score
    return best


# --- factory and import ---------------------------------------------------------------------------
@internal(cache=True)
def _factory_action(r, mask):
    """IMP-FAC-1: a factory of the kind the nation has fewer of (a shipyard when it has < 2 fleets), where
    fewest foreign units stand around."""
    n = r.nation
    have_shipyards = have_armaments = fleets = 0
    for h in range(5 * n, 5 * n + 5):
        if r.factory[h]:
            have_shipyards += FACTORY_TYPE[h] == FT_SHIPYARD
            have_armaments += FACTORY_TYPE[h] != FT_SHIPYARD
    for x in range(N_REGIONS):
        fleets += r.fleets[n, x]
    best, best_score = A_PASS, -1e9
    for h in range(5 * n, 5 * n + 5):
        if not mask[A_BUILD + h]:
            continue
        shipyard = FACTORY_TYPE[h] == FT_SHIPYARD
        score = 2.0 - (have_shipyards if shipyard else have_armaments)
        score += 1.0 if shipyard and fleets < 2 else 0.0
        score -= 0.5 * _threat(r, n, h)
        if score > best_score:
            best, best_score = A_BUILD + h, score
    return best


@internal(cache=True)
def _import_action(r, mask):
    """IMP-IMP-1/2: an army (else a fleet) into the home province holding the fewest own units; nothing
    with less than 2 in the treasury."""
    n = r.nation
    if r.treasury[n] < 2:
        return A_PASS
    for base in (A_IMPORT_ARMY, A_IMPORT_FLEET):
        best, fewest = -1, 1 << 30
        for h in range(5 * n, 5 * n + 5):
            if mask[base + h] and _home_units(r, n, h) < fewest:
                best, fewest = base + h, _home_units(r, n, h)
        if best >= 0:
            return best
    return A_PASS


# --- maneuver -------------------------------------------------------------------------------------
@internal(cache=True)
def _origin_score(r, n, x):
    """Worth of moving a unit out of region x: out of home first; never off an unclaimed region of its own."""
    if x < FIRST_NEUTRAL and x // 5 == n:
        return 3.0
    if r.chip[x] == n and _strength(r, n, x) > 1:
        return 2.0  # keep one on the chip, move the rest on
    if r.chip[x] != n and _foreign(r, n, x) == 0:
        return -1.0  # alone there: the chip comes at DONE (IMP-CHP-2)
    return 1.0


@internal(cache=True)
def _dest_score(r, n, x):
    """Worth of ending a move in region x: neutral regions and seas without the nation's chip (IMP-CHP-1),
    above all a rival's; not into a stronger foreign stack."""
    if x >= FIRST_NEUTRAL:
        score = 5.0 if r.chip[x] != n else 1.0
        score += 1.0 if r.chip[x] >= 0 and r.chip[x] != n else 0.0
    else:
        score = 0.0 if x // 5 == n else -1.0
    foreign = _foreign(r, n, x)
    if foreign:
        score -= 4.0 if foreign >= _strength(r, n, x) + 1 else 1.0
    return score


@internal(cache=True)
def _best_region(r, mask, base, count, origin, floor, fallback, rng):
    """The legal action base + x of the highest origin (or destination) score above floor, ties broken by a
    random starting point; fallback when none scores above floor."""
    best, start = fallback, uniform_int(rng, count)
    for i in range(count):
        x = (start + i) % count
        if mask[base + x]:
            score = _origin_score(r, r.nation, x) if origin else _dest_score(r, r.nation, x)
            if score > floor:
                best, floor = base + x, score
    return best


@internal(cache=True)
def _sea_action(r, mask):
    """IMP-ARM-4: carry the army over the sea where own fleets are strongest and foreign fleets fewest."""
    n = r.nation
    best, best_score = -1, -1 << 30
    for k in range(N_SEAS):
        x = FIRST_SEA + k
        if mask[A_SEA + k] and r.fleets[n, x] - _foreign(r, n, x) > best_score:
            best, best_score = A_SEA + k, r.fleets[n, x] - _foreign(r, n, x)
    return best


@internal(cache=True)
def _combat_action(r, mask):
    """IMP-STN-1: hostile with 3 armies; IMP-CMB-2/3: fight the side the mover outnumbers most, ask the
    weakest first, answer only when stronger; IMP-DST-1: destroy."""
    n, x = r.nation, r.mv_region
    if r.phase == PH_STANCE:
        return A_HOSTILE if mask[A_HOSTILE] and r.armies[n, x] >= 3 else A_FRIENDLY
    if r.phase == PH_ANSWER:
        return A_FIGHT + n if _strength(r, r.cmb_defender, x) > _strength(r, n, x) else A_PASS
    if r.phase == PH_DESTROY:
        return A_DESTROY
    best, margin = (A_PASS, 0) if r.phase == PH_FIGHT else (-1, 1 << 30)
    for m in range(N_NATIONS):
        if r.phase == PH_FIGHT and mask[A_FIGHT + m] and _strength(r, n, x) - _strength(r, m, x) > margin:
            best, margin = A_FIGHT + m, _strength(r, n, x) - _strength(r, m, x)
        elif r.phase == PH_ASK and mask[A_ASK + m] and _strength(r, m, x) < margin:
            best, margin = A_ASK + m, _strength(r, m, x)
    return best


# --- investor -------------------------------------------------------------------------------------
@internal(cache=True)
def _nation_terms(r, p, n):
    """(how promising nation n is by power and tax chart, buyer p's investment in n (IMP-BND-2), the flag
    holder's investment, the best other seat's investment): read once per nation, not once per bond."""
    value = 1.0 + r.power[n] / 5.0 + (r.tax_pos[n] - TAX_MIN_POS) / 2.0
    holder = investment(r, n, r.flag[n]) if r.flag[n] >= 0 else 0
    rival = 0
    for q in range(r.num_players):
        if q != p:
            rival = max(rival, investment(r, n, q))
    return value, investment(r, n, p), holder, rival


@internal(cache=True)
def _score(r, p, n, k, t, terms):
    """Interest gained per money (bond k + 1, returning bond t, IMP-BND-1) weighted by the nation's promise,
    plus 2 + 0.3 x promise for taking its flag, or 1 for keeping it against a close rival (IMP-BND-2)."""
    value, inv, holder, rival = terms
    price = BOND_COST[k] - (BOND_COST[t - 1] if t else 0)
    score = (BOND_INTEREST[k] - (BOND_INTEREST[t - 1] if t else 0)) * value / max(price, 1)
    if r.flag[n] != p:
        return score + (2.0 + 0.3 * value if inv + price > holder else 0.0)
    return score + (1.0 if rival + 9 >= inv else 0.0)


@internal(cache=True)
def buy_score(r, a):
    """What BUY action a is worth to the seat due to buy (``_score``)."""
    p, b = r.inv_buyer, a - A_BUY
    n = b // 90
    return _score(r, p, n, (b % 90) // 10, b % 10, _nation_terms(r, p, n))


@internal(cache=True)
def _buy_action(r, mask):
    """The best-scoring purchase (``buy_score``); PASS when none scores above PASS_FLOOR."""
    p = r.inv_buyer
    best, best_score = A_PASS, PASS_FLOOR
    for n in range(N_NATIONS):
        terms = _nation_terms(r, p, n)
        for b in range(90):
            if mask[A_BUY + 90 * n + b]:
                score = _score(r, p, n, b // 10, b % 10, terms)
                if score > best_score:
                    best, best_score = A_BUY + 90 * n + b, score
    return best


# --- the hook -------------------------------------------------------------------------------------
@njit(cache=True)
def policy_action(r, mask, rng):
    """The heuristic's choice for the seat to move in record r (``rng`` breaks ties in a maneuver)."""
    ph = r.phase
    if ph == PH_RONDEL:
        return _rondel_action(r, mask)
    if ph == PH_FACTORY:
        return _factory_action(r, mask)
    if ph == PH_IMPORT:
        return _import_action(r, mask)
    if ph == PH_MOVE:  # never toggles a stance (IMP-STN-2)
        return _best_region(r, mask, A_ORIGIN, N_REGIONS, True, 0.0, A_PASS, rng)
    if ph == PH_DEST:
        return _best_region(r, mask, A_DEST, N_REGIONS, False, -1e9, -1, rng)
    if ph == PH_SEA:
        return _sea_action(r, mask)
    if ph == PH_BUY:
        return _buy_action(r, mask)
    return _combat_action(r, mask)


@njit(cache=True)
def rollout_action(s, mask, rng):
    """A legal action for the seat to move (``mask`` is its legal mask), drawn with the search's ``rng``."""
    if uniform_float(rng) < ROLLOUT_EXPLORE:
        return sample_legal(mask, rng)
    return policy_action(s[0], mask, rng)
