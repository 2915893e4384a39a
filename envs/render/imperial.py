"""Imperial as a picture: the 1914 Europe region graph laid out by real geography, plus the nation tables.

``render_rgb(s) -> uint8[800, 1280, 3]`` draws the full (privileged) record, like the ansi view: it is
a debugging and demo picture, not one seat's observation (cash hidden by IMP-OPT-3 is shown).

Left, the map: one box per region at its position in ``kernels/imperial/data/layout.json`` (home
provinces tinted in the owner's colour, neutral land beige, seas blue), borders as lines (land-land
grey, coast dotted blue, sea-sea dashed blue). Around a box: the factory slot (square = armaments,
triangle = shipyard; hollow = empty, red cross = blocked), the tax chip (dot in the chip owner's colour,
top right) and one badge per nation with units there (``3A`` armies, ``2F`` fleets; red edge = hostile
armies, dashed edge = friendly armies in another nation's home province). Right: the nations (treasury,
power and multiplier, tax-chart position, rondel space, flag holder, chips left, units), the players
(cash, score, bonds, investor card), the rondel with each nation's marker and the pending decision.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from matplotlib.collections import LineCollection, PatchCollection
from matplotlib.colors import to_rgb as colour_rgb
from matplotlib.patches import Circle, FancyBboxPatch, Rectangle, Wedge

from ...kernels import imperial as kernel
from ...kernels.imperial.actions import action_name
from ...kernels.imperial.board import is_blocked
from ...kernels.imperial.state import PH_BUY, PH_GAME_OVER, PHASE_NAMES, RULESETS
from ...kernels.imperial.tables import (
    BOND_INTEREST,
    EDGES,
    FACTORY_TYPE,
    FT_ARMAMENTS,
    KIND_HOME,
    KIND_SEA,
    MULTIPLIER,
    N_BONDS,
    N_HOME,
    N_NATIONS,
    N_REGIONS,
    NATION_IDS,
    REGION_IDS,
    REGION_KIND,
    RONDEL_IDS,
)
from ._canvas import HEIGHT, WIDTH, Frame, TextAxes, new_figure, to_rgb
from ._panels import layout, mover_label, panel_axes, title_strip

# One colour per nation, after the board's (map.json "color"): yellow, green, blue, red, black, purple.
NATION_COLOURS = ("#e0b400", "#2e8b3a", "#2f5fd0", "#d02a2a", "#2b2b2b", "#7d3fa8")
_DARK_TEXT = ("#e0b400",)  # badge fills light enough for black text
NEUTRAL_FILL, SEA_FILL, SEA_EDGE = "#efe4cc", "#d6e8f7", "#6d9cc7"
MAP_W, MAP_H = 840, 740  # map axes in pixels (left part of the frame, below the title)
PANEL_X = MAP_W + 8  # side panel starts here (pixels)
TITLE_H = HEIGHT - MAP_H
MONO = {"family": "DejaVu Sans Mono", "fontsize": 8.2}


LAYOUT = layout(kernel)
_KX = np.cos(np.radians(50.0))  # equirectangular: x = lon * cos(50 deg), y = lat (layout.json "projection")


def _project(points: dict) -> dict[str, tuple[float, float]]:
    """Fit the layout's (lon, lat) into the map axes, in pixels, keeping the aspect ratio."""
    xy = {k: (v["lon"] * _KX, v["lat"]) for k, v in points.items()}
    xs, ys = np.array([p[0] for p in xy.values()]), np.array([p[1] for p in xy.values()])
    pad = 36.0
    scale = min((MAP_W - 2 * pad) / np.ptp(xs), (MAP_H - 2 * pad) / np.ptp(ys))
    ox = (MAP_W - scale * np.ptp(xs)) / 2 - scale * xs.min()
    oy = (MAP_H - scale * np.ptp(ys)) / 2 - scale * ys.min()
    return {k: (ox + scale * x, oy + scale * y) for k, (x, y) in xy.items()}


