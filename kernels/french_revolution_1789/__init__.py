"""French Revolution 1789 rules kernel (game id ``french_revolution_1789``), 2-5 players.

Spec: ``shared/rules/french_revolution_1789.md`` (rule IDs FR-*); decisions where it is silent:
``docs/rules/french_revolution_1789.md``. Module map (what the modules every room has hold,
from state.py to validate.py, is in CONTRIBUTING.md, "Add a game"):

    tables.py     data/*.json -> frozen numpy tables; every card effect compiled into EFF rows
    state.py      the STATE record, phases, statuses
    effects.py    legality and resolution of every effect row     FR-RA-*, FR-ACT-8/9, FR-AUC-5
    auction.py    the card auction                              FR-AUC-*
    armies.py     unit draws and Police Network as explicit chance FR-RA-INSTIGATE, FR-ARMY-*
    phases.py     income, regime, scoring, turn end              FR-INC-1, FR-REG-*, FR-SCO-*, FR-END-1
    rules.py      setup, masks, step, chance, determinize, scores FR-ACT-*, FR-GEN-*
    observe.py    seat-relative observation (own intrigue hand private)

Hidden information: intrigue hands and the pile order, and the order of the undrawn history cards
(shuffled at setup); ``determinize`` resamples them. Chance after setup (unit draws, Police
Network's steal) is explicit.
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
from .actions import action_name
from .armies import NUM_CHANCE_OUTCOMES
from .estimate import estimate
from .invariants import check_invariants
from .observe import OBS_PIECES
from .observe import OBS_SIZE
from .observe import observe
from .rollout import rollout_action
from .rules import chance_outcomes
from .rules import determinize
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

GAME_ID = "french_revolution_1789"
VERSION = 0
CHANCE_MODE = "explicit_stochastic"
INFORMATION = "imperfect"
DEFAULT_PLAYERS = 4  # the count an env, a benchmark or a trainer uses when none is given
UTILITY = "constant_sum"  # returns(): 1/k to each of the k tied winners, so they always sum to 1
# MCTS rollouts of 40 decisions, not the search's 20: against three heuristics MCTS(1000) plays best from 40
# decisions on (a shorter rollout sees too little of a turn)
ROLLOUT_DEPTH = 40

# A proven bound on decisions per game (no truncation rule needed: the game always ends after turn V).
# Auction: 32 cards; per card the bids strictly rise within 0..59 (at most 60 bids) and each of at
# most 4 other seats passes once: <= 64 decisions. Action phase: every non-pass move tilts an untilted
# card (<= 32 per phase) or spends an intrigue card (<= 14 in the game), and is <= 4 decisions
# (select/play, action, city or person, army); each seat passes once per phase (<= 5).
MAX_GAME_LENGTH = 32 * 64 + 5 * (32 * 4 + 5) + 14 * 4

_OPTIONS = options.Options(
    GAME_ID,
    options.Choice(
        "ruleset", RULESETS, "'seed' (default and only value: the spec lists no published-game differences)"
    ),
    options.Flag(
        "person_marks", "bool (default False): FR-OPT-1, a person may perform only regime actions whose mark it bears"
    ),
)
utility = entry.fixed_utility(UTILITY)


def _setup(num_players: int, opts: dict) -> tuple:
    """init_state's game arguments, from resolved options."""
    return _OPTIONS.values(opts, "person_marks")


_KERNEL = sys.modules[__name__]
evaluate = make_evaluate(_KERNEL)
OPTIONS, resolve_options, check_num_players, new_state, playouts, game_args = entry.entry_points(
    _KERNEL, _OPTIONS, "French Revolution 1789", init_state, _setup, "after setup and turn I's income, at the first bid"
)

__all__ = contract.exports(CHANCE_MODE, INFORMATION, "rollout_action", "ROLLOUT_DEPTH")

from .validate import validate  # noqa: E402  (last: it bounds records by the constants above)

dispatch.register(_KERNEL)  # generic numba code (MCTS) finds this kernel by its record dtype
