"""Irish Gauge heuristic: a sensible beginner that reads only its own observation.

- Values a company by its expected dividends: per remaining call (bag / 3 of them) the kernel's
  ``expected_income`` (paying-city odds from the bag) plus some growth, split over the shares sold.
- Bids the minimum while a certificate is worth more to it than the price (printed value + its
  share of future dividends, net of diluting the shares it already holds); never overpays.
- On its turn picks the best of: auction a certificate worth more than its printed price, build
  towards the nearest unconnected town or city for a company it holds (shortest hex distance),
  place a special interest where the colour most likely to be drawn raises its companies' income,
  or call dividends when its expected payout beats the table's average.
"""

from __future__ import annotations

import numpy as np

from ..base import Agent  # noqa: F401  (documentation: this class honours the Agent protocol)
from ...kernels.irish_gauge import OBS_PIECES, actions, tables
from ...kernels.irish_gauge.evaluate import colour_pay_probability, expected_income
from ...kernels._common.layout import unflatten

H, C, K = tables.N_HEX, tables.N_COMPANIES, tables.N_COLOURS
CITY, TOWN = tables.CITY_INCOME, tables.TOWN_INCOME
GROWTH = 2.0  # pounds per dividend call a company is expected to add by building
CAUTION = 0.5  # share of the expected dividends it is willing to pay above the printed value
AUCTION_WEIGHT = 1.5  # how much it likes opening auctions against building or calling


def _hex_distances() -> np.ndarray:
    """All-pairs hex distances (steps over land) by breadth-first search."""
    dist = np.full((H, H), 99, np.int16)
    for src in range(H):
        dist[src, src] = 0
        frontier = [src]
        while frontier:
            nxt = []
            for h in frontier:
                for g in tables.NEIGHBORS[h, : tables.N_NEIGHBORS[h]]:
                    if dist[src, g] == 99:
                        dist[src, g] = dist[src, h] + 1
                        nxt.append(g)
            frontier = nxt
    return dist


DIST = _hex_distances()
SITES = tables.CUBE_SITE_HEX  # the towns and cities: the only hexes that pay


class IrishGaugeHeuristic:
    name = "heuristic"

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    # --- reading the table ---------------------------------------------------------------------
    def _read(self, observation: np.ndarray) -> dict:
        o = unflatten(OBS_PIECES, observation)
        loco = o["loco"].astype(np.uint8)
        cube = np.full(H, -1, np.int8)
        for k in range(K):
            cube[o["cube_colour"][k] > 0.5] = k
        bag = np.rint(o["bag"] * tables.CUBES_PER_COLOUR).astype(np.int8)
        held = np.rint(o["held_by_seat"] * tables.MAX_CERTS).astype(np.int64)
        sold = np.rint(o["shares_sold"] * tables.MAX_CERTS).astype(np.int64)
        calls_left = bag.sum() / tables.CUBES_PER_CALL
        income = np.array([expected_income(loco, cube, bag, c) for c in range(C)])
        supply = o["supply"] > 0
        growth = np.where(supply, GROWTH, 0.0)  # networks still grow: count on some of it
        return {"o": o, "loco": loco, "cube": cube, "bag": bag, "held": held, "sold": sold,
                "cash": np.rint(o["cash_by_seat"] * 100).astype(np.int64), "calls_left": calls_left,
                "income": income, "outlook": income + growth, "n": int(o["seat_present"].sum())}

    def _certificate_value(self, t: dict, c: int) -> float:
        """Printed value + my dividends after buying, minus what my current shares lose by dilution."""
        top = t["o"]["top_cert_value"][c] * 20.0
        h, s = t["held"][0, c], t["sold"][c]
        future = t["outlook"][c] * t["calls_left"]
        before = future * h / s if s else 0.0
        return top + CAUTION * (future * (h + 1) / (s + 1) - before)

    # --- decisions -----------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        if legal.size == 1:
            return int(legal[0])
        t = self._read(observation)
        if action_mask[actions.A_PASS] or action_mask[actions.A_BID]:
            return self._bid(t, action_mask)
        if any(action_mask[actions.A_PLACE: actions.A_PLACE + H]):
            return self._place(t, action_mask)
        return self._main(t, action_mask)

    def _bid(self, t: dict, mask) -> int:
        c = int(np.argmax(t["o"]["auction_company"]))
        price = t["o"]["auction_min_bid"][0] * 100.0
        if mask[actions.A_BID] and self._certificate_value(t, c) - price >= 0.0:
            return actions.A_BID  # the minimum bid
        return actions.A_PASS if mask[actions.A_PASS] else actions.A_BID

    def _targets(self, t: dict, c: int) -> np.ndarray:
        """Towns and cities company c does not reach yet."""
        return np.array([h for h in SITES if not t["loco"][c, h]], dtype=np.int64)

    def _place(self, t: dict, mask) -> int:
        c = int(np.argmax(t["o"]["build_company"]))
        targets = self._targets(t, c)
        options = [actions.A_PLACE + int(h) for h in np.flatnonzero(mask[actions.A_PLACE: actions.A_END_BUILD])]
        if not targets.size:
            return actions.A_END_BUILD if mask[actions.A_END_BUILD] else int(options[0])
        dist = [DIST[a - actions.A_PLACE][targets].min() for a in options]
        best = int(options[int(np.argmin(dist))])
        if mask[actions.A_END_BUILD] and min(dist) > 4:
            return actions.A_END_BUILD  # nothing worth reaching nearby
        return best

    def _main(self, t: dict, mask) -> int:
        scores: dict[int, float] = {}
        share = np.divide(t["held"][: t["n"]], np.maximum(t["sold"], 1))  # [seat, company]
        payout = share @ t["income"]  # expected payout of one call, per seat
        if mask[actions.A_CALL_DIVIDENDS]:
            others = payout[1:].mean() if t["n"] > 1 else 0.0
            scores[actions.A_CALL_DIVIDENDS] = payout[0] - others - 0.5  # calling also ends the game sooner
        for c in range(C):
            if mask[actions.A_AUCTION + c]:
                top = t["o"]["top_cert_value"][c] * 20.0
                gain = (self._certificate_value(t, c) - top) * AUCTION_WEIGHT
                if top <= t["cash"][0]:
                    scores[actions.A_AUCTION + c] = gain
            if mask[actions.A_BUILD + c]:
                targets = self._targets(t, c)
                network = np.flatnonzero(t["loco"][c])
                if targets.size:
                    reach = DIST[np.ix_(network, targets)].min()
                    gain = (CITY + TOWN) / 2 * t["calls_left"] * share[0, c]
                    scores[actions.A_BUILD + c] = gain / max(reach, 1)
        for a in np.flatnonzero(mask[actions.A_SPECIAL_INTEREST: actions.A_CALL_DIVIDENDS]):
            town, k = divmod(int(a), K)
            h = tables.TOWN_HEX[town]
            p = colour_pay_probability(t["bag"], k)
            mine = sum(share[0, c] for c in range(C) if t["loco"][c, h])
            scores[actions.A_SPECIAL_INTEREST + int(a)] = mine * (CITY * p - TOWN) * t["calls_left"] - 1.0
        best = max(scores, key=scores.get)
        return int(best)
