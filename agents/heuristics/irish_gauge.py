"""Irish Gauge heuristic: a sensible beginner that reads only its own observation.

- Values a company by its expected dividends: per remaining call (bag / 3 of them) the kernel's
  ``expected_income`` (paying-city odds from the bag) plus some growth, split over the shares sold.
  A certificate is worth its printed value (it counts in final worth, IG-SCORE-1) plus the dividends
  it brings me, plus the dividends I keep by not letting a rival dilute the shares I hold.
- Auctions: where the opener may pass and an all-pass certificate is free (IG-INIT-3, and under the
  seed rules IG-AUC-2), it opens with PASS when the others are likely to pass too (a seat that cannot
  afford the printed value must pass, IG-AUC-5), and auctions a certificate exactly then, even without
  the cash to bid. Otherwise it bids the minimum: the printed value costs no worth, so it always takes a
  certificate at that price (which also denies the opener a free one); above it, it pays only part of the
  expected dividends and never so much that it is left without cash for later auctions.
- On its turn picks the best of: auction a certificate, build towards the nearest unconnected town or
  city for a company it holds (shortest hex distance), place a special interest where the colour most
  likely to be drawn raises its companies' income, or call dividends when its expected payout beats the
  table's average.
"""

from __future__ import annotations

import numpy as np

from ...kernels.irish_gauge import OBS_PIECES, PHASE_NAMES, actions, tables
from ...kernels.irish_gauge.estimate import colour_pay_probability, expected_income
from ._base import HeuristicAgent

H, C, K = tables.N_HEX, tables.N_COMPANIES, tables.N_COLOURS
CITY, TOWN = tables.CITY_INCOME, tables.TOWN_INCOME
GROWTH = 2.0  # pounds per dividend call a company is expected to add by building
CAUTION = 0.5  # share of the expected dividends it is willing to pay above the printed value
OVERPAY_CAP = 4  # pounds above the printed value it never exceeds: cash is scarce (£20 to start)
RESERVE = 4  # pounds it keeps after an overbid, to bid in later auctions
RIVAL_PASS = 0.25  # chance that a seat able to afford the printed value still passes
AUCTION_WEIGHT = 1.5  # how much it likes opening auctions against building or calling


DIST = tables.HEX_DISTANCE
SITES = tables.CUBE_SITE_HEX.astype(np.int64)  # the towns and cities: the only hexes that pay


