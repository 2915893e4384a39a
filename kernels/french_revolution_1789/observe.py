"""Observation encoder: a flat float32 vector per seat, seat-relative (index 0 = the observer).

Public (spec §7): regime, turn, phase, votes, cities and markers, armies and cups, every owned card
and its status, the dead box, which cards remain in the decks (not their order), hand sizes, played
intrigue cards, the auction and the pending move. Private: ``my_hand`` holds only the observer's own
intrigue cards (the privileged view, seat -1, shows every card held by any seat). RP / 60, VP / 60,
counts by their maximum.
"""

from numba import njit

from .._common.layout import SEATS
from .._common.layout import build_pieces
from .._common.layout import offsets
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
OBS_PIECES, OBS_SIZE = build_pieces(
    [
        ("phase_onehot", (N_PHASES,), "0/1"),
        ("turn_onehot", (N_TURNS,), "0/1"),
        ("regime_onehot", (N_REGIMES,), "0/1"),
        ("votes", (N_REGIMES,), "vote markers / 10"),
        ("seat_present", (S,), "0/1", SEATS),
        ("to_move", (S,), "0/1", SEATS),
        ("start_player", (S,), "0/1", SEATS),
        ("rp", (S,), "RP / 60", SEATS),
        ("vp", (S,), "VP / 60", SEATS),
        ("supply", (S,), "support markers / 8", SEATS),
        ("hand_size", (S,), "intrigue cards / 14", SEATS),
        ("support", (S, N_CITIES), "0/1: the seat's marker in the city", SEATS),
        ("cards", (S, N_CARDS, 4), "0/1: owned free, imprisoned, exiled, tilted", SEATS),
        ("auction_passed", (S,), "0/1", SEATS),
        ("auction_high_bidder", (S,), "0/1", SEATS),
        ("action_passed", (S,), "0/1", SEATS),
        ("city_army", (N_CITIES, 3), "0/1: French, coalition, royalist"),
        ("city_strength", (N_CITIES,), "strength / 4"),
        ("cups", (3, MAX_STRENGTH + 1), "units / 6"),
        ("dead", (N_CARDS,), "0/1"),
        ("in_deck", (N_CARDS,), "0/1: not yet revealed"),
        ("auction_card", (N_CARDS,), "0/1"),
        ("auction_high_bid", (1,), "RP / 60 (0 before the opening bid)"),
        ("auction_opened", (1,), "0/1"),
        ("markers_free", (2,), "imprisoned / 4, exiled / 4"),
        ("pile_size", (1,), "cards / 14"),
        ("played_intrigue", (N_INTRIGUE,), "0/1"),
        ("my_hand", (N_INTRIGUE,), "0/1 (private)"),
        ("move_card", (N_CARDS,), "0/1: the selected card"),
        ("move_intrigue", (N_INTRIGUE,), "0/1: the intrigue card being played"),
        ("move_effect", (N_EFF,), "0/1: the effect row being resolved"),
        ("move_decision", (5,), "0/1: pending sub-decision regime/city/person/player/army"),
        ("move_city", (N_CITIES,), "0/1: the chosen city"),
        ("last_draw", (MAX_STRENGTH + 1,), "0/1: strength of the last unit drawn"),
        ("last_success", (1,), "0/1"),
    ]
)
_O = offsets(OBS_PIECES)
O_ACTION_PASSED = _O["action_passed"]
O_AUCTION_CARD = _O["auction_card"]
O_AUCTION_HIGH_BID = _O["auction_high_bid"]
O_AUCTION_HIGH_BIDDER = _O["auction_high_bidder"]
O_AUCTION_OPENED = _O["auction_opened"]
O_AUCTION_PASSED = _O["auction_passed"]
O_CARDS = _O["cards"]
O_CITY_ARMY = _O["city_army"]
O_CITY_STRENGTH = _O["city_strength"]
O_CUPS = _O["cups"]
O_DEAD = _O["dead"]
O_HAND_SIZE = _O["hand_size"]
O_IN_DECK = _O["in_deck"]
O_LAST_DRAW = _O["last_draw"]
O_LAST_SUCCESS = _O["last_success"]
O_MARKERS_FREE = _O["markers_free"]
O_MOVE_CARD = _O["move_card"]
O_MOVE_CITY = _O["move_city"]
O_MOVE_DECISION = _O["move_decision"]
O_MOVE_EFFECT = _O["move_effect"]
O_MOVE_INTRIGUE = _O["move_intrigue"]
O_MY_HAND = _O["my_hand"]
O_PHASE_ONEHOT = _O["phase_onehot"]
O_PILE_SIZE = _O["pile_size"]
O_PLAYED_INTRIGUE = _O["played_intrigue"]
O_REGIME_ONEHOT = _O["regime_onehot"]
O_RP = _O["rp"]
O_SEAT_PRESENT = _O["seat_present"]
O_START_PLAYER = _O["start_player"]
O_SUPPLY = _O["supply"]
O_SUPPORT = _O["support"]
O_TO_MOVE = _O["to_move"]
O_TURN_ONEHOT = _O["turn_onehot"]
O_VOTES = _O["votes"]
O_VP = _O["vp"]


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
