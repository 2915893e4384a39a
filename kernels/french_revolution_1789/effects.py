"""The effect interpreter: legality and resolution of every compiled effect row of ``tables.EFF``.

Regime actions (FR-RA-*), ◆ abilities (FR-ACT-8), intrigue cards (FR-ACT-9) and on-acquire effects
(FR-AUC-5) all run through here; nothing is written per card name. Unit draws (instigation,
dispatch) and Police Network's steal stop at a chance node (``armies.py`` resolves them).
"""

from numba import njit

from .._common.jit import internal
from .._common.seats import count_held
from .state import CH_ARMY
from .state import CH_STEAL
from .state import LOC_PILE
from .state import PH_CHANCE
from .state import ST_DEAD
from .state import ST_EXILED
from .state import ST_FREE
from .state import ST_IMPRISONED
from .tables import CARD_DISPATCH
from .tables import CARD_PERSON
from .tables import CARD_VOTES
from .tables import CITY_ELIG
from .tables import D_ARMY
from .tables import D_CITY
from .tables import D_PERSON
from .tables import D_PLAYER
from .tables import D_REGIME
from .tables import E_AMOUNT
from .tables import E_ARMY
from .tables import E_CITIES
from .tables import E_DEC0
from .tables import E_DRAWS
from .tables import E_FLAG
from .tables import E_NDEC
from .tables import E_NEXT
from .tables import E_OP
from .tables import E_REGIMES
from .tables import EFF
from .tables import EXILED_MARKERS
from .tables import F_NO_ARMY
from .tables import F_NO_TILT
from .tables import F_SELF_DIES
from .tables import FRENCH
from .tables import IMPRISONED_MARKERS
from .tables import MAX_STRENGTH
from .tables import N_CARDS
from .tables import N_CITIES
from .tables import N_RA
from .tables import N_REGIMES
from .tables import OP_ARREST
from .tables import OP_ASSASSIN
from .tables import OP_CAMPAIGN
from .tables import OP_DISPATCH
from .tables import OP_DRAW_INTRIGUE
from .tables import OP_EXECUTE
from .tables import OP_EXILE
from .tables import OP_EXPEDITION
from .tables import OP_FREE_OWN
from .tables import OP_GAIN_RP
from .tables import OP_GAIN_VP
from .tables import OP_INSTIGATE
from .tables import OP_KILL
from .tables import OP_NATIONALISE
from .tables import OP_NOBLES
from .tables import OP_OTHERS_LOSE_RP
from .tables import OP_PLACE_SUPPORT
from .tables import OP_PLACE_VOTES
from .tables import OP_PLAYER_LOSE_VP
from .tables import OP_RELEASE
from .tables import OP_REMOVE_VOTES
from .tables import OP_RETURN
from .tables import OP_STEAL
from .tables import OP_VOTE
from .tables import RA_COST
from .tables import RA_VP
from .tables import RP_CAP
from .tables import VOTE_TARGETS


# --- small bookkeeping helpers -------------------------------------------------------------------
@internal(cache=True)
def gain_rp(r, p, x):
    r.rp[p] = min(RP_CAP, r.rp[p] + x)  # FR-GEN-4


@internal(cache=True)
def lose_rp(r, p, x):
    r.rp[p] = max(0, r.rp[p] - x)  # FR-GEN-3


@internal(cache=True)
def lose_vp(r, p, x):
    r.vp[p] = max(0, r.vp[p] - x)  # FR-GEN-3


@njit(cache=True)
def markers_free(r, status):
    """Imprisoned / exiled markers left in the supply (FR-RA-ARREST, FR-RA-EXILE)."""
    used = 0
    for c in range(N_CARDS):
        used += r.card_status[c] == status and r.card_owner[c] >= 0
    return (IMPRISONED_MARKERS if status == ST_IMPRISONED else EXILED_MARKERS) - used


@internal(cache=True)
def hand_size(r, p):
    return count_held(r.intr_loc, p)


@internal(cache=True)
def return_marker(r, city):
    o = r.city_owner[city]
    if o >= 0:
        r.supply[o] += 1
        r.city_owner[city] = -1


@internal(cache=True)
def place_marker(r, p, city):
    """Put p's marker in city, returning any other marker (FR-RA-CAMP); no-op without supply."""
    if r.city_owner[city] == p or r.supply[p] <= 0:
        return
    return_marker(r, city)
    r.city_owner[city] = p
    r.supply[p] -= 1


@internal(cache=True)
def single_army(mask, city):
    """The army to instigate in city when only one eligible type is allowed, else -1 (dual city)."""
    m = mask & CITY_ELIG[city]
    if m == 2:
        return 1
    if m == 4:
        return 2
    return -1


@internal(cache=True)
def cup_size(r, army):
    n = 0
    for k in range(MAX_STRENGTH + 1):
        n += r.cup[army, k]
    return n


