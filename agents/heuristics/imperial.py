"""Imperial heuristic: a sensible beginner that reads only its own observation.

- Rondel: scores each legal space for the nation it steers: Taxation when the tax beats the chart
  (power points + success bonus), Factory when the treasury can pay and a slot is free, Production
  when factories are idle and the supply allows, Import when there is money and few units, Maneuver
  when units stand at home or unclaimed neutral regions/seas are in reach, Investor for interest
  and the card; paid steps count against a space (2m each beyond 3).
- Builds a factory where it is short of that kind (armaments while it has fewer of them, a shipyard when
  its fleets are few), in the province with the fewest foreign units around; imports units into the
  home provinces that hold the fewest of its own, armies first, while affordable.
- Maneuvers units out of home towards neutral regions and seas without its chip, avoiding stronger
  foreign stacks; enters foreign provinces friendly unless it brings 3 armies; never toggles.
- Carries armies over the seas where its own fleets are strongest and foreign fleets fewest.
- Fights when its side has more units in the region (as mover or when asked), destroys factories; after
  declining a fight it asks the weakest participant first (the one battle that may follow is one it wins).
- Invests in the bond that takes or keeps control of the most promising nation (power, tax
  position), else the best interest per money; passes only when nothing is affordable.
"""

from __future__ import annotations

import numpy as np

from ...kernels.imperial import OBS_PIECES, tables
from ...kernels.imperial.actions import (
    A_ASK,
    A_BUILD,
    A_BUY,
    A_DEST,
    A_DESTROY,
    A_FIGHT,
    A_FRIENDLY,
    A_HOSTILE,
    A_IMPORT_ARMY,
    A_IMPORT_FLEET,
    A_ORIGIN,
    A_PASS,
    A_RONDEL,
    A_SEA,
)
from ...kernels.imperial.state import PHASE_NAMES
from ._base import HeuristicAgent

COST = tables.BOND_COST
INTEREST = tables.BOND_INTEREST
FIRST_NEUTRAL, FIRST_SEA = tables.FIRST_NEUTRAL, tables.FIRST_SEA


