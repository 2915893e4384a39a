"""Board helpers shared by every phase: control, leaving the club, SP room, delegation, promotions.

Rules: KRM-INF-3/4/5, KRM-GEN-2..8, KRM-PER-2..4 (auto-promotion), KRM-OPT-6/8 (traits).
Reads/writes loc, holder, sp, broke, susp_turn, part_time, declared, burned, controller, midway_done.
"""

from .._common.jit import internal
from .tables import EXPERIENCE
from .tables import LEVEL
from .tables import LOC_CIV
from .tables import LOC_OTH
from .tables import LOC_RET
from .tables import LV_JUNIOR
from .tables import LV_MEMBER
from .tables import LV_SENIOR
from .tables import MAX_AGE_AFTER_POWER
from .tables import N_GAMERS
from .tables import N_POSTS
from .tables import RETIRE_AGE
from .tables import RETIRE_BROKE
from .tables import SENSITIVE_MULT
from .tables import TR_MIDWAY
from .tables import TR_OTHER_INTEREST
from .tables import TR_SENSITIVE
from .tables import TRAIT


@internal(cache=True)
def recompute_controller(r, g):
    """KRM-INF-4: highest positive declaration; ties to the smallest stamp (first to reach it)."""
    best = -1
    bv = 0
    bs = 0
    for p in range(r.num_players):
        v = r.declared[p, g]
        if v > 0 and (v > bv or (v == bv and r.stamp[p, g] < bs)):
            best = p
            bv = v
            bs = r.stamp[p, g]
    r.controller[g] = best


@internal(cache=True)
def in_post(r, g):
    return r.loc[g] < N_POSTS


@internal(cache=True)
def sp_mult(r, g):
    """KRM-OPT-5: stress_sensitive doubles the SP cost of its powers."""
    if r.traits and TRAIT[g, TR_SENSITIVE]:
        return SENSITIVE_MULT
    return 1


@internal(cache=True)
def room(r, g):
    """KRM-GEN-2: SP the gamer may still gain through a power (age may reach 95, never 96)."""
    return MAX_AGE_AFTER_POWER - EXPERIENCE[g] - r.sp[g]


@internal(cache=True)
def can_afford(r, g, base_cost):
    return room(r, g) >= base_cost * sp_mult(r, g)  # KRM-GEN-2, KRM-OPT-5


@internal(cache=True)
def pay(r, g, base_cost):
    r.sp[g] += base_cost * sp_mult(r, g)


@internal(cache=True)
def active(r, g):
    """A gamer that may use a power or vote: in a post, controlled, not on part-time (KRM-INF-5, KRM-PT-3)."""
    return g >= 0 and r.loc[g] < N_POSTS and r.controller[g] >= 0 and not r.part_time[g]


@internal(cache=True)
def _leave_post(r, g):
    if r.loc[g] < N_POSTS:
        r.holder[r.loc[g]] = -1


@internal(cache=True)
def _leave_for(r, g, loc):
    """KRM-GEN-5: the gamer leaves for ``loc`` (RET or OTH); its post falls vacant, marker and part-time go."""
    _leave_post(r, g)
    r.loc[g] = loc
    r.susp_turn[g] = 0
    r.part_time[g] = 0


@internal(cache=True)
def retire(r, g):
    """KRM-GEN-5: the gamer becomes a working adult (RET), for good; its post falls vacant."""
    _leave_for(r, g, LOC_RET)


@internal(cache=True)
def send_away(r, g):
    """KRM-GEN-5, KRM-INF-3: to other circles; declarations burned, marker and part-time removed."""
    _leave_for(r, g, LOC_OTH)
    for p in range(r.num_players):
        r.burned[p, g] += r.declared[p, g]  # KRM-INF-3
        r.declared[p, g] = 0
    r.controller[g] = -1


@internal(cache=True)
def retire_if_old(r, g):
    """KRM-GEN-3: age >= 96 retires at once. Returns True if it retired."""
    if r.loc[g] != LOC_RET and EXPERIENCE[g] + r.sp[g] >= RETIRE_AGE:
        retire(r, g)
        return True
    return False


@internal(cache=True)
def retire_if_broke(r, g):
    """KRM-GEN-4 (3 broke markers) and KRM-OPT-8 (other_interest: 1 marker)."""
    if r.loc[g] == LOC_RET:
        return False
    if r.broke[g] >= RETIRE_BROKE or (r.traits and TRAIT[g, TR_OTHER_INTEREST] and r.broke[g] >= 1):
        retire(r, g)
        return True
    return False


@internal(cache=True)
def sweep_old(r):
    """KRM-STR-3 / KRM-FIN-4: every gamer with age >= 96 retires."""
    for g in range(N_GAMERS):
        retire_if_old(r, g)


@internal(cache=True)
def place(r, g, k):
    """Put gamer g into post k (vacant). KRM-OPT-6: midway_break fires on P00 or a senior post."""
    _leave_post(r, g)
    r.loc[g] = k
    r.holder[k] = g
    if r.traits and TRAIT[g, TR_MIDWAY] and not r.midway_done[g] and LEVEL[k] <= LV_SENIOR:
        r.midway_done[g] = 1
        send_away(r, g)  # KRM-OPT-6: sent to other circles at once, once per game


@internal(cache=True)
def best_at_level(r, level):
    """Highest-experience gamer holding a post of ``level`` (LV_*), or a civilian for level 4; -1 none."""
    best = -1
    for g in range(N_GAMERS):  # gamers are sorted by falling experience: the first found is the oldest
        l = r.loc[g]
        if level == 4:
            if l == LOC_CIV:
                return g
        elif l < N_POSTS and LEVEL[l] == level:
            return g
    return best


@internal(cache=True)
def auto_fill(r, level):
    """KRM-PER-2/3/4: fill vacant posts of ``level`` in rank order with the oldest gamer of the next
    levels down (senior <- junior, member, civilian; junior <- member, civilian; member <- civilian)."""
    for k in range(N_POSTS):
        if LEVEL[k] != level:
            continue
        while r.holder[k] < 0:  # a midway_break promotee leaves again; the loop ends (it fires once)
            g = -1
            for src in range(level + 1, 5):
                g = best_at_level(r, src)
                if g >= 0:
                    break
            if g < 0:
                break
            place(r, g, k)


@internal(cache=True)
def first_able(r, order, base_cost):
    """KRM-GEN-6: first post of a delegation order whose holder can act (cost 0 = no SP condition)."""
    for i in range(order.shape[0]):
        g = r.holder[order[i]]
        if active(r, g) and (base_cost == 0 or can_afford(r, g, base_cost)):
            return g
    return -1


@internal(cache=True)
def any_vacant(r, level):
    for k in range(N_POSTS):
        if LEVEL[k] == level and r.holder[k] < 0:
            return True
    return False


@internal(cache=True)
def is_member(r, g):
    return r.loc[g] < N_POSTS and LEVEL[r.loc[g]] == LV_MEMBER


@internal(cache=True)
def is_officer(r, g):
    return r.loc[g] < N_POSTS and LEVEL[r.loc[g]] <= LV_JUNIOR
