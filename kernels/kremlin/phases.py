"""The eight phases of a turn (spec §4-5): legality predicates and the effects of each decision/roll.

Every ``valid_*`` answers "is this choice legal now"; ``do_*`` applies a choice or a d20. The turn's
automatic flow (which phase comes next, windows, delegation) is in ``flow.py``.
Rules: KRM-PT-*, KRM-STR-*, KRM-EXP-*, KRM-RUM-*, KRM-FIN-*, KRM-ELE-*, KRM-PER-*, KRM-YEP-*, KRM-END-*, KRM-OPT-3/7.
"""

from .._common.jit import internal
from .board import active
from .board import can_afford
from .board import in_post
from .board import is_member
from .board import is_officer
from .board import pay
from .board import place
from .board import retire
from .board import retire_if_broke
from .board import retire_if_old
from .board import send_away
from .board import sweep_old
from .state import PH_GAME_OVER
from .state import WIN_DRAW
from .state import WIN_TRUNCATED
from .tables import ALLY
from .tables import CLIQUE
from .tables import EXPEL_THRESHOLD
from .tables import EXPERIENCE
from .tables import FIN_MIN_AGE
from .tables import FINANCE
from .tables import LEVEL
from .tables import LOC_CIV
from .tables import LOC_OTH
from .tables import LV_JUNIOR
from .tables import LV_SENIOR
from .tables import N_GAMERS
from .tables import N_OFFICERS
from .tables import N_POSTS
from .tables import OTHER_CIRCLE_MOD
from .tables import PART_TIME_MOD
from .tables import SP_EXP_FAILURE
from .tables import SP_EXP_SUCCESS
from .tables import SP_PER_LEVEL
from .tables import SP_RECALL
from .tables import SP_RUM_A
from .tables import SP_TOGGLE
from .tables import SP_TRIAL
from .tables import SPEECH_SP
from .tables import SPEECH_THRESHOLD
from .tables import SPEECHES_TO_WIN
from .tables import TR_OTHER_CIRCLE
from .tables import TRAIT


# --- part-time (KRM-PT) ----------------------------------------------------------------------------
@internal(cache=True)
def valid_part_time(r, p, g):
    """KRM-PT-2: a gamer p controls, in a post, with >= 1 broke marker, not yet on part-time."""
    return r.controller[g] == p and in_post(r, g) and r.broke[g] >= 1 and not r.part_time[g]


# --- stress (KRM-STR) ------------------------------------------------------------------------------
@internal(cache=True)
def do_stress(r):
    """KRM-STR-1..3: chairman +1; officers not on part-time +1 per broke marker; marked post holders +1."""
    for k in range(N_POSTS):
        g = r.holder[k]
        if g < 0:
            continue
        gain = 0
        if k == 0:
            gain += 1  # KRM-STR-1 chairman
        if LEVEL[k] <= LV_JUNIOR and not r.part_time[g]:
            gain += r.broke[g]  # KRM-STR-1 broke markers (officers only)
        if r.susp_turn[g] > 0:
            gain += 1  # KRM-STR-1 suspicion marker
        r.sp[g] += gain  # KRM-STR-2: never doubled
    sweep_old(r)  # KRM-STR-3


# --- expulsion (KRM-EXP) ---------------------------------------------------------------------------
@internal(cache=True)
def expel_threshold(r, g):
    """KRM-EXP-2: 18/14/10/6 by level, -3 on part-time, -2 other_circle_member (KRM-OPT-7)."""
    t = EXPEL_THRESHOLD[r.loc[g]]
    if r.part_time[g]:
        t += PART_TIME_MOD
    if r.traits and TRAIT[g, TR_OTHER_CIRCLE]:
        t += OTHER_CIRCLE_MOD
    return t


