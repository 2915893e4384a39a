"""Secret influence: the allocation (KRM-SET-4), declarations (KRM-INF-2..4, KRM-OPT-2/4) and
``determinize`` (resampling the other seats' sheets consistently with their public declarations).

Reads/writes assigned, declared, stamp, counter, controller, assign_seat, assign_count.
"""

import numpy as np
from numba import njit

from .._common.rng import seed_rng, uniform_int
from .board import recompute_controller
from .tables import ASSIGNABLE, ENEMY, INFLUENCE_VALUES, LOC_OTH, LOC_RET, MAX_VALUE, N_GAMERS, N_VALUES, TR_INCONSPICUOUS, TRAIT


@njit(cache=True)
def assignable(r, g):
    """KRM-SET-4: never the starting chairman G01; KRM-OPT-4: never an inconspicuous gamer."""
    return ASSIGNABLE[g] and not (r.traits and TRAIT[g, TR_INCONSPICUOUS])


@njit(cache=True)
def valid_assign(r, p, g):
    return assignable(r, g) and r.assigned[p, g] == 0


@njit(cache=True)
def do_assign(r, g):
    """KRM-SET-4: the seat gives the next value (10, 9, ... 1) to gamer g."""
    p = r.assign_seat
    r.assigned[p, g] = INFLUENCE_VALUES[r.assign_count]
    r.assign_count += 1
    if r.assign_count == N_VALUES:
        r.assign_count = 0
        r.assign_seat += 1


@njit(cache=True)
def declarable_max(r, p, g):
    """Highest value p may declare on g now (KRM-INF-2): assigned - burned, 0 if g is away/retired."""
    if r.loc[g] == LOC_OTH or r.loc[g] == LOC_RET:
        return 0
    return r.assigned[p, g] - r.burned[p, g]


@njit(cache=True)
def _enemy_blocks(r, p, g, v):
    """KRM-OPT-2: illegal if afterwards p would control both gamers of an enemy pair."""
    if not r.traits or ENEMY[g] < 0:
        return False
    e = ENEMY[g]
    if r.controller[e] != p:
        return False
    for q in range(r.num_players):
        if q != p and r.declared[q, g] >= v:
            return False  # p would not control g (ties go to the earlier declarer)
    return True


@njit(cache=True)
def valid_declare(r, p, g, v):
    return r.declared[p, g] < v <= declarable_max(r, p, g) and not _enemy_blocks(r, p, g, v)


@njit(cache=True)
def has_declaration(r, p):
    """Does seat p have at least one legal DECLARE (else the window passes it automatically)?"""
    for g in range(N_GAMERS):
        top = declarable_max(r, p, g)
        if top > r.declared[p, g]:
            if not r.traits:
                return True
            for v in range(r.declared[p, g] + 1, top + 1):
                if not _enemy_blocks(r, p, g, v):
                    return True
    return False


@njit(cache=True)
def fill_declarations(r, p, mask, base):
    """Set mask[base + 10 g + v - 1] for every legal DECLARE(g, v) of seat p."""
    for g in range(N_GAMERS):
        top = declarable_max(r, p, g)
        for v in range(r.declared[p, g] + 1, top + 1):
            if not _enemy_blocks(r, p, g, v):
                mask[base + MAX_VALUE * g + v - 1] = 1


@njit(cache=True)
def do_declare(r, p, g, v):
    """KRM-INF-2: declarations only rise; the stamp orders ties (KRM-INF-4)."""
    r.counter += 1
    r.declared[p, g] = v
    r.stamp[p, g] = r.counter
    recompute_controller(r, g)


@njit(cache=True)
def _resample_sheet(r, p, rng):
    """Give seat p a fresh sheet: values 10..1 on distinct assignable gamers, with assigned >= declared
    + burned on every gamer p has committed points to (greedy by falling need always succeeds: the true
    sheet shows at most 11 - n gamers need n or more)."""
    need = np.zeros(N_GAMERS, np.int8)
    n_need = 0
    for g in range(N_GAMERS):
        need[g] = r.declared[p, g] + r.burned[p, g]
        n_need += need[g] > 0
        r.assigned[p, g] = 0
    used = np.zeros(MAX_VALUE + 1, np.uint8)
    for _ in range(n_need):
        gbest = -1
        for g in range(N_GAMERS):  # the gamer with the highest remaining need
            if need[g] > 0 and r.assigned[p, g] == 0 and (gbest < 0 or need[g] > need[gbest]):
                gbest = g
        free = 0
        for v in range(need[gbest], MAX_VALUE + 1):
            free += used[v] == 0
        k = uniform_int(rng, free)
        for v in range(need[gbest], MAX_VALUE + 1):
            if used[v] == 0:
                if k == 0:
                    used[v] = 1
                    r.assigned[p, gbest] = v
                    break
                k -= 1
    for v in range(MAX_VALUE, 0, -1):
        if used[v]:
            continue
        free = 0
        for g in range(N_GAMERS):
            free += assignable(r, g) and r.assigned[p, g] == 0
        k = uniform_int(rng, free)
        for g in range(N_GAMERS):
            if assignable(r, g) and r.assigned[p, g] == 0:
                if k == 0:
                    r.assigned[p, g] = v
                    break
                k -= 1


@njit(cache=True)
def _resample_partial(r, p, count, rng):
    """During the allocation: p's first ``count`` values (10, 9, ...) on random distinct gamers."""
    for g in range(N_GAMERS):
        r.assigned[p, g] = 0
    for i in range(count):
        free = 0
        for g in range(N_GAMERS):
            free += assignable(r, g) and r.assigned[p, g] == 0
        k = uniform_int(rng, free)
        for g in range(N_GAMERS):
            if assignable(r, g) and r.assigned[p, g] == 0:
                if k == 0:
                    r.assigned[p, g] = INFLUENCE_VALUES[i]
                    break
                k -= 1


@njit(cache=True)
def determinize(s, seat, seed):
    """Resample every other seat's secret sheet consistently with its public declarations and burned
    points (and, during the allocation, with how many values it has given). The record RNG is untouched."""
    r = s[0]
    rng = np.zeros(1, np.uint64)
    seed_rng(rng, seed)
    for p in range(r.num_players):
        if p == seat:
            continue
        if r.assign_seat < r.num_players and p >= r.assign_seat:  # allocation still running
            _resample_partial(r, p, r.assign_count if p == r.assign_seat else 0, rng)
        else:
            _resample_sheet(r, p, rng)
