"""validate(s): everything wrong with an Imperial record that enters from outside (the kernel contract).

A table of bounds per field (``_common.validate.Bound``), checked in layers: player count, phase and
nation first (every other bound depends on them), then every index and amount for the record's phase,
then whose decision it is, the conservation invariants, and that the seat to move has a legal decision.
A record that passes cannot make a kernel index out of bounds (tests/contract/test_validate_fuzz.py).
"""

from __future__ import annotations

from .._common.validate import COUNTER_MAX
from .._common.validate import Bound
from .._common.validate import check_layers
from .._common.validate import in_phase
from .._common.validate import last_seat
from .._common.validate import no_dead_end
from .._common.validate import phase_words
from .actions import NUM_ACTIONS
from .invariants import check_invariants
from .rules import legal_mask
from .rules import to_move
from .state import N_PHASES
from .state import PH_ANSWER
from .state import PH_ASK
from .state import PH_BUY
from .state import PH_DEST
from .state import PH_DESTROY
from .state import PH_FIGHT
from .state import PH_GAME_OVER
from .state import PH_IMPORT
from .state import PH_SEA
from .state import PH_STANCE
from .state import PHASE_NAMES
from .state import REWARDS
from .state import RULESETS
from .state import STATE
from .tables import FIRST_SEA
from .tables import IMPORT_MAX
from .tables import MAX_PLAYERS
from .tables import MAX_TAX_CHIPS
from .tables import MIN_PLAYERS
from .tables import N_HOME
from .tables import N_NATIONS
from .tables import N_REGIONS
from .tables import POWER_MAX
from .tables import TAX_MAX_POS
from .tables import TAX_MIN_POS
from .tables import UNIT_LIMIT

MAX_NATION_TURNS_LIMIT = 2000  # IMP-END-2: the largest max_nation_turns option (MAX_GAME_LENGTH is built on it)
# A chosen cap on every amount of money: far above any real game's, and far enough below int32's limit
# that no sum, tax or payout of the rules overflows.
MAX_MONEY = 10**6
_COMBAT = (PH_STANCE, PH_FIGHT, PH_ASK, PH_ANSWER, PH_DESTROY)
_SEAT_BY_FLAG = tuple(p for p in range(N_PHASES) if p not in (PH_BUY, PH_ANSWER, PH_GAME_OVER))


_in, _names = in_phase, phase_words(PHASE_NAMES)


def _max_turns(r):
    """IMP-END-2: the nation turn that reaches max_turns ends the game, so a running game is below it."""
    return int(r["max_turns"]) - (0 if int(r["phase"]) == PH_GAME_OVER else 1)


def _chips(r):
    return int(r["chips_per_nation"])


def _seat_to_move(s) -> list[str]:
    """IMP-TURN-1/2: the seat to move is a seat in the game (the nation's flag holder, the asked
    nation's flag holder in ANSWER, the buyer in BUY)."""
    r = s[0]
    phase, n = int(r["phase"]), int(r["num_players"])
    if phase in _SEAT_BY_FLAG and not 0 <= int(r["flag"][int(r["nation"])]) < n:
        return [
            f"flag[{int(r['nation'])}] = {int(r['flag'][int(r['nation'])])}: nation {int(r['nation'])} is to act in "
            f"phase {PHASE_NAMES[phase]}, so its flag must be held by a seat 0..{n - 1}"
        ]
    if phase == PH_ANSWER and not 0 <= int(r["flag"][int(r["cmb_defender"])]) < n:
        return [
            f"flag[{int(r['cmb_defender'])}] = {int(r['flag'][int(r['cmb_defender'])])}: the asked nation answers "
            f"in phase ANSWER, so its flag must be held by a seat 0..{n - 1}"
        ]
    return []


def _sea_chain(s) -> list[str]:
    """IMP-ARM-4/6: a pending transport chain ends at a sea, and the army's destination is land."""
    r = s[0]
    if int(r["phase"]) != PH_SEA:
        return []
    bad = []
    if int(r["mv_dest"]) >= FIRST_SEA:
        bad.append(f"mv_dest = {int(r['mv_dest'])} in phase SEA, allowed 0..{FIRST_SEA - 1} (an army lands on land)")
    last = int(r["mv_last"])
    if last != -1 and not FIRST_SEA <= last < N_REGIONS:
        bad.append(f"mv_last = {last} in phase SEA, allowed -1 or a sea {FIRST_SEA}..{N_REGIONS - 1}")
    return bad


