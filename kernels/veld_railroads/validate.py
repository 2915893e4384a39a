"""validate(s): everything wrong with a Veld Railroads record that enters from outside (the kernel contract), by
the layered table of bounds below (``_common/validate.py`` says how the layers run)."""

from __future__ import annotations

from .._common.validate import COUNTER_MAX
from .._common.validate import Bound
from .._common.validate import check_layers
from .._common.validate import high_bid_affordable
from .._common.validate import in_phase
from .._common.validate import last_seat
from .._common.validate import no_dead_end
from .._common.validate import outside_phase
from .._common.validate import phase_words
from .actions import NUM_ACTIONS
from .invariants import check_invariants
from .rules import legal_mask
from .rules import to_move
from .state import AUC_KIND_NAMES
from .state import AUC_OWN
from .state import AUC_SETUP
from .state import AUC_TREASURY
from .state import AUC_ZASM
from .state import N_VISIBLE_PHASES
from .state import PH_AUCTION_BID
from .state import PH_BUILD_FIRST_LEG
from .state import PH_BUILD_SECOND_LEG
from .state import PH_DEVELOP_PICK
from .state import PH_FIRST_SECTION
from .state import PH_GAME_OVER
from .state import PH_SETUP_AUCTION
from .state import PH_ZASM_AUCTION_BID
from .state import PHASE_NAMES
from .state import RULESETS
from .state import STATE
from .tables import BID_CAP
from .tables import BOER_WAR_ROW
from .tables import BOX_COST
from .tables import COST_DOUBLE
from .tables import DEV_FREE_BOER
from .tables import DEV_FREE_NORMAL
from .tables import DIE_MULTIPLIER
from .tables import DIE_SIDES
from .tables import MAX_DEV
from .tables import MAX_PICKS
from .tables import MAX_PLAYERS
from .tables import MIN_PLAYERS
from .tables import N_BOXES
from .tables import N_INITIAL_AUCTIONS
from .tables import N_RAILROADS
from .tables import N_ROWS
from .tables import N_SECTIONS
from .tables import N_SETTLEMENTS
from .tables import ROW_LENGTH
from .tables import SHARES_PER_RAILROAD
from .tables import ZASM_UNCONNECTED_MULTIPLIER

# A chosen cap on every amount of money: far above any real game's (a seat ends random games with a few
# hundred dollars), and far enough below int32's limit that no sum or payout of the rules overflows.
MAX_MONEY = 10**6
_AUCTIONS = (PH_SETUP_AUCTION, PH_AUCTION_BID, PH_ZASM_AUCTION_BID)
_LEGS = (PH_BUILD_FIRST_LEG, PH_BUILD_SECOND_LEG)
# The auction kinds each auction phase runs (start_auction picks the phase from the kind).
_PHASE_KINDS = {
    PH_SETUP_AUCTION: (AUC_SETUP,),
    PH_AUCTION_BID: (AUC_TREASURY, AUC_OWN),
    PH_ZASM_AUCTION_BID: (AUC_ZASM,),
}


_in, _out = in_phase, outside_phase
_names, _not_names = phase_words(PHASE_NAMES), phase_words(PHASE_NAMES, "outside phase ")


def _auction_kind(s) -> list[str]:
    """The auction kind matches its phase (what follows the auction depends on it)."""
    r = s[0]
    phase, kind = int(r["phase"]), int(r["auc_kind"])
    allowed = _PHASE_KINDS.get(phase)
    if allowed is None or kind in allowed:
        return []
    return [
        f"auc_kind = {kind} ({AUC_KIND_NAMES[kind]}) in phase {PHASE_NAMES[phase]}, allowed "
        f"{' or '.join(AUC_KIND_NAMES[k] for k in allowed)}"
    ]


def _own_share_seller(s) -> list[str]:
    """VR-AUC-3: an own-share auction has a selling seat, who holds a share of the railroad."""
    r = s[0]
    if int(r["phase"]) != PH_AUCTION_BID or int(r["auc_kind"]) != AUC_OWN:
        return []
    seller = int(r["auc_seller"])
    if not 0 <= seller < int(r["num_players"]):
        return [f"auc_seller = {seller} in an own-share auction, allowed 0..{int(r['num_players']) - 1}"]
    if r["holdings"][seller, int(r["auc_railroad"])] < 1:
        return [f"auc_seller = {seller} sells a share of railroad {int(r['auc_railroad'])} it does not hold"]
    return []


def _develop_picks(s) -> list[str]:
    """VR-DEV-3/4: while picking, the picks made stay below the free ones plus the paid one."""
    r = s[0]
    if int(r["phase"]) != PH_DEVELOP_PICK:
        return []
    free = DEV_FREE_BOER if int(r["row"]) == BOER_WAR_ROW else DEV_FREE_NORMAL
    if int(r["dev_picks"]) > free:
        return [f"dev_picks = {int(r['dev_picks'])} in phase DEVELOP_PICK of row {int(r['row'])}, allowed 0..{free}"]
    return []


def _payouts_follow_rows(s) -> list[str]:
    """VR-END-1: each finished row paid once, so payouts = row - 1 while the game runs (row at its end)."""
    r = s[0]
    over = int(r["phase"]) == PH_GAME_OVER
    expected = int(r["row"]) - (0 if over else 1)
    if int(r["payouts"]) != expected:
        return [
            f"payouts = {int(r['payouts'])} in row {int(r['row'])}: allowed {expected} (row - 1 while the game "
            f"runs, row at GAME_OVER; VR-END-1)"
        ]
    return []


