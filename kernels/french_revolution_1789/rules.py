"""French Revolution 1789 entry points: setup, whose move, legal masks, stepping, chance,
determinization, end and scores. ``r = s[0]`` is a view of the shape-(1,) record.
"""

import sys

import numpy as np
from numba import njit

from .._common.contract import CHANCE
from .._common.contract import TERMINAL
from .._common.jit import internal
from .._common.masks import clear
from .._common.rng import seed_rng
from .._common.rng import shuffle
from .._common.rng import uniform_int
from .._common.scoring import final_shares
from .._common.scoring import seat_values
from .._common.stepping import make_chance_step
from .._common.stepping import make_step_and_mask
from .._common.stepping import phase_is
from .actions import A_ABILITY
from .actions import A_ARMY
from .actions import A_BID
from .actions import A_CITY
from .actions import A_INTRIGUE
from .actions import A_PASS
from .actions import A_PERSON
from .actions import A_PLAYER
from .actions import A_RA
from .actions import A_REGIME
from .actions import A_SELECT
from .armies import draw_probs
from .armies import resolve_chance
from .armies import sample_outcome
from .armies import steal_probs
from .auction import do_bid
from .auction import do_pass
from .auction import valid_bids
from .effects import apply_effects
from .effects import effect_ok
from .effects import single_army
from .effects import target_mask
from .phases import end_action_phase
from .phases import income
from .phases import reveal_next
from .state import CH_ARMY
from .state import CH_NONE
from .state import CH_STEAL
from .state import LOC_PILE
from .state import LOC_PLAYED
from .state import MAX_SEATS
from .state import PH_ACTION
from .state import PH_AUCTION
from .state import PH_CHANCE
from .state import PH_CHOOSE
from .state import PH_GAME_OVER
from .state import PH_TARGET
from .state import ST_DEAD
from .state import ST_EXILED
from .state import ST_FREE
from .state import ST_IMPRISONED
from .tables import ARMY_UNITS
from .tables import CARD_ABILITY
from .tables import CARD_MARKS
from .tables import CARD_PERSON
from .tables import D_ARMY
from .tables import D_CITY
from .tables import D_PERSON
from .tables import D_PLAYER
from .tables import D_REGIME
from .tables import DEALT
from .tables import DECK_CARDS
from .tables import DECK_START
from .tables import E_ARMY
from .tables import E_DEC0
from .tables import E_NDEC
from .tables import EFF
from .tables import FRENCH
from .tables import FRENCH_UNIT_STRENGTHS
from .tables import INTRIGUE_EFFECT
from .tables import MAX_STRENGTH
from .tables import N_CARDS
from .tables import N_CITIES
from .tables import N_INTRIGUE
from .tables import N_RA
from .tables import N_TURNS
from .tables import OP_INSTIGATE
from .tables import RA_MARK
from .tables import RA_NEEDS_EXILED
from .tables import REGIME_ACTIONS
from .tables import START_REGIME
from .tables import SUPPORT_MARKERS

# The intrigue cards in index order, copied and shuffled at setup 4 (a copy of a table, as setup 6's units are, so
# that a first use compiles no np.arange for it).
INTRIGUE_ORDER = np.arange(N_INTRIGUE, dtype=np.int8)


