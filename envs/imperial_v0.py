"""Imperial (2-6 players): investors buy bonds of six great powers and steer the ones they control.

| import             | ``from tabletop_zoo.envs import imperial_v0``                           |
|--------------------|-------------------------------------------------------------------------|
| actions            | Discrete(801)                                                           |
| agents             | ``player_0 .. player_{n-1}``, n = 2..6 (``num_players``, default 4)    |
| observation        | Dict(observation: float32[OBS_SIZE], action_mask: int8[801])            |
| observation pieces | ``tabletop_zoo.kernels.imperial.OBS_PIECES`` (seat-relative)            |
| rewards            | at the end: 1/k to each of k winners (after the interest tie-break); ``reward="score_margin"``: final score minus the mean score |
| render modes       | ``ansi`` (text table), ``rgb_array`` (uint8[800, 1280, 3]: map, units, factories, chips, nation tables) |
| options            | ``ruleset="seed"``/``"published"``, ``home_tax_chips``, ``tax_chips_per_nation``, ``factory_topup``, ``optional_factory_destruction``, ``chip_update_all_nations``, ``hidden_cash``, ``max_nation_turns``, ``reward`` |

Action ids (spec ``shared/rules/imperial.md`` §6): 0-7 RONDEL[space], 8 PASS/DONE, 9-38 BUILD_FACTORY[h],
39-68 IMPORT_ARMY[h], 69-98 IMPORT_FLEET[h], 99-152 SELECT_ORIGIN[r], 153-206 SELECT_DEST[r],
207-215 SELECT_SEA[k], 216-245 TOGGLE_STANCE[h], 246 HOSTILE, 247 FRIENDLY, 248-253 FIGHT[n],
254-259 ASK[n], 260 DESTROY_FACTORY, 261-800 BUY[n, k, t]. Nations: AH, IT, FR, GB, GE, RU.

The flag cards are dealt from the seeded generator at reset; there is no chance after setup.
Decision points with one legal action are applied by the kernel (IMP-TURN-4): agents never see them.

Version history: v0 first release.
"""

from __future__ import annotations

import numpy as np

from ..kernels import imperial as kernel
from ..kernels.imperial.board import is_blocked
from ..kernels.imperial.state import PHASE_NAMES, RULESETS
from ..kernels.imperial.tables import MULTIPLIER, N_BONDS, N_NATIONS, N_REGIONS, NATION_IDS, REGION_IDS, RONDEL_IDS
from .base import KernelAECEnv, seat_scores


def render_ansi(s: np.ndarray) -> str:
    """A text view: nations, players, then units, factories and chips by region, and the pending decision."""
    r = s[0]
    n = int(r["num_players"])
    score = seat_scores(kernel, s)
    phase = PHASE_NAMES[int(r["phase"])]
    seat = int(kernel.to_move(s))
    who = f"player_{seat} to move" if seat >= 0 else "game over" + (" (truncated)" if r["truncated"] else "")
    lines = [
        f"Imperial - {NATION_IDS[int(r['nation'])]}'s turn, {phase}, {who}; nation turn {int(r['turn'])}, "
        f"ruleset {RULESETS[int(r['ruleset'])]}"
    ]
    lines.append("nation  treasury  power  mult  tax  rondel        flag       chips  units(A/F)")
    for k in range(N_NATIONS):
        pos = int(r["rondel_pos"][k])
        flag = int(r["flag"][k])
        chips = int(np.count_nonzero(r["chip"] == k))
        a, f = int(r["armies"][k].sum()), int(r["fleets"][k].sum())
        lines.append(
            f"{NATION_IDS[k]:<6}  {int(r['treasury'][k]):>8}  {int(r['power'][k]):>5}  "
            f"{int(MULTIPLIER[r['power'][k]]):>4}  {int(r['tax_pos'][k]):>3}  "
            f"{RONDEL_IDS[pos] if pos >= 0 else 'centre':<12}  "
            f"{('player_' + str(flag)) if flag >= 0 else 'bank':<9}  {chips:>5}  {a}/{f}"
        )
    lines.append("player      cash  score  bonds (nation:bond numbers)")
    for p in range(n):
        held = []
        for k in range(N_NATIONS):
            nums = [str(b + 1) for b in range(N_BONDS) if r["bond_owner"][k, b] == p]
            if nums:
                held.append(f"{NATION_IDS[k]}:{','.join(nums)}")
        card = " [investor card]" if int(r["investor_card"]) == p else ""
        lines.append(f"player_{p:<3} {int(r['cash'][p]):>5}  {int(score[p]):>5}  {' '.join(held)}{card}")
    lines.append("region              factory  units                       chip")
    for x in range(N_REGIONS):
        parts = []
        for k in range(N_NATIONS):
            a, f = int(r["armies"][k, x]), int(r["fleets"][k, x])
            if a:
                stance = ""
                if x < 30 and x // 5 != k:
                    stance = " hostile" if r["hostile"][k, x] else " friendly"
                parts.append(f"{NATION_IDS[k]} {a}A{stance}")
            if f:
                parts.append(f"{NATION_IDS[k]} {f}F")
        fac = ""
        if x < 30 and r["factory"][x]:
            fac = "factory" + ("*" if is_blocked(r, x) else "")
        chip = NATION_IDS[int(r["chip"][x])] if r["chip"][x] >= 0 else ""
        if parts or fac or chip:
            lines.append(f"{REGION_IDS[x]:<20}{fac:<9}{', '.join(parts):<28}{chip}")
    lines.append(_pending(s))
    return "\n".join(lines)


def _pending(s: np.ndarray) -> str:
    """The last line: the winners, or who decides what (with a maneuver's selected origin)."""
    r = s[0]
    if kernel.is_over(s):
        won = np.zeros(kernel.MAX_PLAYERS, np.int64)
        kernel.winners(s, won)
        return "winner: " + ", ".join(f"player_{p}" for p in np.flatnonzero(won[: int(r["num_players"])]))
    line = f"pending: {PHASE_NAMES[int(r['phase'])]} for player_{int(kernel.to_move(s))}"
    if int(r["mv_origin"]) >= 0:
        line += f", selected origin {REGION_IDS[int(r['mv_origin'])]}"
    return line


class raw_env(KernelAECEnv):
    kernel = kernel
    render_ansi = staticmethod(render_ansi)


env = raw_env.make
