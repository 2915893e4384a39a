"""``validate(s)``: everything wrong with a French Revolution 1789 record that enters from outside
(set_state, replays, pickles), one line per problem; empty = every kernel may index with it
(``_common/validate.py``).

Layers, each run only when the ones before hold (later bounds index with earlier fields):
1. num_players, phase and turn;
2. every field in range (the table below; seat, card, city and effect indexes for the phase that reads
   them), every amount within a proven bound;
3. the pending decision is well formed: the auctioned card is the revealed one, the acting seat and
   its card or intrigue card match the effect being resolved, the targets chosen so far are set, a
   pending unit draw or steal has something to draw (the rules that read them are cited);
4. ``check_invariants`` (markers, units, cards conserved);
5. the seat to move has a legal action and the effect under way can still be completed (the kernel's
   own rules, safe to run after 1-4).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._common.validate import Bound
from .._common.validate import check_layers
from .._common.validate import in_phase
from .._common.validate import last_seat
from .._common.validate import no_dead_end
from .._common.validate import num_seats
from .._common.validate import outside_phase
from .._common.validate import phase_words
from . import MAX_GAME_LENGTH
from .actions import NUM_ACTIONS
from .effects import effect_ok
from .invariants import check_invariants
from .rules import legal_mask
from .rules import to_move
from .state import CH_ARMY
from .state import CH_NONE
from .state import CH_STEAL
from .state import LOC_PLAYED
from .state import MAX_SEATS
from .state import N_PHASES
from .state import PH_ACTION
from .state import PH_AUCTION
from .state import PH_CHANCE
from .state import PH_CHOOSE
from .state import PH_GAME_OVER
from .state import PH_TARGET
from .state import PHASE_NAMES
from .state import ST_DEAD
from .state import STATE
from .tables import ARMY_UNITS
from .tables import CARD_ABILITY
from .tables import CARD_PERSON
from .tables import CARD_SCORE
from .tables import CARD_VOTES
from .tables import CITY_VP
from .tables import D_ARMY
from .tables import D_CITY
from .tables import D_PERSON
from .tables import D_PLAYER
from .tables import D_REGIME
from .tables import DECISION_NAMES
from .tables import DECK_START
from .tables import E_AMOUNT
from .tables import E_DEC0
from .tables import E_DRAWS
from .tables import E_NDEC
from .tables import E_NEXT
from .tables import E_OP
from .tables import EFF
from .tables import EXILE_VP
from .tables import FRENCH
from .tables import INTRIGUE_EFFECT
from .tables import MAX_PLAYERS
from .tables import MAX_STRENGTH
from .tables import MIN_PLAYERS
from .tables import N_CARDS
from .tables import N_CITIES
from .tables import N_EFF
from .tables import N_INTRIGUE
from .tables import N_RA
from .tables import N_REGIMES
from .tables import N_TURNS
from .tables import OP_DISPATCH
from .tables import OP_GAIN_VP
from .tables import OP_KILL
from .tables import OP_PLACE_VOTES
from .tables import RA_COST
from .tables import RA_VP
from .tables import RP_CAP
from .tables import SUPPORT_MARKERS


def _chain(e):
    while e >= 0:
        yield e
        e = int(EFF[e, E_NEXT])


def _chain_max(per_row) -> int:
    """The most a quantity grows in one decision: the largest sum over an effect row and its chain."""
    return max(sum(per_row(x) for x in _chain(e)) for e in range(N_EFF))


def _vp_row(e) -> int:
    op, amount = int(EFF[e, E_OP]), int(EFF[e, E_AMOUNT])
    return (int(RA_VP[op]) if op < N_RA else 0) + (amount if op in (OP_GAIN_VP, OP_KILL) else 0)


def _votes_row(e) -> int:
    op = int(EFF[e, E_OP])
    return int(CARD_VOTES.max()) if op == 0 else (int(EFF[e, E_AMOUNT]) if op == OP_PLACE_VOTES else 0)


# Proven bounds on the amounts (each far inside int16, so a record at the bound cannot overflow by the end):
# VP: every scoring phase (FR-SCO-1..3) adds at most the best ■ or exile score of every person plus every
# city's VP; every decision at most the VP of one effect chain (regime actions, gain_vp, kill_person).
_SCORING_MAX = int(sum(max(int(CARD_SCORE[c].max()), int(EXILE_VP.max())) for c in range(N_CARDS) if CARD_PERSON[c]))
MAX_VP = N_TURNS * (_SCORING_MAX + int(CITY_VP.sum())) + MAX_GAME_LENGTH * _chain_max(_vp_row)
# votes: at most one effect chain's votes per decision (FR-RA-VOTE, place_votes).
MAX_VOTES = MAX_GAME_LENGTH * _chain_max(_votes_row)
assert 2 * max(MAX_VP, MAX_VOTES) < np.iinfo(np.int16).max
MAX_DRAWS = int(EFF[:, E_DRAWS].max())  # FR-RA-INSTIGATE: units drawn, the strongest counts (FR-ARMY-5)
MAX_BONUS = int(EFF[EFF[:, E_OP] == OP_DISPATCH, E_AMOUNT].max())  # FR-ARMY-2 dispatch strength bonus
_DEC_FIELD = {D_REGIME: "mv_regime", D_CITY: "mv_city", D_PERSON: "mv_person", D_PLAYER: "mv_player", D_ARMY: "mv_army"}
_MOVES = (PH_ACTION, PH_CHOOSE, PH_TARGET, PH_CHANCE)


_in, _not_in, _n = in_phase, outside_phase, num_seats
_names, _all_but = phase_words(PHASE_NAMES), phase_words(PHASE_NAMES, "outside phase ")


def _pile_lo(r):
    return np.where(np.arange(N_INTRIGUE) < int(r["pile_n"]), 0, -1)


def _pile_hi(r):
    return np.where(np.arange(N_INTRIGUE) < int(r["pile_n"]), N_INTRIGUE - 1, -1)


def _status_hi(r):
    return np.where(r["card_owner"] >= 0, ST_DEAD, 0)  # an unsold card has no status marker


LAYERS = (
    (
        Bound("num_players", MIN_PLAYERS, MAX_PLAYERS),
        Bound("phase", 0, N_PHASES - 1),
        Bound("turn", 0, N_TURNS - 1, when=_not_in(PH_GAME_OVER), where=_all_but(PH_GAME_OVER)),  # FR-GEN-1
        Bound("turn", N_TURNS, N_TURNS, when=_in(PH_GAME_OVER), where=_names(PH_GAME_OVER)),  # FR-END-1
    ),
    (
        Bound("person_marks", 0, 1),
        Bound("decisions", 0, MAX_GAME_LENGTH),
        Bound("start_player", 0, last_seat),  # FR-AUC-6, FR-ACT-4
        Bound("rp", 0, RP_CAP, seats=True),  # FR-GEN-3/4
        Bound("vp", 0, MAX_VP, seats=True),
        Bound("supply", 0, SUPPORT_MARKERS, seats=True),
        Bound("city_owner", -1, last_seat),  # FR-GEN-6
        Bound("city_army", 0, 2),
        Bound("city_str", 0, MAX_STRENGTH),
        Bound("cup", 0, ARMY_UNITS),  # FR-ARMY-1
        Bound("regime", 0, N_REGIMES - 1),  # FR-REG-1
        Bound("votes", 0, MAX_VOTES),
        Bound("deck", 0, N_CARDS - 1),
        # FR-AUC-1: during turn t's auction the revealed card is one of deck t's; afterwards deck t is spent
        Bound(
            "deck_pos",
            lambda r: int(DECK_START[int(r["turn"])]) + 1,
            lambda r: int(DECK_START[int(r["turn"]) + 1]),
            when=_in(PH_AUCTION),
            where=_names(PH_AUCTION) + " (cards of this turn's deck revealed)",
        ),
        Bound(
            "deck_pos",
            lambda r: int(DECK_START[int(r["turn"]) + 1]),
            lambda r: int(DECK_START[int(r["turn"]) + 1]),
            when=_in(*_MOVES),
            where=_names(*_MOVES) + " (this turn's deck sold)",
        ),
        Bound("deck_pos", N_CARDS, N_CARDS, when=_in(PH_GAME_OVER), where=_names(PH_GAME_OVER)),
        Bound("card_owner", -1, last_seat),
        Bound("card_status", 0, _status_hi),  # FR-GEN-5
        Bound("card_tilted", 0, 1),  # FR-ACT-3
        Bound("card_tilted", 0, 0, when=_not_in(*_MOVES), where=_all_but(*_MOVES)),
        Bound("intr_loc", LOC_PLAYED, last_seat),
        Bound("intr_known", 0, (1 << MAX_SEATS) - 1),
        Bound("pile_n", 0, N_INTRIGUE),
        Bound("pile", _pile_lo, _pile_hi),  # pile[:pile_n] bottom to top, -1 beyond
        Bound("auc_card", 0, N_CARDS - 1, when=_in(PH_AUCTION), where=_names(PH_AUCTION)),
        Bound("auc_card", -1, -1, when=_not_in(PH_AUCTION), where=_all_but(PH_AUCTION)),
        Bound("auc_bidder", 0, last_seat, when=_in(PH_AUCTION), where=_names(PH_AUCTION)),
        Bound("auc_bidder", -1, -1, when=_not_in(PH_AUCTION), where=_all_but(PH_AUCTION)),
        Bound("auc_high", -1, RP_CAP - 1),  # FR-AUC-3: a bid is at most RP - 1
        Bound("auc_high_bidder", -1, last_seat),
        Bound("auc_passed", 0, 1, seats=True),
        Bound("act_player", 0, last_seat, when=_not_in(PH_GAME_OVER), where=_all_but(PH_GAME_OVER)),
        Bound("act_player", -1, -1, when=_in(PH_GAME_OVER), where=_names(PH_GAME_OVER)),
        Bound("act_passed", 0, 1, seats=True),
        Bound("last_passer", -1, last_seat),
        Bound("mv_eff", 0, N_EFF - 1, when=_in(PH_TARGET, PH_CHANCE), where=_names(PH_TARGET, PH_CHANCE)),
        Bound("mv_eff", -1, -1, when=_not_in(PH_TARGET, PH_CHANCE), where=_all_but(PH_TARGET, PH_CHANCE)),
        Bound("mv_card", -1, N_CARDS - 1),
        Bound("mv_card", 0, N_CARDS - 1, when=_in(PH_CHOOSE), where=_names(PH_CHOOSE)),
        Bound("mv_intr", -1, N_INTRIGUE - 1),
        Bound("mv_stage", 0, 0, when=_not_in(PH_TARGET, PH_CHANCE), where=_all_but(PH_TARGET, PH_CHANCE)),
        Bound("mv_stage", 0, 3, when=_in(PH_TARGET, PH_CHANCE), where=_names(PH_TARGET, PH_CHANCE)),
        Bound("mv_regime", -1, N_REGIMES - 1),
        Bound("mv_city", -1, N_CITIES - 1),
        Bound("mv_person", -1, N_CARDS - 1),
        Bound("mv_player", -1, last_seat),
        Bound("mv_army", -1, 2),
        Bound("ch_kind", CH_ARMY, CH_STEAL, when=_in(PH_CHANCE), where=_names(PH_CHANCE)),
        Bound("ch_kind", CH_NONE, CH_NONE, when=_not_in(PH_CHANCE), where=_all_but(PH_CHANCE)),
        Bound("ch_army", 0, 2),
        Bound("ch_draws", 0, MAX_DRAWS),
        Bound("ch_dispatch", 0, 1),
        Bound("ch_bonus", 0, MAX_BONUS),
        Bound("last_draw", 0, MAX_STRENGTH),
        Bound("last_success", 0, 1),
    ),
)


# --- layer 3: the pending decision --------------------------------------------------------------------
def _i(r, field, idx=None) -> int:
    return int(r[field]) if idx is None else int(r[field][idx])


def _auction(r) -> list[str]:
    """FR-AUC-1..3: the revealed card is unsold; the bidder and the high bidder are still in; a bid was
    affordable (RP - 1) when made and RP does not change during a card's bidding."""
    bad = []
    pos, card = _i(r, "deck_pos"), _i(r, "auc_card")
    if _i(r, "deck", pos - 1) != card:
        bad.append(f"auc_card = {card}, must be the revealed card deck[deck_pos - 1] = {_i(r, 'deck', pos - 1)}")
    n, bidder, high, hb = _n(r), _i(r, "auc_bidder"), _i(r, "auc_high"), _i(r, "auc_high_bidder")
    passed = r["auc_passed"][:n]
    if passed[bidder]:
        bad.append(f"auc_bidder = {bidder} has passed on this card (FR-AUC-2)")
    if int((passed == 0).sum()) < 2:
        bad.append(f"auc_passed = {passed.tolist()}: fewer than 2 seats still bid, the card should be sold (FR-AUC-4)")
    if high < 0:
        if hb != -1 or passed.any():
            bad.append(
                f"auc_high = -1 (no opening bid yet) needs auc_high_bidder = -1 and nobody passed, got "
                f"auc_high_bidder = {hb}, auc_passed = {passed.tolist()} (FR-AUC-2)"
            )
    elif not 0 <= hb < n or hb == bidder or passed[hb]:
        bad.append(f"auc_high_bidder = {hb}: the holder of bid {high} must be another seat still bidding")
    elif high > _i(r, "rp", hb) - 1:
        bad.append(f"auc_high = {high} exceeds the high bidder's RP - 1 = {_i(r, 'rp', hb) - 1} (FR-AUC-3)")
    return bad