# --- target legality -----------------------------------------------------------------------------
@internal(cache=True)
def person_ok(r, seat, e, c):
    """May person card c be the person target of effect e for seat?"""
    if not CARD_PERSON[c] or r.card_owner[c] < 0:
        return False
    st = r.card_status[c]
    if st == ST_DEAD:
        return False
    op = EFF[e, E_OP]
    own = r.card_owner[c] == seat
    if op == OP_ARREST:  # FR-RA-ARREST
        return (not own) and st == ST_FREE and markers_free(r, ST_IMPRISONED) > 0
    if op == OP_EXILE:  # FR-RA-EXILE
        return own and st != ST_EXILED and markers_free(r, ST_EXILED) > 0
    if op == OP_EXECUTE or op == OP_RELEASE:  # FR-RA-EXEC, FR-RA-RELEASE
        return st == ST_IMPRISONED
    if op == OP_RETURN:  # FR-RA-RETURN
        return own and st == ST_EXILED
    if op == OP_ASSASSIN:  # FR-RA-ASSASSIN
        return st == ST_EXILED
    if op == OP_KILL:  # Corday: another player's free or imprisoned person
        return (not own) and (st == ST_FREE or st == ST_IMPRISONED)
    if op == OP_FREE_OWN:  # Prison Break
        return own and st == ST_IMPRISONED
    if op == OP_INSTIGATE:  # Pitt's Gold: one of your exiled persons, tilted or not
        return own and st == ST_EXILED
    return False


@internal(cache=True)
def army_ok(r, e, city, army):
    return ((1 << army) & EFF[e, E_ARMY] & CITY_ELIG[city]) != 0 and cup_size(r, army) > 0


@internal(cache=True)
def city_ok(r, seat, e, city):
    op = EFF[e, E_OP]
    own = r.city_owner[city]
    if op == OP_CAMPAIGN:  # FR-RA-CAMP, FR-ARMY-4
        return r.city_army[city] == FRENCH and own != seat and r.supply[seat] > 0
    if op == OP_NOBLES:  # FR-RA-NOBLE
        return own < 0 and r.supply[seat] > 0
    if op == OP_NATIONALISE:  # FR-RA-NATION
        return own >= 0 and own != seat
    if op == OP_INSTIGATE:  # FR-RA-INSTIGATE (a), (b)
        return r.city_army[city] == FRENCH and (army_ok(r, e, city, 1) or army_ok(r, e, city, 2))
    if op == OP_DISPATCH:  # FR-ARMY-2
        a = r.city_army[city]
        return a != FRENCH and ((1 << a) & EFF[e, E_ARMY]) != 0 and cup_size(r, FRENCH) > 0
    if op == OP_PLACE_SUPPORT:  # Paris Rises / Journée
        if ((EFF[e, E_CITIES] >> city) & 1) == 0 or own == seat or r.supply[seat] <= 0:
            return False
        return (EFF[e, E_FLAG] & F_NO_ARMY) == 0 or r.city_army[city] == FRENCH
    return False


@internal(cache=True)
def regime_ok(r, e, g):
    op = EFF[e, E_OP]
    if op == OP_VOTE:  # FR-RA-VOTE: the current 【】 list
        return ((VOTE_TARGETS[r.regime] >> g) & 1) != 0
    if op == OP_PLACE_VOTES:
        return ((EFF[e, E_REGIMES] >> g) & 1) != 0
    if op == OP_REMOVE_VOTES:
        return r.votes[g] >= 1
    return False


@internal(cache=True)
def player_ok(r, seat, e, p):
    if p == seat or p >= r.num_players:
        return False
    if EFF[e, E_OP] == OP_STEAL:  # Police Network: a victim with >= 1 card
        return hand_size(r, p) > 0
    return EFF[e, E_OP] == OP_PLAYER_LOSE_VP


@internal(cache=True)
def any_target(r, seat, e, dtype):
    if dtype == D_PERSON:
        for c in range(N_CARDS):
            if person_ok(r, seat, e, c):
                return True
        return False
    if dtype == D_CITY:
        for c in range(N_CITIES):
            if city_ok(r, seat, e, c):
                return True
        return False
    if dtype == D_REGIME:
        for g in range(N_REGIMES):
            if regime_ok(r, e, g):
                return True
        return False
    if dtype == D_PLAYER:
        for p in range(r.num_players):
            if player_ok(r, seat, e, p):
                return True
        return False
    return True  # D_ARMY: implied by a legal city


@internal(cache=True)
def effect_ok(r, seat, e):
    """Does effect e have at least one fully legal completion for seat? (masks never dead-end)"""
    op = EFF[e, E_OP]
    if op < N_RA and r.rp[seat] < RA_COST[op]:  # FR-RA-FIN, FR-RA-EXPED
        return False
    if op == OP_EXPEDITION:  # FR-RA-EXPED: owning a Dispatch person is enough
        has = False
        for c in range(N_CARDS):
            if CARD_DISPATCH[c] and r.card_owner[c] == seat and r.card_status[c] != ST_DEAD:
                has = True
        if not has:
            return False
    if op == OP_DRAW_INTRIGUE and r.pile_n <= 0:
        return False
    for i in range(EFF[e, E_NDEC]):
        if not any_target(r, seat, e, EFF[e, E_DEC0 + i]):
            return False
    return True


