"""Kremlin, played by the rules of its parody "Magne!" (game id ``kremlin``), 3-6 players.

Spec: ``shared/rules/kremlin.md`` (rule IDs KRM-*); decisions where it is silent:
``docs/rules/kremlin.md``. Module map (one per spec section):

    tables.py      data/*.json -> frozen numpy tables (gamers, posts, finance tables, traits)
    state.py       the STATE record, decision points, window continuations
    actions.py     action-id ranges, action_name() (theme-aware labels), public_action_name() (secrets hidden)
    board.py       control, leaving the club, SP room, delegation, auto-promotion  KRM-INF-3/4, KRM-GEN-*, KRM-PER-2..4
    influence.py   allocation, declarations, determinize                           KRM-SET-4, KRM-INF-*, KRM-OPT-2/4
    phases.py      the eight phases' choices and dice                              KRM-PT/STR/EXP/RUM/FIN/ELE/PER/YEP/END
    flow.py        the automatic turn flow and declaration windows                 KRM-DW-*, spec §4
    rules.py       setup, masks, step, chance (d20), returns                       KRM-SET-*
    observe.py     seat-relative observation (own sheet only)
    evaluate.py    win-share estimate for truncated search rollouts
    invariants.py  conservation checks (tests)
"""

from __future__ import annotations

import numbers
import sys

import numpy as np

from .._common import contract, dispatch, entry
from .._common.stepping import step_and_mask
from .._common.validate import check_player_count, check_seed
from . import state, tables
from .actions import NUM_ACTIONS, action_family, action_name, declare_id, public_action_name
from .evaluate import evaluate
from .influence import determinize
from .invariants import check_invariants
from .observe import OBS_PIECES, OBS_SIZE, observe
from .rules import (
    chance_outcomes,
    init_state,
    is_chance,
    is_over,
    legal_mask,
    random_playouts,
    returns,
    sample_chance,
    scores,
    step,
    step_chance,
    step_decision,
    to_move,
)
from .state import PHASE_NAMES, RULESETS, STATE

GAME_ID = "kremlin"
VERSION = 0
MIN_PLAYERS = tables.MIN_PLAYERS
MAX_PLAYERS = tables.MAX_PLAYERS
CHANCE_MODE = "explicit_stochastic"
INFORMATION = "imperfect"
DEFAULT_PLAYERS = 4  # the count an env, a benchmark or a trainer uses when none is given
UTILITY = "general_sum"  # default: the KRM-END-3 turn-limit truncation pays 0 to everyone; see utility()
NUM_CHANCE_OUTCOMES = tables.DIE_SIDES  # one d20: outcome id = face - 1
MAX_TURN_LIMIT = 200

# A proven bound on decisions per game, for N = 6 seats and the largest turn limit T = 200 (KRM-END-3
# truncates after turn T; the seed itself has no limit, so the turn limit is what bounds the game):
# - allocation: 10 N picks;
# - declarations: each raises declared + burned of one (seat, gamer) pair, which never exceeds the
#   sheet, so <= 55 N in the whole game; a window visit that declares is one decision and at most N
#   passes follow each declaration (N passes in a row close a window), plus N passes per window;
# - windows per turn <= 24: part-time 1, expulsion 1 + 12 successes (no post is refilled during the
#   phase), rumour 1 + trial 1, election 1 + 2 nominations, personnel 4, year-end 1;
# - other decisions per turn <= 144 + N: part-time 13 + N, expulsion 13 targets + 1, rumour 13 marks +
#   1 + choice + target + 7 votes, election 2 nominations + 14 votes, personnel A 12 moves x 2 + 1,
#   B 4 x 2 + 1, C 5 x 2 + 1, recall 25 + 8.
_N, _DECL = 6, 55 * 6
MAX_GAME_LENGTH = 10 * _N + (_N + 1) * _DECL + MAX_TURN_LIMIT * (24 * _N + 144 + _N)

