"""A beginner's heuristic for Veld Railroads, reading only its seat's observation (via OBS_PIECES).

How it plays:
- shares: values a share at the dividends it should still pay (today's income plus some growth, one
  ceil(income / 5) per row end left and the final payout) and bids the lowest legal bid while that stays
  under ~70% of the value (more when the share would give it control); otherwise passes;
- turn: builds with a railroad it controls when that railroad has money; develops when a settlement on
  its railroads can grow; offers a treasury share worth buying; pays dividends when it would collect more
  than the average opponent late in a row; builds otherwise (always legal);
- track: picks the section adding the most income, pulled toward Johannesburg (special dividend and
  ZASM opening), and takes a double whenever one is offered;
- develop: picks the settlement that raises its own railroads' income the most (compared with what it
  gives the others) and pays $3 for a second one only if its share of the gain is worth it.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from ...kernels import veld_railroads as K
from ._base import HeuristicAgent

T = K.tables
PHASE = {name: i for i, name in enumerate(K.PHASE_NAMES)}
A_BOX, A_BUILD_RAILROAD, A_OFFER_TREASURY, A_OFFER_OWN = 0, 4, 10, 16
A_SECTION, A_SETTLEMENT, A_DONE, A_PASS = 22, 81, 128, 129


def _distances_to_johannesburg() -> np.ndarray:
    adj = {v: [] for v in range(T.N_SETTLEMENTS)}
    for e in range(T.N_SECTIONS):
        a, b = int(T.SEC_A[e]), int(T.SEC_B[e])
        adj[a].append(b)
        adj[b].append(a)
    dist = np.full(T.N_SETTLEMENTS, 99, np.int64)
    dist[T.JOHANNESBURG] = 0
    queue = deque([T.JOHANNESBURG])
    while queue:
        v = queue.popleft()
        for w in adj[v]:
            if dist[w] > dist[v] + 1:
                dist[w] = dist[v] + 1
                queue.append(w)
    return dist


DIST_JO = _distances_to_johannesburg()


class VeldRailroadsHeuristic(HeuristicAgent):
    """Sensible beginner play from the observation alone (see the module docstring)."""

    PHASE_NAMES = K.PHASE_NAMES
    OBS_PIECES = K.OBS_PIECES

    # --- decoding ------------------------------------------------------------------------------------
    def _decode(self, o: dict) -> dict:
        d = {"phase": int(np.argmax(o["phase_onehot"]))}
        d["n"] = int(round(o["seat_present"].sum()))
        d["cash"] = np.rint(o["cash"]).astype(np.int64)
        d["hold"] = np.rint(o["holdings"]).astype(np.int64)
        d["controls"] = o["controls"] > 0.5
        d["treasury"] = np.rint(o["treasury_cash"]).astype(np.int64)
        d["tshares"] = np.rint(o["treasury_shares"]).astype(np.int64)
        d["income"] = np.rint(o["income"]).astype(np.int64)
        d["valuation"] = np.rint(o["valuation"]).astype(np.int64)
        d["owner"] = o["section_owner"] > 0.5  # [railroad, section]
        d["level"] = np.rint(o["settlement_level"]).astype(np.int64)
        d["tracked"] = o["settlement_tracked"] > 0.5
        d["row"] = int(np.argmax(o["row"])) + 1
        d["position"] = float(o["position"][0])
        d["auc_railroad"] = int(np.argmax(o["auction_railroad"])) if o["auction_railroad"].any() else -1
        d["build_railroad"] = int(np.argmax(o["build_railroad"])) if o["build_railroad"].any() else -1
        d["fs_railroad"] = int(np.argmax(o["free_section_railroad"])) if o["free_section_railroad"].any() else -1
        return d

    # --- valuations ----------------------------------------------------------------------------------
    @staticmethod
    def _share_value(d: dict, rr: int) -> float:
        rows_left = 8 - d["row"] + 1  # row ends still to come, the final one included
        sold = 5 - int(d["tshares"][rr])
        income = float(d["income"][rr]) + 2.0 * (rows_left - 1)  # some growth
        if d["income"][rr] == 0:
            income += 4.0
        normal = (rows_left - 1) * np.ceil(income / 5)
        final = (d["valuation"][rr] + 5 * rows_left + income) / max(sold + 1, 1)
        return float(normal + final)

    @staticmethod
    def _my_payout(d: dict, seat: int) -> float:
        per = np.ceil(d["income"] / 5)
        return float((d["hold"][seat] * per).sum())

    # --- decisions -----------------------------------------------------------------------------------
    # one handler per decision phase (HeuristicAgent dispatches on the observed phase)
    def _setup_auction(self, o, mask) -> int:
        return self._bid(self._decode(o), mask, np.flatnonzero(mask))

    _auction_bid = _zasm_auction_bid = _setup_auction

    def _choose_box(self, o, mask) -> int:
        return self._box(self._decode(o), mask)

    def _build_choose_railroad(self, o, mask) -> int:
        d = self._decode(o)
        rails = [a - A_BUILD_RAILROAD for a in np.flatnonzero(mask)]
        return A_BUILD_RAILROAD + max(rails, key=lambda rr: (d["hold"][0, rr], d["treasury"][rr]))

    def _first_section(self, o, mask) -> int:
        return self._section(self._decode(o), mask, np.flatnonzero(mask))

    _build_first_leg = _build_second_leg = _first_section

    def _offer_choose(self, o, mask) -> int:
        return self._offer(self._decode(o), np.flatnonzero(mask))

    def _develop_pick(self, o, mask) -> int:
        return self._develop(self._decode(o), mask, np.flatnonzero(mask))

    def _bid(self, d, mask, legal) -> int:
        rr = d["auc_railroad"]
        bids = legal[legal > A_PASS]
        if bids.size == 0:
            return A_PASS
        lowest = int(bids[0])
        amount = lowest - A_PASS
        value = self._share_value(d, rr)
        top_other = max(d["hold"][1 : d["n"], rr]) if d["n"] > 1 else 0
        if d["hold"][0, rr] + 1 > top_other:
            value *= 1.25  # the share would give control
        limit = 0.7 * value
        if amount <= limit and amount <= d["cash"][0]:
            return lowest
        return A_PASS if mask[A_PASS] else lowest

    def _box(self, d, mask) -> int:
        n = d["n"]
        if mask[3] and d["position"] >= 18:
            mine = self._my_payout(d, 0)
            others = [self._my_payout(d, p) for p in range(1, n)]
            if mine > 0 and mine >= max(others):
                return 3
        cost = 7 if d["row"] == 4 else 5
        for rr in range(6):
            if d["controls"][0, rr] and d["treasury"][rr] >= cost and not (rr == 5 and d["row"] == 4):
                return 0
        if mask[2] and self._best_develop(d, paid=False)[1] > 0:
            return 2
        if mask[1]:
            for rr in range(6):
                if (
                    d["tshares"][rr] > 0
                    and d["owner"][rr].sum() > 0
                    and self._share_value(d, rr) > 1.5 * max(1, d["owner"][rr].sum())
                    and d["cash"][0] >= 10
                ):
                    return 1
        return 0

    def _section_score(self, d, rr, e) -> float:
        a, b = int(T.SEC_A[e]), int(T.SEC_B[e])
        inc = T.LADDER[a, d["level"][a]] + T.LADDER[b, d["level"][b]]
        net = d["owner"][rr]
        touched = set()
        for f in np.flatnonzero(net):
            touched.add(int(T.SEC_A[f]))
            touched.add(int(T.SEC_B[f]))
        touched.add(int(T.HOME[rr]))
        near, far = (a, b) if a in touched else (b, a)
        score = float(inc) + 2.0 * (DIST_JO[near] - DIST_JO[far])
        if T.JOHANNESBURG in (a, b) and rr != 5:
            score += 8.0
        return score

    def _section(self, d, mask, legal) -> int:
        rr = d["build_railroad"] if d["build_railroad"] >= 0 else d["fs_railroad"]
        sections = [a for a in legal if A_SECTION <= a < A_SETTLEMENT]
        if not sections:
            return A_DONE
        best = max(sections, key=lambda a: self._section_score(d, rr, a - A_SECTION))
        return int(best)

    def _offer(self, d, legal) -> int:
        treasury = [a for a in legal if A_OFFER_TREASURY <= a < A_OFFER_OWN]
        if treasury:
            return int(
                max(
                    treasury,
                    key=lambda a: (
                        self._share_value(d, a - A_OFFER_TREASURY) - max(1, d["owner"][a - A_OFFER_TREASURY].sum())
                    ),
                )
            )
        return int(min(legal, key=lambda a: self._share_value(d, a - A_OFFER_OWN)))

    def _dev_gain(self, d, s) -> float:
        """My gain minus the average opponent's, in income x share units, from one step of s."""
        lvl = d["level"][s]
        if lvl >= T.MAX_DEV[s]:
            return -1e9
        delta = float(T.LADDER[s, lvl + 1] - T.LADDER[s, lvl])
        n = d["n"]
        gain = 0.0
        for j in range(T.DEGREE[s]):
            e = int(T.INCIDENT[s, j])
            owners = np.flatnonzero(d["owner"][:, e])
            if owners.size:
                rr = int(owners[0])
                other = d["hold"][1:n, rr].mean() if n > 1 else 0.0
                gain += delta * (d["hold"][0, rr] - other)
        return gain

    def _best_develop(self, d, paid: bool, mask=None):
        best, score = -1, -1e9
        for s in range(T.N_SETTLEMENTS):
            if mask is not None and not mask[A_SETTLEMENT + s]:
                continue
            if mask is None and not (d["tracked"][s] or s == T.JOHANNESBURG):
                continue
            g = self._dev_gain(d, s)
            if g > score:
                best, score = s, g
        return best, score

    def _develop(self, d, mask, legal) -> int:
        s, gain = self._best_develop(d, paid=False, mask=mask)
        if s < 0:
            return A_DONE
        if not mask[A_DONE]:
            return A_SETTLEMENT + s  # the first pick is compulsory
        rows_left = 8 - d["row"] + 1
        if gain * rows_left / 5.0 > 4.0:
            return A_SETTLEMENT + s  # free picks pass this easily; a paid one must be worth $3
        return A_DONE