@internal(cache=True)
def target_mask(r, seat, e, dtype, mask, base):
    """Set mask[base + x] for each legal target x of decision type dtype."""
    if dtype == D_PERSON:
        for c in range(N_CARDS):
            if person_ok(r, seat, e, c):
                mask[base + c] = 1
    elif dtype == D_CITY:
        for c in range(N_CITIES):
            if city_ok(r, seat, e, c):
                mask[base + c] = 1
    elif dtype == D_REGIME:
        for g in range(N_REGIMES):
            if regime_ok(r, e, g):
                mask[base + g] = 1
    elif dtype == D_PLAYER:
        for p in range(r.num_players):
            if player_ok(r, seat, e, p):
                mask[base + p] = 1
    else:
        for a in range(1, 3):
            if army_ok(r, e, r.mv_city, a):
                mask[base + a - 1] = 1


# --- resolution ----------------------------------------------------------------------------------
@internal(cache=True)
def apply_effects(r, seat, e):
    """Resolve effect row e and its chain for seat with the mv_* targets. Returns True if a chance
    node was opened (the move finishes in armies.resolve_chance)."""
    card = r.mv_card
    if card >= 0 and (EFF[e, E_FLAG] & F_NO_TILT) == 0:
        r.card_tilted[card] = 1  # FR-ACT-3
    while e >= 0:
        op = EFF[e, E_OP]
        amt = EFF[e, E_AMOUNT]
        if op < N_RA:
            r.rp[seat] -= RA_COST[op]  # FR-RA-FIN, FR-RA-EXPED
            r.vp[seat] += RA_VP[op]  # execution, release, return, reform, expedition, assassin
        if op == OP_VOTE:
            r.votes[r.mv_regime] += CARD_VOTES[card]  # FR-RA-VOTE
        elif op == OP_CAMPAIGN or op == OP_PLACE_SUPPORT or op == OP_NOBLES:
            place_marker(r, seat, r.mv_city)  # FR-RA-CAMP, FR-RA-NOBLE
        elif op == OP_ARREST:
            r.card_status[r.mv_person] = ST_IMPRISONED  # FR-RA-ARREST
        elif op == OP_EXILE:
            r.card_status[r.mv_person] = ST_EXILED  # FR-RA-EXILE (the imprisoned marker returns)
        elif op == OP_EXECUTE or op == OP_ASSASSIN:
            r.card_status[r.mv_person] = ST_DEAD  # FR-RA-EXEC, FR-RA-ASSASSIN
        elif op == OP_RELEASE or op == OP_RETURN or op == OP_FREE_OWN:
            r.card_status[r.mv_person] = ST_FREE  # FR-RA-RELEASE, FR-RA-RETURN, Prison Break
        elif op == OP_NATIONALISE:
            o = r.city_owner[r.mv_city]  # FR-RA-NATION
            return_marker(r, r.mv_city)
            lose_vp(r, o, 2)
        elif op == OP_INSTIGATE or op == OP_DISPATCH:
            r.ch_kind = CH_ARMY
            if op == OP_DISPATCH:  # FR-ARMY-2
                r.ch_army = FRENCH
                r.ch_dispatch = 1
                r.ch_bonus = amt
            else:  # FR-RA-INSTIGATE
                r.ch_army = r.mv_army if r.mv_army >= 0 else single_army(EFF[e, E_ARMY], r.mv_city)
                r.ch_dispatch = 0
                r.ch_bonus = 0
            r.ch_draws = EFF[e, E_DRAWS]
            return True
        elif op == OP_GAIN_VP:
            r.vp[seat] += amt
        elif op == OP_GAIN_RP:
            gain_rp(r, seat, amt)
        elif op == OP_OTHERS_LOSE_RP:
            for p in range(r.num_players):
                if p != seat:
                    lose_rp(r, p, amt)
        elif op == OP_PLAYER_LOSE_VP:
            lose_vp(r, r.mv_player, amt)
        elif op == OP_PLACE_VOTES:
            g = r.mv_regime
            if g < 0:  # a fixed single box (on-acquire events)
                g = 0
                while ((EFF[e, E_REGIMES] >> g) & 1) == 0:
                    g += 1
            r.votes[g] += amt
        elif op == OP_REMOVE_VOTES:
            r.votes[r.mv_regime] -= min(amt, r.votes[r.mv_regime])
        elif op == OP_DRAW_INTRIGUE:
            r.pile_n -= 1
            j = r.pile[r.pile_n]
            r.pile[r.pile_n] = -1
            r.intr_loc[j] = seat
            r.intr_known[j] = 1 << seat
        elif op == OP_STEAL:
            r.ch_kind = CH_STEAL
            return True
        elif op == OP_KILL:
            r.card_status[r.mv_person] = ST_DEAD
            r.vp[seat] += amt
            if EFF[e, E_FLAG] & F_SELF_DIES:
                r.card_status[card] = ST_DEAD
        e = EFF[e, E_NEXT]
    return False


_unused = (LOC_PILE, PH_CHANCE, D_ARMY)