# --- setup ---------------------------------------------------------------------------------------
@njit(cache=True)
def init_state(s, num_players, seed, person_marks):
    """Setup 1..7 (spec §3), then turn I's income and the first revealed card."""
    r = s[0]
    seed_rng(r.rng, seed)
    r.person_marks = person_marks
    r.num_players = num_players
    r.regime = START_REGIME  # setup 1
    r.turn = 0
    for p in range(num_players):
        r.supply[p] = SUPPORT_MARKERS  # setup 2
    for c in range(N_CARDS):
        r.card_owner[c] = -1
        r.deck[c] = DECK_CARDS[c]
    for d in range(N_TURNS):  # setup 3: shuffle each deck separately
        shuffle(r.rng, r.deck[DECK_START[d] : DECK_START[d + 1]])
    order = INTRIGUE_ORDER.copy()  # setup 4: deal round-robin from the top
    shuffle(r.rng, order)
    k = 0
    for _ in range(DEALT[num_players]):
        for p in range(num_players):
            r.intr_loc[order[k]] = p
            r.intr_known[order[k]] = 1 << p
            k += 1
    r.pile_n = 0
    for i in range(N_INTRIGUE):
        r.pile[i] = -1
    for i in range(N_INTRIGUE - 1, k - 1, -1):  # the rest is the pile; order[k] is its top card
        r.intr_loc[order[i]] = LOC_PILE
        r.pile[r.pile_n] = order[i]
        r.pile_n += 1
    units = FRENCH_UNIT_STRENGTHS.copy()  # setup 6: French units face up on the cities
    shuffle(r.rng, units)
    for a in range(3):
        for st in range(MAX_STRENGTH + 1):
            r.cup[a, st] = ARMY_UNITS[a, st]
    for c in range(N_CITIES):
        r.city_owner[c] = -1
        r.city_army[c] = FRENCH
        r.city_str[c] = units[c]
        r.cup[FRENCH, units[c]] -= 1
    r.start_player = uniform_int(r.rng, num_players)  # setup 7
    r.mv_eff = -1
    _clear_move(r)
    r.last_passer = -1
    income(r)  # turn I: FR-INC-1
    r.deck_pos = 0
    reveal_next(r, r.start_player)  # FR-AUC-1


@internal(cache=True)
def _clear_move(r):
    r.mv_eff = -1
    r.mv_card = -1
    r.mv_intr = -1
    r.mv_stage = 0
    r.mv_regime = -1
    r.mv_city = -1
    r.mv_person = -1
    r.mv_player = -1
    r.mv_army = -1
    r.ch_kind = CH_NONE


# --- whose decision ------------------------------------------------------------------------------
@njit(cache=True)
def to_move(s):
    r = s[0]
    if r.phase == PH_AUCTION:
        return np.int64(r.auc_bidder)
    if r.phase == PH_GAME_OVER:
        return np.int64(TERMINAL)
    if r.phase == PH_CHANCE:
        return np.int64(CHANCE)
    return np.int64(r.act_player)


is_over = phase_is(PH_GAME_OVER)
is_chance = phase_is(PH_CHANCE)


# --- legality ------------------------------------------------------------------------------------
@internal(cache=True)
def regime_action_ok(r, seat, card, a):
    """FR-ACT-5..7: may the selected card perform regime action a now?"""
    if not REGIME_ACTIONS[r.regime, a] or not CARD_PERSON[card]:
        return False
    st = r.card_status[card]
    if st == ST_FREE:
        if RA_NEEDS_EXILED[a]:  # troop instigation is reserved to exiled persons
            return False
    elif st == ST_EXILED:
        if not RA_NEEDS_EXILED[a]:  # FR-ACT-7
            return False
    else:
        return False  # FR-ACT-6: imprisoned persons cannot act
    if r.person_marks and (CARD_MARKS[card] & RA_MARK[a]) == 0:  # FR-OPT-1
        return False
    return effect_ok(r, seat, a)


@internal(cache=True)
def ability_ok(r, seat, card):
    """FR-ACT-8: a ◆ ability of an untilted card (person: free only; event: always)."""
    e = CARD_ABILITY[card]
    if e < 0:
        return False
    if CARD_PERSON[card] and r.card_status[card] != ST_FREE:
        return False
    return effect_ok(r, seat, e)


@internal(cache=True)
def card_ok(r, seat, card):
    if r.card_owner[card] != seat or r.card_status[card] == ST_DEAD or r.card_tilted[card]:
        return False
    if ability_ok(r, seat, card):
        return True
    for a in range(N_RA):
        if regime_action_ok(r, seat, card, a):
            return True
    return False


