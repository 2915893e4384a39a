"""Veld Railroads (3-6 players): investors auction railroad shares, build track across South Africa,
develop settlements and time the dividend payouts on one shared action track.

| import             | ``from tabletop_zoo.envs import veld_railroads_v0``                          |
|--------------------|------------------------------------------------------------------------------|
| actions            | Discrete(630)                                                                |
| agents             | ``player_0 .. player_{n-1}``, n = 3..6 (``num_players``, default 4)          |
| observation        | Dict(observation: float32[OBS_SIZE], action_mask: int8[630])                 |
| observation pieces | ``tabletop_zoo.kernels.veld_railroads.OBS_PIECES`` (seat-relative)           |
| rewards            | at the end: 1/k to each of k players tied for the most cash, else 0          |
| render modes       | ``ansi`` (text table), ``rgb_array`` (uint8[800, 1280, 3]: network, track, tables) |
| options            | ``ruleset="seed"`` (only value), ``repeat_metropolis_pick=False``            |

Action ids (spec ``shared/rules/veld_railroads.md`` §6): 0-3 BOX[build, offer, develop, pay dividends],
4-9 BUILD_RAILROAD[r], 10-15 OFFER_TREASURY[r], 16-21 OFFER_OWN[r], 22-80 SECTION[s00..s58],
81-127 SETTLEMENT[0..46], 128 DONE, 129 PASS, 130-629 BID[$1..$500]. Railroads r: CFM, CSAR, Natal,
CTR&D, Cape Midland, ZASM.

The only chance is the six setup die rolls, drawn from the seeded generator at reset; the game is
deterministic afterwards and has perfect information.

Version history: v0 (2026-11) first release.
"""

from __future__ import annotations

import numpy as np

from ..kernels import veld_railroads as kernel
from ..kernels.veld_railroads.actions import section_label
from ..kernels.veld_railroads.state import AUC_KIND_NAMES, PHASE_NAMES
from ..kernels.veld_railroads.tables import (
    BORDER_CLOSED,
    BORDER_IDS,
    BOX_NAMES,
    ERA_NAMES,
    LADDER,
    MAX_DEV,
    N_RAILROADS,
    RAILROAD_IDS,
    RAILROAD_SHORT,
    ROW_ERA,
    SETTLEMENT_NAMES,
)
from .base import KernelAECEnv, auction_text


def render_ansi(s: np.ndarray) -> str:
    """A text view: track, seats, railroads (treasury, sections, valuation, income, holders), settlements."""
    r = s[0]
    n = int(r["num_players"])
    row, pos = int(r["row"]), int(r["position"])
    income = np.zeros(N_RAILROADS, np.int64)
    kernel.sum_income(r["section_owner"], r["dev_level"], income)
    era = ERA_NAMES[int(ROW_ERA[row - 1])]
    track = "#" * min(pos, 36) + "." * max(0, 36 - pos)
    closed = [BORDER_IDS[b] for b in range(len(BORDER_IDS)) if BORDER_CLOSED[row - 1, b]]
    lines = [
        f"Veld Railroads - {PHASE_NAMES[int(r['phase'])]} - row {row}/8 ({era}), position {pos}/36, "
        f"payouts {int(r['payouts'])}, player_{int(r['active'])} acting, player_{int(kernel.to_move(s))} to move"
        if not kernel.is_over(s)
        else f"Veld Railroads - GAME OVER after {int(r['payouts'])} payouts"
    ]
    lines.append(f"track row {row}: [{track}]  closed borders: {' '.join(closed) or '-'}")
    lines.append("seat       cash  loco           " + "  ".join(f"{c.upper():>5}" for c in RAILROAD_IDS))
    for p in range(n):
        box = int(r["loco_box"][p])
        held = "  ".join(f"{int(r['holdings'][p, c]):>5}" for c in range(N_RAILROADS))
        lines.append(f"player_{p:<3} {int(r['cash'][p]):>5}  {BOX_NAMES[box] if box >= 0 else '-':<13}  {held}")
    lines.append("railroad  open  treasury  shares  sections  valuation  income  holders / network")
    for c in range(N_RAILROADS):
        holders = ", ".join(f"p{p}x{int(r['holdings'][p, c])}" for p in range(n) if r["holdings"][p, c])
        secs = [e for e in range(len(r["section_owner"])) if r["section_owner"][e] == c]
        lines.append(
            f"{RAILROAD_IDS[c].upper():<9} {'yes' if r['opened'][c] else 'no':>4}  "
            f"{'$' + str(int(r['treasury_cash'][c])):>8}  {int(r['treasury_shares'][c]):>6}  {len(secs):>8}  "
            f"{'$' + str(5 * len(secs)):>9}  {int(income[c]):>6}  "
            f"{holders or '-'}"
        )
        if secs:
            lines.append("          " + "; ".join(section_label(e) for e in secs))
    dev = [
        f"{SETTLEMENT_NAMES[v]} {int(LADDER[v, r['dev_level'][v]])}"
        + (f" (dev {int(r['dev_level'][v])}/{int(MAX_DEV[v])})" if r["dev_level"][v] else "")
        for v in range(len(r["dev_level"]))
        if r["touch"][:, v].any() or r["dev_level"][v]
    ]
    lines.append("settlements on track or developed (income): " + (", ".join(dev) or "-"))
    if int(r["auc_railroad"]) >= 0:
        lines.append(
            f"auction ({AUC_KIND_NAMES[int(r['auc_kind'])]}) {RAILROAD_SHORT[int(r['auc_railroad'])]}: "
            f"min ${int(r['auc_min'])}, " + auction_text(r, n, "auc_high_bid", "$", passed="out")
        )
    if int(r["bld_railroad"]) >= 0:
        leg = f", leg 1 {section_label(int(r['bld_leg1']))}" if int(r["bld_leg1"]) >= 0 else ""
        lines.append(
            f"building {RAILROAD_SHORT[int(r['bld_railroad'])]} (builder player_{int(r['bld_builder'])}, "
            f"single ${int(r['bld_single_cost'])}, double ${int(r['bld_double_cost'])}){leg}"
        )
    if int(r["fs_railroad"]) >= 0:
        lines.append(f"free section for {RAILROAD_SHORT[int(r['fs_railroad'])]} chosen by player_{int(r['fs_player'])}")
    if kernel.is_over(s):
        cash = r["cash"][:n]
        lines.append("winner (most cash): " + ", ".join(f"player_{p}" for p in range(n) if cash[p] == cash.max()))
    return "\n".join(lines)


class raw_env(KernelAECEnv):
    kernel = kernel
    render_ansi = staticmethod(render_ansi)


env = raw_env.make
