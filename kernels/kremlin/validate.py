"""``validate(s)``: everything wrong with a Kremlin record that enters from outside (set_state, replays,
pickles), as one line per problem; empty = every kernel may index with it (``_common/validate.py``).

Layers, each run only when the ones before hold (later bounds index with earlier fields):
1. num_players and phase;
2. every field in range (the table below; seat, gamer and post indexes for the phase that reads them);
3. the pending decision is well formed: the seat to move exists and the gamers and posts the phase
   will index are real (the rules that index them are cited);
4. ``check_invariants`` (gamers and influence conserved, control in sync);
5. the seat to move has a legal action (the kernel's own mask, safe to compute after 1-4).
"""

from __future__ import annotations

from .._common.validate import Bound
from .._common.validate import check_layers
from .._common.validate import in_phase
from .._common.validate import last_seat
from .._common.validate import no_dead_end
from .._common.validate import num_seats
from .._common.validate import outside_phase
from .._common.validate import phase_words
from . import MAX_GAME_LENGTH
from . import MAX_TURN_LIMIT
from .actions import NUM_ACTIONS
from .invariants import check_invariants
from .rules import legal_mask
from .rules import to_move
from .state import C_ELE_VOTE
from .state import C_TRIAL_VOTE
from .state import CH_EXPULSION
from .state import CH_FINANCE
from .state import CH_NONE
from .state import CH_SPEECH
from .state import N_CONTS
from .state import N_PHASES
from .state import PH_ASSIGN
from .state import PH_CHANCE
from .state import PH_EXP_TARGET
from .state import PH_GAME_OVER
from .state import PH_NOMINATE
from .state import PH_PER_A_DST
from .state import PH_PER_A_SRC
from .state import PH_PER_B_DST
from .state import PH_PER_B_SRC
from .state import PH_PER_C_DST
from .state import PH_PER_C_SRC
from .state import PH_PT_SELECT
from .state import PH_RECALL
from .state import PH_RUM_CHOICE
from .state import PH_RUM_MARK
from .state import PH_RUM_TARGET
from .state import PH_VOTE
from .state import PH_WINDOW
from .state import PHASE_NAMES
from .state import RULESETS
from .state import STATE
from .state import WIN_NONE
from .state import WIN_TRUNCATED
from .tables import ASSIGNABLE
from .tables import DIE_SIDES
from .tables import EXPERIENCE
from .tables import INFLUENCE_VALUES
from .tables import LEVEL
from .tables import LV_JUNIOR
from .tables import LV_MEMBER
from .tables import MAX_AGE_AFTER_POWER
from .tables import MAX_PLAYERS
from .tables import MAX_VALUE
from .tables import MIN_PLAYERS
from .tables import N_GAMERS
from .tables import N_LOCS
from .tables import N_OFFICERS
from .tables import N_POSTS
from .tables import N_VALUES
from .tables import RETIRE_BROKE
from .tables import SENSITIVE_MULT
from .tables import SP_ELE_REJECT
from .tables import SPEECH_SP
from .tables import SPEECHES_TO_WIN
from .tables import THEMES
from .tables import TOTAL_INFLUENCE
from .tables import TR_INCONSPICUOUS
from .tables import TRAIT

# The highest age (experience + SP) a gamer reaches: powers stop at 95 (KRM-GEN-2); past that only the
# unchecked gains add: stress 1 + 2 broke + 1 suspicion (KRM-STR-1), two rejected nominations
# (KRM-ELE-6, doubled by stress_sensitive KRM-OPT-5), the speech (KRM-YEP-4).
MAX_AGE = MAX_AGE_AFTER_POWER + max(1 + 2 + 1, 2 * SP_ELE_REJECT * SENSITIVE_MULT, int(SPEECH_SP.max()))
# Broke markers: a finance roll adds up to 2 to a gamer with 2 (KRM-FIN-2), who then retires (KRM-GEN-4).
MAX_BROKE = RETIRE_BROKE + 1


_in, _not_in, _n = in_phase, outside_phase, num_seats
_names, _all_but = phase_words(PHASE_NAMES), phase_words(PHASE_NAMES, "outside phase ")


LAYER_PLAYERS_PHASE = (
    Bound("num_players", MIN_PLAYERS, MAX_PLAYERS),
    Bound("phase", 0, N_PHASES - 1),
)

