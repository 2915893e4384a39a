"""Secret influence: the allocation (KRM-SET-4), declarations (KRM-INF-2..4, KRM-OPT-2/4) and
``determinize`` (resampling the other seats' sheets consistently with their public declarations).

Reads/writes assigned, declared, stamp, counter, controller, assign_seat, assign_count.
"""

import numpy as np
from numba import njit

from .._common.jit import internal
from .._common.rng import seed_rng
from .._common.rng import uniform_float
from .board import recompute_controller
from .tables import ASSIGNABLE
from .tables import ENEMY
from .tables import EXPERIENCE
from .tables import INFLUENCE_VALUES
from .tables import LOC_OTH
from .tables import LOC_RET
from .tables import MAX_VALUE
from .tables import N_GAMERS
from .tables import N_VALUES
from .tables import START_LOC
from .tables import TR_INCONSPICUOUS
from .tables import TRAIT


@internal(cache=True)
def assignable(r, g):
    """KRM-SET-4: never the starting chairman G01; KRM-OPT-4: never an inconspicuous gamer."""
    return ASSIGNABLE[g] and not (r.traits and TRAIT[g, TR_INCONSPICUOUS])


@internal(cache=True)
def valid_assign(r, p, g):
    return assignable(r, g) and r.assigned[p, g] == 0


@internal(cache=True)
def do_assign(r, g):
    """KRM-SET-4: the seat gives the next value (10, 9, ... 1) to gamer g."""
    p = r.assign_seat
    r.assigned[p, g] = INFLUENCE_VALUES[r.assign_count]
    r.assign_count += 1
    if r.assign_count == N_VALUES:
        r.assign_count = 0
        r.assign_seat += 1


@internal(cache=True)
def declarable_max(r, p, g):
    """Highest value p may declare on g now (KRM-INF-2): assigned - burned, 0 if g is away/retired."""
    if r.loc[g] == LOC_OTH or r.loc[g] == LOC_RET:
        return 0
    return r.assigned[p, g] - r.burned[p, g]


@internal(cache=True)
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


@internal(cache=True)
def valid_declare(r, p, g, v):
    return r.declared[p, g] < v <= declarable_max(r, p, g) and not _enemy_blocks(r, p, g, v)


@internal(cache=True)
def declare_ceiling(r, p, g):
    """The highest v with valid_declare(r, p, g, v) for every v from declared + 1 up to it (KRM-INF-2), the
    values p may declare on g being that range. KRM-OPT-2 blocks exactly the values above every other seat's
    declaration on g (ties go to the earlier declarer), so it lowers the ceiling instead of testing each v."""
    top = declarable_max(r, p, g)
    if top > r.declared[p, g] and _enemy_blocks(r, p, g, top):
        others = 0
        for q in range(r.num_players):
            if q != p:
                others = max(others, r.declared[q, g])
        top = min(top, others)
    return top


@internal(cache=True)
def has_declaration(r, p):
    """Does seat p have at least one legal DECLARE (else the window passes it automatically)?"""
    traits = r.traits
    for g in range(N_GAMERS):
        top = declare_ceiling(r, p, g) if traits else declarable_max(r, p, g)  # KRM-OPT-2 only with traits
        if top > r.declared[p, g]:
            return True
    return False


@internal(cache=True)
def fill_declarations(r, p, mask, base):
    """Set mask[base + 10 g + v - 1] for every legal DECLARE(g, v) of seat p."""
    traits = r.traits
    for g in range(N_GAMERS):
        top = declare_ceiling(r, p, g) if traits else declarable_max(r, p, g)  # KRM-OPT-2 only with traits
        at = base + MAX_VALUE * g - 1
        for v in range(r.declared[p, g] + 1, top + 1):
            mask[at + v] = 1


@internal(cache=True)
def do_declare(r, p, g, v):
    """KRM-INF-2: declarations only rise; the stamp orders ties (KRM-INF-4)."""
    r.counter += 1
    r.declared[p, g] = v
    r.stamp[p, g] = r.counter
    recompute_controller(r, g)


