"""Imperial rules kernel (game id ``imperial``), 2-6 players.

Spec: ``shared/rules/imperial.md`` (rule IDs IMP-*); decisions where it is silent:
``docs/rules/imperial.md``. Module map (one per spec section):

    tables.py     data/*.json -> frozen numpy tables (map bitmasks, bonds, tax chart, rondel)
    state.py      the STATE record, phases, rulesets
    actions.py    action-id ranges, action_name()
    board.py      shared helpers: bitmasks, money moves, blocking, railway closure, supplies
    economy.py    rondel, factory, production, import          IMP-RON-*, IMP-FAC-*, IMP-PRO-*, IMP-IMP-*
    taxation.py   collect_taxes (hot path)                      IMP-TAX-*
    investor.py   interest, bonds, flags, compensation          IMP-INV-*, IMP-BND-*
    turn.py       end of action, investor activity, next nation IMP-TURN-*, IMP-INV-4/5, IMP-END-2
    maneuver.py   fleets, armies, railway, transport, stance    IMP-MAN-*, IMP-FLT-*, IMP-ARM-*, IMP-STN-*
    combat.py     resolve_combat (hot path), declarations       IMP-CMB-*, IMP-DST-*
    chips.py      tax chips at the end of a maneuver            IMP-CHP-*
    rules.py      setup, masks, step, forced moves, scores      IMP-SET-*, IMP-TURN-4, IMP-SCR-*
    observe.py    seat-relative observation vector
    evaluate.py   win-share estimate for truncated search rollouts
    invariants.py conservation checks (tests)
    validate.py   validate(s): bounds of every field, for records from outside
"""

from __future__ import annotations

import sys

import numpy as np

from .._common import contract, dispatch, entry
from .._common.validate import check_int_option, check_player_count, check_seed
from . import state, tables
from .actions import NUM_ACTIONS, action_family, action_name, buy_id
from .combat import resolve_combat
from .evaluate import evaluate
from .invariants import check_invariants
from .observe import OBS_PIECES, OBS_SIZE, observe
from .rules import (
    init_state,
    is_over,
    legal_mask,
    random_playouts,
    returns,
    scores,
    settle,
    step,
    step_and_mask,
    to_move,
    winners,
)
from .state import PHASE_NAMES, REWARDS, RULESET_PUBLISHED, RULESET_SEED, RULESETS, STATE
from .taxation import collect_taxes, tax_revenue
from .validate import MAX_NATION_TURNS_LIMIT, MAX_TAX_CHIPS, validate

GAME_ID = "imperial"
VERSION = 0
MIN_PLAYERS = tables.MIN_PLAYERS
MAX_PLAYERS = tables.MAX_PLAYERS
CHANCE_MODE = "deterministic"  # the only chance event is the flag deal inside new_state (spec §7)
INFORMATION = "perfect"
DEFAULT_PLAYERS = 4  # the count an env, a benchmark or a trainer uses when none is given
UTILITY = "constant_sum"  # default reward="win_share": 1/k to each of k tied winners; see utility()
NUM_CHANCE_OUTCOMES = 0

MAX_NATION_TURNS_DEFAULT = 600
# A proven bound on agent decisions per game (forced ones are applied by the kernel, IMP-TURN-4).
# The game stops after at most MAX_NATION_TURNS_LIMIT nation turns (IMP-END-2). One nation turn is
# 1 rondel decision + the space's decisions + an investor activity (<= 6 purchases):
#   import <= 4; factory 1; maneuver: every unit acts at most once (move or toggle) and a nation has
#   <= 16 units, each action <= 1 origin + 1 dest + 9 seas + 1 stance + (1 fight + 5 asks + 5 answers)
#   + 1 destroy = 24 decisions, + 1 DONE. So a turn is <= 1 + 16 * 24 + 1 + 6 = 392 decisions.
PER_TURN_BOUND = 1 + 16 * 24 + 1 + 6
MAX_GAME_LENGTH = MAX_NATION_TURNS_LIMIT * PER_TURN_BOUND

OPTIONS = {
    "ruleset": "'seed' (default: the seed's rules) or 'published' (IMP-OPT-0)",
    "home_tax_chips": "bool, own home provinces take tax chips (IMP-OPT-1; default by ruleset)",
    "tax_chips_per_nation": "int 1..30, tax chips per nation (IMP-OPT-2; 10 seed, 15 published)",
    "factory_topup": "bool, flag holder pays a factory shortfall (IMP-OPT-4; default by ruleset)",
    "optional_factory_destruction": "bool, destruction is the mover's choice (IMP-OPT-5; default by ruleset)",
    "chip_update_all_nations": "bool, chip update covers every nation (IMP-OPT-6; default by ruleset)",
    "hidden_cash": "bool, other players' cash is hidden in observations (IMP-OPT-3; default False)",
    "max_nation_turns": f"int 1..{MAX_NATION_TURNS_LIMIT}, truncation (IMP-END-2; default {MAX_NATION_TURNS_DEFAULT})",
    "reward": "'win_share' (default: 1/k to each of k tied winners) or 'score_margin' (final score minus the "
    "table's mean score; spec §6)",
}


