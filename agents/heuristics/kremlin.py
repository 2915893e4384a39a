"""Kremlin / "Magne!" heuristic: a sensible beginner that reads only its own observation.

- Allocation: its biggest values on the gamers nearest the chairman's post (seniors, then juniors,
  members and the oldest civilians), with a little noise so rival beginners differ.
- Declaration windows: seizes the gamer that matters most for what comes next (the chairman before the
  speech, the acting post before a power, voters before a vote, otherwise officers by rank), declaring
  just enough to beat the current best declaration, and only when that pays (weight / cost).
- Powers: expels and tries rivals' gamers where the d20 gives it a fair chance, marks rivals' officers
  and clears its own, sends rivals' gamers away or to trial, promotes its own gamers; votes for its own
  gamers and against rivals'; sends its broke non-chairman officers to part-time jobs.
"""

from __future__ import annotations

import numpy as np

from ..base import Agent  # noqa: F401  (documentation: this class honours the Agent protocol)
from ...kernels._common.layout import unflatten
from ...kernels.kremlin import OBS_PIECES, actions, state, tables

NG, NP = tables.N_GAMERS, tables.N_POSTS
POST_WEIGHT = np.array([10.0, 5.0, 4.0, 4.0, 3.0, 2.5, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0])
ACTING_POST = {state.C_EXPULSION: 1, state.C_RUMOUR: 3, state.C_ELECTION: 2, state.C_PER_A: 0, state.C_PER_B: 1,
               state.C_PER_C: 4, state.C_YEAR_END: 0, state.C_EXP_NEXT: 1}
DONE = actions.A_DONE


class KremlinHeuristic:
    name = "heuristic"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def _read(self, obs: np.ndarray) -> dict:
        t = unflatten(OBS_PIECES, obs)
        loc = t["gamer_location"].argmax(axis=1)
        ctrl = np.full(NG, -1)
        for i in range(t["controls"].shape[0]):
            ctrl[t["controls"][i] > 0.5] = i
        best_other = (t["declared"][1:] * 10).max(axis=0).round().astype(int)
        return {"t": t, "loc": loc, "ctrl": ctrl, "best_other": best_other,
                "mine": (t["declared"][0] * 10).round().astype(int),
                "remaining": (t["my_remaining"] * 10).round().astype(int),
                "phase": int(t["phase_onehot"].argmax()), "target": int(t["target"].argmax()) if t["target"].any() else -1,
                "actor": int(t["actor"].argmax()) if t["actor"].any() else -1}

    def _weight(self, d: dict, g: int) -> float:
        l = d["loc"][g]
        if l < NP:
            return POST_WEIGHT[l]
        return 0.3 if l == tables.LOC_CIV else 0.0

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 1:
            return int(legal[0])
        d = self._read(observation)
        ph = d["phase"]
        choice = {
            state.PH_ASSIGN: self._assign, state.PH_WINDOW: self._window, state.PH_PT_SELECT: self._part_time,
            state.PH_EXP_TARGET: self._expel, state.PH_RUM_MARK: self._mark, state.PH_RUM_CHOICE: self._rumour,
            state.PH_RUM_TARGET: self._rivals_best, state.PH_VOTE: self._vote, state.PH_NOMINATE: self._nominate,
            state.PH_PER_B_SRC: self._promote, state.PH_PER_C_SRC: self._promote,
        }.get(ph)
        a = choice(d, action_mask) if choice else None
        if a is None or not action_mask[a]:
            a = DONE if action_mask[DONE] else int(self.rng.choice(legal))
        return int(a)

    # --- allocation and declarations -------------------------------------------------------------
    def _assign(self, d, mask):
        score = np.array([self._weight(d, g) + (tables.EXPERIENCE[g] - 50) / 30 for g in range(NG)])
        score += self.rng.uniform(0, 2.0, NG)
        score[mask[:NG] == 0] = -np.inf
        return int(score.argmax())

    def _window(self, d, mask):
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
        broke = d["t"]["broke"] * 3
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
        if d["actor"] >= 0 and t["age_room"][d["actor"]] * 50 < 6:
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

    def _vote(self, d, mask):
        g = d["target"]
        mine = g >= 0 and d["ctrl"][g] == 0
        if d["t"]["context"][6] > 0.5:  # a trial: acquit my gamer, convict the others
            return actions.A_OPPOSE if mine else actions.A_SUPPORT
        return actions.A_OPPOSE if g >= 0 and self._rivals(d, g) else actions.A_SUPPORT

    def _nominate(self, d, mask):
        cand = [g for g in range(NG) if mask[g]]
        broke = d["t"]["broke"]
        cand.sort(key=lambda g: (d["ctrl"][g] == 0, d["ctrl"][g] < 0, -broke[g]), reverse=True)
        return cand[0] if cand else None

    def _promote(self, d, mask):
        cand = [g for g in range(NG) if mask[g] and (d["ctrl"][g] == 0 or d["remaining"][g] >= 3)]
        return max(cand, key=lambda g: d["remaining"][g]) if cand else None