@internal(cache=True)
def _trait_forbids(r, actor, g):
    """KRM-OPT-3: ally_of and clique restrictions on expulsion targets."""
    if not r.traits:
        return False
    c = r.controller[g]
    if c < 0:
        return False
    y = ALLY[actor]
    if y >= 0 and r.controller[y] == c:
        return True
    grp = CLIQUE[actor]
    if grp >= 0:
        for h in range(N_GAMERS):
            if h != actor and CLIQUE[h] == grp and r.controller[h] == c:
                return True
    return False


@internal(cache=True)
def valid_expel(r, actor, g):
    """KRM-EXP-1/4: a gamer in a post other than the actor; the actor has room for a failure."""
    return in_post(r, g) and g != actor and can_afford(r, actor, SP_EXP_FAILURE) and not _trait_forbids(r, actor, g)


@internal(cache=True)
def do_expel_roll(r, roll):
    """KRM-EXP-2/3: success sends the target away (+1 SP), failure costs 3 SP. Returns success."""
    g = r.target
    r.target = -1
    if roll >= expel_threshold(r, g):
        send_away(r, g)
        pay(r, r.actor, SP_EXP_SUCCESS)
        return True
    pay(r, r.actor, SP_EXP_FAILURE)
    return False


# --- rumour (KRM-RUM) ------------------------------------------------------------------------------
@internal(cache=True)
def valid_mark(r, g):
    """KRM-RUM-1: any gamer in a post, each toggled at most once per phase, room 1 (2)."""
    return in_post(r, g) and not r.flag[g] and can_afford(r, r.actor, SP_TOGGLE)


@internal(cache=True)
def fill_marks(r, out):
    """out[g] = valid_mark(r, g) for every gamer, the actor's room tested once (KRM-RUM-1)."""
    if not can_afford(r, r.actor, SP_TOGGLE):
        return
    for g in range(N_GAMERS):
        out[g] = in_post(r, g) and not r.flag[g]


@internal(cache=True)
def do_mark(r, g):
    if r.susp_turn[g] > 0:
        r.susp_turn[g] = 0  # remove
    else:
        r.susp_turn[g] = r.turn  # place, remembering the turn (KRM-RUM-2 B eligibility)
    r.flag[g] = 1
    pay(r, r.actor, SP_TOGGLE)


@internal(cache=True)
def valid_rumour_a_target(r, g):
    return is_member(r, g)


@internal(cache=True)
def valid_defendant(r, g):
    """KRM-RUM-2 B: an officer other than the actor, marked in an earlier turn."""
    return is_officer(r, g) and g != r.actor and 0 < r.susp_turn[g] < r.turn


@internal(cache=True)
def _rumour_open(r, cost, trial):
    """KRM-RUM-2: the actor can pay ``cost`` and some gamer is a target (A) or a defendant (B, a trial)."""
    if not can_afford(r, r.actor, cost):
        return False
    for g in range(N_GAMERS):
        if valid_defendant(r, g) if trial else valid_rumour_a_target(r, g):
            return True
    return False


@internal(cache=True)
def valid_rumour_a(r):
    return _rumour_open(r, SP_RUM_A, False)


@internal(cache=True)
def valid_rumour_b(r):
    return _rumour_open(r, SP_TRIAL, True)


@internal(cache=True)
def do_rumour_a(r, g):
    send_away(r, g)  # KRM-RUM-2 A
    pay(r, r.actor, SP_RUM_A)


@internal(cache=True)
def trial_voter(r, k):
    """KRM-RUM-3: officers except the defendant, controlled, not on part-time."""
    g = r.holder[k]
    return k < N_OFFICERS and active(r, g) and g != r.target


@internal(cache=True)
def do_verdict(r):
    """KRM-RUM-3: 2+ opposers acquit (marker kept); else guilty: sent away, accuser +3 SP."""
    if r.oppose_count < 2:
        send_away(r, r.target)
        pay(r, r.actor, SP_TRIAL)
    r.target = -1