def is_truncated(s) -> bool:
    """IMP-END-2: the nation-turn cap stopped the game (scored normally, reported as a truncation)."""
    return bool(is_over(s)) and int(s[0]["truncated"]) == 1


def check_num_players(num_players) -> int:
    return check_player_count(num_players, MIN_PLAYERS, MAX_PLAYERS, "Imperial")


def _bool(name, value):
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"option {name} must be a bool, got {value!r}")
    return bool(value)


def resolve_options(
    ruleset: str = "seed",
    home_tax_chips=None,
    tax_chips_per_nation=None,
    factory_topup=None,
    optional_factory_destruction=None,
    chip_update_all_nations=None,
    hidden_cash=False,
    max_nation_turns=MAX_NATION_TURNS_DEFAULT,
    reward="win_share",
    **unknown,
) -> dict:
    """Validate game options and fill the ruleset's defaults (IMP-OPT-0); raises listing what is allowed."""
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)} for imperial; allowed: {OPTIONS}")
    if ruleset not in RULESETS:
        raise ValueError(f"ruleset must be one of {RULESETS}, got {ruleset!r}")
    pub = ruleset == "published"
    out = {"ruleset": ruleset}
    for name, value, default in (
        ("home_tax_chips", home_tax_chips, not pub),
        ("factory_topup", factory_topup, pub),
        ("optional_factory_destruction", optional_factory_destruction, pub),
        ("chip_update_all_nations", chip_update_all_nations, pub),
        ("hidden_cash", hidden_cash, False),
    ):
        out[name] = default if value is None else _bool(name, value)
    chips = (
        (tables.TAX_CHIPS_PUBLISHED if pub else tables.TAX_CHIPS_SEED)
        if tax_chips_per_nation is None
        else tax_chips_per_nation
    )
    # checked against the record fields that store them (chips_per_nation int8, max_turns int32)
    out["tax_chips_per_nation"] = check_int_option(
        "tax_chips_per_nation", chips, STATE["chips_per_nation"], 1, MAX_TAX_CHIPS
    )
    out["max_nation_turns"] = check_int_option(
        "max_nation_turns", max_nation_turns, STATE["max_turns"], 1, MAX_NATION_TURNS_LIMIT
    )
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
    out["reward"] = reward
    return out


def _opts_array(opts: dict) -> np.ndarray:
    return np.array(
        [
            RULESETS.index(opts["ruleset"]),
            opts["home_tax_chips"],
            opts["tax_chips_per_nation"],
            opts["factory_topup"],
            opts["optional_factory_destruction"],
            opts["chip_update_all_nations"],
            opts["hidden_cash"],
            opts["max_nation_turns"],
            REWARDS.index(opts["reward"]),
        ],
        np.int64,
    )


def utility(options: dict) -> str:
    """Utility class of ``returns()`` under resolved options: win shares sum to 1 (constant-sum);
    ``reward="score_margin"`` pays score minus the table's mean, which sums to 0 (zero-sum; spec §6)."""
    return "zero_sum" if options["reward"] == "score_margin" else "constant_sum"


def _setup(num_players: int, opts: dict) -> tuple:
    """init_state's and random_playouts' game arguments, from resolved options."""
    return (_opts_array(opts),)


def new_state(num_players: int, seed: int = 0, **options) -> np.ndarray:
    """A fresh game record (shape (1,), dtype STATE) after setup, at AH's first rondel decision."""
    num_players, seed, opts = entry.checked(sys.modules[__name__], num_players, seed, options)
    s = entry.fresh_record(STATE, init_state, num_players, seed, *_setup(num_players, opts))
    settle(s, np.zeros(NUM_ACTIONS, np.uint8))
    return s


playouts = entry.make_playouts(sys.modules[__name__], random_playouts, _setup)

__all__ = contract.exports(
    CHANCE_MODE,
    INFORMATION,
    "RULESET_SEED",
    "RULESET_PUBLISHED",
    "winners",
    "action_family",
    "buy_id",
    "resolve_combat",
    "collect_taxes",
    "tax_revenue",
)

dispatch.register(sys.modules[__name__])  # generic numba code (MCTS) finds this kernel by its record dtype