class IrishGaugeHeuristic(HeuristicAgent):
    PHASE_NAMES = PHASE_NAMES
    OBS_PIECES = OBS_PIECES

    # --- reading the table ---------------------------------------------------------------------
    def _read(self, o) -> dict:
        loco = o["loco"].astype(np.uint8)
        cube = np.full(H, -1, np.int8)
        for k in range(K):
            cube[o["cube_colour"][k] > 0.5] = k
        bag = np.rint(o["bag"]).astype(np.int8)
        held = np.rint(o["held_by_seat"]).astype(np.int64)
        sold = np.rint(o["shares_sold"]).astype(np.int64)
        calls_left = bag.sum() / tables.CUBES_PER_CALL
        income = np.array([expected_income(loco, cube, bag, c) for c in range(C)])
        supply = o["supply"] > 0
        growth = np.where(supply, GROWTH, 0.0)  # networks still grow: count on some of it
        return {
            "o": o,
            "loco": loco,
            "cube": cube,
            "bag": bag,
            "held": held,
            "sold": sold,
            "cash": np.rint(o["cash_by_seat"]).astype(np.int64),
            "calls_left": calls_left,
            "income": income,
            "outlook": income + growth,
            "n": int(o["seat_present"].sum()),
            "free_if_all_pass": o["ruleset_published"][0] < 0.5 or o["phase_onehot"][0] > 0.5,
        }

    def _dividends_gain(self, t: dict, c: int) -> float:
        """Dividends one more certificate of c brings me, plus those a rival's purchase would dilute away."""
        h, s = t["held"][0, c], t["sold"][c]
        future = t["outlook"][c] * t["calls_left"]
        now = future * h / s if s else 0.0
        return future * (h + 1) / (s + 1) - now + (now - future * h / (s + 1))

    def _all_others_pass(self, t: dict, price: int, passed=None) -> float:
        """Chance that every other seat still in passes at this price (it must when it cannot pay)."""
        chance = 1.0
        for i in range(1, t["n"]):
            if passed is not None and passed[i] > 0.5:
                continue
            chance *= 1.0 if t["cash"][i] < price else RIVAL_PASS
        return chance

    # --- auctions ------------------------------------------------------------------------------
    def _initial_auction(self, o: dict, mask) -> int:
        return self._bid(self._read(o), mask)

    def _auction(self, o: dict, mask) -> int:
        return self._bid(self._read(o), mask)

    def _bid(self, t: dict, mask) -> int:
        o = t["o"]
        c = int(np.argmax(o["auction_company"]))
        price = int(round(o["auction_min_bid"][0]))
        top = int(round(o["top_cert_value"][c]))
        gain = self._dividends_gain(t, c)
        no_bid_yet = not o["auction_high_bidder"].any()
        can_bid = bool(mask[actions.A_BID])
        if not can_bid:
            return actions.A_PASS
        if not mask[actions.A_PASS]:
            return actions.A_BID  # IG-AUC-2 (published): the opener must bid; the minimum it is
        if no_bid_yet:
            opener = not o["auction_passed"].any()
            if opener and t["free_if_all_pass"]:
                # IG-INIT-3 / IG-AUC-2: pass for a free certificate when the others will likely pass too
                if self._all_others_pass(t, price) * (top + gain) > gain:
                    return actions.A_PASS
            return actions.A_BID  # the printed value costs no worth and denies the opener a free one
        overpay = price - top
        limit = min(CAUTION * gain, OVERPAY_CAP)
        if overpay <= limit and t["cash"][0] - price >= RESERVE:
            return actions.A_BID
        return actions.A_PASS

    # --- building ------------------------------------------------------------------------------
    def _targets(self, t: dict, c: int) -> np.ndarray:
        """Towns and cities company c does not reach yet."""
        return SITES[t["loco"][c, SITES] == 0]

    def _build(self, o: dict, mask) -> int:
        t = self._read(o)
        c = int(np.argmax(o["build_company"]))
        targets = self._targets(t, c)
        options = [actions.A_PLACE + int(h) for h in np.flatnonzero(mask[actions.A_PLACE : actions.A_END_BUILD])]
        if not options:
            return actions.A_END_BUILD
        if not targets.size:
            return actions.A_END_BUILD if mask[actions.A_END_BUILD] else options[0]
        dist = [DIST[a - actions.A_PLACE][targets].min() for a in options]
        if mask[actions.A_END_BUILD] and min(dist) > 4:
            return actions.A_END_BUILD  # nothing worth reaching nearby
        return int(options[int(np.argmin(dist))])

    # --- the turn ------------------------------------------------------------------------------
    def _auction_score(self, t: dict, c: int) -> float:
        top = int(round(t["o"]["top_cert_value"][c]))
        gain = self._dividends_gain(t, c)
        free = self._all_others_pass(t, top) * (top + gain) if t["free_if_all_pass"] else 0.0
        bought = gain if t["cash"][0] >= top else 0.0
        return max(free, bought) * AUCTION_WEIGHT

    def _main(self, o: dict, mask) -> int:
        t = self._read(o)
        scores: dict[int, float] = {}
        share = np.divide(t["held"][: t["n"]], np.maximum(t["sold"], 1))  # [seat, company]
        payout = share @ t["income"]  # expected payout of one call, per seat
        if mask[actions.A_CALL_DIVIDENDS]:
            others = payout[1:].mean() if t["n"] > 1 else 0.0
            scores[actions.A_CALL_DIVIDENDS] = payout[0] - others - 0.5  # calling also ends the game sooner
        for c in range(C):
            if mask[actions.A_AUCTION + c]:
                scores[actions.A_AUCTION + c] = self._auction_score(t, c)
            if mask[actions.A_BUILD + c]:
                targets = self._targets(t, c)
                network = np.flatnonzero(t["loco"][c])
                if targets.size:
                    reach = DIST[np.ix_(network, targets)].min()
                    gain = (CITY + TOWN) / 2 * t["calls_left"] * share[0, c]
                    scores[actions.A_BUILD + c] = gain / max(reach, 1)
                else:
                    scores[actions.A_BUILD + c] = -1.0  # a complete network: building only uses the turn
        for a in np.flatnonzero(mask[actions.A_SPECIAL_INTEREST : actions.A_CALL_DIVIDENDS]):
            town, k = divmod(int(a), K)
            h = tables.TOWN_HEX[town]
            p = colour_pay_probability(t["bag"], k)
            mine = sum(share[0, c] for c in range(C) if t["loco"][c, h])
            scores[actions.A_SPECIAL_INTEREST + int(a)] = mine * (CITY * p - TOWN) * t["calls_left"] - 1.0
        return int(max(scores, key=scores.get))