# --- finance (KRM-FIN) -----------------------------------------------------------------------------
@internal(cache=True)
def finance_outcome(age, part_time, roll):
    """KRM-FIN-2: -1 = retire, else the change in broke markers (+2, +1, 0, -1)."""
    a = min(max(age, FIN_MIN_AGE), FIN_MIN_AGE + FINANCE.shape[1] - 1)
    row = FINANCE[1 if part_time else 0, a - FIN_MIN_AGE]
    if roll <= row[0]:
        return -9
    if roll <= row[1]:
        return 2
    if roll <= row[2]:
        return 1
    if roll >= row[3]:
        return -1
    return 0


@internal(cache=True)
def do_finance_roll(r, g, roll):
    """KRM-FIN-1..3 for one officer."""
    d = finance_outcome(EXPERIENCE[g] + r.sp[g], r.part_time[g], roll)
    if d == -9:
        retire(r, g)
        return
    r.broke[g] = max(0, r.broke[g] + d)
    retire_if_broke(r, g)  # KRM-FIN-3, KRM-OPT-8


# --- election (KRM-ELE) ----------------------------------------------------------------------------
@internal(cache=True)
def in_pool(r, g):
    """KRM-ELE-2: the senior officers; if there is none, the junior officers."""
    if not in_post(r, g):
        return False
    lv = LEVEL[r.loc[g]]
    if lv == LV_SENIOR:
        return True
    if lv == LV_JUNIOR:
        for k in range(N_POSTS):
            if LEVEL[k] == LV_SENIOR and r.holder[k] >= 0:
                return False
        return True
    return False


@internal(cache=True)
def valid_nominee(r, g):
    if r.nominations == 0:
        return in_pool(r, g)
    return r.opposer[g] == 1 and in_post(r, g)  # KRM-ELE-4


@internal(cache=True)
def election_voter(r, k):
    """KRM-ELE-3: senior and junior officers, controlled, not on part-time."""
    return 1 <= k < N_OFFICERS and active(r, r.holder[k])


# --- personnel (KRM-PER) ---------------------------------------------------------------------------
@internal(cache=True)
def move_cost(r, s, d):
    """KRM-PER-1: 0 lateral; else 1 per gamer whose level changes (vacant 1, swap 2); -1 illegal."""
    ks = r.loc[s]
    if d == 0 or d == ks or d >= N_POSTS:
        return -1
    diff = LEVEL[d] - LEVEL[ks]
    if diff > 1 or diff < -1:
        return -1
    t = r.holder[d]
    if t >= 0 and r.flag[t]:
        return -1
    if diff == 0:
        return 0
    return SP_PER_LEVEL if t < 0 else 2 * SP_PER_LEVEL


@internal(cache=True)
def valid_move(r, s, d):
    c = move_cost(r, s, d)
    return c >= 0 and (c == 0 or can_afford(r, r.holder[0], c))


@internal(cache=True)
def valid_move_source(r, s):
    """KRM-PER-1: a gamer in a post other than P00, not moved yet, with an affordable destination."""
    if not in_post(r, s) or r.loc[s] == 0 or r.flag[s]:
        return False
    for d in range(1, N_POSTS):
        if valid_move(r, s, d):
            return True
    return False


@internal(cache=True)
def fill_move_sources(r, out):
    """out[s] = valid_move_source(r, s) for every gamer (KRM-PER-1), whether the chairman can pay for one
    and for two changes of level tested once, not once per source and destination."""
    chair = r.holder[0]
    one, two = can_afford(r, chair, SP_PER_LEVEL), can_afford(r, chair, 2 * SP_PER_LEVEL)
    for s in range(N_GAMERS):
        if not in_post(r, s) or r.loc[s] == 0 or r.flag[s]:
            continue
        for d in range(1, N_POSTS):
            c = move_cost(r, s, d)
            if c == 0 or (c == SP_PER_LEVEL and one) or (c == 2 * SP_PER_LEVEL and two):
                out[s] = 1
                break


