"""validate(s): everything wrong with an Irish Gauge record that enters from outside (the kernel contract), by
the layered table of bounds below (``_common/validate.py`` says how the layers run)."""

from __future__ import annotations

import numpy as np

from .._common.validate import COUNTER_MAX
from .._common.validate import Bound
from .._common.validate import check_layers
from .._common.validate import high_bid_affordable
from .._common.validate import in_phase
from .._common.validate import last_seat
from .._common.validate import no_dead_end
from .._common.validate import outside_phase
from .actions import N_BID
from .actions import NUM_ACTIONS
from .invariants import check_invariants
from .rules import legal_mask
from .rules import to_move
from .state import MAX_SEATS
from .state import N_PHASES
from .state import PH_AUCTION
from .state import PH_BUILD
from .state import PH_GAME_OVER
from .state import PH_INITIAL_AUCTION
from .state import PHASE_NAMES
from .state import RULESETS
from .state import STATE
from .tables import BUILD_BUDGET
from .tables import CUBES_PER_CALL
from .tables import CUBES_PER_COLOUR
from .tables import LOCOMOTIVES
from .tables import MAX_CERTS
from .tables import MAX_PLAYERS
from .tables import MIN_PLAYERS
from .tables import N_CERTS
from .tables import N_COLOURS
from .tables import N_COMPANIES
from .tables import TRACK_ROWS

# A proven bound on the money in play: 100 starting pounds + 22 dividend calls x 5 companies x
# (84 income + 3 rounding) pounds = 9670. Bids never exceed it, so auc_high_bid + N_BID fits int16.
MAX_MONEY = MAX_SEATS * 20 + 22 * 5 * (4 * 18 + 12 + 3)
assert MAX_MONEY + N_BID < np.iinfo(np.int16).max


_phase, _not_phase = in_phase, outside_phase


_AUCTION = (PH_INITIAL_AUCTION, PH_AUCTION)
_AUCTION_WHERE = "in an auction phase"

# cert_owner[c, k]: a seat or -1 for real stack positions, -1 past the end of company c's stack.
_REAL_CERT = np.arange(MAX_CERTS)[None, :] < N_CERTS[:, None]


def _cert_owner_hi(r):
    return np.where(_REAL_CERT, last_seat(r), -1)


def _auction_stack(s) -> list[str]:
    """IG-AUC-1: the company auctioned still has a certificate on its stack (its top is read)."""
    r = s[0]
    if int(r["phase"]) not in _AUCTION:
        return []
    c = int(r["auc_company"])
    if int(r["next_cert"][c]) >= N_CERTS[c]:
        return [
            (
                f"next_cert[{c}] = {int(r['next_cert'][c])}: company {c} is auctioned but its stack is empty "
                f"(allowed 0..{N_CERTS[c] - 1} while auctioned)"
            )
        ]
    return []


def _initial_auction(s) -> list[str]:
    """IG-INIT-1..4: the initial auction sells one certificate of each company in order, so while company c
    is auctioned, companies before c have sold exactly one and the others none."""
    r = s[0]
    if int(r["phase"]) != PH_INITIAL_AUCTION:
        return []
    c = int(r["auc_company"])
    expected = (np.arange(N_COMPANIES) < c).astype(int)
    if not np.array_equal(r["next_cert"], expected):
        return [
            f"next_cert = {r['next_cert'].tolist()} in phase INITIAL_AUCTION of company {c}: allowed "
            f"{expected.tolist()} (one certificate of each company before it, IG-INIT-4)"
        ]
    return []


