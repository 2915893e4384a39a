"""The kernel contract: names every game kernel module exports, and a checker for them.

A kernel module (``tabletop_zoo.kernels.<game>``) is the whole rules engine of one game. Records are
numpy arrays of shape ``(1,)`` and dtype ``STATE``; functions marked (njit) are numba-compiled.
``step``, ``step_and_mask``, ``legal_mask`` and ``rollout_action`` run at every decision of the env and of
the search's rollouts (many threads at once): they allocate nothing (no np.empty/zeros, .copy() or array
expression; scratch values live in local scalars, a bit set or the record, never in module-level arrays
shared by threads), checked by tests/contract/test_no_allocation.py (slow). Generic code calls them (and
``is_over``, ``to_move``, ``observe``, the chance functions) through dispatch wrappers compiled without
reference counting (``_common/dispatch.py``), so an allocation first compiled from there does not compile.

Constants
  GAME_ID, VERSION, MIN_PLAYERS, MAX_PLAYERS, NUM_ACTIONS, OBS_SIZE, OBS_PIECES, STATE,
  MAX_GAME_LENGTH (a proven bound on decisions per game), CHANCE_MODE, INFORMATION,
  NUM_CHANCE_OUTCOMES (size of the chance-outcome id space, 0 for deterministic games),
  OPTIONS ({option name: description} of the game's options)
  DEFAULT_PLAYERS (the player count used when none is given: envs, benchmarks, trainers, OpenSpiel)
  UTILITY ("zero_sum" | "constant_sum" | "general_sum": what returns() sum to under the default
          options; ``utility(options)`` gives it for any resolved options, e.g. a reward option)
Functions
  new_state(num_players, seed, **options) -> record    (Python: validates and raises)
  check_num_players(n), check_seed(seed), resolve_options(**options) -> dict
                                                      (Python: validate, raise clear errors, fill defaults)
  utility(options) -> str                             (Python) the UTILITIES class of returns() under
                                                      resolved options (resolve_options' output)
  playouts(num_players, n_games, seed, max_decisions, **options) -> (decisions, finished games)
                                                      (uniformly random games inside numba, GIL released)
  init_state(s, num_players, seed, *game_args)         (numba) set a zeroed record up as new_state does
  game_args(num_players, **options) -> tuple          (Python) init_state's arguments after the seed, checked
  check_invariants(s) -> list[str]                    (Python) conservation of money, shares, pieces,
                                                      cards: every violated invariant, empty if none
  validate(s) -> list[str]                            (Python) everything wrong with a record that enters
                                                      from outside (set_state, replays, OpenSpiel, pickles):
                                                      s any bytes of shape (1,) and dtype STATE; never
                                                      raises, calls kernels only once its bounds hold
                                                      (invariants, a legal move exists); one line per problem
                                                      naming the field, the bad value and the allowed range;
                                                      every index field in range for its phase, every count
                                                      and amount within bounds, then check_invariants.
                                                      Empty = safe: no kernel can index out of bounds on it.
                                                      Built from _common/validate.py (Bound, check_layers,
                                                      no_dead_end); env.set_state etc. use record_from
  to_move(s) -> seat, or CHANCE (-1) / TERMINAL (-2)  (njit)
  legal_mask(s, out)                                  (njit) uint8[NUM_ACTIONS]; all zero when not a seat's turn
  step(s, action)                                     (njit) apply a legal decision, then sample every
                                                      chance event that follows from the record's RNG
  step_and_mask(s, action, mask) -> to_move(s)        (njit) step + legal_mask in one call (env hot path;
                                                      mask may be uint8 or int8)
  is_over(s) -> bool                                  (njit)
  returns(s, out)                                     (njit) float64[MAX_PLAYERS] terminal rewards
  evaluate(s, out)                                    (njit) float64[MAX_PLAYERS] estimate of returns()
                                                      for any state (= returns() when over): scores
                                                      truncated MCTS rollouts (shared: _common/scoring.py)
  estimate(s, out)                                    (njit) the game's own estimate for a game in progress,
                                                      on the scale of returns(); what evaluate() calls
  scores(s, out)                                      (njit) int64[MAX_PLAYERS] final scores (points/money)
  observe(s, seat, out)                               (njit) float32[OBS_SIZE], seat-relative; seat -1 =
                                                      the privileged full view (PettingZoo ``state()``)
  action_name(s, action) -> str                       (Python)
Explicit chance (CHANCE_MODE != "deterministic")
  step_decision(s, action)                            (njit) apply a decision, stop at a chance node
  is_chance(s) -> bool                                (njit)
  chance_outcomes(s, out_ids, out_probs) -> n         (njit) pending outcomes and their probabilities
  step_chance(s, outcome)                             (njit) apply a chosen outcome
  sample_chance(s) -> outcome                         (njit) draw an outcome from the record RNG
Optional
  is_truncated(s) -> bool                             (Python) the finished game was stopped by a safety
                                                      limit (turn cap), not by its rules: the env reports
                                                      a PettingZoo truncation instead of a termination
  rollout_action(s, mask, rng) -> action              (njit) a legal action for the seat to move (mask = its
                                                      legal mask), drawn with the search's generator rng:
                                                      the MCTS rollout policy; without it rollouts are
                                                      uniformly random (``masks.sample_legal``)
  ROLLOUT_DEPTH                                       decisions of a truncated MCTS rollout before
                                                      ``evaluate`` scores it, when 20 (the search's
                                                      default) is not the game's best horizon
  DECISIONS_PER_S_TARGET                              the kernel's throughput goal in ``tabletop-zoo bench``
                                                      (decisions/s on one thread), when 1,000,000 is not it
  public_action_name(s, action, viewer) -> str        (Python) action_name of a move about to be made in s,
                                                      with what seat ``viewer`` may not see hidden (None: a
                                                      spectator); for games whose moves can be secret.
                                                      Without it every action name is public
Hidden information (INFORMATION == "imperfect")
  determinize(s, seat, seed)                          (njit) resample what ``seat`` cannot see
"""