@internal(cache=True)
def _decision_base(dtype):
    if dtype == D_PERSON:
        return A_PERSON
    if dtype == D_CITY:
        return A_CITY
    if dtype == D_REGIME:
        return A_REGIME
    if dtype == D_PLAYER:
        return A_PLAYER
    return A_ARMY


@njit(cache=True)
def legal_mask(s, out):
    """Fill out (uint8[NUM_ACTIONS]) with the legal actions of the seat to move; all 0 otherwise."""
    r = s[0]
    clear(out)
    ph = r.phase
    if ph == PH_AUCTION:
        valid_bids(r, out)
    elif ph == PH_ACTION:
        seat = r.act_player
        out[A_PASS] = 1  # FR-ACT-2
        for c in range(N_CARDS):
            if card_ok(r, seat, c):
                out[A_SELECT + c] = 1
        for j in range(N_INTRIGUE):
            if r.intr_loc[j] == seat and effect_ok(r, seat, INTRIGUE_EFFECT[j]):
                out[A_INTRIGUE + j] = 1  # FR-ACT-9
    elif ph == PH_CHOOSE:
        seat = r.act_player
        for a in range(N_RA):
            if regime_action_ok(r, seat, r.mv_card, a):
                out[A_RA + a] = 1
        if ability_ok(r, seat, r.mv_card):
            out[A_ABILITY] = 1
    elif ph == PH_TARGET:
        dtype = EFF[r.mv_eff, E_DEC0 + r.mv_stage]
        target_mask(r, r.act_player, r.mv_eff, dtype, out, _decision_base(dtype))


# --- stepping ------------------------------------------------------------------------------------
@internal(cache=True)
def _next_actor(r):
    n = r.num_players
    p = r.act_player
    for _ in range(n):
        p = (p + 1) % n
        if not r.act_passed[p]:
            r.act_player = p
            return


@internal(cache=True)
def _finish_move(r):
    _clear_move(r)
    r.phase = PH_ACTION
    _next_actor(r)


@internal(cache=True)
def _resolve(r):
    if apply_effects(r, r.act_player, r.mv_eff):
        r.phase = PH_CHANCE
    else:
        _finish_move(r)


@internal(cache=True)
def _advance_stage(r):
    """Move to the next sub-decision; skip army_if_dual for single-army cities; resolve at the end."""
    e = r.mv_eff
    r.mv_stage += 1
    while r.mv_stage < EFF[e, E_NDEC]:
        if EFF[e, E_DEC0 + r.mv_stage] == D_ARMY and single_army(EFF[e, E_ARMY], r.mv_city) >= 0:
            r.mv_stage += 1
            continue
        r.phase = PH_TARGET
        return
    _resolve(r)


@internal(cache=True)
def _start_effect(r, e):
    r.mv_eff = e
    r.mv_stage = -1
    _advance_stage(r)


@njit(cache=True)
def step_decision(s, action):
    """Apply one legal decision; an instigation, dispatch or steal stops at the chance node."""
    r = s[0]
    r.decisions += 1
    ph = r.phase
    if ph == PH_AUCTION:
        if action == A_PASS:
            do_pass(r)
        else:
            do_bid(r, action - A_BID)
    elif ph == PH_ACTION:
        if action == A_PASS:
            p = r.act_player
            r.act_passed[p] = 1  # FR-ACT-2
            r.last_passer = p
            done = True
            for q in range(r.num_players):
                if not r.act_passed[q]:
                    done = False
            if done:
                end_action_phase(r)
            else:
                _next_actor(r)
        elif action < A_INTRIGUE:
            r.mv_card = action - A_SELECT
            r.phase = PH_CHOOSE
        else:
            j = action - A_INTRIGUE
            r.mv_intr = j
            r.intr_loc[j] = LOC_PLAYED  # FR-ACT-9: leaves the game
            r.intr_known[j] = (1 << MAX_SEATS) - 1
            _start_effect(r, INTRIGUE_EFFECT[j])
    elif ph == PH_CHOOSE:
        if action == A_ABILITY:
            _start_effect(r, CARD_ABILITY[r.mv_card])
        else:
            _start_effect(r, action - A_RA)
    elif ph == PH_TARGET:
        if action >= A_ARMY:
            r.mv_army = action - A_ARMY + 1
        elif action >= A_PLAYER:
            r.mv_player = action - A_PLAYER
        elif action >= A_REGIME:
            r.mv_regime = action - A_REGIME
        elif action >= A_PERSON:
            r.mv_person = action - A_PERSON
        else:
            r.mv_city = action - A_CITY
        _advance_stage(r)


