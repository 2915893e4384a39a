"""Irish Gauge rules kernel (game id ``irish_gauge``), 3-5 players.

Spec: ``shared/rules/irish_gauge.md`` (rule IDs IG-*); decisions where it is silent:
``docs/rules/irish_gauge.md``. Module map, one per spec section (what the
modules every room has hold, from state.py to validate.py, is in CONTRIBUTING.md, "Add a game"):

    tables.py            data/*.json -> frozen numpy tables (map, companies, costs)
    auction.py           initial and main-game auctions       IG-INIT-*, IG-AUC-*
    build.py             track building                       IG-BLD-*
    special_interest.py  town upgrades                        IG-SI-*
    dividends.py         cube draw + payouts (hot path)       IG-DIV-*, IG-DISK-1
    turn.py              turn order and game end              IG-TURN-2, IG-END-1
    rules.py             setup, masks, step, chance, scores   IG-SETUP-*, IG-TURN-*, IG-SCORE-*
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
from .dividends import DRAW_OUTCOMES
from .dividends import NUM_CHANCE_OUTCOMES
from .estimate import estimate
from .invariants import check_invariants
from .naming import action_name
from .observe import OBS_PIECES
from .observe import OBS_SIZE
from .observe import observe
from .rollout import rollout_action
from .rules import chance_outcomes
from .rules import init_state
from .rules import is_chance
from .rules import is_over
from .rules import legal_mask
from .rules import returns
from .rules import sample_chance
from .rules import scores
from .rules import step
from .rules import step_and_mask
from .rules import step_chance
from .rules import step_decision
from .rules import to_move
from .state import PHASE_NAMES
from .state import RULESET_PUBLISHED
from .state import RULESET_SEED
from .state import RULESETS
from .state import STATE
from .tables import MAX_PLAYERS
from .tables import MIN_PLAYERS
from .validate import MAX_MONEY
from .validate import validate

GAME_ID = "irish_gauge"
VERSION = 0
CHANCE_MODE = "explicit_stochastic"
INFORMATION = "perfect"
DEFAULT_PLAYERS = 4  # the count an env, a benchmark or a trainer uses when none is given
UTILITY = "constant_sum"  # returns(): 1/k to each of the k tied winners, so they always sum to 1

# A proven bound on decisions per game. Main turns <= 16 auctions (each sells a certificate)
# + 90 builds (each places >= 1 of 90 spare locomotives) + 22 cube-removing turns (special
# interests and dividend calls). A build turn is <= 5 decisions. An auction is <= 1 + N passes +
# bids, and bids strictly rise and never exceed the money in play: <= 100 starting pounds + 22
# calls x 5 companies x (84 income + 3 rounding) pounds = 9670 (validate.MAX_MONEY).
MAX_GAME_LENGTH = (5 + 16) * (1 + 5 + MAX_MONEY) + 90 * 5 + 22

_OPTIONS = options.Options(
    GAME_ID,
    options.Choice("ruleset", RULESETS, "'seed' (default: the seed's rules) or 'published' (IG-AUC-2, IG-DIV-6)"),
    options.Integer(
        "major_city_bonus",
        "int in 0..32767 (int16) overriding IG-DIV-6's bonus (default: 0 under seed, 12 under published)",
        STATE["major_city_bonus"],
        options.by_ruleset(tables.MAJOR_CITY_BONUS_SEED, tables.MAJOR_CITY_BONUS_PUBLISHED),
        lo=0,
    ),
)
utility = entry.fixed_utility(UTILITY)
_setup = entry.options_then_start_cash(_OPTIONS, tables.START_CASH)  # init_state's arguments after the seed

_KERNEL = sys.modules[__name__]
evaluate = make_evaluate(_KERNEL)
OPTIONS, resolve_options, check_num_players, new_state, playouts, game_args = entry.entry_points(
    _KERNEL, _OPTIONS, "Irish Gauge", init_state, _setup, "after setup, at the first initial-auction bid"
)

__all__ = contract.exports(
    CHANCE_MODE, INFORMATION, "DRAW_OUTCOMES", "RULESET_SEED", "RULESET_PUBLISHED", "action_family", "rollout_action"
)

dispatch.register(_KERNEL)  # generic numba code (MCTS) finds this kernel by its record dtype