LAYER_RANGES = (
    Bound("ruleset", 0, len(RULESETS) - 1),
    Bound("theme", 0, len(THEMES) - 1),
    Bound("traits", 0, 1),
    Bound("random_placement", 0, 1),
    Bound("ranking", 0, 1),
    Bound("turn_limit", 1, MAX_TURN_LIMIT),  # KRM-END-3
    Bound("turn", 1, lambda r: int(r["turn_limit"])),  # KRM-SET-6, KRM-END-3
    Bound("start_player", 0, last_seat),  # KRM-SET-5
    Bound("decisions", 0, MAX_GAME_LENGTH),
    Bound("loc", 0, N_LOCS - 1),
    Bound("holder", -1, N_GAMERS - 1),
    Bound("sp", 0, MAX_AGE - EXPERIENCE),
    Bound("broke", 0, MAX_BROKE),
    Bound("susp_turn", 0, lambda r: int(r["turn"])),  # KRM-RUM-1: the turn it was placed
    Bound("part_time", 0, 1),
    Bound("flag", 0, 1),
    Bound("opposer", 0, 1),
    Bound("midway_done", 0, 1),
    Bound("assigned", 0, MAX_VALUE, seats=True),  # KRM-INF-1
    Bound("declared", 0, MAX_VALUE, seats=True),  # KRM-INF-2
    Bound("burned", 0, MAX_VALUE, seats=True),  # KRM-INF-3
    # a declaration raises one (seat, gamer) pair by >= 1 towards its sheet value: <= 55 raises per seat
    Bound("counter", 0, lambda r: TOTAL_INFLUENCE * _n(r)),
    Bound("stamp", 0, lambda r: int(r["counter"]), seats=True),  # KRM-INF-4
    Bound("controller", -1, last_seat),
    Bound("speeches", 0, SPEECHES_TO_WIN, seats=True),  # KRM-YEP-3, KRM-END-1
    Bound("winner", WIN_NONE, WIN_NONE, when=_not_in(PH_GAME_OVER), where=_all_but(PH_GAME_OVER)),
    Bound("winner", WIN_TRUNCATED, last_seat, when=_in(PH_GAME_OVER), where=_names(PH_GAME_OVER)),
    Bound("assign_seat", 0, last_seat, when=_in(PH_ASSIGN), where=_names(PH_ASSIGN)),  # KRM-SET-4
    Bound("assign_seat", _n, _n, when=_not_in(PH_ASSIGN), where=_all_but(PH_ASSIGN) + " (allocation over)"),
    Bound("assign_count", 0, N_VALUES - 1, when=_in(PH_ASSIGN), where=_names(PH_ASSIGN)),
    Bound("assign_count", 0, 0, when=_not_in(PH_ASSIGN), where=_all_but(PH_ASSIGN)),
    Bound("dw_seat", 0, last_seat),  # KRM-DW-2
    Bound("dw_passes", 0, _n),
    Bound("dw_passes", 0, lambda r: _n(r) - 1, when=_in(PH_WINDOW), where=_names(PH_WINDOW)),
    Bound("dw_cont", 0, N_CONTS - 1),  # KRM-DW-1
    Bound("seat_cursor", 0, last_seat),
    Bound("seats_done", 0, _n),
    Bound("seats_done", 0, lambda r: _n(r) - 1, when=_in(PH_PT_SELECT), where=_names(PH_PT_SELECT)),
    Bound("actor", -1, N_GAMERS - 1),
    Bound("target", -1, N_GAMERS - 1),
    Bound("post_cursor", 0, N_OFFICERS),
    Bound("post_cursor", 0, N_OFFICERS - 1, when=_in(PH_VOTE, PH_RECALL), where=_names(PH_VOTE, PH_RECALL)),
    Bound("oppose_count", 0, N_OFFICERS),
    Bound("nominations", 0, 2),  # KRM-ELE-4
    Bound("nominations", 0, 1, when=_in(PH_NOMINATE), where=_names(PH_NOMINATE)),
    Bound("rumour_mode", 0, 2),  # KRM-RUM-2
    Bound("rumour_mode", 1, 2, when=_in(PH_RUM_TARGET), where=_names(PH_RUM_TARGET)),
    Bound("chance_kind", CH_EXPULSION, CH_SPEECH, when=_in(PH_CHANCE), where=_names(PH_CHANCE)),
    Bound("chance_kind", CH_NONE, CH_NONE, when=_not_in(PH_CHANCE), where=_all_but(PH_CHANCE)),
    Bound("last_roll", 0, DIE_SIDES),
)


