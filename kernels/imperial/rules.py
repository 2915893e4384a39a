"""Imperial rules entry points: setup, whose move, legal masks, stepping, end and scores.

``apply_action`` is a flat dispatch over the action ranges of ``actions.py``; ``legal_mask`` fills
each range from its ``valid_*`` function. After every decision, decision points with exactly one legal
action are applied automatically (IMP-TURN-4), so agents only ever see real choices.
"""

import numpy as np
from numba import njit

from .._common.contract import TERMINAL
from .._common.jit import internal
from .._common.masks import clear
from .._common.rng import seed_rng
from .._common.rng import shuffle
from .._common.scoring import final_shares
from .._common.scoring import margins_from_mean
from .._common.scoring import seat_values
from .._common.stepping import phase_is
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
from .actions import A_TOGGLE
from .board import ONE
from .board import ZERO
from .board import last_factory_protected
from .board import low_index
from .combat import askable
from .combat import do_ask
from .combat import do_decline
from .combat import do_destroy
from .combat import do_fight
from .combat import valid_fight_targets
from .economy import any_import
from .economy import do_build
from .economy import do_import
from .economy import do_rondel
from .economy import fill_imports
from .economy import valid_build
from .economy import valid_rondel
from .investor import any_buy
from .investor import do_buy
from .investor import interest_owed
from .investor import investment
from .investor import valid_buys
from .maneuver import dest_mask
from .maneuver import do_done
from .maneuver import do_sea
from .maneuver import do_select_dest
from .maneuver import do_select_origin
from .maneuver import do_stance
from .maneuver import do_toggle
from .maneuver import origins
from .maneuver import sure_dests
from .maneuver import toggles
from .maneuver import valid_seas
from .state import PH_ANSWER
from .state import PH_ASK
from .state import PH_BUY
from .state import PH_DEST
from .state import PH_DESTROY
from .state import PH_FACTORY
from .state import PH_FIGHT
from .state import PH_GAME_OVER
from .state import PH_IMPORT
from .state import PH_MOVE
from .state import PH_RONDEL
from .state import PH_SEA
from .state import PH_STANCE
from .state import REWARD_SCORE_MARGIN
from .tables import BOND_COST
from .tables import BOND_INTEREST
from .tables import CARD_OWN_BOND
from .tables import CARD_SECOND_BOND
from .tables import CARD_SECOND_NATION
from .tables import FIRST_SEA
from .tables import GROUPS
from .tables import MULTIPLIER
from .tables import N_BONDS
from .tables import N_HOME
from .tables import N_NATIONS
from .tables import N_REGIONS
from .tables import N_SEAS
from .tables import START_CASH
from .tables import START_FACTORY
from .tables import TAX_START_POS
from .turn import end_action
from .turn import next_buyer

# The nations in index order: the flag deal (IMP-SET-3) and the ranking by power (IMP-SCR-3) start from a copy (a
# copy of a table, so that a first use compiles no np.arange).
NATIONS = np.arange(N_NATIONS)


# --- setup ---------------------------------------------------------------------------------------
@internal(cache=True)
def _buy_at_setup(r, p, n, k):
    """IMP-SET-4: seat p buys bond k of nation n, paying its cost into the treasury."""
    r.bond_owner[n, k - 1] = p
    r.cash[p] -= BOND_COST[k - 1]
    r.treasury[n] += BOND_COST[k - 1]


