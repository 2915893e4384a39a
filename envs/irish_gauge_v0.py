"""Irish Gauge (3-5 players): investors auction railway shares, build track and call dividends.

| import             | ``from tabletop_zoo.envs import irish_gauge_v0``                     |
|--------------------|----------------------------------------------------------------------|
| actions            | Discrete(222)                                                        |
| agents             | ``player_0 .. player_{n-1}``, n = 3..5 (``num_players``, default 4) |
| observation        | Dict(observation: float32[1225], action_mask: int8[222])            |
| observation pieces | ``tabletop_zoo.kernels.irish_gauge.OBS_PIECES`` (seat-relative)      |
| rewards            | at the end: 1/k to each of k tied winners, else 0                    |
| options            | ``ruleset="seed"`` / ``"published"``, ``major_city_bonus=int``       |
| render modes       | ``"ansi"`` (text table), ``"rgb_array"`` (uint8[800, 1280, 3]: hex map + tables) |

Action ids (spec ``shared/rules/irish_gauge.md`` §6): 0-4 AUCTION[company], 5-9 BUILD[company],
10-39 SPECIAL_INTEREST[town, colour], 40 CALL_DIVIDENDS, 41-179 PLACE[hex], 180 END_BUILD,
181 PASS, 182-221 BID[min_bid + j]. Companies: CBSC, WLW, BCD, GSW, MGW.

The cube bag is drawn by the environment from its seeded generator; no chance seat is exposed.
Search code can drive the draws itself through the kernel's ``chance_outcomes``/``step_chance``.

Version history: v0 (2026-11) first release.
"""

from __future__ import annotations

import numpy as np

from ..kernels import irish_gauge as kernel
from ..kernels.irish_gauge.state import PHASE_NAMES
from ..kernels.irish_gauge.tables import COLOUR_NAMES, COMPANY_IDS, HEX_IDS, HEX_NAMES, N_CERTS, SHARE_VALUE
from .base import KernelAECEnv, auction_text, seat_scores


def render_ansi(s: np.ndarray) -> str:
    """A text table of the whole game: seats, companies, networks, cubes, bag, pending decision."""
    r = s[0]
    n = int(r["num_players"])
    score = seat_scores(kernel, s)
    phase = PHASE_NAMES[int(r["phase"])]
    lines = [
        f"Irish Gauge - {phase} - turn {int(r['turn'])}, active player_{int(r['active'])}, "
        f"ruleset {kernel.state.RULESETS[int(r['ruleset'])]}"
    ]
    lines.append("seat       cash  worth  " + "  ".join(f"{c:>4}" for c in COMPANY_IDS))
    for p in range(n):
        held = "  ".join(f"{int(r['held'][p, c]):>4}" for c in range(5))
        lines.append(f"player_{p:<3} {int(r['cash'][p]):>5}  {int(score[p]):>5}  {held}")
    lines.append("company  top  left  supply  network")
    for c, cid in enumerate(COMPANY_IDS):
        left = int(N_CERTS[c] - r["next_cert"][c])
        top = f"£{int(SHARE_VALUE[c, r['next_cert'][c]])}" if left else "-"
        net = " ".join(HEX_IDS[h] for h in np.flatnonzero(r["loco"][c]))
        lines.append(f"{cid:<7} {top:>4}  {left:>4}  {int(r['supply'][c]):>6}  {net}")
    cubes = [f"{HEX_NAMES[h]}:{COLOUR_NAMES[int(r['cube'][h])]}" for h in np.flatnonzero(r["cube"] >= 0)]
    lines.append("cubes: " + ", ".join(cubes))
    bag = ", ".join(f"{COLOUR_NAMES[k]} {int(r['bag'][k])}" for k in range(3))
    rows = int(r["drawn_rows"])
    track = " | ".join(" ".join(COLOUR_NAMES[int(x)] for x in r["drawn"][i] if x >= 0) for i in range(rows))
    lines.append(f"bag: {bag}; drawn: {track or '-'}")
    if r["last_draw"].any():  # IG-DIV-5: what the latest dividend call drew and paid
        drew = ", ".join(f"{COLOUR_NAMES[k]} {int(r['last_draw'][k])}" for k in range(3))
        income = " ".join(f"{cid} £{int(r['last_income'][c])}" for c, cid in enumerate(COMPANY_IDS))
        paid = " ".join(f"player_{p} £{int(r['last_payout'][p])}" for p in range(n))
        lines.append(f"last dividends: drew {drew}; income {income}; paid {paid}")
    if int(r["auc_company"]) >= 0:
        lines.append(
            f"auction {COMPANY_IDS[int(r['auc_company'])]}: " + auction_text(r, n, "auc_high_bid", "£", verb="decide")
        )
    if int(r["bld_company"]) >= 0:
        lines.append(
            f"building {COMPANY_IDS[int(r['bld_company'])]}: {int(r['bld_budget']) / 2:g} BP left, "
            f"{int(r['bld_placed'])} placed"
        )
    return "\n".join(lines)


class raw_env(KernelAECEnv):
    kernel = kernel
    render_ansi = staticmethod(render_ansi)


env = raw_env.make