_ALL_POINTS = {**LAYOUT["regions"], **LAYOUT["impassable"]}
_PX = _project(_ALL_POINTS)
POS = np.array([_PX[rid] for rid in REGION_IDS])  # [region, (x, y)] pixel centres
LABELS = tuple(LAYOUT["regions"][rid]["label"] for rid in REGION_IDS)


def _box_width(label: str) -> float:
    return 5.0 * len(label) + 10.0


def _text_colour(fill: str) -> str:
    return "black" if fill in _DARK_TEXT else "white"


def _tint(colour: str, amount: float = 0.72) -> tuple[float, float, float]:
    """The colour mixed with white (home province fill)."""
    c = np.array(colour_rgb(colour))
    return tuple(c + (1.0 - c) * amount)


# --- map ------------------------------------------------------------------------------------------------


def _draw_edges(ax) -> None:
    """Borders: land-land grey, land-sea dotted blue, sea-sea dashed blue."""
    groups = {0: [], 1: [], 2: []}
    for a, b in EDGES:
        seas = int(REGION_KIND[a] == KIND_SEA) + int(REGION_KIND[b] == KIND_SEA)
        groups[seas].append((POS[a], POS[b]))
    ax.add_collection(LineCollection(groups[0], colors="#9a9a9a", linewidths=1.1, zorder=1))
    ax.add_collection(LineCollection(groups[1], colors=SEA_EDGE, linewidths=0.9, linestyles=":", zorder=1))
    ax.add_collection(LineCollection(groups[2], colors=SEA_EDGE, linewidths=1.0, linestyles="--", zorder=1))


def _draw_regions(ax) -> None:
    """A labelled box per region, filled by kind (home provinces in the owner's tint)."""
    boxes, fills, edges, widths = [], [], [], []
    for x in range(N_REGIONS):
        cx, cy = POS[x]
        w, h = _box_width(LABELS[x]), 15.0
        kind = REGION_KIND[x]
        if kind == KIND_HOME:
            owner = x // 5
            fill, edge, lw, style = _tint(NATION_COLOURS[owner]), NATION_COLOURS[owner], 1.6, "normal"
        elif kind == KIND_SEA:
            fill, edge, lw, style = SEA_FILL, SEA_EDGE, 1.0, "italic"
        else:
            fill, edge, lw, style = NEUTRAL_FILL, "#8a7a5a", 1.0, "normal"
        boxes.append(FancyBboxPatch((cx - w / 2, cy - h / 2), w, h, boxstyle="round,pad=0,rounding_size=4"))
        fills.append(fill)
        edges.append(edge)
        widths.append(lw)
        ax.text(cx, cy, LABELS[x], ha="center", va="center", fontsize=7, style=style, zorder=3)
    # One collection instead of 54 patches: add_patch per artist dominates the frame time otherwise.
    ax.add_collection(PatchCollection(boxes, facecolors=fills, edgecolors=edges, linewidths=widths, zorder=2))
    sx, sy = _PX["switzerland"]
    ax.text(
        sx,
        sy,
        LAYOUT["impassable"]["switzerland"]["label"],
        ha="center",
        va="center",
        fontsize=6.5,
        color="#888888",
        style="italic",
        zorder=3,
        bbox={"boxstyle": "round,pad=0.25", "facecolor": "#eeeeee", "edgecolor": "#bbbbbb", "hatch": "//"},
    )


_FACTORY_XY = np.array([(POS[h][0] - _box_width(LABELS[h]) / 2 - 6, POS[h][1]) for h in range(N_HOME)])
_SLOT_GROUPS = tuple(np.flatnonzero((FACTORY_TYPE[:N_HOME] == FT_ARMAMENTS) == arm) for arm in (True, False))
_CHIP_XY = np.array([(POS[x][0] + _box_width(LABELS[x]) / 2, POS[x][1] + 7.5) for x in range(N_REGIONS)])


