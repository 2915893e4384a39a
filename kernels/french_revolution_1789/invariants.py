"""Conservation checks for tests and debugging (plain numpy; never called by the rules).

Support markers, army units, history cards, intrigue cards and status markers are never created or
lost; RP stays within 0..60 and VP >= 0 (FR-GEN-3/4).
"""

from __future__ import annotations

from .._common.invariants import invariant_checker
from .state import LOC_PILE
from .state import LOC_PLAYED
from .state import ST_EXILED
from .state import ST_IMPRISONED
from .tables import ARMY_UNITS
from .tables import CARD_PERSON
from .tables import DECK_CARDS
from .tables import DECK_START
from .tables import EXILED_MARKERS
from .tables import IMPRISONED_MARKERS
from .tables import MAX_STRENGTH
from .tables import N_CARDS
from .tables import N_CITIES
from .tables import N_INTRIGUE
from .tables import RP_CAP
from .tables import SUPPORT_MARKERS


def violations(r, n):
    """One line for each law above that the record ``r`` (``n`` seats) breaks."""
    for p in range(n):
        placed = int((r["city_owner"] == p).sum())
        if placed + int(r["supply"][p]) != SUPPORT_MARKERS:
            yield f"seat {p}: {placed} markers placed + {int(r['supply'][p])} in supply != {SUPPORT_MARKERS}"
        if not 0 <= int(r["rp"][p]) <= RP_CAP:
            yield f"seat {p}: RP {int(r['rp'][p])} outside 0..{RP_CAP}"
        if int(r["vp"][p]) < 0:
            yield f"seat {p}: negative VP"
    for p in range(n, 5):
        if r["rp"][p] or r["vp"][p] or r["supply"][p]:
            yield f"unused seat {p} holds something"
    for a in range(3):
        for k in range(MAX_STRENGTH + 1):
            on_map = int(((r["city_army"] == a) & (r["city_str"] == k)).sum())
            if on_map + int(r["cup"][a, k]) != ARMY_UNITS[a, k]:
                yield (f"army {a} strength {k}: {on_map} on map + {int(r['cup'][a, k])} in cup != {ARMY_UNITS[a, k]}")
    if sorted(r["deck"].tolist()) != list(range(N_CARDS)):
        yield "deck is not a permutation of the history cards"
    for d in range(5):
        block = set(r["deck"][DECK_START[d] : DECK_START[d + 1]].tolist())
        if block != set(DECK_CARDS[DECK_START[d] : DECK_START[d + 1]].tolist()):
            yield f"deck {d} holds cards of another deck"
    pos = int(r["deck_pos"])
    for i in range(N_CARDS):
        c = int(r["deck"][i])
        owned = int(r["card_owner"][c]) >= 0
        expect_owned = i < pos and c != int(r["auc_card"])
        if owned != expect_owned:
            yield f"card {c}: owned={owned} but revealed-and-sold={expect_owned}"
        if owned and not CARD_PERSON[c] and int(r["card_status"][c]) != 0:
            yield f"event {c} has a status"
    imp = int(((r["card_status"] == ST_IMPRISONED) & (r["card_owner"] >= 0)).sum())
    exi = int(((r["card_status"] == ST_EXILED) & (r["card_owner"] >= 0)).sum())
    if imp > IMPRISONED_MARKERS or exi > EXILED_MARKERS:
        yield f"{imp} imprisoned / {exi} exiled markers in use, more than exist"
    pile = [int(x) for x in r["pile"][: int(r["pile_n"])]]
    loc = r["intr_loc"]
    if sorted(pile) != sorted(j for j in range(N_INTRIGUE) if loc[j] == LOC_PILE):
        yield "intrigue pile does not match the cards located in the pile"
    for j in range(N_INTRIGUE):
        if not (loc[j] in (LOC_PILE, LOC_PLAYED) or 0 <= loc[j] < n):
            yield f"intrigue card {j} at impossible location {int(loc[j])}"
    owner_ok = all(-1 <= int(o) < n for o in r["city_owner"][:N_CITIES])
    if not owner_ok:
        yield "a city marker belongs to no seat"


check_invariants = invariant_checker(violations)