@njit(cache=True)
def init_state(s, num_players, seed, opts):
    """IMP-SET-1..9 on a zeroed record. opts = [ruleset, home_tax_chips, chips, factory_topup,
    optional_destroy, chip_update_all, hidden_cash, max_turns, reward_mode]."""
    r = s[0]
    seed_rng(r.rng, seed)
    r.ruleset = opts[0]
    r.home_tax_chips = opts[1]
    r.chips_per_nation = opts[2]
    r.factory_topup = opts[3]
    r.optional_destroy = opts[4]
    r.chip_update_all = opts[5]
    r.hidden_cash = opts[6]
    r.max_turns = opts[7]
    r.reward_mode = opts[8]
    r.num_players = num_players
    for p in range(num_players):
        r.cash[p] = START_CASH[num_players]  # IMP-SET-2
    # IMP-SET-3: deal flag cards: seat p gets nation order[p] (4+ players) or the nations of group order[p]
    order = NATIONS.copy()
    shuffle(r.rng, order[: N_NATIONS if num_players >= 4 else num_players])
    for n in range(N_NATIONS):
        r.flag[n] = -1
        for k in range(N_BONDS):
            r.bond_owner[n, k] = -1
    for p in range(num_players):
        cards = 1 << order[p] if num_players >= 4 else GROUPS[num_players, order[p]]  # bit n: nation n's card
        for n in range(N_NATIONS):
            if (cards >> n) & 1:
                _buy_at_setup(r, p, n, CARD_OWN_BOND[n])  # IMP-SET-4
                _buy_at_setup(r, p, CARD_SECOND_NATION[n], CARD_SECOND_BOND[n])
                r.flag[n] = p  # IMP-SET-5: the card's receiver (9 > 2)
    for n in range(N_NATIONS):
        if r.flag[n] < 0:
            best, who = 0, -1
            for p in range(num_players):
                v = investment(r, n, p)
                if v > best:
                    best, who = v, p
            r.flag[n] = who  # IMP-SET-5: largest investor or the bank
    for n in range(N_NATIONS):  # IMP-SET-6
        if r.flag[n] >= 0:
            r.investor_card = (r.flag[n] + 1) % num_players
            break
    for n in range(N_NATIONS):  # IMP-SET-7
        r.power[n] = 0
        r.tax_pos[n] = TAX_START_POS
        r.rondel_pos[n] = -1
        r.chips_left[n] = r.chips_per_nation
    for h in range(N_HOME):
        r.factory[h] = START_FACTORY[h]
    for x in range(N_REGIONS):
        r.chip[x] = -1
    r.mv_origin = r.mv_dest = r.mv_last = r.mv_region = -1  # no maneuver under way
    r.cmb_defender = r.inv_buyer = -1
    r.nation = 0
    while r.flag[r.nation] < 0:  # IMP-SET-9 (IMP-TURN-3 if AH is in the bank)
        r.nation += 1
    r.phase = PH_RONDEL
    # IMP-TURN-4 has nothing to apply: the first decision places a marker on any of the 8 spaces (IMP-RON-2). Not
    # settling here keeps the rules' tree out of this function: a cold first use optimises it once, in the step.


# --- whose decision, what is legal ---------------------------------------------------------------
@njit(cache=True)
def to_move(s):
    r = s[0]
    if r.phase == PH_GAME_OVER:
        return np.int64(TERMINAL)
    if r.phase == PH_BUY:
        return np.int64(r.inv_buyer)
    if r.phase == PH_ANSWER:
        return np.int64(r.flag[r.cmb_defender])  # IMP-TURN-2
    return np.int64(r.flag[r.nation])


is_over = phase_is(PH_GAME_OVER)


@internal(cache=True)
def _low_bits(m, first, count):
    """Bits first .. first + count - 1 of the uint64 m, shifted down to 0 .. count - 1 (count < 64)."""
    return (m >> np.uint64(first)) & ((ONE << np.uint64(count)) - ONE)


@internal(cache=True)
def _mask_bits(m, start, first, count, out):
    """out[start + i] = 1 for each set bit first + i of m, i < count (visiting the set bits only)."""
    m = _low_bits(m, first, count)
    while m != ZERO:
        out[start + low_index(m)] = 1
        m &= m - ONE


@njit(cache=True)
def legal_mask(s, out):
    """Fill out (uint8/int8[NUM_ACTIONS]) with the legal actions of the seat to move; all 0 when over."""
    r = s[0]
    clear(out)
    ph = r.phase
    if ph == PH_RONDEL:
        for sp in range(8):
            if valid_rondel(r, r.nation, sp):
                out[A_RONDEL + sp] = 1
    elif ph == PH_FACTORY:
        out[A_PASS] = 1  # IMP-FAC-3
        for h in range(5 * r.nation, 5 * r.nation + 5):
            if valid_build(r, h):
                out[A_BUILD + h] = 1
    elif ph == PH_IMPORT:
        out[A_PASS] = 1
        fill_imports(r, out, A_IMPORT_ARMY, A_IMPORT_FLEET)
    elif ph == PH_MOVE:
        out[A_PASS] = 1  # DONE
        _mask_bits(origins(r), A_ORIGIN, 0, N_REGIONS, out)
        _mask_bits(toggles(r), A_TOGGLE, 0, N_HOME, out)
    elif ph == PH_DEST:
        _mask_bits(dest_mask(r, r.mv_origin), A_DEST, 0, N_REGIONS, out)
    elif ph == PH_SEA:
        _mask_bits(valid_seas(r), A_SEA, FIRST_SEA, N_SEAS, out)
    elif ph == PH_STANCE:
        out[A_FRIENDLY] = 1
        if not last_factory_protected(r, r.mv_region):  # IMP-STN-3
            out[A_HOSTILE] = 1
    elif ph == PH_FIGHT:
        out[A_PASS] = 1
        m = valid_fight_targets(r)
        for n in range(N_NATIONS):
            if (m >> n) & 1:
                out[A_FIGHT + n] = 1
    elif ph == PH_ASK:
        m = askable(r)
        for n in range(N_NATIONS):
            if (m >> n) & 1:
                out[A_ASK + n] = 1
    elif ph == PH_ANSWER:
        out[A_PASS] = 1
        out[A_FIGHT + r.nation] = 1
    elif ph == PH_DESTROY:
        out[A_PASS] = 1
        out[A_DESTROY] = 1
    elif ph == PH_BUY:
        out[A_PASS] = 1
        valid_buys(r, r.inv_buyer, out, A_BUY)


