"""Irish Gauge board: the hex map of ``envs/render/irish_gauge.py`` (terrain, place names, dividend cubes,
each company's locomotives on its slot of the hex, home hexes ringed); PLACE actions target a hex."""

from __future__ import annotations

import numpy as np

from ...envs.render.irish_gauge import (
    COMPANY_COLOURS,
    CUBE_RGB,
    HEX_XY,
    LOCO_OFFSET,
    SEA,
    TERRAIN_COLOURS,
)
from ...kernels.irish_gauge.actions import action_family
from ...kernels.irish_gauge.tables import HEX_IDS, HEX_NAMES, HOME_HEX, N_COMPANIES, TERRAIN, TERRAIN_NAMES
from . import Scene

UNIT = 34.0  # pixels per hex circumradius
PAD = 1.2  # hex units of sea around the island
_X0, _Y1 = HEX_XY[:, 0].min() - PAD, HEX_XY[:, 1].max() + PAD
WIDTH = (HEX_XY[:, 0].max() + PAD - _X0) * UNIT
HEIGHT = (_Y1 - HEX_XY[:, 1].min() + PAD) * UNIT
_CORNERS = np.stack([np.cos(np.deg2rad(60 * np.arange(6))), np.sin(np.deg2rad(60 * np.arange(6)))], axis=1)


def _px(xy) -> tuple[float, float]:
    """Layout units (north up) to scene pixels (y down)."""
    return (float(xy[0]) - _X0) * UNIT, (_Y1 - float(xy[1])) * UNIT


def place_of(action: int) -> str | None:
    family, arg = action_family(int(action))
    return HEX_IDS[arg] if family == "PLACE" else None


def scene(s: np.ndarray) -> Scene:
    r = s[0]
    sc = Scene(WIDTH, HEIGHT, SEA)
    for h, xy in enumerate(HEX_XY):
        corners = [_px(xy + 0.98 * c) for c in _CORNERS]
        sc.add(
            "polygon",
            place=HEX_IDS[h],
            points=corners,
            fill=TERRAIN_COLOURS[TERRAIN_NAMES[TERRAIN[h]]],
            stroke="#7a8a70",
            stroke_width=0.8,
        )
        x, y = _px(xy)
        if HEX_NAMES[h]:
            sc.add("text", HEX_NAMES[h], x=x, y=y - 0.45 * UNIT, font_size=8, font_weight="bold", text_anchor="middle")
        sc.add("text", HEX_IDS[h], x=x, y=y - 0.2 * UNIT, font_size=6.5, fill="#5b6655", text_anchor="middle")
    for c in range(N_COMPANIES):  # home hexes: a ring on the company's slot
        x, y = _px(HEX_XY[HOME_HEX[c]] + LOCO_OFFSET[c])
        sc.add("circle", cx=x, cy=y, r=7.5, fill="none", stroke=COMPANY_COLOURS[c], stroke_width=2)
    for h in np.flatnonzero(r["cube"] >= 0):  # dividend cubes in the hex centres
        x, y = _px(HEX_XY[h])
        sc.add("rect", x=x - 5, y=y - 3, width=10, height=10, fill=CUBE_RGB[int(r["cube"][h])], stroke="#444444")
    for c in range(N_COMPANIES):  # one locomotive disc per company on its slot of the hex
        for h in np.flatnonzero(r["loco"][c]):
            x, y = _px(HEX_XY[h] + LOCO_OFFSET[c])
            sc.add("circle", cx=x, cy=y, r=5, fill=COMPANY_COLOURS[c], stroke="black", stroke_width=0.8)
    return sc