OPTIONS = {
    "ruleset": "'seed' (default and only: the spec lists no published-game differences)",
    "theme": "'magne' (default: the seed's circle names) or 'kremlin' (Kremlin names) for labels",
    "traits": "bool, optional personalities KRM-OPT-1..8 (default False)",
    "random_placement": "bool, KRM-SET-1 variant: random gamers in P01..P12 (default False)",
    "turn_limit": f"int 1..{MAX_TURN_LIMIT}, turns before the KRM-END-3 stop (default {tables.TURN_LIMIT_DEFAULT})",
    "turn_limit_ranking": "bool, rank by speeches then posts at the turn limit instead of truncating (default False)",
}


def is_truncated(s) -> bool:
    """KRM-END-3: the turn limit stopped the game without a winner (a truncation, not an ending)."""
    return bool(is_over(s)) and int(s[0]["winner"]) == -3


def check_num_players(num_players) -> int:
    return check_player_count(num_players, MIN_PLAYERS, MAX_PLAYERS, "Kremlin (Magne!)")


def _bool(name, v) -> bool:
    if not isinstance(v, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {v!r}")
    return bool(v)


def resolve_options(
    ruleset: str = "seed",
    theme: str = "magne",
    traits: bool = False,
    random_placement: bool = False,
    turn_limit: int = tables.TURN_LIMIT_DEFAULT,
    turn_limit_ranking: bool = False,
    **unknown,
) -> dict:
    """Validate game options and fill defaults; raises listing what is allowed."""
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)} for kremlin; allowed: {OPTIONS}")
    if ruleset not in RULESETS:
        raise ValueError(f"ruleset must be one of {RULESETS}, got {ruleset!r}")
    if theme not in tables.THEMES:
        raise ValueError(f"theme must be one of {tables.THEMES}, got {theme!r}")
    if (
        isinstance(turn_limit, bool)
        or not isinstance(turn_limit, numbers.Integral)
        or not 1 <= turn_limit <= MAX_TURN_LIMIT
    ):
        raise ValueError(f"turn_limit must be an int in 1..{MAX_TURN_LIMIT}, got {turn_limit!r}")
    return {
        "ruleset": ruleset,
        "theme": theme,
        "traits": _bool("traits", traits),
        "random_placement": _bool("random_placement", random_placement),
        "turn_limit": int(turn_limit),
        "turn_limit_ranking": _bool("turn_limit_ranking", turn_limit_ranking),
    }


def utility(options: dict) -> str:
    """Utility class of ``returns()`` under resolved options: a winner takes 1 and a draw shares 1, but the
    default KRM-END-3 truncation pays everyone 0 (general-sum); with ``turn_limit_ranking`` the turn limit
    names a winner too, so returns always sum to 1 (constant-sum)."""
    return "constant_sum" if options["turn_limit_ranking"] else "general_sum"


def _setup(num_players: int, o: dict) -> tuple:
    """random_playouts' game arguments (init_state takes the label theme after them), from resolved options."""
    return int(o["traits"]), int(o["random_placement"]), o["turn_limit"], int(o["turn_limit_ranking"])


def new_state(num_players: int, seed: int = 0, **options) -> np.ndarray:
    """A fresh game record (shape (1,), dtype STATE) at the first allocation choice (KRM-SET-4)."""
    num_players, seed, o = entry.checked(sys.modules[__name__], num_players, seed, options)
    theme = tables.THEMES.index(o["theme"])
    return entry.fresh_record(STATE, init_state, num_players, seed, *_setup(num_players, o), theme)


playouts = entry.make_playouts(sys.modules[__name__], random_playouts, _setup)

__all__ = contract.exports(CHANCE_MODE, INFORMATION, "public_action_name", "action_family", "declare_id")

from .validate import validate  # noqa: E402  (last: it bounds records by the constants above)

dispatch.register(sys.modules[__name__])  # generic numba code (MCTS) finds this kernel by its record dtype