# --- layer 3: the pending decision --------------------------------------------------------------------
def _at(r, field, i=None):
    return int(r[field]) if i is None else int(r[field][i])


def _in_post(r, g):
    return 0 <= g and int(r["loc"][g]) < N_POSTS


def _level(r, g):
    return int(LEVEL[int(r["loc"][g])])


def _is_member(r, g):
    return _in_post(r, g) and _level(r, g) == LV_MEMBER


def _is_officer(r, g):
    return _in_post(r, g) and _level(r, g) <= LV_JUNIOR


def _active(r, g):
    """board.active: in a post, controlled, not on part-time (KRM-INF-5, KRM-PT-3)."""
    return _in_post(r, g) and int(r["controller"][g]) >= 0 and not r["part_time"][g]


def _seat_of(r, g, who: str) -> list[str]:
    """The seat deciding for gamer g (its controller) must exist (KRM-INF-5)."""
    if g < 0:
        return [f"{who} = {g} is vacant, but it decides in phase {PHASE_NAMES[_at(r, 'phase')]}"]
    c = int(r["controller"][g])
    if not 0 <= c < _n(r):
        return [
            f"controller[{g}] = {c} ({who} decides in phase {PHASE_NAMES[_at(r, 'phase')]}), allowed 0..{_n(r) - 1}"
        ]
    return []


def _gamer(r, field: str, in_post: bool = False) -> list[str]:
    g = _at(r, field)
    ph = PHASE_NAMES[_at(r, "phase")]
    if g < 0:
        return [f"{field} = {g}, allowed 0..{N_GAMERS - 1} in phase {ph}"]
    if in_post and not _in_post(r, g):
        return [f"{field} = {g} is at location {_at(r, 'loc', g)}, must hold a post (0..{N_POSTS - 1}) in phase {ph}"]
    return []


def _p00_vacant(r) -> list[str]:
    """KRM-ELE-1: an election runs only while P00 is vacant."""
    if int(r["holder"][0]) >= 0:
        return [f"holder[0] = {int(r['holder'][0])}: an election is pending, P00 must be vacant (-1)"]
    return []


def _vote(r) -> list[str]:
    """KRM-RUM-3 (trial, rumour_mode 2) / KRM-ELE-3 (election): defendant or nominee and the actor."""
    bad = _gamer(r, "target", in_post=True) + _gamer(r, "actor")
    if int(r["rumour_mode"]) != 2:
        bad += _p00_vacant(r)
        if not 1 <= int(r["nominations"]) <= 2:
            bad.append(f"nominations = {int(r['nominations'])}, allowed 1..2 during an election vote")
        if int(r["post_cursor"]) < 1:
            bad.append(
                f"post_cursor = 0 during an election vote, allowed 1..{N_OFFICERS - 1} (KRM-ELE-3: P00 is vacant)"
            )
    return bad


def _assign(r) -> list[str]:
    """KRM-SET-4: seats before assign_seat hold full sheets (invariants); assign_seat has given 10, 9, ...
    (assign_count values); later seats nothing; nobody has declared yet."""
    p, count = _at(r, "assign_seat"), _at(r, "assign_count")
    bad = []
    vals = sorted((int(v) for v in r["assigned"][p] if v > 0), reverse=True)
    if vals != INFLUENCE_VALUES[:count].tolist():
        bad.append(
            f"assigned[{p}] values {vals} after {count} allocation choices, must be "
            + str(INFLUENCE_VALUES[:count].tolist())
        )
    if (r["assigned"][p][ASSIGNABLE == 0] != 0).any():
        bad.append(f"assigned[{p}] has points on a gamer that cannot receive them (KRM-SET-4)")
    if (r["assigned"][p + 1 :] != 0).any():
        bad.append(f"assigned: seats after assign_seat = {p} hold points before their allocation")
    if (r["declared"] != 0).any() or (r["burned"] != 0).any():
        bad.append("declared/burned: no declaration is possible during the allocation (KRM-SET-4)")
    return bad


