"""Rollout policy for truncated search rollouts (the optional kernel hook ``rollout_action``).

Uniformly random rollouts misplay Kremlin where it is decided. In a declaration window the DECLARE
actions outnumber DONE by far, so a random seat declares at almost every visit, on random gamers, and a
window only closes once the sheets are spent: control ends up with whoever happened to declare last, not
with who wanted the chairman (KRM-INF-4, KRM-YEP-3). Random powers expel, send away and try the mover's
own gamers as often as rivals', and random votes convict or reject regardless of who gains. So the
rollouts play the beginner's strategy of the ``heuristic`` agent (agents/heuristics/kremlin.py), written
here over the record and reading only what the seat to move may see (its own sheet and the public board):

- allocation (KRM-SET-4): the biggest values on the gamers nearest the chairman's post and the most
  experienced, with noise (the prior ``determinize`` samples rival sheets by);
- declaration window (KRM-DW-2, KRM-INF-2/4): seize the gamer that matters most for what follows (the
  post about to act three times over, officers before a vote), declaring just enough to beat the best
  rival declaration, only when the post is worth it for its cost; else pass;
- powers: expel rivals' gamers where the d20 gives a fair chance (KRM-EXP-2), mark rivals' officers and
  clear its own (KRM-RUM-1), try or send away rivals' gamers (KRM-RUM-2), vote for its own gamers and
  against rivals' (KRM-RUM-3, KRM-ELE-3), nominate its own (KRM-ELE-2/4), send broke officers to
  part-time jobs (KRM-PT-2), move and promote its own gamers up and rivals' down (KRM-PER-1/3/4);
  decline recalls (KRM-PER-6: 5 SP for a gamer that comes back with no declarations);
- with probability ROLLOUT_EXPLORE the decision is uniformly random instead, so rollouts still sample
  alternatives.
"""

import numpy as np
from numba import njit

from .._common.jit import internal
from .._common.masks import sample_legal
from .._common.rng import uniform_float
from .actions import A_DECLARE
from .actions import A_DONE
from .actions import A_OPPOSE
from .actions import A_RUMOUR_A
from .actions import A_RUMOUR_B
from .actions import A_SELECT_POST
from .actions import A_SUPPORT
from .board import room
from .influence import SHEET_POST_PRIOR
from .influence import SHEET_PRIOR_NOISE
from .phases import expel_threshold
from .phases import valid_defendant
from .phases import valid_move
from .rules import to_move
from .state import C_ELE_VOTE
from .state import C_ELECTION
from .state import C_EXP_NEXT
from .state import C_EXPULSION
from .state import C_PER_A
from .state import C_PER_B
from .state import C_PER_C
from .state import C_RUMOUR
from .state import C_TRIAL_VOTE
from .state import C_YEAR_END
from .state import N_CONTS
from .state import PH_ASSIGN
from .state import PH_EXP_TARGET
from .state import PH_NOMINATE
from .state import PH_PER_A_DST
from .state import PH_PER_A_SRC
from .state import PH_PER_B_DST
from .state import PH_PER_B_SRC
from .state import PH_PER_C_DST
from .state import PH_PER_C_SRC
from .state import PH_PT_SELECT
from .state import PH_RUM_CHOICE
from .state import PH_RUM_MARK
from .state import PH_RUM_TARGET
from .state import PH_VOTE
from .state import PH_WINDOW
from .tables import DIE_SIDES
from .tables import EXPERIENCE
from .tables import MAX_VALUE
from .tables import N_GAMERS
from .tables import N_OFFICERS
from .tables import N_POSTS

ROLLOUT_EXPLORE = 0.1  # chance of a uniformly random decision
WEIGHT = SHEET_POST_PRIOR  # worth of the holder of each location (posts P00..P12, civilians, away, retired)
WORTH_DECLARING = 2.0  # weight below which a gamer is not worth a declaration (members, civilians)
ACTING_BONUS = 3.0  # the gamer in the post about to act is worth this many times its post
VOTER_BONUS = 1.5  # an officer is worth this much more just before a vote it casts
FAIR_CHANCE = 0.45  # lowest d20 success chance at which an expulsion is tried
MARK_ROOM = 6  # SP room the rumour actor keeps for a trial (KRM-RUM-4: 3) instead of marking
RIVAL_SIGN = -0.5  # a rival's gain in post weight counts half against the mover
MOVE_GAIN = 0.5  # least gain in post weight worth a chairman's move (each level change costs SP)
PROMOTE_POINTS = 3  # a rival's gamer is promoted only when the mover can still declare this much on it
_ACTING_POST = np.full(N_CONTS, -1, np.int64)  # post whose holder acts after the window closes (KRM-DW-1)
_ACTING_POST[C_EXPULSION] = _ACTING_POST[C_EXP_NEXT] = 1  # KRM-GEN-6: Planning expels first
_ACTING_POST[C_RUMOUR] = 3  # Editorial starts the rumour
_ACTING_POST[C_ELECTION] = 2  # Communications leads the election
_ACTING_POST[C_PER_A] = _ACTING_POST[C_YEAR_END] = 0  # the chairman moves (KRM-PER-1) and speaks (KRM-YEP)
_ACTING_POST[C_PER_B] = 1  # KRM-PER-3
_ACTING_POST[C_PER_C] = 4  # KRM-PER-4


