"""Kremlin as "Magne!" (3-6 players): factions secretly back gamers of a game club, purge, gossip,
elect and reshuffle until one faction's chairman gives three year-end speeches.

| import             | ``from tabletop_zoo.envs import kremlin_v0``                                 |
|--------------------|------------------------------------------------------------------------------|
| actions            | Discrete(304)                                                                |
| agents             | ``player_0 .. player_{n-1}``, n = 3..6 (``num_players``, default 4)         |
| observation        | Dict(observation: float32[1706], action_mask: int8[304])                    |
| observation pieces | ``tabletop_zoo.kernels.kremlin.OBS_PIECES`` (seat-relative, own sheet only)  |
| rewards            | at the end: winner 1, others 0; a draw 1/n each; turn-limit stop 0 for all   |
| options            | ``theme="magne"``/``"kremlin"`` (labels), ``traits``, ``random_placement``,   |
|                    | ``turn_limit`` (30), ``turn_limit_ranking``, ``ruleset="seed"``               |
| render modes       | ``"ansi"`` (text), ``"rgb_array"`` (uint8[800, 1280, 3]: posts ladder + sheets); |
|                    | both are privileged views of the full record (rgb shows the secret sheets)   |

Action ids (spec ``shared/rules/kremlin.md`` §6): 0-25 SELECT_GAMER[g], 26-38 SELECT_POST[P00..P12],
39-298 DECLARE[g, v] = 39 + 10 g + v - 1, 299 DONE, 300 VOTE_OPPOSE, 301 VOTE_SUPPORT, 302 RUMOUR_A,
303 RUMOUR_B.

Hidden information: each seat's influence sheet; ``observe`` shows a seat its own sheet only. The d20s
are rolled by the environment from its seeded generator; search code can drive them through the
kernel's ``chance_outcomes``/``step_chance`` and resample secrets with ``determinize``.

Version history: v0 (2026-11) first release.
"""

from __future__ import annotations

import numpy as np

from ..kernels import kremlin as kernel
from ..kernels.kremlin.state import CONT_NAMES, PHASE_NAMES, PH_WINDOW, WIN_DRAW, WIN_TRUNCATED
from ..kernels.kremlin.tables import (
    EXPERIENCE, GAMER_IDS, GAMER_LABELS, LOC_CIV, LOC_OTH, LOC_RET, N_GAMERS, N_POSTS, POST_IDS, POST_LABELS,
)
from .base import KernelAECEnv


def _gamer_line(r, g, theme) -> str:
    c = int(r["controller"][g])
    ctrl = f"player_{c}" if c >= 0 else "-"
    marks = []
    if r["broke"][g]:
        marks.append("broke" + "*" * int(r["broke"][g]))
    if r["susp_turn"][g]:
        marks.append(f"suspect(t{int(r['susp_turn'][g])})")
    if r["part_time"][g]:
        marks.append("part-time")
    age = int(EXPERIENCE[g]) + int(r["sp"][g])
    return (f"{GAMER_IDS[g]} {GAMER_LABELS[theme][g]:<14} exp {int(EXPERIENCE[g]):>2} SP {int(r['sp'][g]):>2} "
            f"(age {age:>2})  {ctrl:<9} {' '.join(marks)}")


def render_ansi(s: np.ndarray) -> str:
    """The posts ladder with gamers, SP, broke/suspicion markers, controllers; speeches; pending decision."""
    r = s[0]
    n = int(r["num_players"])
    theme = "kremlin_en" if int(r["theme"]) == 1 else "magne_en"
    title = "Kremlin" if theme == "kremlin_en" else "Magne!"
    phase = PHASE_NAMES[int(r["phase"])]
    if int(r["phase"]) == PH_WINDOW:
        phase += f" (before {CONT_NAMES[int(r['dw_cont'])]})"
    lines = [f"{title} - turn {int(r['turn'])}/{int(r['turn_limit'])} - {phase} - start player_{int(r['start_player'])}"]
    lines.append("speeches: " + "  ".join(f"player_{p}={int(r['speeches'][p])}" for p in range(n)))
    for k in range(N_POSTS):
        g = int(r["holder"][k])
        who = _gamer_line(r, g, theme) if g >= 0 else "(vacant)"
        lines.append(f"{POST_IDS[k]} {POST_LABELS[theme][k]:<22} {who}")
    for loc, label in ((LOC_CIV, "civilians"), (LOC_OTH, "other circles"), (LOC_RET, "retired")):
        ids = [GAMER_IDS[g] for g in range(N_GAMERS) if r["loc"][g] == loc]
        lines.append(f"{label}: {' '.join(ids) or '-'}")
    decl = []
    for g in range(N_GAMERS):
        parts = [f"p{p}:{int(r['declared'][p, g])}" for p in range(n) if r["declared"][p, g]]
        if parts:
            decl.append(f"{GAMER_IDS[g]}[{','.join(parts)}]")
    lines.append("declarations: " + (" ".join(decl) or "-"))
    w = int(r["winner"])
    if int(r["phase"]) == len(PHASE_NAMES) - 1:
        lines.append("result: " + ("draw" if w == WIN_DRAW else "turn limit reached, no winner" if w == WIN_TRUNCATED
                                   else f"player_{w} wins"))
    else:
        pending = [f"player_{int(kernel.to_move(s))} to move" if int(r["phase"]) != PHASE_NAMES.index("CHANCE")
                   else "d20 roll pending"]
        pending += [f"{label} {GAMER_IDS[int(r[key])]}"
                    for key, label in (("actor", "acting gamer"), ("target", "target")) if int(r[key]) >= 0]
        if int(r["last_roll"]):
            pending.append(f"last d20 {int(r['last_roll'])}")
        lines.append("pending: " + ", ".join(pending))
    return "\n".join(lines)


def render_rgb(s: np.ndarray) -> np.ndarray:
    """The ``rgb_array`` frame, uint8[800, 1280, 3] (envs/render/kremlin.py; matplotlib loads on first use)."""
    from .render.kremlin import render_rgb as draw

    return draw(s)


class raw_env(KernelAECEnv):
    kernel = kernel
    default_players = 4
    render_ansi = staticmethod(render_ansi)
    render_rgb = staticmethod(render_rgb)
    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "kremlin_v0", "is_parallelizable": False}


def env(**kwargs) -> raw_env:
    """The environment. Checks are built in, so no PettingZoo wrappers are stacked on top."""
    return raw_env(**kwargs)
