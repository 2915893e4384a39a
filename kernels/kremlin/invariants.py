"""Conservation checks for tests and debugging (plain numpy; never called by the rules).

Gamers are never created or lost: each is in exactly one place and each post has at most one holder
that points back to it. Influence is conserved: declared + burned never exceeds the secret sheet, and
every finished sheet holds the values 10..1 once each on distinct assignable gamers. Markers stay in
range and control matches the declarations.
"""

from __future__ import annotations

from .._common.invariants import invariant_checker
from .state import PH_ASSIGN
from .state import PH_GAME_OVER
from .tables import ASSIGNABLE
from .tables import EXPERIENCE
from .tables import INFLUENCE_VALUES
from .tables import LOC_OTH
from .tables import LOC_RET
from .tables import N_GAMERS
from .tables import N_POSTS


def _controller(r, g, n):
    best, bv, bs = -1, 0, 0
    for p in range(n):
        v = int(r["declared"][p, g])
        if v > 0 and (v > bv or (v == bv and r["stamp"][p, g] < bs)):
            best, bv, bs = p, v, int(r["stamp"][p, g])
    return best


def violations(r, n):
    """One line for each law above that the record ``r`` (``n`` seats) breaks."""
    loc, holder = r["loc"], r["holder"]
    for k in range(N_POSTS):
        g = int(holder[k])
        if g >= 0 and loc[g] != k:
            yield f"post {k}: holder G{g + 1:02d} is at location {loc[g]}"
    for g in range(N_GAMERS):
        if not 0 <= loc[g] <= LOC_RET:
            yield f"gamer {g}: location {loc[g]} out of range"
        elif loc[g] < N_POSTS and holder[loc[g]] != g:
            yield f"gamer {g}: at post {loc[g]} but the post holds {holder[loc[g]]}"
        if loc[g] != LOC_RET and not 0 <= r["broke"][g] <= 2:
            yield f"gamer {g}: {r['broke'][g]} broke markers while not retired"
        if r["sp"][g] < 0:
            yield f"gamer {g}: negative SP"
        if loc[g] == LOC_OTH and r["declared"][:, g].any():
            yield f"gamer {g}: in other circles with live declarations"
        if loc[g] >= N_POSTS and r["susp_turn"][g]:
            yield f"gamer {g}: suspicion marker off the board"
        if (
            loc[g] != LOC_RET
            and EXPERIENCE[g] + r["sp"][g] >= 96
            and int(r["actor"]) != g
            and int(r["phase"]) != PH_GAME_OVER
        ):
            yield f"gamer {g}: age {EXPERIENCE[g] + r['sp'][g]} but not retired"
        if int(r["controller"][g]) != _controller(r, g, n):
            yield f"gamer {g}: cached controller {r['controller'][g]} != {_controller(r, g, n)}"
    ass, dec, bur = r["assigned"].astype(int), r["declared"].astype(int), r["burned"].astype(int)
    if (dec + bur > ass).any() or (dec < 0).any() or (bur < 0).any():
        yield "declared + burned exceeds an influence sheet"
    if (ass[n:] != 0).any() or (dec[n:] != 0).any():
        yield "an empty seat holds influence"
    finished = n if int(r["phase"]) != PH_ASSIGN else int(r["assign_seat"])
    for p in range(finished):
        vals = sorted(ass[p][ass[p] > 0].tolist(), reverse=True)
        if vals != INFLUENCE_VALUES.tolist():
            yield f"seat {p}: sheet values {vals} are not 10..1 once each"
        if (ass[p][ASSIGNABLE == 0] != 0).any():
            yield f"seat {p}: points on a gamer that cannot receive them"
    if (r["speeches"][:n] > 3).any() or (r["speeches"] < 0).any():
        yield f"speeches out of range: {r['speeches'].tolist()}"


check_invariants = invariant_checker(violations)
