"""Imperial board: the region map of ``envs/render/imperial.py`` (borders, region boxes by kind, factory
slots, tax chips, unit badges with their stance); factory, import, maneuver and stance actions target a
region."""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_hex

from ...envs.render.imperial import (
    _PX,
    LABELS,
    LAYOUT,
    MAP_H,
    MAP_W,
    NATION_COLOURS,
    NEUTRAL_FILL,
    POS,
    SEA_EDGE,
    SEA_FILL,
    _badges,
    _box_width,
    _text_colour,
    _tint,
)
from ...kernels.imperial.actions import action_family
from ...kernels.imperial.board import is_blocked
from ...kernels.imperial.tables import (
    EDGES,
    FACTORY_TYPE,
    FIRST_SEA,
    FT_ARMAMENTS,
    KIND_HOME,
    KIND_SEA,
    N_HOME,
    N_REGIONS,
    REGION_IDS,
    REGION_KIND,
)
from . import Scene

_HOME_FAMILIES = ("BUILD_FACTORY", "IMPORT_ARMY", "IMPORT_FLEET", "TOGGLE_STANCE")  # argument: home region


def _px(xy) -> tuple[float, float]:
    return float(xy[0]), MAP_H - float(xy[1])  # the renderer's map pixels are y up


def place_of(action: int) -> str | None:
    family, arg = action_family(int(action))
    if family in _HOME_FAMILIES or family in ("SELECT_ORIGIN", "SELECT_DEST"):
        return REGION_IDS[arg]
    if family == "SELECT_SEA":
        return REGION_IDS[FIRST_SEA + arg]
    return None


def scene(s: np.ndarray) -> Scene:
    r = s[0]
    sc = Scene(MAP_W, MAP_H, "#f7f9fb")
    _edges(sc)
    _regions(sc)
    _factories(sc, r)
    _chips(sc, r)
    _units(sc, r)
    return sc


def _edges(sc: Scene) -> None:
    """Borders: land-land grey, land-sea dotted blue, sea-sea dashed blue."""
    for a, b in EDGES:
        seas = int(REGION_KIND[a] == KIND_SEA) + int(REGION_KIND[b] == KIND_SEA)
        (x1, y1), (x2, y2) = _px(POS[a]), _px(POS[b])
        stroke, dash = (("#9a9a9a", None), (SEA_EDGE, "2 3"), (SEA_EDGE, "6 3"))[seas]
        sc.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=1.1, stroke_dasharray=dash)


def _regions(sc: Scene) -> None:
    """A labelled box per region, filled by kind (home provinces in the owner's tint); Switzerland greyed."""
    for x in range(N_REGIONS):
        cx, cy = _px(POS[x])
        w, h = _box_width(LABELS[x]), 15.0
        kind = REGION_KIND[x]
        if kind == KIND_HOME:
            owner = x // 5
            fill, edge, lw = to_hex(_tint(NATION_COLOURS[owner])), NATION_COLOURS[owner], 1.6
        elif kind == KIND_SEA:
            fill, edge, lw = SEA_FILL, SEA_EDGE, 1.0
        else:
            fill, edge, lw = NEUTRAL_FILL, "#8a7a5a", 1.0
        sc.add(
            "rect",
            place=REGION_IDS[x],
            x=cx - w / 2,
            y=cy - h / 2,
            width=w,
            height=h,
            rx=4,
            fill=fill,
            stroke=edge,
            stroke_width=lw,
        )
        sc.add(
            "text",
            LABELS[x],
            x=cx,
            y=cy + 3,
            font_size=9,
            text_anchor="middle",
            font_style="italic" if kind == KIND_SEA else None,
        )
    sx, sy = _px(_PX["switzerland"])
    sc.add(
        "text",
        LAYOUT["impassable"]["switzerland"]["label"],
        x=sx,
        y=sy + 3,
        font_size=8,
        fill="#888888",
        font_style="italic",
        text_anchor="middle",
    )


def _factories(sc: Scene, r) -> None:
    """Factory slot left of each home province's box: filled = factory, hollow = empty, red x = blocked."""
    for h in range(N_HOME):
        cx, cy = _px(POS[h])
        fx = cx - _box_width(LABELS[h]) / 2 - 6
        built = bool(r["factory"][h])
        fill, edge = ("#333333", "#333333") if built else ("white", "#999999")
        if FACTORY_TYPE[h] == FT_ARMAMENTS:
            sc.add("rect", x=fx - 4, y=cy - 4, width=8, height=8, fill=fill, stroke=edge)
        else:  # shipyard
            sc.add("polygon", points=[(fx, cy - 5), (fx - 5, cy + 4), (fx + 5, cy + 4)], fill=fill, stroke=edge)
        if built and is_blocked(r, h):
            sc.add("line", x1=fx - 5, y1=cy - 5, x2=fx + 5, y2=cy + 5, stroke="red", stroke_width=2)
            sc.add("line", x1=fx - 5, y1=cy + 5, x2=fx + 5, y2=cy - 5, stroke="red", stroke_width=2)


def _chips(sc: Scene, r) -> None:
    """Tax chip: a dot in the owning nation's colour on the box's top-right corner."""
    for x in np.flatnonzero(r["chip"] >= 0):
        cx, cy = _px(POS[x])
        sc.add(
            "circle",
            cx=cx + _box_width(LABELS[x]) / 2,
            cy=cy - 7.5,
            r=4.5,
            fill=NATION_COLOURS[int(r["chip"][x])],
            stroke="white",
        )


def _units(sc: Scene, r) -> None:
    """One badge per nation and unit kind under the region's box (red edge hostile, dashed friendly)."""
    bw, bh, gap = 19.0, 11.0, 2.0
    for x in range(N_REGIONS):
        badges = _badges(r, x)
        cx, cy = _px(POS[x])
        left = cx - (len(badges) * (bw + gap) - gap) / 2
        for i, (n, text, stance) in enumerate(badges):
            bx, by = left + i * (bw + gap), cy + 7.5 + 2
            edge, lw = ("red", 1.8) if stance == "hostile" else ("white", 1.0)
            sc.add(
                "rect",
                x=bx,
                y=by,
                width=bw,
                height=bh,
                fill=NATION_COLOURS[n],
                stroke=edge,
                stroke_width=lw,
                stroke_dasharray="3 2" if stance == "friendly" else None,
            )
            sc.add(
                "text",
                text,
                x=bx + bw / 2,
                y=by + bh - 2.5,
                font_size=8,
                font_weight="bold",
                text_anchor="middle",
                fill=_text_colour(NATION_COLOURS[n]),
            )
