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
|                    | both show the full record (every secret sheet); ``render_ansi(s, seat)`` and  |
|                    | ``env.render_for(seat)`` give the text table as that seat may see it        |

Action ids (spec ``shared/rules/kremlin.md`` §6): 0-25 SELECT_GAMER[g], 26-38 SELECT_POST[P00..P12],
39-298 DECLARE[g, v] = 39 + 10 g + v - 1, 299 DONE, 300 VOTE_OPPOSE, 301 VOTE_SUPPORT, 302 RUMOUR_A,
303 RUMOUR_B.

Hidden information: each seat's influence sheet; ``observe`` and ``render_ansi(s, seat)`` show a seat its own
sheet only, and ``public_action_name`` hides another seat's allocation choices (KRM-SET-4). The d20s
are rolled by the environment from its seeded generator; search code can drive them through the
kernel's ``chance_outcomes``/``step_chance`` and resample secrets with ``determinize``.

Version history: v0 (2026-11) first release.
"""

from __future__ import annotations

import numpy as np

from ..kernels import kremlin as kernel
from ..kernels.kremlin.state import CONT_NAMES, PH_ASSIGN, PH_WINDOW, PHASE_NAMES, WIN_DRAW, WIN_TRUNCATED
from ..kernels.kremlin.tables import (
    EXPERIENCE,
    GAMER_IDS,
    GAMER_LABELS,
    LOC_CIV,
    LOC_OTH,
    LOC_RET,
    MAX_VALUE,
    N_GAMERS,
    N_POSTS,
    POST_IDS,
    POST_LABELS,
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
    return (
        f"{GAMER_IDS[g]} {GAMER_LABELS[theme][g]:<14} exp {int(EXPERIENCE[g]):>2} SP {int(r['sp'][g]):>2} "
        f"(age {age:>2})  {ctrl:<9} {' '.join(marks)}"
    )


def _sheet_entries(r, p) -> list[str]:
    """Seat p's secret sheet (KRM-INF-1), highest value first: gamer, value, and what is declared,
    burned and left of it."""
    entries = []
    for g in sorted(np.flatnonzero(r["assigned"][p]), key=lambda g: -int(r["assigned"][p, g])):
        v, d, b = int(r["assigned"][p, g]), int(r["declared"][p, g]), int(r["burned"][p, g])
        used = ", ".join(f"{x} {word}" for x, word in ((d, "declared"), (b, "burned")) if x)
        entries.append(f"{GAMER_IDS[g]}={v}" + (f" ({used}, {v - d - b} left)" if used else ""))
    return entries or ["nothing assigned yet"]


def _wrap(head: str, entries: list[str], width: int = 110) -> list[str]:
    """``head`` then the entries separated by '; ', wrapped between entries (never inside one)."""
    lines, line = [], head
    for i, e in enumerate(entries):
        piece = e + (";" if i < len(entries) - 1 else "")
        if len(line) + 1 + len(piece) > width and line.strip():
            lines.append(line)
            line = "   "
        line += " " + piece
    return lines + [line]


def _values_given(r, p) -> int:
    """How many of its 10 values seat p has assigned (public: the allocation runs in seat order)."""
    seat = int(r["assign_seat"])
    return MAX_VALUE if seat > p else int(r["assign_count"]) if seat == p else 0


def _sheet_lines(r, seat) -> list[str]:
    """The influence sheets: every one (seat None, privileged), else ``seat``'s own and the others'
    public traces (values given during the allocation, points declared and burned) - spec §7."""
    n = int(r["num_players"])
    allocating = int(r["phase"]) == PH_ASSIGN
    head = (
        "influence sheets (privileged view: every seat's secret sheet):"
        if seat is None
        else f"influence sheets (secret; only yours is shown, player_{seat}):"
    )
    lines = [head]
    for p in range(n):
        label = f"player_{p}" + (" (you)" if p == seat else "") + ":"
        if seat is None or p == seat:
            lines += _wrap(label, _sheet_entries(r, p))
        else:
            given = f"{_values_given(r, p)}/{MAX_VALUE} values given; " if allocating else ""
            lines.append(
                f"{label} secret - {given}{int(r['declared'][p].sum())} points declared, "
                f"{int(r['burned'][p].sum())} burned so far"
            )
    return lines


def render_ansi(s: np.ndarray, seat: int | None = None) -> str:
    """The posts ladder with gamers, SP, broke/suspicion markers, controllers; speeches; declarations;
    influence sheets; pending decision. ``seat`` None is the privileged full view (every secret sheet);
    ``seat`` p shows what p may see (spec §7): its own sheet, and only public traces of the others'."""
    r = s[0]
    n = int(r["num_players"])
    if seat is not None and not 0 <= seat < n:
        raise ValueError(f"seat must be None (full view) or a seat 0..{n - 1}, got {seat!r}")
    theme = "kremlin_en" if int(r["theme"]) == 1 else "magne_en"
    title = "Kremlin" if theme == "kremlin_en" else "Magne!"
    phase = PHASE_NAMES[int(r["phase"])]
    if int(r["phase"]) == PH_WINDOW:
        phase += f" (before {CONT_NAMES[int(r['dw_cont'])]})"
    view = "full table view" if seat is None else f"player_{seat}'s view"
    lines = [
        f"{title} - turn {int(r['turn'])}/{int(r['turn_limit'])} - {phase} - start player_{int(r['start_player'])}"
        f" - {view}"
    ]
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
    lines += _sheet_lines(r, seat)
    w = int(r["winner"])
    if int(r["phase"]) == len(PHASE_NAMES) - 1:
        lines.append(
            "result: "
            + (
                "draw"
                if w == WIN_DRAW
                else "turn limit reached, no winner"
                if w == WIN_TRUNCATED
                else f"player_{w} wins"
            )
        )
    else:
        pending = [
            f"player_{int(kernel.to_move(s))} to move"
            if int(r["phase"]) != PHASE_NAMES.index("CHANCE")
            else "d20 roll pending"
        ]
        pending += [
            f"{label} {GAMER_IDS[int(r[key])]}"
            for key, label in (("actor", "acting gamer"), ("target", "target"))
            if int(r[key]) >= 0
        ]
        if int(r["last_roll"]):
            pending.append(f"last d20 {int(r['last_roll'])}")
        lines.append("pending: " + ", ".join(pending))
    return "\n".join(lines)


class raw_env(KernelAECEnv):
    kernel = kernel
    render_ansi = staticmethod(render_ansi)


env = raw_env.make
