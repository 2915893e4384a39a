"""Imperial rules kernel (game id ``imperial``), 2-6 players.

Spec: ``shared/rules/imperial.md`` (rule IDs IMP-*); decisions where it is silent:
``docs/rules/imperial.md``. Module map, one per spec section (what the
modules every room has hold, from state.py to validate.py, is in CONTRIBUTING.md, "Add a game"):

    tables.py     data/*.json -> frozen numpy tables (map bitmasks, bonds, tax chart, rondel)
    board.py      shared helpers: bitmasks, money moves, blocking, railway closure, supplies
    economy.py    rondel, factory, production, import          IMP-RON-*, IMP-FAC-*, IMP-PRO-*, IMP-IMP-*
    taxation.py   collect_taxes (hot path)                      IMP-TAX-*
    investor.py   interest, bonds, flags, compensation          IMP-INV-*, IMP-BND-*
    turn.py       end of action, investor activity, next nation IMP-TURN-*, IMP-INV-4/5, IMP-END-2
    maneuver.py   fleets, armies, railway, transport, stance    IMP-MAN-*, IMP-FLT-*, IMP-ARM-*, IMP-STN-*
    combat.py     resolve_combat (hot path), declarations       IMP-CMB-*, IMP-DST-*
    chips.py      tax chips at the end of a maneuver            IMP-CHP-*
    rules.py      setup, masks, step, forced moves, scores      IMP-SET-*, IMP-TURN-4, IMP-SCR-*
"""

from __future__ import annotations

import sys

import numpy as np

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
from .actions import buy_id
from .combat import resolve_combat
from .estimate import estimate
from .invariants import check_invariants
from .observe import OBS_PIECES
from .observe import OBS_SIZE
from .observe import observe
from .rollout import rollout_action
from .rules import init_state
from .rules import is_over
from .rules import legal_mask
from .rules import returns
from .rules import scores
from .rules import step
from .rules import step_and_mask
from .rules import to_move
from .rules import winners
from .state import PHASE_NAMES
from .state import REWARDS
from .state import RULESET_PUBLISHED
from .state import RULESET_SEED
from .state import RULESETS
from .state import STATE
from .tables import MAX_PLAYERS
from .tables import MAX_TAX_CHIPS
from .tables import MIN_PLAYERS
from .taxation import collect_taxes
from .taxation import tax_revenue
from .validate import MAX_NATION_TURNS_LIMIT
from .validate import validate

GAME_ID = "imperial"
VERSION = 0
CHANCE_MODE = "deterministic"  # the only chance event is the flag deal inside new_state (spec §7)
INFORMATION = "perfect"
DEFAULT_PLAYERS = 4  # the count an env, a benchmark or a trainer uses when none is given
UTILITY = "constant_sum"  # default reward="win_share": 1/k to each of k tied winners; see utility()
# Issue #10's throughput goal for this game: a decision here does more (maneuvers, fights, tax) than elsewhere
DECISIONS_PER_S_TARGET = 300_000
NUM_CHANCE_OUTCOMES = 0
# Rollouts of 40 decisions of the rollout policy (rollout.py), not the search's 20: a nation's turn (rondel,
# maneuvers, fights) and the investor's purchases it triggers span dozens of decisions, and a rollout cut before
# taxes and bond interest are paid scores power points the next turns would change. With the policy, 40 play as
# well as 80 (uniformly random rollouts needed 80) at half the cost (benchmarks/az_strength.py, #48).
ROLLOUT_DEPTH = 40

MAX_NATION_TURNS_DEFAULT = 600
# A proven bound on agent decisions per game (forced ones are applied by the kernel, IMP-TURN-4).
# The game stops after at most MAX_NATION_TURNS_LIMIT nation turns (IMP-END-2). One nation turn is
# 1 rondel decision + the space's decisions + an investor activity (<= 6 purchases):
#   import <= 4; factory 1; maneuver: every unit acts at most once (move or toggle) and a nation has
#   <= 16 units, each action <= 1 origin + 1 dest + 9 seas + 1 stance + (1 fight + 5 asks + 5 answers)
#   + 1 destroy = 24 decisions, + 1 DONE. So a turn is <= 1 + 16 * 24 + 1 + 6 = 392 decisions.
PER_TURN_BOUND = 1 + 16 * 24 + 1 + 6
MAX_GAME_LENGTH = MAX_NATION_TURNS_LIMIT * PER_TURN_BOUND

