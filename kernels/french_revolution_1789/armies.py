"""Armies: the unit draws of troop instigation and dispatch, and Police Network's steal, as explicit
chance (FR-RA-INSTIGATE, FR-ARMY-1..5; spec §7 items 5 and 6).

Chance outcome ids: for a unit draw, the strength 1..4 of the unit that resolves (the strongest of
``ch_draws`` units drawn without replacement, FR-ARMY-5); for a steal, the intrigue card index 0..13.
"""

from .._common.chance import comb
from .._common.jit import internal
from .._common.rng import bag_draw
from .._common.rng import uniform_int
from .._common.seats import count_held
from .._common.seats import nth_held
from .effects import place_marker
from .effects import return_marker
from .state import CH_ARMY
from .state import CH_NONE
from .state import CH_STEAL
from .tables import CITY_DEF
from .tables import FRENCH
from .tables import MAX_STRENGTH
from .tables import N_INTRIGUE

NUM_CHANCE_OUTCOMES = N_INTRIGUE
assert 8 * (MAX_STRENGTH + 1) <= 63  # _strongest_drawn counts the units drawn 8 bits per strength


@internal(cache=True)
def draw_probs(r, out_ids, out_probs):
    """Exact P(strongest drawn unit has strength k) for the pending unit draw."""
    cup = r.cup[r.ch_army]
    total = 0
    for k in range(MAX_STRENGTH + 1):
        total += cup[k]
    d = min(r.ch_draws, total)
    n = 0
    below = 0  # units of strength < k
    denom = comb(total, d)
    for k in range(1, MAX_STRENGTH + 1):
        if cup[k] > 0:
            p = (comb(below + cup[k], d) - comb(below, d)) / denom
            out_ids[n] = k
            out_probs[n] = p
            n += 1
        below += cup[k]
    return n


@internal(cache=True)
def steal_probs(r, out_ids, out_probs):
    victim = r.mv_player
    n = 0
    for j in range(N_INTRIGUE):
        if r.intr_loc[j] == victim:
            out_ids[n] = j
            n += 1
    for i in range(n):
        out_probs[i] = 1.0 / n
    return n


@internal(cache=True)
def _strongest_drawn(r):
    """FR-ARMY-5: the strongest of ``ch_draws`` units drawn without replacement from the army's cup.

    The units are drawn from the record's cup itself and put back after, so the draws (and the generator)
    are those of a scratch copy of the cup without the copy: the per-step path allocates nothing (#18).
    The units drawn are counted 8 bits per strength in one integer (at most ch_draws <= 127 each)."""
    cup = r.cup[r.ch_army]
    total = 0
    for k in range(MAX_STRENGTH + 1):
        total += cup[k]
    best = 0
    drawn = 0
    for _ in range(min(r.ch_draws, total)):
        k = bag_draw(r.rng, cup)
        drawn += 1 << (8 * k)
        best = max(best, k)  # FR-ARMY-5: the stronger resolves
    for k in range(MAX_STRENGTH + 1):
        cup[k] += (drawn >> (8 * k)) & 0xFF
    return best


@internal(cache=True)
def sample_outcome(r):
    if r.ch_kind == CH_ARMY:
        return _strongest_drawn(r)
    victim = r.mv_player
    # spec §7.6: uniform over the victim's hand
    return nth_held(r.intr_loc, victim, uniform_int(r.rng, count_held(r.intr_loc, victim)))


@internal(cache=True)
def _take_city(r, seat, city, army, strength, beaten):
    """The drawn unit (``army``, ``strength``) takes ``city``: the defender goes back to ``beaten``'s cup and the
    city's marker becomes ``seat``'s (FR-ARMY-2, FR-RA-INSTIGATE)."""
    r.cup[beaten, r.city_str[city]] += 1
    r.cup[army, strength] -= 1
    r.city_army[city] = army
    r.city_str[city] = strength
    return_marker(r, city)
    place_marker(r, seat, city)
    r.last_success = 1


@internal(cache=True)
def resolve_chance(r, outcome):
    """Apply a drawn unit (strength = outcome) or a stolen card (index = outcome)."""
    seat = r.act_player
    city = r.mv_city
    if r.ch_kind == CH_STEAL:
        r.intr_loc[outcome] = seat  # Police Network
        r.intr_known[outcome] = (1 << seat) | (1 << r.mv_player)  # taker and victim know it
    elif r.ch_dispatch:
        enemy = r.city_army[city]
        r.last_draw = outcome
        if outcome + r.ch_bonus > r.city_str[city]:  # FR-ARMY-2, FR-ARMY-3 (ties to the defender)
            _take_city(r, seat, city, FRENCH, outcome, enemy)
        else:
            r.last_success = 0
    else:
        r.last_draw = outcome
        if outcome > r.city_str[city] + CITY_DEF[city]:  # FR-RA-INSTIGATE success
            _take_city(r, seat, city, r.ch_army, outcome, FRENCH)
        else:  # failure: the unit returns to its cup
            r.last_success = 0
    r.ch_kind = CH_NONE