def _markers(ax) -> tuple:
    """Factory slots (squares, triangles), blocked crosses and tax chips: made once, set each frame."""
    none = np.empty((0, 2))
    slots = [
        ax.scatter(*_FACTORY_XY[idx].T, s=48, marker=marker, linewidths=1.0, zorder=4, c=["white"] * idx.size)
        for idx, marker in zip(_SLOT_GROUPS, ("s", "^"))
    ]
    blocked = ax.scatter(*none.T, s=70, marker="x", c="red", linewidths=2, zorder=5)
    chips = ax.scatter(*none.T, s=60, edgecolors="white", linewidths=1.0, zorder=6)
    return slots, blocked, chips


def _draw_factories(markers, r) -> None:
    """Factory slot left of each home province's box: filled = factory, hollow = empty, red x = blocked."""
    slots, blocked, _ = markers
    for collection, idx in zip(slots, _SLOT_GROUPS):
        built = r["factory"][idx].astype(bool)
        collection.set_facecolor(["#333333" if b else "white" for b in built])
        collection.set_edgecolor(["#333333" if b else "#999999" for b in built])
    stop = [h for h in range(N_HOME) if r["factory"][h] and is_blocked(r, h)]
    blocked.set_offsets(_FACTORY_XY[stop].reshape(-1, 2))


def _draw_chips(markers, r) -> None:
    """Tax chip: a dot in the owning nation's colour on the box's top-right corner."""
    held = np.flatnonzero(r["chip"] >= 0)
    chips = markers[2]
    chips.set_offsets(_CHIP_XY[held].reshape(-1, 2))
    chips.set_facecolor([NATION_COLOURS[int(r["chip"][x])] for x in held])


def _badges(r, x) -> list[tuple[int, str, str]]:
    """(nation, text, stance) for each nation's armies and fleets in region x."""
    out = []
    for n in range(N_NATIONS):
        a, f = int(r["armies"][n, x]), int(r["fleets"][n, x])
        if a:
            stance = ""
            if x < N_HOME and x // 5 != n:
                stance = "hostile" if r["hostile"][n, x] else "friendly"
            out.append((n, f"{a}A", stance))
        if f:
            out.append((n, f"{f}F", ""))
    return out


def _draw_units(ax, r) -> None:
    """One badge per nation and unit kind, in a row under the region's box."""
    bw, bh, gap = 19.0, 11.0, 2.0
    rects, fills, edges, widths, styles = [], [], [], [], []
    for x in range(N_REGIONS):
        badges = _badges(r, x)
        if not badges:
            continue
        cx, cy = POS[x]
        left = cx - (len(badges) * (bw + gap) - gap) / 2
        for i, (n, text, stance) in enumerate(badges):
            bx, by = left + i * (bw + gap), cy - 7.5 - 2 - bh
            edge, lw, ls = ("red", 1.8, "-") if stance == "hostile" else ("white", 1.0, "--" if stance else "-")
            rects.append(Rectangle((bx, by), bw, bh))
            fills.append(NATION_COLOURS[n])
            edges.append(edge)
            widths.append(lw)
            styles.append(ls)
            ax.text(
                bx + bw / 2,
                by + bh / 2,
                text,
                ha="center",
                va="center",
                fontsize=6.5,
                fontweight="bold",
                color=_text_colour(NATION_COLOURS[n]),
                zorder=8,
            )
    if rects:
        ax.add_collection(
            PatchCollection(rects, facecolors=fills, edgecolors=edges, linewidths=widths, linestyles=styles, zorder=7)
        )


def _draw_legend(ax, x0: float, y0: float) -> None:
    """Symbol key for the map, its top-left corner at (x0, y0) in panel pixels."""
    rows = [
        ("s", "#333333", "armaments factory"),
        ("^", "#333333", "shipyard"),
        ("s", "white", "empty factory slot"),
        ("o", NATION_COLOURS[0], "tax chip (owner's colour)"),
    ]
    for i, (m, face, text) in enumerate(rows):
        y = y0 - 13 * i
        ax.plot(x0 + 9, y, marker=m, markersize=7, markerfacecolor=face, markeredgecolor="#333333")
        ax.text(x0 + 22, y, text, va="center", fontsize=7)
    y = y0 - 13 * len(rows)
    for i, (edge, ls, text) in enumerate(
        (
            ("white", "-", "3A armies / 2F fleets"),
            ("red", "-", "hostile armies"),
            ("white", "--", "friendly, foreign home"),
        )
    ):
        yy = y - 13 * i
        ax.add_patch(
            Rectangle((x0, yy - 5), 18, 10, facecolor=NATION_COLOURS[2], edgecolor=edge, linestyle=ls, linewidth=1.5)
        )
        ax.text(x0 + 22, yy, text, va="center", fontsize=7)
    ax.plot(x0 + 9, y - 39, marker="x", color="red", markersize=7, markeredgewidth=2)
    ax.text(x0 + 22, y - 39, "blocked factory", va="center", fontsize=7)