class ImperialHeuristic(HeuristicAgent):
    PHASE_NAMES = PHASE_NAMES
    OBS_PIECES = OBS_PIECES

    # --- helpers -------------------------------------------------------------------------------
    @staticmethod
    def _nation(o):
        return int(np.argmax(o["nation_onehot"]))

    @staticmethod
    def _investments(o):
        """[seat, nation] money invested (seat 0 = me)."""
        return (o["bonds"] * COST[None, None, :]).sum(axis=2)

    @staticmethod
    def _nation_value(o, n):
        return 1.0 + o["power"][n] / 5.0 + o["tax_pos"][n] / 2.0

    # --- rondel --------------------------------------------------------------------------------
    def _rondel(self, o, mask):
        legal = np.flatnonzero(mask)
        n = self._nation(o)
        pos = int(np.argmax(o["rondel"][n]))
        treasury = o["treasury"][n]
        armies, fleets = o["armies"][n], o["fleets"][n]
        units = armies.sum() + fleets.sum()
        home = slice(5 * n, 5 * n + 5)
        factories = o["factory"][home].sum()
        idle_slots = ((o["factory"][home] == 0) & (o["blocked"][home] == 0)).sum()
        tax = o["tax_now"][n]
        chart = min(max(tax, 5), 15)
        supply = o["supply"][n].sum()
        at_home = armies[home].sum() + fleets[home].sum()
        best, best_score = None, -1e9
        for a in legal:
            sp = int(a - A_RONDEL)
            steps = 0 if pos == 8 else (sp - pos) % 8
            cost = 2 * max(0, steps - 3)
            if sp == 7:  # taxation
                score = 2.0 * (chart - 5) + max(0.0, chart - o["tax_pos"][n] - 5) + max(0.0, tax - units) * 0.3
            elif sp == 0:  # factory
                score = 6.0 if treasury >= 5 and idle_slots > 0 else -2.0
            elif sp in (1, 5):  # production
                score = 1.5 * min(factories, supply) if units < 8 else 0.5
            elif sp == 4:  # import
                score = min(3, treasury) * 1.2 if units < 6 and treasury >= 2 else -1.0
            elif sp in (2, 6):  # maneuver
                score = 1.5 * at_home + 0.5 * (units - at_home) if units else -2.0
            else:  # investor
                card = o["investor_card"][0]
                mine = o["bonds"][0, n].dot(INTEREST)
                score = 2.0 + 3.0 * card + 0.5 * mine
            score -= 1.5 * cost + 0.01 * steps
            if score > best_score:
                best, best_score = int(a), score
        return best

    # --- nation actions ------------------------------------------------------------------------
    def _threat(self, o, n, h):
        """Foreign units in province h and its land neighbours."""
        near = [x for x in range(FIRST_SEA) if (int(tables.LAND_ADJ[h]) >> x) & 1] + [h]
        return sum(self._foreign(o, n, x) for x in near)

    def _factory(self, o, mask):
        legal = np.flatnonzero(mask)
        builds = [int(a) for a in legal if A_BUILD <= a < A_IMPORT_ARMY]
        if not builds:
            return A_PASS
        n = self._nation(o)
        home = range(5 * n, 5 * n + 5)
        have = [sum(o["factory"][h] > 0 and tables.FACTORY_TYPE[h] == kind for h in home) for kind in (0, 1)]
        fleets = o["fleets"][n].sum()

        def score(a):
            h = a - A_BUILD
            kind = int(tables.FACTORY_TYPE[h])
            need = 1.0 if kind == tables.FT_SHIPYARD and fleets < 2 else 0.0
            return (2.0 - have[kind]) + need - 0.5 * self._threat(o, n, h)

        return max(builds, key=score)

    def _import(self, o, mask):
        legal = np.flatnonzero(mask)
        n = self._nation(o)
        if o["treasury"][n] < 2:
            return A_PASS

        coded_armies, coded_fleets = o.encoded("armies"), o.encoded("fleets")

        def own(a, first):
            # the province with the fewest own units, ranked by the encoded counts as since v0: their float sums
            # split ties of 7, 9, 14 and 16 units, which the exact counts would break the other way
            return coded_armies[n, a - first] + coded_fleets[n, a - first]

        armies = [int(a) for a in legal if A_IMPORT_ARMY <= a < A_IMPORT_FLEET]
        if armies:
            return min(armies, key=lambda a: own(a, A_IMPORT_ARMY))
        fleets = [int(a) for a in legal if A_IMPORT_FLEET <= a < A_ORIGIN]
        return min(fleets, key=lambda a: own(a, A_IMPORT_FLEET)) if fleets else A_PASS

    # --- maneuver ------------------------------------------------------------------------------
    def _strength(self, o, n, x):
        if x >= FIRST_SEA:
            return o["fleets"][n, x]
        return o["armies"][n, x] + o["fleets"][n, x]

    def _foreign(self, o, n, x):
        return sum(self._strength(o, m, x) for m in range(6) if m != n)

    def _noisy_best(self, actions, score, noise: float, best, floor: float):
        """The action of the highest ``score(a)`` plus a random tie-break below ``noise`` (one draw per action, in
        order), or ``best`` when none scores above ``floor``."""
        for a in actions:
            value = score(a) + self.rng.random() * noise
            if value > floor:
                best, floor = int(a), value
        return best

    def _origin_score(self, o, n, x):
        if x < FIRST_NEUTRAL and x // 5 == n:
            return 3.0  # at home: go out
        if o["chip"][n, x] and self._strength(o, n, x) > 1:
            return 2.0  # keep one, move the rest on
        if not o["chip"][n, x] and self._foreign(o, n, x) == 0:
            return -1.0  # will claim it at DONE: stay
        return 1.0

    def _dest_score(self, o, n, x):
        if x >= FIRST_NEUTRAL:
            score = 5.0 if not o["chip"][n, x] else 1.0
            if o["chip"][:, x].sum() and not o["chip"][n, x]:
                score += 1.0  # take someone's chip
        else:
            score = 0.0 if x // 5 == n else -1.0
        foreign = self._foreign(o, n, x)
        if foreign:
            score -= 4.0 if foreign >= self._strength(o, n, x) + 1 else 1.0
        return score

    def _move_select(self, o, mask):
        n = self._nation(o)
        origins = [a for a in np.flatnonzero(mask) if A_ORIGIN <= a < A_DEST]
        return self._noisy_best(origins, lambda a: self._origin_score(o, n, int(a - A_ORIGIN)), 0.1, A_PASS, 0.0)

    def _dest(self, o, mask):
        n = self._nation(o)
        return self._noisy_best(
            np.flatnonzero(mask), lambda a: self._dest_score(o, n, int(a - A_DEST)), 0.5, None, -1e9
        )

    def _sea(self, o, mask):
        legal = np.flatnonzero(mask)
        n = self._nation(o)
        return int(
            max(
                legal,
                key=lambda a: o["fleets"][n, FIRST_SEA + a - A_SEA] - self._foreign(o, n, FIRST_SEA + a - A_SEA),
            )
        )

    def _stance(self, o, mask):
        legal = np.flatnonzero(mask)
        n = self._nation(o)
        x = int(np.argmax(o["mv_region"]))
        if A_HOSTILE in legal and o["armies"][n, x] >= 3:
            return A_HOSTILE
        return A_FRIENDLY

    def _fight(self, o, mask):
        legal = np.flatnonzero(mask)
        n = self._nation(o)
        x = int(np.argmax(o["mv_region"]))
        mine = self._strength(o, n, x)
        best, margin = A_PASS, 0.0
        for a in legal:
            if A_FIGHT <= a < A_ASK:
                m = int(a - A_FIGHT)
                d = mine - self._strength(o, m, x)
                if d > margin:
                    best, margin = int(a), d
        return best

    def _ask(self, o, mask):
        legal = np.flatnonzero(mask)
        x = int(np.argmax(o["mv_region"]))
        return int(min(legal, key=lambda a: self._strength(o, int(a - A_ASK), x)))

    def _answer(self, o, mask):
        mover = self._nation(o)
        x = int(np.argmax(o["mv_region"]))
        me = int(np.argmax(o["cmb_defender"]))
        return A_FIGHT + mover if self._strength(o, me, x) > self._strength(o, mover, x) else A_PASS

    def _destroy(self, o, mask):
        return A_DESTROY

    # --- investing -----------------------------------------------------------------------------
    def _buy(self, o, mask):
        legal = np.flatnonzero(mask)
        inv = self._investments(o)
        flags = o["flags"]
        best, best_score = A_PASS, 0.5
        for a in legal:
            if a < A_BUY:
                continue
            b = int(a - A_BUY)
            n, k, t = b // 90, (b % 90) // 10, b % 10
            price = COST[k] - (COST[t - 1] if t else 0)
            mine = inv[0, n] + price
            holder = int(np.argmax(flags[:, n])) if flags[:, n].any() else -1
            value = self._nation_value(o, n)
            score = (INTEREST[k] - (INTEREST[t - 1] if t else 0)) * value / max(price, 1)
            if holder != 0 and mine > (inv[holder, n] if holder >= 0 else 0):
                score += 2.0 + 0.3 * value  # take control
            elif holder == 0:
                rival = np.delete(inv[:, n], 0).max()
                if rival + 9 >= inv[0, n]:
                    score += 1.0  # keep control
            if score > best_score:
                best, best_score = int(a), score
        return best