def _bag_and_track(s) -> list[str]:
    """IG-DIV-1/2: the bag is non-empty while the game runs, its remaining calls fit the track, and the
    track is filled row by row."""
    r = s[0]
    bag = int(r["bag"].sum())
    bad = []
    if int(r["phase"]) != PH_GAME_OVER and bag == 0:
        bad.append(
            f"bag holds 0 cubes in phase {PHASE_NAMES[int(r['phase'])]}; allowed 1..{3 * CUBES_PER_COLOUR} "
            f"until GAME_OVER (IG-END-1)"
        )
    rows_left = -(-bag // CUBES_PER_CALL)
    if int(r["drawn_rows"]) + rows_left > TRACK_ROWS:
        bad.append(
            f"drawn_rows = {int(r['drawn_rows'])} with {bag} cubes in the bag: the remaining calls need "
            f"{rows_left} more rows, allowed drawn_rows + ceil(bag / 3) <= {TRACK_ROWS}"
        )
    drawn, rows = r["drawn"], int(r["drawn_rows"])
    if (drawn[rows:] != -1).any():
        bad.append(f"drawn track has cubes at or after row drawn_rows = {rows}: allowed -1 (empty) there (IG-DIV-2)")
    for row in range(rows):
        cubes = int((drawn[row] >= 0).sum())
        if cubes == 0 or (drawn[row, :cubes] < 0).any():
            bad.append(
                f"drawn track row {row} = {drawn[row].tolist()} (drawn_rows = {rows}): a drawn row holds 1.."
                f"{CUBES_PER_CALL} cubes from its first slot on (IG-DIV-2)"
            )
    return bad


LAYERS = (
    (
        Bound("num_players", MIN_PLAYERS, MAX_PLAYERS),
        Bound("phase", 0, N_PHASES - 1),
        Bound("ruleset", 0, len(RULESETS) - 1),
    ),
    (
        Bound("major_city_bonus", 0, np.iinfo(np.int16).max),
        Bound("active", 0, last_seat),
        Bound("start_player", 0, last_seat),
        Bound("turn", 0, COUNTER_MAX),
        Bound("decisions", 0, COUNTER_MAX),
        Bound("cash", 0, MAX_MONEY, seats=True),
        Bound("held", 0, MAX_CERTS, seats=True),
        Bound("cert_owner", -1, _cert_owner_hi),
        Bound("next_cert", 0, N_CERTS),
        Bound("supply", 0, LOCOMOTIVES - 1),
        Bound("loco", 0, 1),
        Bound("cube", -1, N_COLOURS - 1),
        Bound("bag", 0, CUBES_PER_COLOUR),
        Bound("drawn", -1, N_COLOURS - 1),
        Bound("drawn_rows", 0, TRACK_ROWS),
        Bound("last_draw", 0, CUBES_PER_CALL),
        Bound("last_income", 0, MAX_MONEY),
        Bound("last_payout", 0, MAX_MONEY, seats=True),
        Bound("bank_in", 0, MAX_MONEY),
        Bound("bank_out", 0, MAX_MONEY),
        Bound("auc_opener", 0, last_seat),
        Bound("auc_bidder", 0, last_seat),
        Bound("auc_high_bidder", -1, last_seat),
        Bound("auc_high_bid", 0, MAX_MONEY),
        Bound("auc_passed", 0, 1, seats=True),
        Bound("auc_company", 0, N_COMPANIES - 1, when=_phase(*_AUCTION), where=_AUCTION_WHERE),
        Bound("auc_company", -1, -1, when=_not_phase(*_AUCTION), where="outside an auction"),
        Bound("bld_company", 0, N_COMPANIES - 1, when=_phase(PH_BUILD), where="in phase BUILD"),
        Bound("bld_company", -1, -1, when=_not_phase(PH_BUILD), where="outside phase BUILD"),
        Bound("bld_budget", 0, BUILD_BUDGET),
        Bound("bld_placed", 0, BUILD_BUDGET),
    ),
    (_bag_and_track, _auction_stack, _initial_auction, high_bid_affordable(_AUCTION, PHASE_NAMES, "IG-AUC-3")),
    (check_invariants,),
    (no_dead_end(to_move, legal_mask, NUM_ACTIONS, PHASE_NAMES),),
)


def validate(s) -> list[str]:
    """Every problem of record s (one line each: field, bad value, allowed range); empty if it is safe."""
    return check_layers(s, STATE, LAYERS)