@lru_cache(maxsize=1)
def _static_map() -> np.ndarray:
    """Pixels of the unchanging map (borders, region boxes, names), drawn once per process.

    Region names are most of the glyphs in a frame; drawing them once keeps a frame fast. The cache
    is per process (built lazily), so worker processes each build their own."""
    fig = new_figure(MAP_W, MAP_H)
    ax = panel_axes(fig, (0, 0, 1, 1), (0, MAP_W), (0, MAP_H))
    fig.patch.set_facecolor("#f7f9fb")
    _draw_edges(ax)
    _draw_regions(ax)
    return to_rgb(fig)


def _draw_map(ax, markers, r) -> None:
    """The pieces over the cached map: factories, tax chips, units."""
    _draw_factories(markers, r)
    _draw_chips(markers, r)
    _draw_units(ax, r)


# --- side panel -----------------------------------------------------------------------------------------


def _draw_title(ax, s) -> None:
    r = s[0]
    phase = int(r["phase"])
    nation = int(r["nation"])
    over = phase == PH_GAME_OVER
    who = mover_label(kernel, s, over="game over" + (" (truncated)" if r["truncated"] else ""))
    title_strip(
        ax,
        "Imperial" if over else f"Imperial  -  {NATION_IDS[nation]} acts",
        f"{PHASE_NAMES[phase]}  |  {who}  |  nation turn {int(r['turn'])}"
        f"  |  {int(r['num_players'])} players, ruleset {RULESETS[int(r['ruleset'])]}",
        0.26,
        "black" if over else NATION_COLOURS[nation],
    )


def _nation_rows(r) -> list[str]:
    rows = [" nation treas pow x tax rondel       flag  chip  A/F  fac"]
    for k in range(N_NATIONS):
        pos = int(r["rondel_pos"][k])
        flag = int(r["flag"][k])
        facs = int(r["factory"][5 * k : 5 * k + 5].sum())
        rows.append(
            f" {NATION_IDS[k]:<6}{int(r['treasury'][k]):>5} {int(r['power'][k]):>3} "
            f"{int(MULTIPLIER[r['power'][k]])} {int(r['tax_pos'][k]):>3} "
            f"{RONDEL_IDS[pos] if pos >= 0 else 'centre':<12} {'p' + str(flag) if flag >= 0 else 'bank':<5}"
            f"{int(r['chips_left'][k]):>4} {int(r['armies'][k].sum()):>2}/{int(r['fleets'][k].sum()):<2}"
            f"{facs:>3}"
        )
    return rows


def _bond_text(r, p) -> str:
    held = []
    for k in range(N_NATIONS):
        nums = [str(b + 1) for b in range(N_BONDS) if r["bond_owner"][k, b] == p]
        if nums:
            held.append(f"{NATION_IDS[k]}{','.join(nums)}")
    return " ".join(held) or "-"


def _draw_table(ax, top: float, rows: list[str], swatches: list[str | None], bold_row: int = -1) -> float:
    """Monospace rows from y = top downward, each with an optional colour swatch; returns the next free y."""
    line = 13.0
    for i, text in enumerate(rows):
        y = top - i * line
        if swatches[i]:
            ax.add_patch(Rectangle((0, y - 5), 6, 10, facecolor=swatches[i], edgecolor="none"))
        ax.text(8, y, text, va="center", fontweight="bold" if i in (0, bold_row) else "normal", **MONO)
    return top - len(rows) * line - 8


