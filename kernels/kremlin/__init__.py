"""Kremlin, played by the rules of its parody "Magne!" (game id ``kremlin``), 3-6 players.

Spec: ``shared/rules/kremlin.md`` (rule IDs KRM-*); decisions where it is silent:
``docs/rules/kremlin.md``. Module map, one per spec section (what the
modules every room has hold, from state.py to validate.py, is in CONTRIBUTING.md, "Add a game"):

    tables.py      data/*.json -> frozen numpy tables (gamers, posts, finance tables, traits)
    state.py       the STATE record, decision points, window continuations
    actions.py     action-id ranges, action_name() (theme-aware labels), public_action_name() (secrets hidden)
    board.py       control, leaving the club, SP room, delegation, auto-promotion  KRM-INF-3/4, KRM-GEN-*, KRM-PER-2..4
    influence.py   allocation, declarations, determinize                           KRM-SET-4, KRM-INF-*, KRM-OPT-2/4
    phases.py      the eight phases' choices and dice                              KRM-PT/STR/EXP/RUM/FIN/ELE/PER/YEP/END
    flow.py        the automatic turn flow and declaration windows                 KRM-DW-*, spec §4
    rules.py       setup, masks, step, chance (d20), returns                       KRM-SET-*
    observe.py     seat-relative observation (own sheet only)
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
from .actions import declare_id
from .actions import public_action_name
from .estimate import estimate
from .influence import determinize
from .invariants import check_invariants
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
from .state import RULESETS
from .state import STATE
from .tables import MAX_PLAYERS
from .tables import MIN_PLAYERS

GAME_ID = "kremlin"
VERSION = 0
CHANCE_MODE = "explicit_stochastic"
INFORMATION = "imperfect"
DEFAULT_PLAYERS = 4  # the count an env, a benchmark or a trainer uses when none is given
UTILITY = "general_sum"  # default: the KRM-END-3 turn-limit truncation pays 0 to everyone; see utility()
NUM_CHANCE_OUTCOMES = tables.DIE_SIDES  # one d20: outcome id = face - 1
MAX_TURN_LIMIT = 200
# Decisions of a truncated search rollout: a turn takes dozens (a declaration window alone ends only after N
# passes in a row, KRM-DW-2), so the search's default of 20 seldom reaches the next vote, power or speech
# (KRM-YEP-3) that the rollout policy plays well; 60 measured stronger (benchmarks/az_strength.py, #48).
ROLLOUT_DEPTH = 60

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

_OPTIONS = options.Options(
    GAME_ID,
    options.Choice("ruleset", RULESETS, "'seed' (default and only: the spec lists no published-game differences)"),
    options.Choice(
        "theme", tables.THEMES, "'magne' (default: the seed's circle names) or 'kremlin' (Kremlin names) for labels"
    ),
    options.Flag("traits", "bool, optional personalities KRM-OPT-1..8 (default False)"),
    options.Flag("random_placement", "bool, KRM-SET-1 variant: random gamers in P01..P12 (default False)"),
    options.Integer(
        "turn_limit",
        f"int 1..{MAX_TURN_LIMIT}, turns before the KRM-END-3 stop (default {tables.TURN_LIMIT_DEFAULT})",
        STATE["turn_limit"],
        tables.TURN_LIMIT_DEFAULT,
        lo=1,
        hi=MAX_TURN_LIMIT,
    ),
    options.Flag(
        "turn_limit_ranking",
        "bool, rank by speeches then posts at the turn limit instead of truncating (default False)",
    ),
)


def is_truncated(s) -> bool:
    """KRM-END-3: the turn limit stopped the game without a winner (a truncation, not an ending)."""
    return bool(is_over(s)) and int(s[0]["winner"]) == -3


def utility(options: dict) -> str:
    """Utility class of ``returns()`` under resolved options: a winner takes 1 and a draw shares 1, but the
    default KRM-END-3 truncation pays everyone 0 (general-sum); with ``turn_limit_ranking`` the turn limit
    names a winner too, so returns always sum to 1 (constant-sum)."""
    return "constant_sum" if options["turn_limit_ranking"] else "general_sum"


def _setup(num_players: int, o: dict) -> tuple:
    """init_state's game arguments, from resolved options."""
    return _OPTIONS.values(o, "traits", "random_placement", "turn_limit", "turn_limit_ranking", "theme")


_KERNEL = sys.modules[__name__]
evaluate = make_evaluate(_KERNEL)
OPTIONS, resolve_options, check_num_players, new_state, playouts, game_args = entry.entry_points(
    _KERNEL, _OPTIONS, "Kremlin (Magne!)", init_state, _setup, "at the first allocation choice (KRM-SET-4)"
)

__all__ = contract.exports(
    CHANCE_MODE, INFORMATION, "public_action_name", "action_family", "declare_id", "rollout_action", "ROLLOUT_DEPTH"
)

from .validate import validate  # noqa: E402  (last: it bounds records by the constants above)

dispatch.register(_KERNEL)  # generic numba code (MCTS) finds this kernel by its record dtype