# --- reading the table ----------------------------------------------------------------------------
@internal(cache=True)
def _left(r, p, g):
    """Points seat p may still declare on g (KRM-INF-2)."""
    return r.assigned[p, g] - r.burned[p, g] - r.declared[p, g]


@internal(cache=True)
def _rival(r, p, g):
    """g is controlled by another seat than p (KRM-INF-4)."""
    return r.controller[g] >= 0 and r.controller[g] != p


@internal(cache=True)
def _sign(r, p, g):
    """How a change of g's post counts for seat p: its own fully, a rival's against it, nobody's not at all."""
    if g < 0 or r.controller[g] < 0:
        return 0.0
    return 1.0 if r.controller[g] == p else RIVAL_SIGN


# --- allocation and declarations ------------------------------------------------------------------
@internal(cache=True)
def _allocate(r, mask, rng):
    """KRM-SET-4: the next value on the legal gamer of highest noisy prior (post weight, experience)."""
    best, best_score = -1, -np.inf
    for g in range(N_GAMERS):
        if mask[g]:
            score = WEIGHT[r.loc[g]] + (EXPERIENCE[g] - 50) / 30 + SHEET_PRIOR_NOISE * uniform_float(rng)
            if score > best_score:
                best, best_score = g, score
    return best


@internal(cache=True)
def _declare(r, p, mask):
    """KRM-DW-2: the cheapest declaration that takes a gamer worth having (KRM-INF-4), or DONE."""
    key = _ACTING_POST[r.dw_cont]
    vote = r.dw_cont == C_TRIAL_VOTE or r.dw_cont == C_ELE_VOTE
    best, best_score = A_DONE, 0.0
    for g in range(N_GAMERS):
        if r.controller[g] == p:
            continue
        need = 1
        for q in range(r.num_players):
            if q != p:
                need = max(need, r.declared[q, g] + 1)  # ties go to the earlier declarer
        if need > MAX_VALUE or not mask[A_DECLARE + MAX_VALUE * g + need - 1]:
            continue
        w = WEIGHT[r.loc[g]]
        if r.loc[g] == key:
            w *= ACTING_BONUS
        if vote and r.loc[g] < N_OFFICERS:
            w *= VOTER_BONUS
        if w >= WORTH_DECLARING and w / need > best_score:
            best, best_score = A_DECLARE + MAX_VALUE * g + need - 1, w / need
    return best


# --- powers ---------------------------------------------------------------------------------------
@internal(cache=True)
def _part_time(r, mask):
    """KRM-PT-2/3: a broke officer (2 markers) other than the chairman rests; the chairman keeps speaking."""
    for g in range(N_GAMERS):
        if mask[g] and r.broke[g] >= 2 and r.loc[g] != 0:
            return g
    return A_DONE


@njit(cache=True)
def _expel(r, p, mask):
    """KRM-EXP-2: the rival's gamer of most post weight times the d20's chance, if that chance is fair."""
    best, best_score = A_DONE, 0.0
    for g in range(N_GAMERS):
        if mask[g] and _rival(r, p, g):
            chance = (DIE_SIDES + 1 - expel_threshold(r, g)) / DIE_SIDES
            if chance >= FAIR_CHANCE and chance * WEIGHT[r.loc[g]] > best_score:
                best, best_score = g, chance * WEIGHT[r.loc[g]]
    return best


@internal(cache=True)
def _mark(r, p, mask):
    """KRM-RUM-1: mark a rival officer, clear one's own; keep room for a trial (KRM-RUM-4)."""
    if room(r, r.actor) < MARK_ROOM:
        return A_DONE
    for g in range(N_GAMERS):
        if mask[g] and r.loc[g] < N_OFFICERS:
            marked = r.susp_turn[g] > 0
            if (_rival(r, p, g) and not marked) or (r.controller[g] == p and marked):
                return g
    return A_DONE


@internal(cache=True)
def _rumour(r, p, mask):
    """KRM-RUM-2: try a rival officer (B) if one is eligible, else send a rival member away (A), else neither."""
    if mask[A_RUMOUR_B]:
        for g in range(N_GAMERS):
            if _rival(r, p, g) and valid_defendant(r, g):
                return A_RUMOUR_B
    if mask[A_RUMOUR_A]:
        for g in range(N_GAMERS):
            if _rival(r, p, g) and N_OFFICERS <= r.loc[g] < N_POSTS:
                return A_RUMOUR_A
    return A_DONE


@internal(cache=True)
def _highest_rival(r, p, mask):
    """KRM-RUM-2 target: a rival's gamer in the highest post, else the highest legal one."""
    best, best_key = -1, -np.inf
    for g in range(N_GAMERS):
        if mask[g]:
            key = N_POSTS * _rival(r, p, g) - r.loc[g]
            if key > best_key:
                best, best_key = g, key
    return best