from __future__ import annotations

from types import ModuleType

CHANCE = -1  # to_move() while a chance event is pending
TERMINAL = -2  # to_move() once the game is over

CHANCE_MODES = ("deterministic", "explicit_stochastic")
INFORMATIONS = ("perfect", "imperfect")
# What returns() of a finished game sum to, in OpenSpiel's words: always 0, always the same constant
# (win shares: 1), or anything (e.g. a truncation that pays nobody).
UTILITIES = ("zero_sum", "constant_sum", "general_sum")

REQUIRED_CONSTANTS = (
    "GAME_ID",
    "VERSION",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "NUM_ACTIONS",
    "OBS_SIZE",
    "OBS_PIECES",
    "STATE",
    "MAX_GAME_LENGTH",
    "CHANCE_MODE",
    "INFORMATION",
    "NUM_CHANCE_OUTCOMES",
    "OPTIONS",
    "DEFAULT_PLAYERS",
    "UTILITY",
)
REQUIRED_FUNCTIONS = (
    "new_state",
    "to_move",
    "legal_mask",
    "step",
    "step_and_mask",
    "is_over",
    "returns",
    "evaluate",
    "estimate",
    "scores",
    "observe",
    "action_name",
    "check_num_players",
    "check_seed",
    "resolve_options",
    "playouts",
    "init_state",
    "game_args",
    "check_invariants",
    "utility",
    "validate",
)
CHANCE_FUNCTIONS = ("step_decision", "is_chance", "chance_outcomes", "step_chance", "sample_chance")
HIDDEN_INFO_FUNCTIONS = ("determinize",)
# Exported by every room besides the contract: its tables and state modules and the names of its phases.
ROOM_NAMES = ("PHASE_NAMES", "tables", "state")


