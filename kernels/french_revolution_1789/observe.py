"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Public (spec §7): regime, turn, phase, votes, cities and markers, armies and cups, every owned card
and its status, the dead box, which cards remain in the decks (not their order), hand sizes, played
intrigue cards, the auction and the pending move. Private: ``my_hand`` holds only the observer's own
intrigue cards (the privileged view, seat -1, shows every card held by any seat). Each piece's scale is its
row of ``PIECES``.
"""

from numba import njit

from .._common.layout import ObsLayout
from .._common.observing import mark
from .._common.observing import reciprocal
from .._common.observing import relative_seat
from .._common.observing import scaled
from .._common.observing import start_observation
from . import state
from . import tables
from .rules import to_move
from .state import LOC_PLAYED
from .state import MAX_SEATS
from .state import PH_CHANCE
from .state import ST_DEAD
from .tables import ARMY_UNITS
from .tables import E_DEC0
from .tables import E_NDEC
from .tables import EFF
from .tables import MAX_STRENGTH
from .tables import N_CARDS
from .tables import N_CITIES
from .tables import N_INTRIGUE
from .tables import N_TURNS

S = MAX_SEATS
A = MAX_STRENGTH + 1  # a unit's strength 0..MAX_STRENGTH
HAND_MOST = N_INTRIGUE * (1 + 2**-20)  # every card; the float32 sum of 1/14 per card runs 1e-7 over 14/14
MAX_CUP = int(ARMY_UNITS.max())
PIECES = """
| piece               | shape           | per seat | divisor         | max             | unit                                                     |
|---------------------|-----------------|----------|-----------------|-----------------|----------------------------------------------------------|
| phase_onehot        | (N_PHASES,)     |          | 1               | 1               | 0/1                                                      |
| turn_onehot         | (N_TURNS,)      |          | 1               | 1               | 0/1                                                      |
| regime_onehot       | (N_REGIMES,)    |          | 1               | 1               | 0/1                                                      |
| votes               | (N_REGIMES,)    |          | 10              | int16           | vote markers                                             |
| seat_present        | (S,)            | yes      | 1               | 1               | 0/1                                                      |
| to_move             | (S,)            | yes      | 1               | 1               | 0/1                                                      |
| start_player        | (S,)            | yes      | 1               | 1               | 0/1                                                      |
| rp                  | (S,)            | yes      | RP_CAP          | RP_CAP          | RP                                                       |
| vp                  | (S,)            | yes      | 60              | int16           | VP                                                       |
| supply              | (S,)            | yes      | SUPPORT_MARKERS | SUPPORT_MARKERS | support markers                                          |
| hand_size           | (S,)            | yes      | N_INTRIGUE      | HAND_MOST       | intrigue cards                                           |
| support             | (S, N_CITIES)   | yes      | 1               | 1               | 0/1: the seat's marker in the city                       |
| cards               | (S, N_CARDS, 4) | yes      | 1               | 1               | 0/1: owned free, imprisoned, exiled, tilted              |
| auction_passed      | (S,)            | yes      | 1               | 1               | 0/1                                                      |
| auction_high_bidder | (S,)            | yes      | 1               | 1               | 0/1                                                      |
| action_passed       | (S,)            | yes      | 1               | 1               | 0/1                                                      |
| city_army           | (N_CITIES, 3)   |          | 1               | 1               | 0/1: French, coalition, royalist                         |
| city_strength       | (N_CITIES,)     |          | MAX_STRENGTH    | MAX_STRENGTH    | strength                                                 |
| cups                | (3, A)          |          | MAX_CUP               | MAX_CUP         | units                                                    |
| dead                | (N_CARDS,)      |          | 1               | 1               | 0/1                                                      |
| in_deck             | (N_CARDS,)      |          | 1               | 1               | 0/1: not yet revealed                                    |
| auction_card        | (N_CARDS,)      |          | 1               | 1               | 0/1                                                      |
| auction_high_bid    | (1,)            |          | RP_CAP          | RP_CAP          | RP (0 before the opening bid)                            |
| auction_opened      | (1,)            |          | 1               | 1               | 0/1                                                      |
| markers_free        | (2,)            |          | 4               | 4               | imprisoned, exiled markers left                          |
| pile_size           | (1,)            |          | N_INTRIGUE      | N_INTRIGUE      | cards                                                    |
| played_intrigue     | (N_INTRIGUE,)   |          | 1               | 1               | 0/1                                                      |
| my_hand             | (N_INTRIGUE,)   |          | 1               | 1               | 0/1 (private)                                            |
| move_card           | (N_CARDS,)      |          | 1               | 1               | 0/1: the selected card                                   |
| move_intrigue       | (N_INTRIGUE,)   |          | 1               | 1               | 0/1: the intrigue card being played                      |
| move_effect         | (N_EFF,)        |          | 1               | 1               | 0/1: the effect row being resolved                       |
| move_decision       | (5,)            |          | 1               | 1               | 0/1: pending sub-decision regime/city/person/player/army |
| move_city           | (N_CITIES,)     |          | 1               | 1               | 0/1: the chosen city                                     |
| last_draw           | (A,)            |          | 1               | 1               | 0/1: strength of the last unit drawn                     |
| last_success        | (1,)            |          | 1               | 1               | 0/1                                                      |
"""
# the table names the room's constants; O.<piece>: where the piece starts in the vector, D.<piece>: its divisor
O, D, OBS_PIECES, OBS_SIZE = ObsLayout.from_table(PIECES, state, tables, globals()).exports()
# reciprocals of the divisors of integer pieces (checked bit-identical to dividing: ``reciprocal``)
INV_VOTES, INV_RP, INV_VP, INV_SUPPLY = reciprocal(D.votes), reciprocal(D.rp), reciprocal(D.vp), reciprocal(D.supply)
INV_STRENGTH, INV_CUPS = reciprocal(D.city_strength), reciprocal(D.cups)


@njit(cache=True)
def observe(s, seat, out):
    r = s[0]
    mover = r.act_player if r.phase == PH_CHANCE else to_move(s)  # a pending draw shows the seat that drew it
    start_observation(r, seat, mover, out, O.phase_onehot, O.seat_present, O.to_move)
    out[O.turn_onehot + min(r.turn, N_TURNS - 1)] = 1.0
    out[O.regime_onehot + r.regime] = 1.0
    scaled(out, O.votes, r.votes, INV_VOTES)
    for p in range(r.num_players):
        q = relative_seat(r, seat, p)
        if p == r.start_player:
            out[O.start_player + q] = 1.0
        out[O.rp + q] = r.rp[p] * INV_RP
        out[O.vp + q] = r.vp[p] * INV_VP
        out[O.supply + q] = r.supply[p] * INV_SUPPLY
        out[O.auction_passed + q] = r.auc_passed[p]
        out[O.action_passed + q] = r.act_passed[p]
        if p == r.auc_high_bidder:
            out[O.auction_high_bidder + q] = 1.0
    for j in range(N_INTRIGUE):
        loc = r.intr_loc[j]
        if loc >= 0:
            out[O.hand_size + relative_seat(r, seat, loc)] += 1.0 / D.hand_size
            if loc == seat or seat < 0:
                out[O.my_hand + j] = 1.0
        elif loc == LOC_PLAYED:
            out[O.played_intrigue + j] = 1.0
    for c in range(N_CITIES):
        o = r.city_owner[c]
        if o >= 0:
            out[O.support + relative_seat(r, seat, o) * N_CITIES + c] = 1.0
        out[O.city_army + c * 3 + r.city_army[c]] = 1.0
        out[O.city_strength + c] = r.city_str[c] * INV_STRENGTH
    for a in range(3):
        scaled(out, O.cups + a * A, r.cup[a], INV_CUPS)
    imp = 4
    exi = 4
    for c in range(N_CARDS):
        o = r.card_owner[c]
        st = r.card_status[c]
        if o >= 0:
            if st == ST_DEAD:
                out[O.dead + c] = 1.0
            else:
                base = O.cards + (relative_seat(r, seat, o) * N_CARDS + c) * 4
                out[base + st] = 1.0
                out[base + 3] = r.card_tilted[c]
                imp -= st == 1
                exi -= st == 2
    for i in range(r.deck_pos, N_CARDS):
        out[O.in_deck + r.deck[i]] = 1.0
    if r.auc_card >= 0:
        out[O.auction_card + r.auc_card] = 1.0
        if r.auc_high >= 0:
            out[O.auction_high_bid] = r.auc_high / D.auction_high_bid
            out[O.auction_opened] = 1.0
    out[O.markers_free] = imp / D.markers_free
    out[O.markers_free + 1] = exi / D.markers_free
    out[O.pile_size] = r.pile_n / D.pile_size
    mark(out, O.move_card, r.mv_card)
    mark(out, O.move_intrigue, r.mv_intr)
    if r.mv_eff >= 0:
        out[O.move_effect + r.mv_eff] = 1.0
        if r.phase == 3 and r.mv_stage < EFF[r.mv_eff, E_NDEC]:
            out[O.move_decision + EFF[r.mv_eff, E_DEC0 + r.mv_stage]] = 1.0
    mark(out, O.move_city, r.mv_city)
    out[O.last_draw + r.last_draw] = 1.0
    out[O.last_success] = r.last_success