def _source(r) -> list[str]:
    """FR-ACT-1/5/8/9: the effect under way is a regime action or the ◆ ability of the selected card, or
    the first effect of the intrigue card being played (which has left the game)."""
    e, card, intr = _i(r, "mv_eff"), _i(r, "mv_card"), _i(r, "mv_intr")
    if card >= 0 and intr < 0:
        if e >= N_RA and e != int(CARD_ABILITY[card]):
            return [f"mv_eff = {e} is neither a regime action (0..{N_RA - 1}) nor the ability of mv_card = {card}"]
        return _own_card(r)
    if card < 0 and intr >= 0:
        bad = []
        if e != int(INTRIGUE_EFFECT[intr]):
            bad.append(f"mv_eff = {e} is not the effect of mv_intr = {intr} ({int(INTRIGUE_EFFECT[intr])})")
        if _i(r, "intr_loc", intr) != LOC_PLAYED:
            bad.append(f"intr_loc[{intr}] = {_i(r, 'intr_loc', intr)}: the intrigue card being played is played (-2)")
        return bad
    return [
        f"mv_card = {card}, mv_intr = {intr}: exactly one of them names what acts in phase "
        f"{PHASE_NAMES[_i(r, 'phase')]}"
    ]


def _own_card(r) -> list[str]:
    """FR-ACT-1/3: the selected card belongs to the acting seat and is alive."""
    card, seat = _i(r, "mv_card"), _i(r, "act_player")
    if _i(r, "card_owner", card) != seat or _i(r, "card_status", card) == ST_DEAD:
        return [
            f"mv_card = {card} (owner {_i(r, 'card_owner', card)}, status {_i(r, 'card_status', card)}) must be "
            f"a living card of act_player = {seat}"
        ]
    return []


