"""Investor: interest, bond purchases, flag transfer, compensation (IMP-INV-*, IMP-BND-*).

Reads/writes: cash, treasury, bond_owner, flag, investor_card, bank_in/out.
"""

import numpy as np
from numba import njit

from .._common.jit import internal
from .board import ONE
from .board import ZERO
from .board import bank_to_cash
from .board import flags_held
from .board import low_index
from .tables import BOND_COST
from .tables import BOND_INTEREST
from .tables import COMPENSATION
from .tables import MAX_PLAYERS
from .tables import N_BONDS
from .tables import N_NATIONS

assert MAX_PLAYERS <= 8  # pay_interest keeps a seat's place in the 3 low bits of its key
_NO_CEILING = 1 << 30  # above any investment


@internal(cache=True)
def _held_sum(r, n, p, per_bond):
    """Sum of ``per_bond[k]`` over nation n's bonds k held by seat p."""
    t = 0
    for k in range(N_BONDS):
        if r.bond_owner[n, k] == p:
            t += per_bond[k]
    return t


@internal(cache=True)
def interest_owed(r, n, p):
    """Sum of the interest numbers of nation n's bonds held by seat p (IMP-INV-2)."""
    return _held_sum(r, n, p, BOND_INTEREST)


@internal(cache=True)
def interest_owed_to_others(r, n):
    """Interest nation n owes to bondholders other than its flag holder (IMP-INV-3)."""
    t = 0
    for k in range(N_BONDS):
        o = r.bond_owner[n, k]
        if o >= 0 and o != r.flag[n]:
            t += BOND_INTEREST[k]
    return t


@internal(cache=True)
def pay_interest(r, n):
    """IMP-INV-2: payees in increasing amount owed (ties clockwise from the holder's left, holder last);
    the treasury pays what it can, the flag holder tops up for others, never for himself."""
    np_ = r.num_players
    f = r.flag[n]
    # IMP-INV-2 order: key = owed * 8 + seat's place clockwise from the holder's left. The places differ
    # and are below 8, so the keys differ: each round pays the smallest key above the last one paid, the
    # keys computed again (paying moves no bond) instead of kept in a scratch array (the per-step path
    # allocates nothing, #18)
    last = -1
    for _ in range(np_):
        best, key = -1, 0
        for p in range(np_):
            k = interest_owed(r, n, p) * 8 + (p - f - 1) % np_
            if k > last and (best < 0 or k < key):
                best, key = p, k
        last = key
        owed = key // 8
        if owed == 0:
            continue
        from_treasury = min(owed, r.treasury[n])
        r.treasury[n] -= from_treasury
        r.cash[best] += from_treasury
        rest = owed - from_treasury
        if rest > 0 and best != f:  # IMP-INV-2: the holder tops up a dry treasury
            r.cash[f] -= rest
            r.cash[best] += rest


@internal(cache=True)
def investment(r, n, p):
    """Sum of the costs of nation n's bonds held by seat p (IMP-BND-2)."""
    return _held_sum(r, n, p, BOND_COST)


@njit(cache=True)
def new_flag_holder(r, n, buyer, buyer_investment):
    """IMP-BND-2: holder after a purchase that sets the buyer's investment in n."""
    f = r.flag[n]
    if f < 0:
        return buyer  # the flag leaves the bank
    np_ = r.num_players
    best = 0
    for p in range(np_):
        v = buyer_investment if p == buyer else investment(r, n, p)
        best = max(best, v)
    vf = buyer_investment if f == buyer else investment(r, n, f)
    if vf >= best:
        return f  # a tie for the top does not move the flag
    for i in range(np_):  # the first with the top investment clockwise from the card holder
        p = (r.investor_card + i) % np_
        v = buyer_investment if p == buyer else investment(r, n, p)
        if v == best:
            return p
    return f


@internal(cache=True)
def _compensation_window(r, p, n):
    """(lo, hi): seat p's purchase in nation n costs p the compensation exactly when p's investment in n after it, v,
    is lo < v < hi (IMP-BND-3: n at power 0 and its flag leaving a holder for whom it is the only flag; where the
    flag goes is ``new_flag_holder``'s rule as a range of v). An empty window when no purchase can cost it. Once
    per nation, where a check per candidate purchase cost most of the investor's mask."""
    f = r.flag[n]
    if f < 0 or r.power[n] != 0 or flags_held(r, f) != 1:
        return 0, 0  # no holder to compensate: never
    top = 0  # the highest investment of the seats other than p and f
    for q in range(r.num_players):
        if q != p and q != f:
            top = max(top, investment(r, n, q))
    if f == p:
        return -1, top  # p loses its only flag to a seat investing more than p's new investment
    held = investment(r, n, f)
    if top > held:
        return -1, _NO_CEILING  # the flag moves whatever p invests
    return held, _NO_CEILING  # p takes the flag by investing more than its holder (IMP-BND-2)