# --- stepping ------------------------------------------------------------------------------------
@internal(cache=True)
def _pass(r):
    ph = r.phase
    if ph == PH_FACTORY or ph == PH_IMPORT:
        end_action(r)  # IMP-FAC-3 / IMP-IMP-2: fewer than 3 is fine
    elif ph == PH_MOVE:
        do_done(r)
    elif ph == PH_FIGHT or ph == PH_ANSWER:
        do_decline(r)
    elif ph == PH_DESTROY:
        do_destroy(r, False)
    elif ph == PH_BUY:
        next_buyer(r)


@njit(cache=True)
def apply_action(r, a):
    """Apply one legal action id (flat dispatch over the ranges of actions.py)."""
    r.decisions += 1
    if a < A_PASS:
        do_rondel(r, a - A_RONDEL)
    elif a == A_PASS:
        _pass(r)
    elif a < A_IMPORT_ARMY:
        do_build(r, a - A_BUILD)
    elif a < A_IMPORT_FLEET:
        do_import(r, a - A_IMPORT_ARMY, 0)
    elif a < A_ORIGIN:
        do_import(r, a - A_IMPORT_FLEET, 1)
    elif a < A_DEST:
        do_select_origin(r, a - A_ORIGIN)
    elif a < A_SEA:
        do_select_dest(r, a - A_DEST)
    elif a < A_TOGGLE:
        do_sea(r, FIRST_SEA + a - A_SEA)
    elif a < A_HOSTILE:
        do_toggle(r, a - A_TOGGLE)
    elif a == A_HOSTILE:
        do_stance(r, 1)
    elif a == A_FRIENDLY:
        do_stance(r, 0)
    elif a < A_ASK:
        do_fight(r, a - A_FIGHT)
    elif a < A_DESTROY:
        do_ask(r, a - A_ASK)
    elif a == A_DESTROY:
        do_destroy(r, True)
    else:
        b = a - A_BUY
        n = b // 90
        k = (b % 90) // 10 + 1
        do_buy(r, r.inv_buyer, n, k, b % 10)
        next_buyer(r)
    if r.phase == PH_IMPORT and not any_import(r):
        end_action(r)  # IMP-IMP-1: nothing more can be imported


@njit(cache=True)
def _single_legal(mask):
    """The only legal action id, or -1 if there are none or several."""
    found = -1
    for i in range(mask.shape[0]):
        if mask[i]:
            if found >= 0:
                return -1
            found = i
    return found


@internal(cache=True)
def _single_bit(m, count):
    """The index of the only set bit among the low ``count`` bits of m, or -1 if none or several."""
    m = _low_bits(m, 0, count)
    if m == ZERO or m & (m - ONE) != ZERO:
        return -1
    return low_index(m)


@internal(cache=True)
def _several(m):
    """m has two set bits or more."""
    return m & (m - ONE) != ZERO