def _targets(r) -> list[str]:
    """The decisions of mv_eff made so far (before mv_stage) are set, the later ones not yet."""
    e, stage = _i(r, "mv_eff"), _i(r, "mv_stage")
    ndec = int(EFF[e, E_NDEC])
    if _i(r, "phase") == PH_CHANCE and stage != ndec:
        return [f"mv_stage = {stage}: a chance node follows the last decision of mv_eff = {e}, must be {ndec}"]
    if _i(r, "phase") == PH_TARGET and not stage < ndec:
        return [f"mv_stage = {stage}, allowed 0..{ndec - 1} (the decisions of mv_eff = {e}) in phase TARGET"]
    bad = []
    for j in range(int(EFF[e, E_NDEC])):
        d = int(EFF[e, E_DEC0 + j])
        field = _DEC_FIELD[d]
        v = _i(r, field)
        if j >= stage and v != -1:
            bad.append(f"{field} = {v}: decision {j} ({DECISION_NAMES[d]}) of mv_eff = {e} is not made yet, must be -1")
        elif j < stage and v < 0 and d != D_ARMY:  # army_if_dual is skipped for a single-army city
            bad.append(f"{field} = {v}: decision {j} ({DECISION_NAMES[d]}) of mv_eff = {e} is made, must be set")
    if _i(r, "mv_army") == FRENCH:
        bad.append("mv_army = 0, allowed -1 (not chosen), 1 coalition or 2 royalist (TARGET_ARMY)")
    return bad