@internal(cache=True)
def do_buy(r, p, n, k, t):
    """Apply a legal BUY(n, k, t) by seat p: pay, swap bonds, move the flag, compensate."""
    price = BOND_COST[k - 1]
    if t > 0:
        price -= BOND_COST[t - 1]
    new_inv = investment(r, n, p) + price
    lo, hi = _compensation_window(r, p, n)
    comp = COMPENSATION if lo < new_inv < hi else 0  # IMP-BND-3
    holder = new_flag_holder(r, n, p, new_inv)
    if t > 0:
        r.bond_owner[n, t - 1] = -1  # IMP-BND-1: the returned bond is available again
    r.cash[p] -= price
    r.treasury[n] += price  # IMP-BND-1: buyer -> treasury
    r.bond_owner[n, k - 1] = p
    if comp > 0:  # IMP-BND-3
        r.cash[p] -= comp
        r.cash[r.flag[n]] += comp
    r.flag[n] = holder  # IMP-BND-2


@internal(cache=True)
def _holding(r, n, p):
    """(seat p's investment in nation n (IMP-BND-2), p's bonds of n as bits: bit t for bond t)."""
    inv, own = 0, ZERO
    for k in range(N_BONDS):
        if r.bond_owner[n, k] == p:
            inv += BOND_COST[k]
            own |= ONE << np.uint64(k + 1)
    return inv, own


@internal(cache=True)
def _in_bank(r, n):
    """Nation n's bonds nobody holds, as bits: bit k for bond k (IMP-BND-1)."""
    free = ZERO
    for k in range(N_BONDS):
        if r.bond_owner[n, k] < 0:
            free |= ONE << np.uint64(k + 1)
    return free


# _PRICED[c]: the bonds k (bit k) whose cost is at most c, for c = 0 .. the dearest bond's cost
_PRICED = np.array(
    [sum(1 << (k + 1) for k in range(N_BONDS) if BOND_COST[k] <= c) for c in range(BOND_COST.max() + 1)], np.uint64
)


@internal(cache=True)
def _costing_at_most(c):
    """The bonds k (bit k) whose cost is at most c."""
    if c < 0:
        return ZERO
    return _PRICED[min(c, _PRICED.shape[0] - 1)]


@internal(cache=True)
def _buys(r, p, mask, a_buy):
    """Set seat p's legal BUY ids in mask (IMP-BND-1/3/4) and return how many; with mask None, return 1 at the first
    one found. Bond k (1..9) of a nation comes from the bank, new (t = 0) or for one of p's own bonds t < k
    (IMP-BND-4), for its cost less the returned bond's; it is legal when that price, plus the compensation it may
    cost (IMP-BND-3), is within p's cash. Bond costs rise with k, so each t's affordable bonds are one table
    look-up; only a price equal to the cash (within COMPENSATION) needs the compensation worked out."""
    cash = r.cash[p]
    c = 0
    for n in range(N_NATIONS):
        free = _in_bank(r, n)
        if free == ZERO:
            continue
        inv, own = _holding(r, n, p)
        base = a_buy + 90 * n
        t, back, trades = 0, 0, own  # returning bond t (0: none) takes back its cost
        while True:
            above = free & ~((ONE << np.uint64(t + 1)) - ONE)  # bonds k > t in the bank
            sure = above & _costing_at_most(cash + back - COMPENSATION)
            close = above & _costing_at_most(cash + back) & ~sure  # affordable unless the compensation is due
            if close != ZERO:
                lo, hi = _compensation_window(r, p, n)
                while close != ZERO:  # one bond at most while COMPENSATION is below the gaps between costs
                    k = low_index(close)
                    close &= close - ONE
                    if not (lo < inv + BOND_COST[k - 1] - back < hi):
                        sure |= ONE << np.uint64(k)
            if mask is None:  # any_buy: numba compiles only this branch for it
                if sure != ZERO:
                    return 1
            else:
                while sure != ZERO:
                    k = low_index(sure)
                    sure &= sure - ONE
                    mask[base + 10 * (k - 1) + t] = 1
                    c += 1
            if trades == ZERO:
                break
            t = low_index(trades)
            trades &= trades - ONE
            back = BOND_COST[t - 1]
    return c


@internal(cache=True)
def valid_buys(r, p, mask, a_buy):
    """Set BUY bits for seat p; returns how many (IMP-BND-1/3/4)."""
    return _buys(r, p, mask, a_buy)


@internal(cache=True)
def any_buy(r, p):
    """Whether seat p has any BUY that valid_buys would set."""
    return _buys(r, p, None, 0) > 0


@internal(cache=True)
def investor_bonus(r):
    """IMP-INV-5 (a): the card holder receives 2 from the bank."""
    bank_to_cash(r, r.investor_card, 2)
