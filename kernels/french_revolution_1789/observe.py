"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Public (spec §7): regime, turn, phase, votes, cities and markers, armies and cups, every owned card
and its status, the dead box, which cards remain in the decks (not their order), hand sizes, played
intrigue cards, the auction and the pending move. Private: ``my_hand`` holds only the observer's own
intrigue cards (the privileged view, seat -1, shows every card held by any seat). RP / 60, VP / 60,
counts by their maximum.
"""

from numba import njit

from .._common.layout import SEATS
from .._common.layout import ObsLayout
from .._common.seats import relative_seat
from .state import LOC_PLAYED
from .state import MAX_SEATS
from .state import N_PHASES
from .state import ST_DEAD
from .tables import E_DEC0
from .tables import E_NDEC
from .tables import EFF
from .tables import MAX_STRENGTH
from .tables import N_CARDS
from .tables import N_CITIES
from .tables import N_EFF
from .tables import N_INTRIGUE
from .tables import N_REGIMES
from .tables import N_TURNS

S = MAX_SEATS
_OBS = ObsLayout()
O_PHASE_ONEHOT = _OBS.add("phase_onehot", (N_PHASES,), "0/1")
O_TURN_ONEHOT = _OBS.add("turn_onehot", (N_TURNS,), "0/1")
O_REGIME_ONEHOT = _OBS.add("regime_onehot", (N_REGIMES,), "0/1")
O_VOTES = _OBS.add("votes", (N_REGIMES,), "vote markers / 10")
O_SEAT_PRESENT = _OBS.add("seat_present", (S,), "0/1", SEATS)
O_TO_MOVE = _OBS.add("to_move", (S,), "0/1", SEATS)
O_START_PLAYER = _OBS.add("start_player", (S,), "0/1", SEATS)
O_RP = _OBS.add("rp", (S,), "RP / 60", SEATS)
O_VP = _OBS.add("vp", (S,), "VP / 60", SEATS)
O_SUPPLY = _OBS.add("supply", (S,), "support markers / 8", SEATS)
O_HAND_SIZE = _OBS.add("hand_size", (S,), "intrigue cards / 14", SEATS)
O_SUPPORT = _OBS.add("support", (S, N_CITIES), "0/1: the seat's marker in the city", SEATS)
O_CARDS = _OBS.add("cards", (S, N_CARDS, 4), "0/1: owned free, imprisoned, exiled, tilted", SEATS)
O_AUCTION_PASSED = _OBS.add("auction_passed", (S,), "0/1", SEATS)
O_AUCTION_HIGH_BIDDER = _OBS.add("auction_high_bidder", (S,), "0/1", SEATS)
O_ACTION_PASSED = _OBS.add("action_passed", (S,), "0/1", SEATS)
O_CITY_ARMY = _OBS.add("city_army", (N_CITIES, 3), "0/1: French, coalition, royalist")
O_CITY_STRENGTH = _OBS.add("city_strength", (N_CITIES,), "strength / 4")
O_CUPS = _OBS.add("cups", (3, MAX_STRENGTH + 1), "units / 6")
O_DEAD = _OBS.add("dead", (N_CARDS,), "0/1")
O_IN_DECK = _OBS.add("in_deck", (N_CARDS,), "0/1: not yet revealed")
O_AUCTION_CARD = _OBS.add("auction_card", (N_CARDS,), "0/1")
O_AUCTION_HIGH_BID = _OBS.add("auction_high_bid", (1,), "RP / 60 (0 before the opening bid)")
O_AUCTION_OPENED = _OBS.add("auction_opened", (1,), "0/1")
O_MARKERS_FREE = _OBS.add("markers_free", (2,), "imprisoned / 4, exiled / 4")
O_PILE_SIZE = _OBS.add("pile_size", (1,), "cards / 14")
O_PLAYED_INTRIGUE = _OBS.add("played_intrigue", (N_INTRIGUE,), "0/1")
O_MY_HAND = _OBS.add("my_hand", (N_INTRIGUE,), "0/1 (private)")
O_MOVE_CARD = _OBS.add("move_card", (N_CARDS,), "0/1: the selected card")
O_MOVE_INTRIGUE = _OBS.add("move_intrigue", (N_INTRIGUE,), "0/1: the intrigue card being played")
O_MOVE_EFFECT = _OBS.add("move_effect", (N_EFF,), "0/1: the effect row being resolved")
O_MOVE_DECISION = _OBS.add("move_decision", (5,), "0/1: pending sub-decision regime/city/person/player/army")
O_MOVE_CITY = _OBS.add("move_city", (N_CITIES,), "0/1: the chosen city")
O_LAST_DRAW = _OBS.add("last_draw", (MAX_STRENGTH + 1,), "0/1: strength of the last unit drawn")
O_LAST_SUCCESS = _OBS.add("last_success", (1,), "0/1")
OBS_PIECES, OBS_SIZE = _OBS.pieces, _OBS.size


@njit(cache=True)
def observe(s, seat, out):
    r = s[0]
    n = r.num_players
    for i in range(OBS_SIZE):
        out[i] = 0.0
    out[O_PHASE_ONEHOT + r.phase] = 1.0
    out[O_TURN_ONEHOT + min(r.turn, N_TURNS - 1)] = 1.0
    out[O_REGIME_ONEHOT + r.regime] = 1.0
    for g in range(N_REGIMES):
        out[O_VOTES + g] = r.votes[g] / 10.0
    mover = -1
    if r.phase == 0:
        mover = r.auc_bidder
    elif r.phase <= 4:
        mover = r.act_player
    for p in range(n):
        q = relative_seat(r, seat, p)
        out[O_SEAT_PRESENT + q] = 1.0
        if p == mover:
            out[O_TO_MOVE + q] = 1.0
        if p == r.start_player:
            out[O_START_PLAYER + q] = 1.0
        out[O_RP + q] = r.rp[p] / 60.0
        out[O_VP + q] = r.vp[p] / 60.0
        out[O_SUPPLY + q] = r.supply[p] / 8.0
        out[O_AUCTION_PASSED + q] = r.auc_passed[p]
        out[O_ACTION_PASSED + q] = r.act_passed[p]
        if p == r.auc_high_bidder:
            out[O_AUCTION_HIGH_BIDDER + q] = 1.0
    for j in range(N_INTRIGUE):
        loc = r.intr_loc[j]
        if loc >= 0:
            out[O_HAND_SIZE + relative_seat(r, seat, loc)] += 1.0 / 14.0
            if loc == seat or seat < 0:
                out[O_MY_HAND + j] = 1.0
        elif loc == LOC_PLAYED:
            out[O_PLAYED_INTRIGUE + j] = 1.0
    for c in range(N_CITIES):
        o = r.city_owner[c]
        if o >= 0:
            out[O_SUPPORT + relative_seat(r, seat, o) * N_CITIES + c] = 1.0
        out[O_CITY_ARMY + c * 3 + r.city_army[c]] = 1.0
        out[O_CITY_STRENGTH + c] = r.city_str[c] / 4.0
    for a in range(3):
        for k in range(MAX_STRENGTH + 1):
            out[O_CUPS + a * (MAX_STRENGTH + 1) + k] = r.cup[a, k] / 6.0
    imp = 4
    exi = 4
    for c in range(N_CARDS):
        o = r.card_owner[c]
        st = r.card_status[c]
        if o >= 0:
            if st == ST_DEAD:
                out[O_DEAD + c] = 1.0
            else:
                base = O_CARDS + (relative_seat(r, seat, o) * N_CARDS + c) * 4
                out[base + st] = 1.0
                out[base + 3] = r.card_tilted[c]
                imp -= st == 1
                exi -= st == 2
    for i in range(r.deck_pos, N_CARDS):
        out[O_IN_DECK + r.deck[i]] = 1.0
    if r.auc_card >= 0:
        out[O_AUCTION_CARD + r.auc_card] = 1.0
        if r.auc_high >= 0:
            out[O_AUCTION_HIGH_BID] = r.auc_high / 60.0
            out[O_AUCTION_OPENED] = 1.0
    out[O_MARKERS_FREE] = imp / 4.0
    out[O_MARKERS_FREE + 1] = exi / 4.0
    out[O_PILE_SIZE] = r.pile_n / 14.0
    if r.mv_card >= 0:
        out[O_MOVE_CARD + r.mv_card] = 1.0
    if r.mv_intr >= 0:
        out[O_MOVE_INTRIGUE + r.mv_intr] = 1.0
    if r.mv_eff >= 0:
        out[O_MOVE_EFFECT + r.mv_eff] = 1.0
        if r.phase == 3 and r.mv_stage < EFF[r.mv_eff, E_NDEC]:
            out[O_MOVE_DECISION + EFF[r.mv_eff, E_DEC0 + r.mv_stage]] = 1.0
    if r.mv_city >= 0:
        out[O_MOVE_CITY + r.mv_city] = 1.0
    out[O_LAST_DRAW + r.last_draw] = 1.0
    out[O_LAST_SUCCESS] = r.last_success