LAYERS = (
    (
        Bound("num_players", MIN_PLAYERS, MAX_PLAYERS),
        Bound("phase", 0, N_PHASES - 1),
        Bound("nation", 0, N_NATIONS - 1),
        Bound("ruleset", 0, len(RULESETS) - 1),
        Bound("chips_per_nation", 1, MAX_TAX_CHIPS),
        Bound("max_turns", 1, MAX_NATION_TURNS_LIMIT),
    ),
    (
        Bound("home_tax_chips", 0, 1),
        Bound("factory_topup", 0, 1),
        Bound("optional_destroy", 0, 1),
        Bound("chip_update_all", 0, 1),
        Bound("hidden_cash", 0, 1),
        Bound("reward_mode", 0, len(REWARDS) - 1),
        Bound("turn", 0, _max_turns),
        Bound("decisions", 0, COUNTER_MAX),
        Bound("truncated", 0, 1),
        Bound("cash", 0, MAX_MONEY, seats=True),
        Bound("bond_owner", -1, last_seat),
        Bound("flag", -1, last_seat),
        Bound("investor_card", 0, last_seat),
        Bound("treasury", 0, MAX_MONEY),
        Bound("power", 0, POWER_MAX),
        Bound("tax_pos", TAX_MIN_POS, TAX_MAX_POS),
        Bound("rondel_pos", -1, 7),
        Bound("factory", 0, 1),
        Bound("armies", 0, UNIT_LIMIT[:, :1]),
        Bound("fleets", 0, UNIT_LIMIT[:, 1:]),
        Bound("hostile", 0, 1),
        Bound("chip", -1, N_NATIONS - 1),
        Bound("chips_left", 0, _chips),
        Bound("bank_in", 0, MAX_MONEY),
        Bound("bank_out", 0, MAX_MONEY),
        Bound("passed_investor", 0, 1),
        Bound("imp_count", 0, IMPORT_MAX - 1, when=_in(PH_IMPORT), where=_names(PH_IMPORT)),
        Bound("imp_count", 0, IMPORT_MAX),
        Bound("moved_army", 0, int(UNIT_LIMIT[:, 0].max())),
        Bound("moved_fleet", 0, int(UNIT_LIMIT[:, 1].max())),
        Bound("carried", 0, int(UNIT_LIMIT[:, 1].sum())),
        Bound("fleets_locked", 0, 1),
        Bound("mv_origin", 0, N_REGIONS - 1, when=_in(PH_DEST, PH_SEA), where=_names(PH_DEST, PH_SEA)),
        Bound("mv_origin", -1, N_REGIONS - 1),
        Bound("mv_dest", 0, N_REGIONS - 1, when=_in(PH_SEA), where=_names(PH_SEA)),
        Bound("mv_dest", -1, N_REGIONS - 1),
        Bound("mv_last", -1, N_REGIONS - 1),
        Bound("mv_region", 0, N_HOME - 1, when=_in(PH_STANCE), where="in phase STANCE (a home province)"),
        Bound("mv_region", 0, N_REGIONS - 1, when=_in(*_COMBAT), where=_names(*_COMBAT)),
        Bound("mv_region", -1, N_REGIONS - 1),
        Bound("cmb_asked", 0, 2**N_NATIONS - 1),
        Bound("cmb_defender", 0, N_NATIONS - 1, when=_in(PH_ANSWER), where=_names(PH_ANSWER)),
        Bound("cmb_defender", -1, N_NATIONS - 1),
        Bound("inv_buyer", 0, last_seat, when=_in(PH_BUY), where=_names(PH_BUY)),
        Bound("inv_buyer", -1, last_seat),
        Bound("inv_next", 0, MAX_PLAYERS),
    ),
    (_seat_to_move, _sea_chain),
    (check_invariants,),
    (no_dead_end(to_move, legal_mask, NUM_ACTIONS, PHASE_NAMES),),
)


def validate(s) -> list[str]:
    """Every problem of record s (one line each: field, bad value, allowed range); empty if it is safe."""
    return check_layers(s, STATE, LAYERS)