@njit(cache=True)
def _ballot(r, p):
    """KRM-RUM-3: acquit one's own defendant, convict the rest; KRM-ELE-3: reject a rival's nominee."""
    g = r.target
    if r.rumour_mode == 2:
        return A_OPPOSE if r.controller[g] == p else A_SUPPORT
    return A_OPPOSE if _rival(r, p, g) else A_SUPPORT


@internal(cache=True)
def _nominee(r, p, mask):
    """KRM-ELE-2/4: one's own gamer, else an uncontrolled one, the fewest broke markers first (KRM-YEP-2)."""
    best, best_key = -1, -np.inf
    for g in range(N_GAMERS):
        if mask[g]:
            key = 8 * (r.controller[g] == p) + 4 * (r.controller[g] < 0) - r.broke[g]
            if key > best_key:
                best, best_key = g, key
    return best


# --- personnel ------------------------------------------------------------------------------------
@internal(cache=True)
def _move_gain(r, p, g, k):
    """KRM-PER-1: what moving g to post k (swapping with its holder) is worth to seat p."""
    cur = r.loc[g]
    return (_sign(r, p, g) - _sign(r, p, r.holder[k])) * (WEIGHT[k] - WEIGHT[cur])


@internal(cache=True)
def _best_destination(r, p, g, mask, use_mask):
    """(SELECT_POST id, gain) of g's best legal destination (KRM-PER-1)."""
    best, best_gain = -1, -np.inf
    for k in range(1, N_POSTS):
        if (mask[A_SELECT_POST + k] if use_mask else valid_move(r, g, k)) and _move_gain(r, p, g, k) > best_gain:
            best, best_gain = A_SELECT_POST + k, _move_gain(r, p, g, k)
    return best, best_gain


@internal(cache=True)
def _move_source(r, p, mask):
    """KRM-PER-1: the chairman moves the gamer whose best move gains most, if clearly positive."""
    best, best_gain = A_DONE, MOVE_GAIN
    for g in range(N_GAMERS):
        if mask[g]:
            gain = _best_destination(r, p, g, mask, False)[1]
            if gain > best_gain:
                best, best_gain = g, gain
    return best


@internal(cache=True)
def _promote(r, p, mask):
    """KRM-PER-3/4: promote one's own gamer, or one the mover can still take, the most points left first."""
    best, best_left = A_DONE, -1
    for g in range(N_GAMERS):
        if mask[g] and (r.controller[g] == p or _left(r, p, g) >= PROMOTE_POINTS) and _left(r, p, g) > best_left:
            best, best_left = g, _left(r, p, g)
    return best


@internal(cache=True)
def _promotion_post(r, p, mask):
    """KRM-PER-3/4: one's own gamer into the best vacant post, anyone else's into the worst."""
    sign = 1.0 if r.controller[r.target] == p else -1.0
    best, best_score = -1, -np.inf
    for k in range(N_POSTS):
        if mask[A_SELECT_POST + k] and sign * WEIGHT[k] - k * 1e-3 > best_score:
            best, best_score = A_SELECT_POST + k, sign * WEIGHT[k] - k * 1e-3
    return best


# --- the hook -------------------------------------------------------------------------------------
@njit(cache=True)
def _choice(r, p, mask, rng):
    """The beginner's action at the record's decision point; -1 where it has no rule (a random one then)."""
    ph = r.phase
    if ph == PH_WINDOW:
        return _declare(r, p, mask)
    if ph == PH_ASSIGN:
        return _allocate(r, mask, rng)
    if ph == PH_VOTE:
        return _ballot(r, p)
    if ph == PH_PT_SELECT:
        return _part_time(r, mask)
    if ph == PH_EXP_TARGET:
        return _expel(r, p, mask)
    if ph == PH_RUM_MARK:
        return _mark(r, p, mask)
    if ph == PH_RUM_CHOICE:
        return _rumour(r, p, mask)
    if ph == PH_RUM_TARGET:
        return _highest_rival(r, p, mask)
    if ph == PH_NOMINATE:
        return _nominee(r, p, mask)
    if ph == PH_PER_A_SRC:
        return _move_source(r, p, mask)
    if ph == PH_PER_A_DST:
        return _best_destination(r, p, r.target, mask, True)[0]
    if ph == PH_PER_B_SRC or ph == PH_PER_C_SRC:
        return _promote(r, p, mask)
    if ph == PH_PER_B_DST or ph == PH_PER_C_DST:
        return _promotion_post(r, p, mask)
    return A_DONE  # PH_RECALL: decline (KRM-PER-6)


@njit(cache=True)
def rollout_action(s, mask, rng):
    """A legal action for the seat to move (``mask`` is its legal mask), drawn with the search's ``rng``."""
    if uniform_float(rng) < ROLLOUT_EXPLORE:
        return sample_legal(mask, rng)
    a = _choice(s[0], to_move(s), mask, rng)
    return a if a >= 0 and mask[a] else sample_legal(mask, rng)
