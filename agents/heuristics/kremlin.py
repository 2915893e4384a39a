"""Kremlin / "Magne!" heuristic: a sensible beginner that reads only its own observation.

- Allocation: its biggest values on the gamers nearest the chairman's post (seniors, then juniors,
  members and the oldest civilians), with a little noise so rival beginners differ.
- Declaration windows: seizes the gamer that matters most for what comes next (the chairman before the
  speech, the acting post before a power, voters before a vote, otherwise officers by rank), declaring
  just enough to beat the current best declaration, and only when that pays (weight / cost).
- Powers: expels and tries rivals' gamers where the d20 gives it a fair chance, marks rivals' officers
  and clears its own, sends rivals' gamers away or to trial, promotes its own gamers; votes for its own
  gamers and against rivals'; sends its broke non-chairman officers to part-time jobs.
- Personnel (KRM-PER-1..6): as chairman it swaps its own gamers up a level and rivals' gamers down
  (a move is worth the change in post weight, its gamers counted fully and rivals' against it); as
  Planning and Mood Maker it promotes its own gamers into the best vacant post and others into the worst;
  as a recalling officer it brings its own gamers back from other circles while the officer has the age room.
- Declines (DONE) where nothing it values is on offer; every phase has its own rule, none is random.
"""

from __future__ import annotations

import numpy as np

from ...kernels.kremlin import OBS_PIECES, PHASE_NAMES, actions, state, tables
from ._base import HeuristicAgent

NG, NP = tables.N_GAMERS, tables.N_POSTS
POST_WEIGHT = np.array([10.0, 5.0, 4.0, 4.0, 3.0, 2.5, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0])
ACTING_POST = {
    state.C_EXPULSION: 1,
    state.C_RUMOUR: 3,
    state.C_ELECTION: 2,
    state.C_PER_A: 0,
    state.C_PER_B: 1,
    state.C_PER_C: 4,
    state.C_YEAR_END: 0,
    state.C_EXP_NEXT: 1,
}
DONE = actions.A_DONE
RIVAL_SIGN = -0.5  # a rival's gain in post weight counts half against me
RECALL_ROOM = 10  # age room (years) an officer keeps before it recalls (each recall ages it 5, KRM-PER-6)