def _decision(s) -> list[str]:
    """The pending decision (spec §6): who decides, and the gamers and posts it indexes."""
    r = s[0]
    ph = _at(r, "phase")
    if ph == PH_ASSIGN:
        return _assign(r)
    if ph == PH_WINDOW:
        cont = _at(r, "dw_cont")
        if cont == C_TRIAL_VOTE:  # KRM-RUM-3: the defendant is known before the window
            bad = _gamer(r, "target", in_post=True) + _gamer(r, "actor")
            if int(r["rumour_mode"]) != 2:
                bad.append(f"rumour_mode = {int(r['rumour_mode'])}, must be 2 (B) before a trial vote")
            return bad
        if cont == C_ELE_VOTE:  # KRM-DW-1(c): a nominee awaits the vote
            return _gamer(r, "target", in_post=True) + _gamer(r, "actor") + _p00_vacant(r)
        return []
    if ph in (PH_EXP_TARGET, PH_RUM_MARK, PH_RUM_CHOICE, PH_RUM_TARGET, PH_NOMINATE):
        bad = _gamer(r, "actor")
        if bad:
            return bad
        return _seat_of(r, _at(r, "actor"), "actor") + (_p00_vacant(r) if ph == PH_NOMINATE else [])
    if ph in (PH_VOTE, PH_RECALL):
        k = _at(r, "post_cursor")
        bad = _seat_of(r, _at(r, "holder", k), f"holder[post_cursor = {k}]")
        return bad + (_vote(r) if ph == PH_VOTE else [])
    if ph in (PH_PER_A_SRC, PH_PER_A_DST):  # KRM-PER-1: the chairman moves
        bad = _seat_of(r, _at(r, "holder", 0), "holder[0]")
        if ph == PH_PER_A_DST:  # the source's post level prices the move
            bad += _gamer(r, "target", in_post=True)
        return bad
    if ph in (PH_PER_B_SRC, PH_PER_B_DST, PH_PER_C_SRC, PH_PER_C_DST):  # KRM-PER-3 Planning / KRM-PER-4 Mood Maker
        b = ph in (PH_PER_B_SRC, PH_PER_B_DST)
        bad = _seat_of(r, _at(r, "holder", 1 if b else 4), f"holder[{1 if b else 4}]")
        return bad + (_gamer(r, "target") if ph in (PH_PER_B_DST, PH_PER_C_DST) else [])
    if ph == PH_CHANCE:
        kind = _at(r, "chance_kind")
        if kind == CH_EXPULSION:  # KRM-EXP-2: the target holds a post (its level sets the threshold)
            return _gamer(r, "target", in_post=True) + _gamer(r, "actor")
        if kind == CH_FINANCE:  # KRM-FIN-1: the officer at post_cursor rolls
            k = _at(r, "post_cursor")
            if k >= N_OFFICERS or _at(r, "holder", k) < 0:
                return [
                    f"post_cursor = {k}: a finance roll is pending, needs an officer post "
                    + f"0..{N_OFFICERS - 1} with a holder (KRM-FIN-1)"
                ]
            return []
        if _at(r, "holder", 0) < 0:  # KRM-YEP-2: the chairman speaks
            return ["holder[0] = -1: a speech roll is pending, P00 must be held"]
    return []


def _traits(s) -> list[str]:
    """KRM-OPT-4: with the optional traits on, inconspicuous gamers receive no influence."""
    r = s[0]
    if not r["traits"]:
        return []
    held = r["assigned"][:, TRAIT[:, TR_INCONSPICUOUS] == 1]
    return ["assigned: points on an inconspicuous gamer with traits on (KRM-OPT-4)"] if (held != 0).any() else []


def _winner(s) -> list[str]:
    """KRM-END-*: a finished game names its winner, a draw or the truncation."""
    r = s[0]
    if int(r["phase"]) == PH_GAME_OVER and int(r["winner"]) == WIN_NONE:
        return ["winner = -1 in phase GAME_OVER, allowed -3 (truncated), -2 (draw) or a seat"]
    return []


LAYERS = (
    LAYER_PLAYERS_PHASE,
    LAYER_RANGES,
    (_decision, _traits, _winner),
    (check_invariants,),
    (no_dead_end(to_move, legal_mask, NUM_ACTIONS, PHASE_NAMES),),
)


def validate(s) -> list[str]:
    """Every problem of record ``s`` (see the module docstring); [] when every kernel may run on it."""
    return check_layers(s, STATE, LAYERS)
