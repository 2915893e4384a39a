"""Investor: interest, bond purchases, flag transfer, compensation (IMP-INV-*, IMP-BND-*).

Reads/writes: cash, treasury, bond_owner, flag, investor_card, bank_in/out.
"""

from numba import njit

from .._common.jit import internal
from .board import bank_to_cash
from .board import flags_held
from .tables import BOND_COST
from .tables import BOND_INTEREST
from .tables import COMPENSATION
from .tables import MAX_PLAYERS
from .tables import N_BONDS
from .tables import N_NATIONS

assert MAX_PLAYERS <= 8  # pay_interest keeps a seat's place in the 3 low bits of its key


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
def purchase_price(r, p, n, k, t):
    """Money seat p pays (bond price or difference + compensation) for BUY(n, k, t), -1 if illegal.

    k, t are bond numbers (1..9; t = 0 for a new purchase). IMP-BND-1, IMP-BND-3, IMP-BND-4.
    """
    if r.bond_owner[n, k - 1] >= 0:
        return -1
    price = BOND_COST[k - 1]
    if t > 0:
        if t >= k or r.bond_owner[n, t - 1] != p:
            return -1
        price -= BOND_COST[t - 1]
    comp = compensation_due(r, p, n, investment(r, n, p) + price)
    if price + comp > r.cash[p]:
        return -1
    return price + comp


@internal(cache=True)
def compensation_due(r, p, n, new_investment):
    """IMP-BND-3: 1 if the purchase takes the only flag of a player from a 0-power nation."""
    f = r.flag[n]
    if f < 0 or r.power[n] != 0:
        return 0
    h = new_flag_holder(r, n, p, new_investment)
    if h != f and flags_held(r, f) == 1:
        return COMPENSATION
    return 0


@internal(cache=True)
def do_buy(r, p, n, k, t):
    """Apply a legal BUY(n, k, t) by seat p: pay, swap bonds, move the flag, compensate."""
    price = BOND_COST[k - 1]
    if t > 0:
        price -= BOND_COST[t - 1]
    new_inv = investment(r, n, p) + price
    comp = compensation_due(r, p, n, new_inv)
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
def _affordable(r, p, n, price, inv):
    """IMP-BND-1/3: price + compensation within seat p's cash, as ``purchase_price`` decides it; the
    compensation (0 or COMPENSATION) is worked out only when it can make the difference."""
    cash = r.cash[p]
    if price > cash:
        return False
    if price + COMPENSATION <= cash:
        return True
    return price + compensation_due(r, p, n, inv + price) <= cash


@internal(cache=True)
def _holding(r, n, p):
    """(seat p's investment in nation n (IMP-BND-2), p's bonds of n as bits: bit t for bond t)."""
    inv, own = 0, 0
    for k in range(N_BONDS):
        if r.bond_owner[n, k] == p:
            inv += BOND_COST[k]
            own |= 1 << (k + 1)
    return inv, own


@internal(cache=True)
def _buy_ok(r, p, n, k, t, inv):
    """purchase_price(r, p, n, k, t) >= 0 for a free bond k and a t that is 0 or seat p's (the loops below
    check both), with p's investment inv in n counted once per nation, not once per candidate."""
    return _affordable(r, p, n, BOND_COST[k - 1] - (BOND_COST[t - 1] if t > 0 else 0), inv)


@internal(cache=True)
def valid_buys(r, p, mask, a_buy):
    """Set BUY bits for seat p; returns how many (IMP-BND-1/3/4). A trade-in t runs over p's own bonds
    below k only (a loop over every t < k cost most of the investor's mask)."""
    c = 0
    for n in range(N_NATIONS):
        inv, own = _holding(r, n, p)
        for k in range(1, N_BONDS + 1):
            if r.bond_owner[n, k - 1] >= 0:
                continue
            lower = own & ((1 << k) - 1)  # p's bonds t < k (bit t), the trade-ins (IMP-BND-4)
            t = 0
            while t == 0 or lower >> t:
                if (t == 0 or (lower >> t) & 1) and _buy_ok(r, p, n, k, t, inv):
                    mask[a_buy + 90 * n + 10 * (k - 1) + t] = 1
                    c += 1
                t += 1
    return c


@internal(cache=True)
def any_buy(r, p):
    """Whether seat p has any BUY that valid_buys would set (the same loops, stopping at the first)."""
    for n in range(N_NATIONS):
        inv, own = _holding(r, n, p)
        for k in range(1, N_BONDS + 1):
            if r.bond_owner[n, k - 1] >= 0:
                continue
            lower = own & ((1 << k) - 1)
            t = 0
            while t == 0 or lower >> t:
                if (t == 0 or (lower >> t) & 1) and _buy_ok(r, p, n, k, t, inv):
                    return True
                t += 1
    return False


@internal(cache=True)
def investor_bonus(r):
    """IMP-INV-5 (a): the card holder receives 2 from the bank."""
    bank_to_cash(r, r.investor_card, 2)