def _chance(r) -> list[str]:
    """FR-RA-INSTIGATE, FR-ARMY-2/5: a unit draw needs its city and a non-empty cup; Police Network's steal
    a victim holding an intrigue card (spec §7.6)."""
    if _i(r, "ch_kind") == CH_STEAL:
        v, seat = _i(r, "mv_player"), _i(r, "act_player")
        if not 0 <= v < _n(r) or v == seat or not (r["intr_loc"] == v).any():
            return [f"mv_player = {v}: a steal needs another seat holding an intrigue card"]
        return []
    city, army = _i(r, "mv_city"), _i(r, "ch_army")
    if city < 0:
        return ["mv_city = -1: a unit draw is pending, its city must be set"]
    bad = []
    if _i(r, "ch_draws") < 1:
        bad.append(f"ch_draws = {_i(r, 'ch_draws')}, allowed 1..{MAX_DRAWS} while a unit draw is pending")
    if not r["cup"][army].any():
        bad.append(f"cup[{army}] is empty: a unit draw is pending from it (FR-ARMY-5)")
    on_city = _i(r, "city_army", city)
    if r["ch_dispatch"] and (army != FRENCH or on_city == FRENCH):
        bad.append(
            f"ch_army = {army}, city_army[{city}] = {on_city}: a dispatch draws French units against an enemy "
            "unit (FR-ARMY-2)"
        )
    if not r["ch_dispatch"] and (army == FRENCH or on_city != FRENCH):
        bad.append(
            f"ch_army = {army}, city_army[{city}] = {on_city}: an instigation draws coalition or royalist "
            "units against a French unit (FR-RA-INSTIGATE)"
        )
    return bad