@internal(cache=True)
def _check_midway(r, g):
    place(r, g, r.loc[g])  # re-placing in its own post runs the KRM-OPT-6 check


@internal(cache=True)
def do_move(r, s, d):
    """KRM-PER-1: move s to d (vacant) or swap with d's holder; the chairman pays."""
    c = move_cost(r, s, d)
    t = r.holder[d]
    ks = r.loc[s]
    r.flag[s] = 1
    if t >= 0:
        r.flag[t] = 1
        r.holder[ks] = t
        r.loc[t] = ks
    else:
        r.holder[ks] = -1
    r.holder[d] = s
    r.loc[s] = d
    if c > 0:
        pay(r, r.holder[0], c)
    _check_midway(r, s)
    if t >= 0 and r.loc[t] == ks:
        _check_midway(r, t)


@internal(cache=True)
def vacant_count(r, level):
    n = 0
    for k in range(N_POSTS):
        n += LEVEL[k] == level and r.holder[k] < 0
    return n


@internal(cache=True)
def first_vacant(r, level):
    for k in range(N_POSTS):
        if LEVEL[k] == level and r.holder[k] < 0:
            return k
    return -1


@internal(cache=True)
def valid_recall_target(r, g):
    return r.loc[g] == LOC_OTH


@internal(cache=True)
def do_recall(r, officer, g):
    """KRM-PER-6: back to the civilians; the recalling officer gains 5 SP."""
    r.loc[g] = LOC_CIV
    pay(r, officer, SP_RECALL)


# --- year-end party (KRM-YEP) and the end (KRM-END) -------------------------------------------------
@internal(cache=True)
def finish(r, winner):
    """The game ends: ``winner`` is the winning seat, WIN_DRAW or WIN_TRUNCATED (``returns`` reads it)."""
    r.winner = winner
    r.phase = PH_GAME_OVER


@internal(cache=True)
def do_speech(r, success):
    """KRM-YEP-3/4: a success scores for the chairman's controller; then SP by broke markers."""
    ch = r.holder[0]
    p = r.controller[ch]
    r.sp[ch] += SPEECH_SP[min(r.broke[ch], 2)]  # KRM-YEP-4 (not doubled)
    retire_if_old(r, ch)
    if success and p >= 0:
        r.speeches[p] += 1  # KRM-YEP-3
        if r.speeches[p] >= SPEECHES_TO_WIN:
            finish(r, p)  # KRM-END-1
            return True
    return False


@internal(cache=True)
def speech_threshold(r):
    return SPEECH_THRESHOLD[min(r.broke[r.holder[0]], 2)]  # KRM-YEP-2 (0 = automatic)


@internal(cache=True)
def highest_controlled(r, only_seats):
    """Controller of the highest post whose holder is controlled (by a seat in only_seats: a bit set, bit p =
    seat p, -1 = every seat; one integer rather than a flag array, so the game's end allocates nothing, #18)."""
    for k in range(N_POSTS):
        g = r.holder[k]
        if g >= 0 and r.controller[g] >= 0 and (only_seats >> r.controller[g]) & 1:
            return r.controller[g]
    return WIN_DRAW


@internal(cache=True)
def end_by_vacancy(r):
    finish(r, highest_controlled(r, -1))  # KRM-END-2 (no controlled holder: draw)


@internal(cache=True)
def end_by_turn_limit(r):
    """KRM-END-3: truncation without a winner; with the ranking option, speeches then posts."""
    if not r.ranking:
        finish(r, WIN_TRUNCATED)
        return
    best = 0
    for p in range(r.num_players):
        best = max(best, r.speeches[p])
    leaders = 0  # bit p: seat p has the most speeches
    n = 0
    for p in range(r.num_players):
        if r.speeches[p] == best:
            leaders |= 1 << p
            n += 1
    if n == 1:
        for p in range(r.num_players):
            if (leaders >> p) & 1:
                finish(r, p)
                return
    finish(r, highest_controlled(r, leaders))
