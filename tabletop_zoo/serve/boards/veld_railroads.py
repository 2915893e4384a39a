"""Veld Railroads board: the settlement map of ``envs/render/veld_railroads.py`` (region names, sections:
unbuilt grey, built in the railroad's colour, closed borders dotted red; settlements by type, gold when
developed, home ringed, income inside); section and settlement actions target them."""

from __future__ import annotations

import numpy as np

from ...envs.render.veld_railroads import (
    DEVELOPED_FILL,
    LAYOUT,
    MAP_H,
    MAP_W,
    POS,
    RAILROAD_COLOURS,
)
from ...envs.render.veld_railroads import (
    _px as _layout_px,
)
from ...kernels.veld_railroads.actions import action_family
from ...kernels.veld_railroads.tables import (
    BORDER_CLOSED,
    HOME,
    LADDER,
    MAX_DEV,
    N_RAILROADS,
    N_SECTIONS,
    N_SETTLEMENTS,
    SEC_A,
    SEC_B,
    SEC_BORDER,
    SECTION_IDS,
    SET_TYPE,
    SETTLEMENT_IDS,
    SETTLEMENT_NAMES,
    TYPE_NAMES,
)
from . import Scene


def _px(xy) -> tuple[float, float]:
    return float(xy[0]), MAP_H - float(xy[1])  # the renderer's map pixels are y up


def place_of(action: int) -> str | None:
    family, arg = action_family(int(action))
    if family == "SECTION":
        return SECTION_IDS[arg]
    if family == "SETTLEMENT":
        return SETTLEMENT_IDS[arg]
    return None


def scene(s: np.ndarray) -> Scene:
    r = s[0]
    sc = Scene(MAP_W, MAP_H, "#fbf8f0")
    for p in LAYOUT["region_labels"].values():
        x, y = _px(_layout_px(p))
        sc.add(
            "text", p["label"].upper(), x=x, y=y, font_size=14, fill="#cdbf9f", font_weight="bold", text_anchor="middle"
        )
    _sections(sc, r)
    _settlements(sc, r)
    return sc


def _sections(sc: Scene, r) -> None:
    """Every section as a line (a wide transparent one on top makes it easy to click)."""
    row = int(r["row"])
    for e in range(N_SECTIONS):
        (x1, y1), (x2, y2) = _px(POS[SEC_A[e]]), _px(POS[SEC_B[e]])
        owner = int(r["section_owner"][e])
        if owner >= 0:
            sc.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#111111", stroke_width=6)
            sc.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=RAILROAD_COLOURS[owner], stroke_width=4)
        elif SEC_BORDER[e] >= 0 and BORDER_CLOSED[row - 1, SEC_BORDER[e]]:  # VR-BORDER-1: closed this row
            sc.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#e04040", stroke_width=1.8, stroke_dasharray="2 3")
        else:
            sc.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke="#b8b8b8", stroke_width=1.3)
        sc.add("line", place=SECTION_IDS[e], x1=x1, y1=y1, x2=x2, y2=y2, stroke="transparent", stroke_width=9)


def _settlements(sc: Scene, r) -> None:
    home_of = {int(HOME[c]): c for c in range(N_RAILROADS)}
    for v in range(N_SETTLEMENTS):
        x, y = _px(POS[v])
        level = int(r["dev_level"][v])
        fill = DEVELOPED_FILL if level else "white"
        edge, lw = (RAILROAD_COLOURS[home_of[v]], 2.6) if v in home_of else ("#333333", 1.0)
        kind = TYPE_NAMES[SET_TYPE[v]]
        size = 8.0 if kind == "metropolis" else 6.5
        attrs = {"place": SETTLEMENT_IDS[v], "fill": fill, "stroke": edge, "stroke_width": lw}
        if kind == "station":
            sc.add("circle", cx=x, cy=y, r=size, **attrs)
        elif kind == "commercial":
            sc.add("rect", x=x - size, y=y - size, width=2 * size, height=2 * size, **attrs)
        elif kind == "railway_base":
            sc.add("polygon", points=[(x, y - size - 1), (x - size - 1, y + size), (x + size + 1, y + size)], **attrs)
        elif kind == "metropolis":
            sc.add(
                "polygon", points=[(x, y - size - 2), (x + size + 2, y), (x, y + size + 2), (x - size - 2, y)], **attrs
            )
        else:  # agricultural: a hexagon
            ang = np.deg2rad(60 * np.arange(6) + 30)
            sc.add("polygon", points=[(x + size * np.cos(a), y + size * np.sin(a)) for a in ang], **attrs)
        sc.add("text", str(int(LADDER[v, level])), x=x, y=y + 3, font_size=8, font_weight="bold", text_anchor="middle")
        sc.add("text", SETTLEMENT_NAMES[v], x=x, y=y + 19, font_size=8, fill="#222222", text_anchor="middle")
        if MAX_DEV[v] > 1:  # metropolis: how far up its ladder it is
            sc.add(
                "text",
                f"dev {level}/{int(MAX_DEV[v])}",
                x=x - 12,
                y=y + 3,
                font_size=8,
                fill="#7a4a00",
                font_weight="bold",
                text_anchor="end",
            )