LAYERS = (
    (
        Bound("num_players", MIN_PLAYERS, MAX_PLAYERS),
        Bound("phase", 0, N_VISIBLE_PHASES - 1),
        Bound("ruleset", 0, len(RULESETS) - 1),
        Bound("row", 1, N_ROWS),
        Bound("auc_kind", 0, len(AUC_KIND_NAMES) - 1),
    ),
    (
        Bound("repeat_metro", 0, 1),
        Bound("active", 0, last_seat),
        Bound("setup_k", 0, N_INITIAL_AUCTIONS - 1, when=_in(PH_SETUP_AUCTION), where=_names(*_AUCTIONS[:1])),
        Bound("setup_k", 0, N_INITIAL_AUCTIONS, when=_in(PH_FIRST_SECTION), where=_names(PH_FIRST_SECTION)),
        Bound(
            "setup_k",
            N_INITIAL_AUCTIONS,
            N_INITIAL_AUCTIONS,
            when=_out(PH_SETUP_AUCTION, PH_FIRST_SECTION),
            where="once setup is over",
        ),
        Bound("position", 0, ROW_LENGTH + int(BOX_COST.max())),
        Bound("payouts", 0, N_ROWS),
        Bound("turn", 0, COUNTER_MAX),
        Bound("decisions", 0, COUNTER_MAX),
        Bound("cash", 0, MAX_MONEY, seats=True),
        Bound("holdings", 0, SHARES_PER_RAILROAD, seats=True),
        Bound("treasury_shares", 0, SHARES_PER_RAILROAD),
        Bound("treasury_cash", 0, MAX_MONEY),
        Bound("treasury_start", 0, DIE_SIDES * DIE_MULTIPLIER),
        Bound("opened", 0, 1),
        Bound("reached_jo", 0, 1),
        Bound("free_pending", 0, 1),
        Bound("zasm_trigger", 0, 1),
        Bound("section_owner", -1, N_RAILROADS - 1),
        Bound("touch", 0, 1),
        Bound("n_sections", 0, N_SECTIONS),
        Bound("dev_level", 0, MAX_DEV),
        Bound("loco_box", -1, N_BOXES - 1, seats=True, empty=-1),
        Bound("bld_railroad", 0, N_RAILROADS - 1, when=_in(*_LEGS), where=_names(*_LEGS)),
        Bound("bld_railroad", -1, -1, when=_out(*_LEGS), where=_not_names(*_LEGS)),
        Bound("bld_builder", 0, last_seat, when=_in(*_LEGS), where=_names(*_LEGS)),
        Bound("bld_builder", -1, -1, when=_out(*_LEGS), where=_not_names(*_LEGS)),
        Bound("bld_leg1", 0, N_SECTIONS - 1, when=_in(PH_BUILD_SECOND_LEG), where=_names(PH_BUILD_SECOND_LEG)),
        Bound("bld_leg1", -1, -1, when=_out(PH_BUILD_SECOND_LEG), where=_not_names(PH_BUILD_SECOND_LEG)),
        Bound("bld_far", 0, N_SETTLEMENTS - 1, when=_in(PH_BUILD_SECOND_LEG), where=_names(PH_BUILD_SECOND_LEG)),
        Bound("bld_far", -1, -1, when=_out(PH_BUILD_SECOND_LEG), where=_not_names(PH_BUILD_SECOND_LEG)),
        Bound("bld_single_cost", 0, COST_DOUBLE * ZASM_UNCONNECTED_MULTIPLIER),
        Bound("bld_double_cost", 0, COST_DOUBLE * ZASM_UNCONNECTED_MULTIPLIER),
        Bound("dev_picks", 0, MAX_PICKS),
        Bound("dev_picked", -1, N_SETTLEMENTS - 1),
        Bound("auc_railroad", 0, N_RAILROADS - 1, when=_in(*_AUCTIONS), where=_names(*_AUCTIONS)),
        Bound("auc_railroad", -1, -1, when=_out(*_AUCTIONS), where=_not_names(*_AUCTIONS)),
        Bound("auc_seller", -1, last_seat),
        Bound("auc_bidder", 0, last_seat),
        Bound("auc_must_bid", 0, 1),
        Bound("auc_min", 1, BID_CAP, when=_in(*_AUCTIONS), where=_names(*_AUCTIONS)),
        Bound("auc_min", 0, BID_CAP),
        Bound("auc_high_bid", 0, BID_CAP),
        Bound("auc_high_bidder", -1, last_seat),
        Bound("auc_passed", 0, 1, seats=True),
        Bound("fs_railroad", 0, N_RAILROADS - 1, when=_in(PH_FIRST_SECTION), where=_names(PH_FIRST_SECTION)),
        Bound("fs_railroad", -1, -1, when=_out(PH_FIRST_SECTION), where=_not_names(PH_FIRST_SECTION)),
        Bound("fs_player", 0, last_seat, when=_in(PH_FIRST_SECTION), where=_names(PH_FIRST_SECTION)),
        Bound("fs_player", -1, -1, when=_out(PH_FIRST_SECTION), where=_not_names(PH_FIRST_SECTION)),
        Bound("bank_in", 0, MAX_MONEY),
        Bound("bank_out", 0, MAX_MONEY),
        Bound("last_payout", 0, MAX_MONEY, seats=True),
    ),
    (
        _auction_kind,
        _own_share_seller,
        _develop_picks,
        _payouts_follow_rows,
        high_bid_affordable(_AUCTIONS, PHASE_NAMES, "VR-AUC-1"),
    ),
    (check_invariants,),
    (no_dead_end(to_move, legal_mask, NUM_ACTIONS, PHASE_NAMES),),
)


def validate(s) -> list[str]:
    """Every problem of record s (one line each: field, bad value, allowed range); empty if it is safe."""
    return check_layers(s, STATE, LAYERS)