def _draw_players(ax, s, top: float) -> float:
    """The players table under its heading at ``top`` (the heading is on the cached background)."""
    r = s[0]
    n = int(r["num_players"])
    score = np.zeros(kernel.MAX_PLAYERS, np.int64)
    kernel.scores(s, score)
    rows = [" player    cash score  bonds"]
    for p in range(n):
        card = " *inv" if int(r["investor_card"]) == p else ""
        rows.append(f" player_{p} {int(r['cash'][p]):>4} {int(score[p]):>5}  {_bond_text(r, p)}{card}")
    mover = int(kernel.to_move(s))
    return _draw_table(ax, top - 15, rows, [None] * len(rows), bold_row=1 + mover if mover >= 0 else -1)


def _rondel_angle(i: int) -> float:
    span = 360.0 / len(RONDEL_IDS)
    return 90 - (i + 1) * span + span / 2


def _draw_rondel_spaces(ax, cx: float, cy: float, radius: float) -> None:
    """The eight rondel spaces clockwise from the top, with their names (the same every frame)."""
    span = 360.0 / len(RONDEL_IDS)
    for i in range(len(RONDEL_IDS)):
        start = 90 - (i + 1) * span
        ax.add_patch(
            Wedge(
                (cx, cy),
                radius,
                start,
                start + span,
                width=radius * 0.55,
                facecolor="#f3efe3" if i % 2 else "#e6dfcb",
                edgecolor="#777777",
                linewidth=0.8,
            )
        )
        ang = np.radians(_rondel_angle(i))
        ax.text(
            cx + 0.72 * radius * np.cos(ang),
            cy + 0.72 * radius * np.sin(ang),
            _RONDEL_SHORT[i],
            ha="center",
            va="center",
            fontsize=6.6,
        )


def _draw_rondel(ax, r, cx: float, cy: float, radius: float) -> None:
    """Every nation's marker on its rondel space, and the nations still in the centre."""
    for i in range(len(RONDEL_IDS)):
        ang = np.radians(_rondel_angle(i))
        here = [k for k in range(N_NATIONS) if int(r["rondel_pos"][k]) == i]
        for j, k in enumerate(here):
            off = (j - (len(here) - 1) / 2) * 11
            px = cx + 1.1 * radius * np.cos(ang) - off * np.sin(ang)
            py = cy + 1.1 * radius * np.sin(ang) + off * np.cos(ang)
            ax.add_patch(Circle((px, py), 5.2, facecolor=NATION_COLOURS[k], edgecolor="white", linewidth=1.0))
    centre = [NATION_IDS[k] for k in range(N_NATIONS) if int(r["rondel_pos"][k]) < 0]
    names = "\n".join(" ".join(centre[i : i + 3]) for i in range(0, len(centre), 3)) or "-"
    ax.text(cx, cy, "centre:\n" + names, ha="center", va="center", fontsize=6.5)


_RONDEL_SHORT = tuple(name.replace("production_", "prod. ").replace("maneuver_", "man. ") for name in RONDEL_IDS)


def _pending_lines(s) -> list[str]:
    """The pending decision in words, with up to four legal actions by name."""
    r = s[0]
    if int(r["phase"]) == PH_GAME_OVER:
        won = np.zeros(kernel.MAX_PLAYERS, np.int64)
        kernel.winners(s, won)
        return ["winner: " + ", ".join(f"player_{p}" for p in np.flatnonzero(won[: int(r["num_players"])]))]
    mask = np.zeros(kernel.NUM_ACTIONS, np.uint8)
    kernel.legal_mask(s, mask)
    legal = np.flatnonzero(mask)
    lines = [f"{PHASE_NAMES[int(r['phase'])]}: {legal.size} legal actions"]
    if int(r["phase"]) == PH_BUY:
        lines[0] += f" (player_{int(r['inv_buyer'])} buys)"
    if int(r["mv_origin"]) >= 0:
        lines.append(f"selected origin: {REGION_IDS[int(r['mv_origin'])]}")
    lines += ["  " + action_name(s, int(a)) for a in legal[:4]]
    if legal.size > 4:
        lines.append(f"  ... and {legal.size - 4} more")
    return lines