def _no_move(r) -> list[str]:
    busy = [
        f for f in ("mv_card", "mv_intr", "mv_regime", "mv_city", "mv_person", "mv_player", "mv_army") if _i(r, f) != -1
    ]
    return [f"{f} = {_i(r, f)}: no move is under way in phase {PHASE_NAMES[_i(r, 'phase')]}, must be -1" for f in busy]


def _decision(s) -> list[str]:
    """The pending decision (spec §6) and the fields it indexes."""
    r = s[0]
    ph = _i(r, "phase")
    if ph == PH_AUCTION:  # on-acquire effects read no target (FR-AUC-5)
        return _auction(r) + _no_move(r)
    if ph == PH_GAME_OVER:
        return []
    seat = _i(r, "act_player")
    if r["act_passed"][seat]:
        return [f"act_player = {seat} has passed this action phase (FR-ACT-2)"]
    if ph == PH_ACTION:
        return _no_move(r)
    if ph == PH_CHOOSE:
        bad = _own_card(r)
        if not bad and r["card_tilted"][_i(r, "mv_card")]:
            bad.append(f"mv_card = {_i(r, 'mv_card')} is tilted: it acted this action phase (FR-ACT-3)")
        if _i(r, "mv_intr") != -1:
            bad.append(f"mv_intr = {_i(r, 'mv_intr')}: a card was selected, no intrigue card is played (-1)")
        return bad
    bad = _source(r)
    return bad or (_targets(r) + (_chance(r) if ph == PH_CHANCE else []))


@njit(cache=True)
def _effect_ok(s):
    r = s[0]
    return effect_ok(r, r.act_player, r.mv_eff)


def _completable(s) -> list[str]:
    """FR-RA-*: the effect being targeted still has a full legal completion (its cost affordable, a target
    for every decision), as when it was chosen (effects.effect_ok, the rule the masks use)."""
    r = s[0]
    if _i(r, "phase") != PH_TARGET:
        return []
    e, seat = _i(r, "mv_eff"), _i(r, "act_player")
    if not _effect_ok(s):
        cost = int(RA_COST[int(EFF[e, E_OP])]) if int(EFF[e, E_OP]) < N_RA else 0
        return [
            f"mv_eff = {e} can no longer be completed by act_player = {seat} (RP {_i(r, 'rp', seat)}, "
            f"cost {cost}, or a decision without a legal target)"
        ]
    return []


LAYERS += (
    (_decision,),
    (check_invariants,),
    (_completable, no_dead_end(to_move, legal_mask, NUM_ACTIONS, PHASE_NAMES)),
)


def validate(s) -> list[str]:
    """Every problem of record ``s`` (see the module docstring); [] when every kernel may run on it."""
    return check_layers(s, STATE, LAYERS)
