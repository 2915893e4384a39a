"""French Revolution 1789 board: the map of ``envs/render/french_revolution_1789.py`` (France and Corsica,
cities with RP / VP and which foreign armies may enter, each city's army unit and support marker);
TARGET_CITY actions target a city. Only public pieces: the hands stay out of the board."""

from __future__ import annotations

import numpy as np

from ...envs.render.french_revolution_1789 import (
    _COS,
    ARMY_FACE,
    ARMY_TEXT,
    CITY_XY,
    LAND,
    LAYOUT,
    PLAYER_COLOURS,
    SEA,
    SUPPORT_OFFSET,
    UNIT_OFFSET,
    _project,
)
from ...kernels.french_revolution_1789.actions import A_CITY
from ...kernels.french_revolution_1789.names import CITY_NAMES
from ...kernels.french_revolution_1789.tables import CITY_ELIG, CITY_IDS, CITY_RP, CITY_VP, N_CITIES
from . import Scene

UNIT = 62.0  # pixels per projected degree
X0, X1, Y0, Y1 = -5.2 * _COS, 10.2 * _COS, 41.15, 51.45  # the renderer's map axes limits
LABEL_BELOW = {"toulon", "perpignan", "bayonne", "strasbourg", "nantes"}


def _px(xy) -> tuple[float, float]:
    return (float(xy[0]) - X0) * UNIT, (Y1 - float(xy[1])) * UNIT


def place_of(action: int) -> str | None:
    a = int(action)
    return CITY_IDS[a - A_CITY] if A_CITY <= a < A_CITY + N_CITIES else None


def scene(s: np.ndarray) -> Scene:
    r = s[0]
    sc = Scene((X1 - X0) * UNIT, (Y1 - Y0) * UNIT, SEA)
    for outline in LAYOUT["outlines"].values():
        sc.add("polygon", points=[_px(p) for p in _project(outline)], fill=LAND, stroke="#8a7f66")
    for c, cid in enumerate(CITY_IDS):
        x, y = _px(CITY_XY[c])
        sc.add("circle", place=cid, cx=x, cy=y, r=9, fill="black", fill_opacity=0.15, stroke="black")
        sc.add("circle", cx=x, cy=y, r=3, fill="black")
        elig = ("C" if CITY_ELIG[c] & 2 else "") + ("R" if CITY_ELIG[c] & 4 else "")
        name_y = y + 26 if cid in LABEL_BELOW else y - 30
        sc.add("text", CITY_NAMES[c], x=x, y=name_y, font_size=11, font_weight="bold", text_anchor="middle")
        sc.add(
            "text",
            f"{int(CITY_RP[c])} RP  {int(CITY_VP[c])} VP" + (f"  {elig}" if elig else ""),
            x=x,
            y=name_y + 12,
            font_size=9,
            fill="#555555",
            text_anchor="middle",
        )
    _pieces(sc, r)
    return sc


def _pieces(sc: Scene, r) -> None:
    """Each city's army unit (square with its strength) and support marker (disc in the player's colour)."""
    for c in range(N_CITIES):
        ux, uy = _px(CITY_XY[c] + UNIT_OFFSET[c])
        army = int(r["city_army"][c])
        sc.add("rect", x=ux - 8, y=uy - 8, width=16, height=16, fill=ARMY_FACE[army], stroke="black")
        if r["city_str"][c] > 0:
            sc.add(
                "text",
                str(int(r["city_str"][c])),
                x=ux,
                y=uy + 4,
                font_size=10,
                font_weight="bold",
                fill=ARMY_TEXT[army],
                text_anchor="middle",
            )
        owner = int(r["city_owner"][c])
        if owner >= 0:
            sx, sy = _px(CITY_XY[c] + SUPPORT_OFFSET[c])
            sc.add("circle", cx=sx, cy=sy, r=7, fill=PLAYER_COLOURS[owner], stroke="black")