class KremlinHeuristic(HeuristicAgent):
    PHASE_NAMES = PHASE_NAMES
    OBS_PIECES = OBS_PIECES

    def _read(self, t) -> dict:
        loc = t["gamer_location"].argmax(axis=1)
        ctrl = np.full(NG, -1)
        for i in range(t["controls"].shape[0]):
            ctrl[t["controls"][i] > 0.5] = i
        best_other = t["declared"][1:].max(axis=0).round().astype(int)
        return {
            "t": t,
            "loc": loc,
            "ctrl": ctrl,
            "best_other": best_other,
            "mine": t["declared"][0].round().astype(int),
            "remaining": t["my_remaining"].round().astype(int),
            "phase": int(t["phase_onehot"].argmax()),
            "target": int(t["target"].argmax()) if t["target"].any() else -1,
            "actor": int(t["actor"].argmax()) if t["actor"].any() else -1,
        }

    def _weight(self, d: dict, g: int) -> float:
        l = d["loc"][g]
        if l < NP:
            return POST_WEIGHT[l]
        return 0.3 if l == tables.LOC_CIV else 0.0

    def _or_done(self, choice, mask) -> int:
        """The choice, or DONE (decline / stop) where the phase offers it and nothing was worth doing."""
        return DONE if choice is None and mask[DONE] else choice

    # one handler per decision phase (HeuristicAgent dispatches on the observed phase)
    def _assign(self, o, mask):
        return self._allocate(self._read(o), mask)

    def _window(self, o, mask):
        return self._or_done(self._declare(self._read(o), mask), mask)

    def _pt_select(self, o, mask):
        return self._or_done(self._part_time(self._read(o), mask), mask)

    def _exp_target(self, o, mask):
        return self._or_done(self._expel(self._read(o), mask), mask)

    def _rum_mark(self, o, mask):
        return self._or_done(self._mark(self._read(o), mask), mask)

    def _rum_choice(self, o, mask):
        return self._or_done(self._rumour(self._read(o), mask), mask)

    def _rum_target(self, o, mask):
        return self._rivals_best(self._read(o), mask)

    def _vote(self, o, mask):
        return self._ballot(self._read(o), mask)

    def _nominate(self, o, mask):
        return self._nominee(self._read(o), mask)

    def _per_a_src(self, o, mask):
        return self._or_done(self._move_source(self._read(o), mask), mask)

    def _per_a_dst(self, o, mask):
        d = self._read(o)
        return self._best_move(d, d["target"], mask)[0]

    def _per_b_src(self, o, mask):
        return self._or_done(self._promote(self._read(o), mask), mask)

    _per_c_src = _per_b_src

    def _per_b_dst(self, o, mask):
        d = self._read(o)
        posts = [k for k in range(NP) if mask[actions.A_SELECT_POST + k]]
        mine = d["target"] >= 0 and d["ctrl"][d["target"]] == 0
        k = max(posts, key=lambda k: POST_WEIGHT[k] if mine else -POST_WEIGHT[k])  # best for mine, worst else
        return actions.A_SELECT_POST + k

    _per_c_dst = _per_b_dst

    def _recall(self, o, mask):
        d = self._read(o)
        # the visited officer is one of mine (I decide), which one the view does not say: the oldest counts
        officers = [g for g in range(NG) if d["ctrl"][g] == 0 and d["loc"][g] < tables.N_OFFICERS]
        room = min(d["t"]["age_room"][g] for g in officers) if officers else 0.0
        if room >= RECALL_ROOM:
            for g in range(NG):
                if mask[g] and d["ctrl"][g] == 0:
                    return g  # my gamer back among the civilians, to be promoted again
        return DONE

    # --- allocation and declarations -------------------------------------------------------------
    def _allocate(self, d, mask):
        score = np.array([self._weight(d, g) + (tables.EXPERIENCE[g] - 50) / 30 for g in range(NG)])
        score += self.rng.uniform(0, 2.0, NG)
        score[mask[:NG] == 0] = -np.inf
        return int(score.argmax())

    def _declare(self, d, mask):
        t = d["t"]
        cont = int(t["window_cont_onehot"].argmax())
        key = ACTING_POST.get(cont, -1)
        best, best_score = None, 0.0
        for g in range(NG):
            if d["ctrl"][g] == 0:
                continue
            need = d["best_other"][g] + 1
            if need > d["mine"][g] + d["remaining"][g] or need <= d["mine"][g]:
                continue
            a = actions.declare_id(g, need)
            if not mask[a]:
                continue
            w = self._weight(d, g)
            if key >= 0 and d["loc"][g] == key:
                w *= 3.0
            if cont in (state.C_TRIAL_VOTE, state.C_ELE_VOTE) and d["loc"][g] < 8:
                w *= 1.5
            score = w / need
            if w >= 2.0 and score > best_score:
                best, best_score = a, score
        return best

    # --- powers ------------------------------------------------------------------------------------
    def _part_time(self, d, mask):
        broke = d["t"]["broke"]
        for g in range(NG):
            if mask[g] and broke[g] >= 1.5 and d["loc"][g] != 0:
                return g
        return None

    def _rivals(self, d, g):
        return d["ctrl"][g] > 0

    def _expel(self, d, mask):
        t = d["t"]
        best, best_score = None, 0.0
        for g in range(NG):
            if not mask[g] or not self._rivals(d, g):
                continue
            l = d["loc"][g]
            need = tables.EXPEL_THRESHOLD[l] - 3 * t["part_time"][g]
            p = (21 - need) / 20
            score = p * POST_WEIGHT[l]
            if p >= 0.45 and score > best_score:
                best, best_score = g, score
        return best

    def _mark(self, d, mask):
        t = d["t"]
        if d["actor"] >= 0 and t["age_room"][d["actor"]] < 6:
            return None  # keep SP room for a trial
        for g in range(NG):
            if not mask[g] or d["loc"][g] >= 8:
                continue
            if self._rivals(d, g) and not t["suspicion"][g]:
                return g
            if d["ctrl"][g] == 0 and t["suspicion"][g]:
                return g
        return None

    def _rumour(self, d, mask):
        t = d["t"]
        if mask[actions.A_RUMOUR_B]:
            if any(t["trial_eligible"][g] and self._rivals(d, g) and d["loc"][g] < 8 for g in range(NG)):
                return actions.A_RUMOUR_B
        if mask[actions.A_RUMOUR_A]:
            if any(self._rivals(d, g) and 8 <= d["loc"][g] < NP for g in range(NG)):
                return actions.A_RUMOUR_A
        return None

    def _rivals_best(self, d, mask):
        cand = [g for g in range(NG) if mask[g]]
        cand.sort(key=lambda g: (self._rivals(d, g), -d["loc"][g]), reverse=True)
        return cand[0] if cand else None

    def _ballot(self, d, mask):
        g = d["target"]
        mine = g >= 0 and d["ctrl"][g] == 0
        if d["t"]["context"][6] > 0.5:  # a trial: acquit my gamer, convict the others
            return actions.A_OPPOSE if mine else actions.A_SUPPORT
        return actions.A_OPPOSE if g >= 0 and self._rivals(d, g) else actions.A_SUPPORT

    def _nominee(self, d, mask):
        cand = [g for g in range(NG) if mask[g]]
        broke = d["t"]["broke"]
        cand.sort(key=lambda g: (d["ctrl"][g] == 0, d["ctrl"][g] < 0, -broke[g]), reverse=True)
        return cand[0] if cand else None

    def _promote(self, d, mask):
        cand = [g for g in range(NG) if mask[g] and (d["ctrl"][g] == 0 or d["remaining"][g] >= 3)]
        return max(cand, key=lambda g: d["remaining"][g]) if cand else None

    # --- personnel A: the chairman's moves (KRM-PER-1) ---------------------------------------------
    def _sign(self, d, g) -> float:
        if g < 0:
            return 0.0
        return 1.0 if d["ctrl"][g] == 0 else (RIVAL_SIGN if d["ctrl"][g] > 0 else 0.0)

    def _best_move(self, d, g, mask=None):
        """(SELECT_POST id, gain) of the best destination for gamer g: the change in post weight, mine
        counted fully, rivals' against me, for g and for the gamer it would swap with."""
        cur = d["loc"][g]
        holder = {int(d["loc"][h]): h for h in range(NG) if d["loc"][h] < NP}
        best, best_gain = None, -np.inf
        for k in range(1, NP):
            if mask is not None and not mask[actions.A_SELECT_POST + k]:
                continue
            if mask is None and (k == cur or abs(int(tables.LEVEL[k]) - int(tables.LEVEL[cur])) > 1):
                continue
            other = holder.get(k, -1)
            gain = (self._sign(d, g) - self._sign(d, other)) * (POST_WEIGHT[k] - POST_WEIGHT[cur])
            if gain > best_gain:
                best, best_gain = actions.A_SELECT_POST + k, gain
        return best, best_gain

    def _move_source(self, d, mask):
        best, best_gain = None, 0.5  # a move must gain something clear: each level change costs SP
        for g in range(NG):
            if mask[g]:
                _, gain = self._best_move(d, g)
                if gain > best_gain:
                    best, best_gain = g, gain
        return best