@njit(cache=True)
def forced_action(r):
    """The only legal action id when there is exactly one, else -1: what ``_single_legal(legal_mask)``
    gives, phase by phase from the same ``valid_*`` tests, without building the 801-long mask."""
    ph = r.phase
    if ph == PH_RONDEL:
        found = -1
        for sp in range(8):
            if valid_rondel(r, r.nation, sp):
                if found >= 0:
                    return -1
                found = A_RONDEL + sp
        return found
    if ph == PH_FACTORY:
        for h in range(5 * r.nation, 5 * r.nation + 5):
            if valid_build(r, h):
                return -1
        return A_PASS  # IMP-FAC-3
    if ph == PH_IMPORT:
        return -1 if any_import(r) else A_PASS
    if ph == PH_MOVE:
        return -1 if origins(r) != ZERO or toggles(r) != ZERO else A_PASS  # DONE
    if ph == PH_DEST:
        if _several(sure_dests(r, r.mv_origin)):
            return -1
        x = _single_bit(dest_mask(r, r.mv_origin), N_REGIONS)
        return -1 if x < 0 else A_DEST + x
    if ph == PH_SEA:
        x = _single_bit(valid_seas(r) >> np.uint64(FIRST_SEA), N_SEAS)
        return -1 if x < 0 else A_SEA + x
    if ph == PH_STANCE:
        return A_FRIENDLY if last_factory_protected(r, r.mv_region) else -1  # IMP-STN-3
    if ph == PH_FIGHT:
        return A_PASS if valid_fight_targets(r) == 0 else -1
    if ph == PH_ASK:
        n = _single_bit(np.uint64(askable(r)), N_NATIONS)
        return -1 if n < 0 else A_ASK + n
    if ph == PH_BUY:
        return -1 if any_buy(r, r.inv_buyer) else A_PASS
    return -1  # ANSWER and DESTROY always offer two choices; GAME_OVER none


@njit(cache=True)
def settle_forced(r):
    """IMP-TURN-4: apply forced decisions until a real choice (or the end), allocating nothing."""
    while True:
        a = forced_action(r)
        if a < 0:
            return
        apply_action(r, a)


@njit(cache=True)
def step_and_mask(s, action, mask):
    """step, then the next seat's legal mask, in one call (the env's per-step path); returns to_move.
    Written out, not through a settle-and-mask helper: numba re-optimises the whole compiled tree below every
    function, so a helper layer here cost about 1.2 s of CPU on a cold first use (benchmarks/COLD_START.md)."""
    apply_action(s[0], action)
    settle_forced(s[0])  # IMP-TURN-4
    legal_mask(s, mask)
    return to_move(s)


@njit(cache=True)
def step(s, action):
    """Apply one legal decision, then every forced decision that follows (IMP-TURN-4)."""
    apply_action(s[0], action)
    settle_forced(s[0])


# --- end and scores ------------------------------------------------------------------------------
@njit(cache=True)
def scores(s, out):
    """IMP-SCR-1/2: sum of interest x multiplier of the bond's nation, plus cash."""
    r = s[0]
    seat_values(r.cash, r.num_players, out)
    for n in range(N_NATIONS):
        m = MULTIPLIER[r.power[n]]
        for k in range(N_BONDS):
            p = r.bond_owner[n, k]
            if p >= 0:
                out[p] += BOND_INTEREST[k] * m


@internal(cache=True)
def nation_rank_order(r):
    """Nations by power, highest first; equal power in turn order (IMP-SCR-3)."""
    order = NATIONS.copy()
    for i in range(N_NATIONS):
        for j in range(N_NATIONS - 1 - i):
            if r.power[order[j + 1]] > r.power[order[j]]:
                t = order[j]
                order[j] = order[j + 1]
                order[j + 1] = t
    return order


@njit(cache=True)
def winners(s, out):
    """out[p] = 1 for each winner after IMP-SCR-3's tie-break (several only if fully tied)."""
    r = s[0]
    np_ = r.num_players
    sc = np.zeros(out.shape[0], np.int64)
    scores(s, sc)
    best = sc[0]
    for p in range(np_):
        best = max(best, sc[p])
    for p in range(out.shape[0]):
        out[p] = 1 if p < np_ and sc[p] == best else 0
    order = nation_rank_order(r)
    for i in range(N_NATIONS):
        n = order[i]
        top = -1
        for p in range(np_):
            if out[p]:
                top = max(top, interest_owed(r, n, p))
        for p in range(np_):
            if out[p] and interest_owed(r, n, p) < top:
                out[p] = 0


@njit(cache=True)
def returns(s, out):
    """Terminal rewards (spec §6): 1/k to each of the k winners after the tie-break, else 0; with the
    ``score_margin`` option, each seat's final score minus the table's mean score."""
    r = s[0]
    over = r.phase == PH_GAME_OVER
    if over and r.reward_mode == REWARD_SCORE_MARGIN:
        score = np.zeros(out.shape[0], np.int64)
        scores(s, score)
        margins_from_mean(score, r.num_players, out)
        return
    w = np.zeros(out.shape[0], np.int64)
    if over:
        winners(s, w)  # 1 per winner: the shares of a tie at 1
    final_shares(w, r.num_players, over, out)