@njit(cache=True)
def chance_outcomes(s, out_ids, out_probs):
    r = s[0]
    if r.phase != PH_CHANCE:
        return 0
    if r.ch_kind == CH_ARMY:
        return draw_probs(r, out_ids, out_probs)
    return steal_probs(r, out_ids, out_probs)


@njit(cache=True)
def sample_chance(s):
    return sample_outcome(s[0])


@njit(cache=True)
def step_chance(s, outcome):
    r = s[0]
    resolve_chance(r, outcome)
    _finish_move(r)


# step: a decision, then every chance event it opens, drawn from the record RNG
step = make_chance_step(sys.modules[__name__])


# the contract's step_and_mask: step, then the next mask, calling this module's functions directly
step_and_mask = make_step_and_mask(sys.modules[__name__])


# --- hidden information --------------------------------------------------------------------------
@njit(cache=True)
def determinize(s, seat, seed):
    """Resample what ``seat`` cannot see (spec §7): the order of every unrevealed history card within
    its deck, and the intrigue cards in other hands and the pile whose place seat does not know.
    The record's generator is reseeded from ``seed`` (future chance differs per determinization)."""
    r = s[0]
    seed_rng(r.rng, np.uint64(seed))
    for d in range(N_TURNS):
        lo = max(DECK_START[d], r.deck_pos)
        hi = DECK_START[d + 1]
        if hi - lo > 1:
            shuffle(r.rng, r.deck[lo:hi])
    cards = np.empty(N_INTRIGUE, np.int8)
    slot_loc = np.empty(N_INTRIGUE, np.int8)  # seat, or LOC_PILE
    slot_pos = np.empty(N_INTRIGUE, np.int8)  # pile position
    n = 0
    for i in range(r.pile_n):
        j = r.pile[i]
        if seat < 0 or not (r.intr_known[j] >> seat) & 1:
            cards[n] = j
            slot_loc[n] = LOC_PILE
            slot_pos[n] = i
            n += 1
    for j in range(N_INTRIGUE):
        loc = r.intr_loc[j]
        if loc >= 0 and loc != seat and (seat < 0 or not (r.intr_known[j] >> seat) & 1):
            cards[n] = j
            slot_loc[n] = loc
            slot_pos[n] = -1
            n += 1
    perm = cards[:n].copy()
    shuffle(r.rng, perm)
    for i in range(n):
        j = perm[i]
        if slot_loc[i] == LOC_PILE:
            r.pile[slot_pos[i]] = j
            r.intr_loc[j] = LOC_PILE
            r.intr_known[j] = 0
        else:
            r.intr_loc[j] = slot_loc[i]
            r.intr_known[j] = 1 << slot_loc[i]


# --- end and scores ------------------------------------------------------------------------------
@njit(cache=True)
def scores(s, out):
    """Final score per seat: VP (FR-GEN-1)."""
    seat_values(s[0].vp, s[0].num_players, out)


@njit(cache=True)
def returns(s, out):
    """1/k to each of the k seats tied for most VP, then most RP (FR-GEN-1/2); 0 before the end."""
    r = s[0]
    for p in range(r.num_players):  # each seat's worth, VP first and RP breaking ties; its share replaces it
        out[p] = r.vp[p] * 100 + r.rp[p]
    final_shares(out, r.num_players, r.phase == PH_GAME_OVER, out)


_unused = (CH_STEAL, ST_IMPRISONED, OP_INSTIGATE)