RADIUS = 80.0


def _panel_rows(n: int) -> tuple[float, float]:
    """Tops of the players table and of the rondel row for n players (the tables above them are fixed)."""
    players = MAP_H - 12 - 15 - (N_NATIONS + 1) * 13.0 - 8 - 4
    return players, players - 15 - (n + 1) * 13.0 - 8 - 4


def _draw_panel_static(ax, n: int) -> None:
    """Headings, the rondel's spaces, the map key and the footnote (the same every frame for n players)."""
    ax.text(0, MAP_H - 12, "Nations", fontsize=10, fontweight="bold", va="center")
    players, y = _panel_rows(n)
    ax.text(0, players, "Players (bonds: nation and bond numbers)", fontsize=10, fontweight="bold", va="center")
    ax.text(0, y, "Rondel", fontsize=10, fontweight="bold", va="center")
    ax.text(232, y, "Map key", fontsize=10, fontweight="bold", va="center")
    _draw_rondel_spaces(ax, 112, y - 22 - RADIUS, RADIUS)
    _draw_legend(ax, 232, y - 20)
    ax.text(0, y + 4 - 2 * RADIUS - 48, "Pending decision", fontsize=10, fontweight="bold", va="center")
    ax.text(
        0,
        6,
        "x = score multiplier of the power track; bond interest "
        f"{', '.join(str(int(v)) for v in BOND_INTEREST)} (bonds 1-9)",
        fontsize=6.8,
        color="#555555",
    )


def _draw_panel(ax, s) -> None:
    """The tables, the rondel markers and the pending decision (drawn each frame)."""
    r = s[0]
    _draw_table(ax, MAP_H - 12 - 15, _nation_rows(r), [None, *NATION_COLOURS], bold_row=1 + int(r["nation"]))
    players, y = _panel_rows(int(r["num_players"]))
    _draw_players(ax, s, players)
    _draw_rondel(ax, r, 112, y - 22 - RADIUS, RADIUS)
    y += 4 - 2 * RADIUS - 48
    for i, line in enumerate(_pending_lines(s)):
        ax.text(0, y - 16 - 13 * i, line, va="center", fontsize=7.6)


_PANEL = ((PANEL_X / WIDTH, 0, (WIDTH - PANEL_X) / WIDTH, MAP_H / HEIGHT), (0, WIDTH - PANEL_X), (0, MAP_H))
_TITLE = ((0, MAP_H / HEIGHT, 1, TITLE_H / HEIGHT), (0, 1), (0, 1))
_MAP = ((0, 0, MAP_W / WIDTH, MAP_H / HEIGHT), (0, MAP_W), (0, MAP_H))


@lru_cache(maxsize=8)
def _background(n: int) -> np.ndarray:
    """The static map, the panel's headings, rondel spaces and key for n players (once per process)."""
    fig = new_figure()
    fig.patch.set_facecolor("white")
    fig.figimage(_static_map(), 0, 0, zorder=0)  # pixel for pixel, no resampling (unlike imshow)
    _draw_panel_static(panel_axes(fig, *_PANEL), n)
    return to_rgb(fig)


@lru_cache(maxsize=1)
def _frame() -> tuple[Frame, TextAxes, TextAxes, tuple, TextAxes]:
    """The figure each frame draws its pieces and tables in (kept for the process)."""
    frame = Frame()
    board = panel_axes(frame, *_MAP, zorder=1)
    markers = _markers(board)
    slots, blocked, chips = markers
    frame.kept.extend([*slots, blocked, chips])
    return frame, panel_axes(frame, *_TITLE), board, markers, panel_axes(frame, *_PANEL)


def render_rgb(s: np.ndarray) -> np.ndarray:
    """The whole table of the record ``s`` (shape (1,)) as uint8[800, 1280, 3] pixels."""
    frame, title, board, markers, panel = _frame()
    with frame:
        _draw_title(title, s)
        _draw_map(board, markers, s[0])
        _draw_panel(panel, s)
        return frame.finish(_background(int(s[0]["num_players"])))
