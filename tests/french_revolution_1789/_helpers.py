"""Helpers for the French Revolution 1789 rule tests (spec: shared/rules/french_revolution_1789.md).

Positions are built by writing record fields directly; every action is then driven through the kernel
(``play`` asserts the action is legal for the seat the test expects to be moving).
"""

from __future__ import annotations

import numpy as np

from tabletop_zoo.kernels import french_revolution_1789 as k

T = k.tables
ST = k.state

# Action ids written out from the spec's §6 table.
PASS, BID, SELECT, INTRIGUE, RA, ABILITY, CITY, PERSON, REGIME, PLAYER, ARMY = (
    0,
    1,
    62,
    94,
    108,
    121,
    122,
    134,
    166,
    173,
    178,
)
AM, CM, REP, TER, DIR, EMP, EGA = range(7)
(
    VOTE,
    CAMPAIGN,
    NOBLES,
    ARREST,
    EXILE,
    EXECUTE,
    RELEASE,
    RETURN,
    INSTIGATE,
    FINANCE,
    EXPEDITION,
    NATIONALISE,
    ASSASSIN,
) = range(13)
PARIS, LILLE, METZ, STRASBOURG, LYON, MARSEILLE, TOULON, PERPIGNAN, BAYONNE, BORDEAUX, NANTES, RENNES = range(12)
FREE, IMPRISONED, EXILED, DEAD = 0, 1, 2, 3
FRENCH, COALITION, ROYALIST = 0, 1, 2
CHANCE_SEAT = -1


def card(name: str) -> int:
    return T.CARD_INDEX[name]


def intrigue(name: str) -> int:
    return T.INTRIGUE_IDS.index(name)


FRENCH_ = 0


def action_state(n: int, regime: int = AM, actor: int = 0, turn: int = 0, seed: int = 0, **options) -> np.ndarray:
    """A record in the action phase of `turn` with no cards sold, no hands, an empty pile, 0 RP."""
    s = k.new_state(n, seed, **options)
    r = s[0]
    r["phase"] = ST.PH_ACTION
    r["turn"] = turn
    r["regime"] = regime
    r["rp"][:] = 0
    r["deck"][:] = T.DECK_CARDS
    r["deck_pos"] = T.DECK_START[turn + 1]
    r["auc_card"] = -1
    r["auc_bidder"] = -1
    r["act_player"] = actor
    r["start_player"] = actor
    r["intr_loc"][:] = ST.LOC_PILE
    r["pile"][:] = np.arange(14)
    r["pile_n"] = 14
    r["intr_known"][:] = 0
    layout = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4]  # a fixed French layout; cups keep 1s, 2s and a 3
    r["cup"][:] = T.ARMY_UNITS
    for c, strength in enumerate(layout):
        r["city_army"][c] = FRENCH
        r["city_str"][c] = strength
        r["cup"][FRENCH, strength] -= 1
    return s


def give(s, name: str, seat: int, status: int = FREE) -> int:
    c = card(name)
    s[0]["card_owner"][c] = seat
    s[0]["card_status"][c] = status
    return c


def give_intrigue(s, name: str, seat: int) -> int:
    """Move an intrigue card from the pile to seat's hand."""
    r = s[0]
    j = intrigue(name)
    pile = [int(x) for x in r["pile"][: int(r["pile_n"])] if x != j]
    r["pile"][:] = -1
    r["pile"][: len(pile)] = pile
    r["pile_n"] = len(pile)
    r["intr_loc"][j] = seat
    r["intr_known"][j] = 1 << seat
    return j


def set_unit(s, city: int, army: int, strength: int) -> None:
    """Replace the unit in a city, keeping every unit in exactly one place (cups balanced)."""
    r = s[0]
    r["cup"][int(r["city_army"][city]), int(r["city_str"][city])] += 1
    assert r["cup"][army, strength] > 0
    r["cup"][army, strength] -= 1
    r["city_army"][city] = army
    r["city_str"][city] = strength


def mark(s, city: int, seat: int) -> None:
    r = s[0]
    assert r["city_owner"][city] < 0
    r["city_owner"][city] = seat
    r["supply"][seat] -= 1


def legal(s) -> np.ndarray:
    m = np.zeros(k.NUM_ACTIONS, np.uint8)
    k.legal_mask(s, m)
    return m


def play(s, seat: int, *actions: int) -> None:
    for a in actions:
        assert k.to_move(s) == seat, f"expected seat {seat} to move, got {k.to_move(s)}"
        m = legal(s)
        assert m[a], f"{a} ({k.action_name(s, a)}) not legal; legal: {[k.action_name(s, x) for x in np.flatnonzero(m)]}"
        k.step_decision(s, a)


def pass_all(s, order) -> None:
    for p in order:
        play(s, p, PASS)
