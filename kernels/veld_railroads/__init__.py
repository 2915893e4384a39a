"""Veld Railroads rules kernel (game id ``veld_railroads``), 3-6 players.

Spec: ``shared/rules/veld_railroads.md`` (rule IDs VR-*); decisions where it is silent:
``docs/rules/veld_railroads.md``. Module map, one per spec section (what the
modules every room has hold, from state.py to validate.py, is in CONTRIBUTING.md, "Add a game"):

    tables.py      data/*.json -> frozen numpy tables (map, railroads, track, costs)
    income.py      sum_income (the user's hot path), valuation, control     VR-GEN-4..6
    network.py     networks, borders, one-way sections, prices              VR-BUILD-2/3, VR-BORDER, VR-ZASM-4
    auction.py     initial, offer and ZASM auctions                         VR-SHARE-*, VR-AUC-*, VR-ZASM-2
    build.py       building singles and doubles, free sections              VR-BUILD-*, VR-DBL-*, VR-BOER-1/2
    develop.py     developing settlements                                   VR-DEV-*, VR-BOER-3
    dividends.py   row-end, final and special payouts                       VR-DIV-*
    turn.py        action track, locomotives, end of turn, ZASM opening     VR-TRACK-*, VR-LOCO-*, VR-ZASM-1
    rules.py       setup, masks, step, end, scores                          §3, VR-END-*
"""

from __future__ import annotations

import sys

from .._common import contract
from .._common import dispatch
from .._common import entry
from .._common import options
from .._common.scoring import make_evaluate
from .._common.validate import check_seed
from . import state
from . import tables
from .actions import NUM_ACTIONS
from .actions import action_family
from .actions import action_name
from .estimate import estimate
from .income import sum_income
from .invariants import check_invariants
from .observe import OBS_PIECES
from .observe import OBS_SIZE
from .observe import observe
from .rules import init_state
from .rules import is_over
from .rules import legal_mask
from .rules import returns
from .rules import scores
from .rules import step
from .rules import step_and_mask
from .rules import to_move
from .state import PHASE_NAMES
from .state import RULESET_SEED
from .state import RULESETS
from .state import STATE
from .tables import MAX_PLAYERS
from .tables import MIN_PLAYERS
from .validate import validate

GAME_ID = "veld_railroads"
VERSION = 0
CHANCE_MODE = "deterministic"  # the only chance is the setup die rolls, drawn inside new_state (spec §7)
INFORMATION = "perfect"  # spec §7
DEFAULT_PLAYERS = 4  # the count an env, a benchmark or a trainer uses when none is given
UTILITY = "constant_sum"  # returns(): 1/k to each of the k tied winners, so they always sum to 1
NUM_CHANCE_OUTCOMES = 0

# A proven bound on decisions per game (no truncation needed: the 8 rows always end).
# Regular turns: every box advances the row by >= 3 (build) and a row ends at >= 36, so a row holds
# <= 12 turns and the game <= 8 x 12 = 96. A turn is the box choice plus at most
#   build: railroad + leg 1 + leg 2/DONE = 3;  develop: <= 3 picks (+ DONE) = 3;
#   offer: what to offer (1) + one auction + perhaps a free section owed to the buyer (1).
# An auction is <= 1 decision per bid (bids strictly rise from >= $1 to <= $500, VR-AUC-4) plus one
# pass per seat: <= 500 + 6. Setup: 5 auctions + 5 free sections. The ZASM opening happens once: one
# auction + one free section.
_AUCTION = tables.BID_CAP + tables.MAX_PLAYERS
_TURNS = tables.N_ROWS * ((tables.ROW_LENGTH + 2) // 3)
MAX_GAME_LENGTH = 5 * (_AUCTION + 1) + _TURNS * (1 + 1 + _AUCTION + 1) + (_AUCTION + 1)

_OPTIONS = options.Options(
    GAME_ID,
    options.Choice(
        "ruleset", RULESETS, "'seed' (default and only value: the spec lists no published-game differences)"
    ),
    options.Flag(
        "repeat_metropolis_pick",
        "bool, default False: one develop action may pick a metropolis more than once (VR-DEV-5)",
    ),
)
utility = entry.fixed_utility(UTILITY)
_setup = entry.options_then_start_cash(_OPTIONS, tables.START_CASH)  # init_state's arguments after the seed

_KERNEL = sys.modules[__name__]
evaluate = make_evaluate(_KERNEL)
OPTIONS, resolve_options, check_num_players, new_state, playouts, game_args = entry.entry_points(
    _KERNEL, _OPTIONS, "Veld Railroads", init_state, _setup, "after the die rolls, at the first initial-auction bid"
)

__all__ = contract.exports(CHANCE_MODE, INFORMATION, "RULESET_SEED", "action_family", "sum_income")

dispatch.register(_KERNEL)  # generic numba code (MCTS) finds this kernel by its record dtype