# Belief about a hidden sheet (used by ``determinize``). A sensible player gives its biggest values to the
# gamers nearest the chairman's post and to the most experienced ones (they are promoted first, KRM-PER-2..4),
# so a sheet is sampled by giving 10, 9, ... 1 in turn to the gamers of highest noisy prior score
#   SHEET_POST_PRIOR[post at the allocation] + (experience - 50) / 30 + SHEET_PRIOR_NOISE * U(0, 1).
# These are the weights the shipped heuristic allocates by (agents/heuristics/kremlin.py). In the shared strength
# test the searcher does far better with this prior than with uniform sheets, with noise 2 and with the flatter
# noise 4 alike, so the gain does not hinge on matching the opponents' noise exactly.
SHEET_POST_PRIOR = np.array([10.0, 5.0, 4.0, 4.0, 3.0, 2.5, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.3, 0.0, 0.0])
SHEET_PRIOR_NOISE = 2.0


@internal(cache=True)
def _prior_scores(r, rng, score):
    """Noisy prior score of every gamer (above). The post at the allocation is the setup post (KRM-SET-1);
    with random placement the setup is not kept in the record, so the current location stands in for it."""
    for g in range(N_GAMERS):
        loc = r.loc[g] if r.random_placement else START_LOC[g]
        score[g] = SHEET_POST_PRIOR[loc] + (EXPERIENCE[g] - 50) / 30.0 + SHEET_PRIOR_NOISE * uniform_float(rng)


@internal(cache=True)
def _tightest_need(free, need, v):
    """Largest t <= v such that the free gamers needing >= t would take every value left in t..v (0 if none):
    the value v must then go to one of them, or some commitment could no longer be met (Hall's condition)."""
    tight = 0
    for t in range(1, v + 1):
        count = 0
        for g in range(N_GAMERS):
            count += free[g] and need[g] >= t
        if count >= v - t + 1:
            tight = t
    return tight


@internal(cache=True)
def _resample_sheet(r, p, rng):
    """Give seat p a fresh sheet from the prior: values 10..1 in turn to the free gamer of highest noisy
    score, keeping assigned >= declared + burned on every gamer p has committed points to. Each value goes to
    a gamer whose need it covers, and to a needy one whenever the needs left would otherwise not fit (the true
    sheet exists, so the needs fit at the start and this keeps them fitting)."""
    need = np.zeros(N_GAMERS, np.int64)
    free = np.zeros(N_GAMERS, np.uint8)
    score = np.zeros(N_GAMERS, np.float64)
    _prior_scores(r, rng, score)
    for g in range(N_GAMERS):
        need[g] = r.declared[p, g] + r.burned[p, g]
        free[g] = assignable(r, g)
        r.assigned[p, g] = 0
    for v in range(MAX_VALUE, 0, -1):
        tight = _tightest_need(free, need, v)
        best = -1
        for g in range(N_GAMERS):
            if free[g] and tight <= need[g] <= v and (best < 0 or score[g] > score[best]):
                best = g
        r.assigned[p, best] = v
        free[best] = 0


@internal(cache=True)
def _resample_partial(r, p, count, rng):
    """During the allocation (nothing declared yet): p's first ``count`` values (10, 9, ...) to the gamers of
    highest noisy prior score."""
    score = np.zeros(N_GAMERS, np.float64)
    _prior_scores(r, rng, score)
    for g in range(N_GAMERS):
        r.assigned[p, g] = 0
    for i in range(count):
        best = -1
        for g in range(N_GAMERS):
            if assignable(r, g) and r.assigned[p, g] == 0 and (best < 0 or score[g] > score[best]):
                best = g
        r.assigned[p, best] = INFLUENCE_VALUES[i]


@njit(cache=True)
def determinize(s, seat, seed):
    """Resample every other seat's secret sheet from the prior above, consistently with its public
    declarations and burned points (and, during the allocation, with how many values it has given). The
    record RNG is untouched."""
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