def exports(chance_mode: str, information: str, *extras: str) -> list[str]:
    """A kernel's ``__all__``: the contract for its chance mode and information, the room's names and its extras."""
    names = [*REQUIRED_CONSTANTS, *REQUIRED_FUNCTIONS, *ROOM_NAMES]
    if chance_mode != "deterministic":
        names += CHANCE_FUNCTIONS
    if information == "imperfect":
        names += HIDDEN_INFO_FUNCTIONS
    return names + list(extras)


def contract_problems(kernel: ModuleType) -> list[str]:
    """Everything a kernel module is missing or gets wrong; empty when it honours the contract."""
    problems = [f"missing constant {n}" for n in REQUIRED_CONSTANTS if not hasattr(kernel, n)]
    needed = list(REQUIRED_FUNCTIONS)
    mode = getattr(kernel, "CHANCE_MODE", None)
    info = getattr(kernel, "INFORMATION", None)
    if mode not in CHANCE_MODES:
        problems.append(f"CHANCE_MODE={mode!r}, expected one of {CHANCE_MODES}")
    elif mode != "deterministic":
        needed += CHANCE_FUNCTIONS
    if info not in INFORMATIONS:
        problems.append(f"INFORMATION={info!r}, expected one of {INFORMATIONS}")
    elif info == "imperfect":
        needed += HIDDEN_INFO_FUNCTIONS
    problems += [f"missing function {n}" for n in needed if not callable(getattr(kernel, n, None))]
    if not problems:
        if not 1 <= kernel.MIN_PLAYERS <= kernel.MAX_PLAYERS:
            problems.append("need 1 <= MIN_PLAYERS <= MAX_PLAYERS")
        if "rng" not in kernel.STATE.names:
            problems.append("STATE has no 'rng' field (the generator lives in the record)")
        if sum(p.size for p in kernel.OBS_PIECES) != kernel.OBS_SIZE:
            problems.append("OBS_PIECES do not add up to OBS_SIZE")
        depth = getattr(kernel, "ROLLOUT_DEPTH", 0)
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
            problems.append(f"ROLLOUT_DEPTH must be an int >= 0, got {depth!r}")
        target = getattr(kernel, "DECISIONS_PER_S_TARGET", 1)
        if isinstance(target, bool) or not isinstance(target, int) or target < 1:
            problems.append(f"DECISIONS_PER_S_TARGET must be an int >= 1, got {target!r}")
        problems += _options_problems(kernel) + _default_problems(kernel)
    return problems


def check_kernel(kernel: ModuleType) -> None:
    """Raise TypeError listing every contract problem of a kernel module."""
    problems = contract_problems(kernel)
    if problems:
        raise TypeError(f"kernel {getattr(kernel, '__name__', kernel)!r} breaks the contract: " + "; ".join(problems))


def _options_problems(kernel: ModuleType) -> list[str]:
    """OPTIONS names exactly the options resolve_options fills in (the table both come from)."""
    resolved = sorted(kernel.resolve_options())
    if resolved != sorted(kernel.OPTIONS):
        return [f"resolve_options() fills {resolved} but OPTIONS lists {sorted(kernel.OPTIONS)}"]
    return []


def _default_problems(kernel: ModuleType) -> list[str]:
    """DEFAULT_PLAYERS inside the supported range; UTILITY a known class and utility() at the defaults."""
    problems = []
    n = kernel.DEFAULT_PLAYERS
    if isinstance(n, bool) or not isinstance(n, int) or not kernel.MIN_PLAYERS <= n <= kernel.MAX_PLAYERS:
        problems.append(f"DEFAULT_PLAYERS={n!r}, expected an int in {kernel.MIN_PLAYERS}..{kernel.MAX_PLAYERS}")
    if kernel.UTILITY not in UTILITIES:
        problems.append(f"UTILITY={kernel.UTILITY!r}, expected one of {UTILITIES}")
    elif kernel.utility(kernel.resolve_options()) != kernel.UTILITY:
        problems.append(
            f"utility(default options)={kernel.utility(kernel.resolve_options())!r} but UTILITY={kernel.UTILITY!r}"
        )
    return problems
