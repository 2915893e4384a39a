"""Kremlin board: the posts ladder of ``envs/render/kremlin.py`` (each post's gamer with experience, SP
and age, broke / suspicion / part-time markers, the box tinted with the controlling faction) and the
gamers in the civilians, other circles and retired rows. Only public facts: the secret influence sheets
are never drawn. SELECT_POST targets a post, SELECT_GAMER a gamer."""

from __future__ import annotations

import numpy as np

from ...envs.render.kremlin import BOX_H, BOX_W, LOC_ROWS, PLAYER_COLOURS, POST_XY
from ...kernels.kremlin.actions import action_family
from ...kernels.kremlin.tables import (
    EXPERIENCE,
    GAMER_IDS,
    GAMER_LABELS,
    LOCATION_LABELS,
    N_POSTS,
    POST_IDS,
    POST_LABELS,
)
from . import Scene

AXES_H = 740  # the renderer's ladder axes are 0..740 pixels, y up
LEFT, WIDTH = 20, 800  # the ladder's part of those axes
CHIP_W, CHIP_H, CHIPS_PER_LINE = 34, 16, 20


def _px(x, y) -> tuple[float, float]:
    return float(x) - LEFT, AXES_H - float(y)


def _theme(r) -> str:
    return "kremlin_en" if int(r["theme"]) == 1 else "magne_en"


def place_of(action: int) -> str | None:
    family, args = action_family(int(action))
    if family == "SELECT_POST":
        return POST_IDS[args[0]]
    if family == "SELECT_GAMER":
        return GAMER_IDS[args[0]]
    return None


def scene(s: np.ndarray) -> Scene:
    r = s[0]
    sc = Scene(WIDTH, AXES_H - 110, "#fbfaf6")
    theme = _theme(r)
    for k in range(N_POSTS):
        _post(sc, r, k, theme)
    _locations(sc, r, theme)
    return sc


def _faction_fill(r, g: int) -> str:
    c = int(r["controller"][g])
    return PLAYER_COLOURS[c] if c >= 0 else "#eeeeee"


def _post(sc: Scene, r, k: int, theme: str) -> None:
    x, y = _px(*POST_XY[k])
    g = int(r["holder"][k])
    actor, target = int(r["actor"]), int(r["target"])
    edge, lw = "#777777", 1.0
    if g >= 0 and g in (actor, target):
        edge, lw = ("#1a9e1a" if g == actor else "#e00000"), 2.8
    sc.add(
        "rect",
        place=POST_IDS[k],
        x=x - BOX_W / 2,
        y=y - BOX_H / 2,
        width=BOX_W,
        height=BOX_H,
        fill="white",
        stroke=edge,
        stroke_width=lw,
    )
    sc.add(
        "text",
        f"{POST_IDS[k]} {POST_LABELS[theme][k]}",
        x=x - BOX_W / 2 + 4,
        y=y - BOX_H / 2 + 12,
        font_size=9,
        font_weight="bold",
    )
    if g < 0:
        sc.add(
            "text", "(vacant)", x=x, y=y + 8, font_size=10, fill="#888888", font_style="italic", text_anchor="middle"
        )
        return
    sc.add(
        "rect",
        place=GAMER_IDS[g],
        x=x - BOX_W / 2 + 3,
        y=y - BOX_H / 2 + 17,
        width=BOX_W - 6,
        height=BOX_H - 20,
        fill=_faction_fill(r, g),
        fill_opacity=0.3,
    )
    c = int(r["controller"][g])
    age = int(EXPERIENCE[g]) + int(r["sp"][g])
    lines = (
        f"{GAMER_IDS[g]} {GAMER_LABELS[theme][g]}",
        f"exp {int(EXPERIENCE[g])} SP {int(r['sp'][g])} age {age}",
        f"player_{c}" if c >= 0 else "no faction",
        _markers(r, g),
    )
    for i, line in enumerate(lines):
        sc.add(
            "text",
            line,
            x=x - BOX_W / 2 + 6,
            y=y - BOX_H / 2 + 31 + 13 * i,
            font_size=9,
            fill="#c00000" if i == 3 else "black",
        )


def _markers(r, g: int) -> str:
    """Part-time (PT), suspicion (S with its turn) and broke markers, as the renderer shows them."""
    marks = ["PT"] if r["part_time"][g] else []
    if r["susp_turn"][g]:
        marks.append(f"S{int(r['susp_turn'][g])}")
    marks.extend("●" * int(r["broke"][g]))
    return " ".join(marks)


def _locations(sc: Scene, r, theme: str) -> None:
    """Gamers outside the posts, one chip each in the faction's colour, a row per location."""
    for loc, y in LOC_ROWS:
        _, top = _px(0, y)
        sc.add("text", LOCATION_LABELS[theme][loc], x=4, y=top - 4, font_size=9, font_weight="bold")
        gamers = np.flatnonzero(r["loc"] == loc)
        for i, g in enumerate(gamers):
            row, col = divmod(i, CHIPS_PER_LINE)
            cx, cy = 4 + col * (CHIP_W + 4), top + row * (CHIP_H + 3)
            sc.add(
                "rect",
                place=GAMER_IDS[g],
                x=cx,
                y=cy,
                width=CHIP_W,
                height=CHIP_H,
                fill=_faction_fill(r, g),
                fill_opacity=0.45,
                stroke="#555555",
                stroke_width=0.6,
            )
            sc.add("text", GAMER_IDS[g] + "●" * int(r["broke"][g]), x=cx + 3, y=cy + 12, font_size=9)