_OPTIONS = options.Options(
    GAME_ID,
    options.Choice("ruleset", RULESETS, "'seed' (default: the seed's rules) or 'published' (IMP-OPT-0)"),
    options.Flag(
        "home_tax_chips",
        "bool, own home provinces take tax chips (IMP-OPT-1; default by ruleset)",
        options.by_ruleset(True, False),
    ),
    options.Integer(
        "tax_chips_per_nation",
        "int 1..30, tax chips per nation (IMP-OPT-2; 10 seed, 15 published)",
        STATE["chips_per_nation"],
        options.by_ruleset(tables.TAX_CHIPS_SEED, tables.TAX_CHIPS_PUBLISHED),
        lo=1,
        hi=MAX_TAX_CHIPS,
    ),
    options.Flag(
        "factory_topup",
        "bool, flag holder pays a factory shortfall (IMP-OPT-4; default by ruleset)",
        options.by_ruleset(False, True),
    ),
    options.Flag(
        "optional_factory_destruction",
        "bool, destruction is the mover's choice (IMP-OPT-5; default by ruleset)",
        options.by_ruleset(False, True),
    ),
    options.Flag(
        "chip_update_all_nations",
        "bool, chip update covers every nation (IMP-OPT-6; default by ruleset)",
        options.by_ruleset(False, True),
    ),
    options.Flag("hidden_cash", "bool, other players' cash is hidden in observations (IMP-OPT-3; default False)"),
    options.Integer(
        "max_nation_turns",
        f"int 1..{MAX_NATION_TURNS_LIMIT}, truncation (IMP-END-2; default {MAX_NATION_TURNS_DEFAULT})",
        STATE["max_turns"],
        MAX_NATION_TURNS_DEFAULT,
        lo=1,
        hi=MAX_NATION_TURNS_LIMIT,
    ),
    options.Choice(
        "reward",
        REWARDS,
        "'win_share' (default: 1/k to each of k tied winners) or 'score_margin' (final score minus the "
        "table's mean score; spec §6)",
    ),
)


def is_truncated(s) -> bool:
    """IMP-END-2: the nation-turn cap stopped the game (scored normally, reported as a truncation)."""
    return bool(is_over(s)) and int(s[0]["truncated"]) == 1


def utility(options: dict) -> str:
    """Utility class of ``returns()`` under resolved options: win shares sum to 1 (constant-sum);
    ``reward="score_margin"`` pays score minus the table's mean, which sums to 0 (zero-sum; spec §6)."""
    return "zero_sum" if options["reward"] == "score_margin" else "constant_sum"


def _setup(num_players: int, opts: dict) -> tuple:
    """init_state's game arguments: every option's value, in the order above."""
    return (np.array(_OPTIONS.values(opts), np.int64),)


_KERNEL = sys.modules[__name__]
evaluate = make_evaluate(_KERNEL)
OPTIONS, resolve_options, check_num_players, new_state, playouts, game_args = entry.entry_points(
    _KERNEL, _OPTIONS, "Imperial", init_state, _setup, "after setup, at AH's first rondel decision"
)

__all__ = contract.exports(
    CHANCE_MODE,
    INFORMATION,
    "RULESET_SEED",
    "RULESET_PUBLISHED",
    "winners",
    "DECISIONS_PER_S_TARGET",
    "ROLLOUT_DEPTH",
    "action_family",
    "buy_id",
    "resolve_combat",
    "collect_taxes",
    "tax_revenue",
    "rollout_action",
    "ROLLOUT_DEPTH",
)

dispatch.register(_KERNEL)  # generic numba code (MCTS) finds this kernel by its record dtype
