"""French Revolution 1789 heuristic: a sensible beginner that reads only its own observation.

- Auction: values the revealed card by the ■ VP it can still score (its best regime, over the turns
  left, halved for uncertainty), its ■ credit over the cards still to come, on-acquire VP and a bonus
  for a ◆ ability; bids the minimum while the price stays under that value and a share of its RP.
- Action phase: uses every card it can, by priority: return / release / expedition / execution /
  assassination (VP now), vote for the box where its own persons score most, campaign or win nobles in
  the richest city, nationalise a rival's city, instigate, arrest a rival's best person, financial
  reform late in the game, then abilities; plays intrigue cards when nothing else is left; then passes.
- Targets: the regime that favours its persons, the city with most VP + RP, the rival person that
  scores most, the leading rival.
"""

from __future__ import annotations

import numpy as np

from ...kernels.french_revolution_1789 import OBS_PIECES, PHASE_NAMES
from ...kernels.french_revolution_1789 import tables as T
from ...kernels.french_revolution_1789.actions import (
    A_ABILITY,
    A_ARMY,
    A_BID,
    A_CITY,
    A_INTRIGUE,
    A_PASS,
    A_PERSON,
    A_PLAYER,
    A_RA,
    A_REGIME,
    A_SELECT,
)
from ._base import HeuristicAgent

PRIORITY = [
    T.RA_INDEX[x]
    for x in (
        "return",
        "release",
        "expedition",
        "execution",
        "assassin",
        "vote",
        "campaigning",
        "win_over_nobles",
        "nationalisation",
        "troop_instigation",
        "arrest",
    )
]
FINANCE = T.RA_INDEX["financial_reform"]
CITY_VALUE = T.CITY_VP * 2.0 + T.CITY_RP
MAX_SCORE = T.CARD_SCORE.max(axis=1)


class FrenchRevolution1789Heuristic(HeuristicAgent):
    PHASE_NAMES = PHASE_NAMES
    OBS_PIECES = OBS_PIECES

    def _card_value(self, o, c: int) -> float:
        turn = int(np.argmax(o["turn_onehot"]))
        left = 5 - turn
        v = MAX_SCORE[c] * left * 0.5
        v += T.CARD_CREDIT[c] * float(o["in_deck"].sum()) * 0.6
        if T.CARD_ABILITY[c] >= 0:
            v += 2.0
        if T.CARD_ACQUIRE[c] >= 0:
            v += 3.0
        return v

    # --- auction ------------------------------------------------------------------------------
    def _auction(self, o, mask) -> int:
        bids = np.flatnonzero(mask[A_BID:A_SELECT])
        if bids.size == 0:
            return A_PASS
        c = int(np.argmax(o["auction_card"]))
        rp = o["rp"][0]
        value = min(self._card_value(o, c), rp * 0.6)
        lowest = int(bids[0])
        if lowest <= value or not mask[A_PASS]:
            return A_BID + lowest
        return A_PASS

    # --- action turn --------------------------------------------------------------------------
    def _action(self, o, mask) -> int:
        selectable = np.flatnonzero(mask[A_SELECT:A_INTRIGUE])
        if selectable.size:
            # persons first, then events (abilities)
            persons = [c for c in selectable if T.CARD_PERSON[c]]
            pick = persons[0] if persons else selectable[0]
            return A_SELECT + int(pick)
        intr = np.flatnonzero(mask[A_INTRIGUE:A_RA])
        if intr.size:
            return A_INTRIGUE + int(intr[0])
        return A_PASS

    def _choose(self, o, mask) -> int:
        turn = int(np.argmax(o["turn_onehot"]))
        for a in PRIORITY:
            if mask[A_RA + a]:
                return A_RA + a
        if mask[A_RA + FINANCE] and turn >= 3:
            return A_RA + FINANCE
        if mask[A_ABILITY]:
            return A_ABILITY
        # any other regime action (financial reform early, or one outside the priority list) beats none
        return A_RA + int(np.flatnonzero(mask[A_RA:A_ABILITY])[0])

    def _target(self, o, mask) -> int:
        eff = int(np.argmax(o["move_effect"]))
        op = int(T.EFF[eff, T.E_OP])
        dec = int(np.argmax(o["move_decision"]))
        if dec == T.D_REGIME:
            regimes = np.flatnonzero(mask[A_REGIME:A_PLAYER])
            mine = o["cards"][0]
            alive = (mine[:, 0] + mine[:, 1]) > 0
            gain = T.CARD_SCORE[alive].sum(axis=0).astype(float)
            rivals = o["cards"][1:]
            rival_alive = ((rivals[:, :, 0] + rivals[:, :, 1]) > 0).any(axis=0)
            gain -= 0.5 * T.CARD_SCORE[rival_alive].sum(axis=0)
            votes = o["votes"]
            if op == T.OP_REMOVE_VOTES:  # take votes off the box that hurts most
                return A_REGIME + int(max(regimes, key=lambda g: (-gain[g], votes[g])))
            return A_REGIME + int(max(regimes, key=lambda g: gain[g]))
        if dec == T.D_CITY:
            cities = np.flatnonzero(mask[A_CITY:A_PERSON])
            return A_CITY + int(max(cities, key=lambda c: CITY_VALUE[c]))
        if dec == T.D_PERSON:
            persons = np.flatnonzero(mask[A_PERSON:A_REGIME])
            owned_by_me = o["cards"][0].sum(axis=1) > 0
            if op in (T.OP_RETURN, T.OP_RELEASE, T.OP_FREE_OWN):
                return A_PERSON + int(max(persons, key=lambda c: (owned_by_me[c], MAX_SCORE[c])))
            if op == T.OP_EXILE:
                return A_PERSON + int(min(persons, key=lambda c: MAX_SCORE[c]))
            return A_PERSON + int(max(persons, key=lambda c: (not owned_by_me[c], MAX_SCORE[c])))
        if dec == T.D_PLAYER:
            players = np.flatnonzero(mask[A_PLAYER:A_ARMY])
            return A_PLAYER + int(max(players, key=lambda p: o["vp"][p]))
        if dec == T.D_ARMY:  # the army with the larger presence in the cities
            armies = np.flatnonzero(mask[A_ARMY : A_ARMY + 2])
            return A_ARMY + int(max(armies, key=lambda k: o["city_army"][:, k + 1].sum()))
        raise ValueError(f"no rule for the target decision {dec} of effect {eff}")
