"""Veld Railroads as a picture: the settlement network of southern Africa plus the track and tables.

``render_rgb(s) -> uint8[800, 1280, 3]`` draws the full record (the game has perfect information, so
this is also every seat's view).

Left, the map: settlements at the positions in ``kernels/veld_railroads/data/layout.json`` (shape by
type: square commercial, triangle railway base, circle station, hexagon agricultural, octagon
metropolis; the number inside is the current income, a gold fill marks a developed settlement and a
metropolis shows its development level; a railroad's home has a ring in its colour). Sections are
thin grey lines while unbuilt (arrow = one-way, red dots = border closed in this row) and thick lines in
the owning railroad's colour once built. Right: the action track (8 rows of 36), the four action boxes
with each player's locomotive, the players (cash, shares, last payout), the railroads (open, treasury,
shares left, sections, valuation, income, controllers) and the pending decision.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from matplotlib import patheffects
from matplotlib.collections import LineCollection
from matplotlib.patches import Circle, Rectangle

from ...kernels import veld_railroads as kernel
from ...kernels.veld_railroads.actions import action_name, section_label
from ...kernels.veld_railroads.income import controls
from ...kernels.veld_railroads.state import AUC_KIND_NAMES, PH_GAME_OVER, PHASE_NAMES
from ...kernels.veld_railroads.tables import (
    BORDER_CLOSED,
    BORDER_IDS,
    BOX_CAPACITY,
    BOX_COST,
    BOX_NAMES,
    FILL_TO_END,
    HOME,
    LADDER,
    MAX_DEV,
    N_BOXES,
    N_RAILROADS,
    N_ROWS,
    N_SECTIONS,
    N_SETTLEMENTS,
    RAILROAD_IDS,
    RAILROAD_SHORT,
    ROW_ERA,
    ROW_LENGTH,
    SEC_A,
    SEC_B,
    SEC_BORDER,
    SEC_ONE_WAY,
    SET_TYPE,
    SETTLEMENT_IDS,
    SETTLEMENT_NAMES,
    TYPE_NAMES,
    UNLIMITED,
)
from ._canvas import HEIGHT, WIDTH, Frame, Overlay, new_figure, to_rgb
from ._panels import layout, mover_label, panel_axes, title_strip

# Railroad colours after map.json "colour" (black, green, brown, blue, red, yellow).
RAILROAD_COLOURS = ("#222222", "#2e8b3a", "#8b5a2b", "#2f5fd0", "#d02a2a", "#e8b800")
# Players get colours none of the railroads use, so a locomotive never looks like track.
PLAYER_COLOURS = ("#8e44ad", "#f28e1c", "#17becf", "#e377c2", "#7f7f7f", "#9acd32")
TYPE_MARKERS = {"commercial": "s", "railway_base": "^", "station": "o", "agricultural": "h", "metropolis": "D"}
DEVELOPED_FILL = "#ffcf5c"
MAP_W, MAP_H = 790, 740
PANEL_X = MAP_W + 6
TITLE_H = HEIGHT - MAP_H
MONO = {"family": "DejaVu Sans Mono", "fontsize": 8.2}
ERA_TAGS = ("", "Boer War", "Reconstruction")
RAILWAY_BASE = TYPE_NAMES.index("railway_base")  # triangle: its number sits a little low to fit


LAYOUT = layout(kernel)
_KX = np.cos(np.radians(29.0))  # equirectangular: x = lon * cos(29 deg), y = lat (layout.json "projection")


def _fit(points: dict) -> tuple[float, float, float]:
    """(scale, offset x, offset y) fitting the settlements into the map axes (pixels), aspect kept."""
    xs = np.array([v["lon"] * _KX for v in points.values()])
    ys = np.array([v["lat"] for v in points.values()])
    pad = 46.0  # room for a name centred under the outermost settlement
    scale = min((MAP_W - 2 * pad) / np.ptp(xs), (MAP_H - 2 * pad) / np.ptp(ys))
    ox = (MAP_W - scale * np.ptp(xs)) / 2 - scale * xs.min()
    return scale, ox, (MAP_H - scale * np.ptp(ys)) / 2 - scale * ys.min()


_SCALE, _OX, _OY = _fit(LAYOUT["settlements"])


def _px(p: dict) -> tuple[float, float]:
    return _OX + _SCALE * p["lon"] * _KX, _OY + _SCALE * p["lat"]


POS = np.array([_px(LAYOUT["settlements"][sid]) for sid in SETTLEMENT_IDS])  # [settlement, (x, y)] pixels
# Table tags: the short name where it fits a column, else the id ("Cape Midland" -> "CMR").
TAGS = tuple(short if len(short) <= 6 else rid.upper() for short, rid in zip(RAILROAD_SHORT, RAILROAD_IDS))


def _section_segments(sections) -> list:
    return [(POS[SEC_A[e]], POS[SEC_B[e]]) for e in sections]


# --- map ------------------------------------------------------------------------------------------------


def _draw_static(ax) -> None:
    """Region names and unbuilt sections (with one-way arrows): the same every frame."""
    for p in LAYOUT["region_labels"].values():
        x, y = _px(p)
        ax.text(x, y, p["label"].upper(), ha="center", va="center", fontsize=11, color="#cdbf9f", fontweight="bold")
    ax.add_collection(LineCollection(_section_segments(range(N_SECTIONS)), colors="#b8b8b8", linewidths=1.3))
    for e in np.flatnonzero(SEC_ONE_WAY):
        a, b = POS[SEC_A[e]], POS[SEC_B[e]]
        ax.annotate(
            "",
            xy=a + 0.55 * (b - a),
            xytext=a + 0.4 * (b - a),
            arrowprops={"arrowstyle": "-|>", "color": "#8a8a8a", "lw": 1.0, "mutation_scale": 9},
        )


def _static_axes(fig):
    return panel_axes(fig, (0, 0, 1, 1), (0, MAP_W), (0, MAP_H))


@lru_cache(maxsize=1)
def _static_map() -> np.ndarray:
    """Pixels of the unchanging map under the track, drawn once per process."""
    fig = new_figure(MAP_W, MAP_H)
    fig.patch.set_facecolor("#fbf8f0")
    _draw_static(_static_axes(fig))
    return to_rgb(fig)


@lru_cache(maxsize=1)
def _static_names() -> np.ndarray:
    """RGBA pixels of the settlement names (with a light halo), laid over the built track once per process.

    Names are most of a frame's glyphs; drawing them once keeps a frame fast, and keeping them on a
    transparent layer above the track keeps them readable where a railroad runs under them."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = new_figure(MAP_W, MAP_H)
    fig.patch.set_alpha(0.0)
    ax = _static_axes(fig)
    halo = [patheffects.withStroke(linewidth=2.2, foreground="#fbf8f0")]
    for v in range(N_SETTLEMENTS):
        x, y = POS[v]
        ax.text(x, y - 10, SETTLEMENT_NAMES[v], ha="center", va="top", fontsize=6.3, color="#222222", path_effects=halo)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba()).copy()


def _draw_closed_borders(ax, r) -> None:
    """Unbuilt sections across a border closed in the current row (VR-BORDER-1): red dots."""
    row = int(r["row"])
    closed = [
        e
        for e in range(N_SECTIONS)
        if r["section_owner"][e] < 0 and SEC_BORDER[e] >= 0 and BORDER_CLOSED[row - 1, SEC_BORDER[e]]
    ]
    if closed:
        ax.add_collection(
            LineCollection(
                _section_segments(closed), colors="#e04040", linewidths=1.8, linestyles=(0, (1, 2)), zorder=2
            )
        )


def _draw_sections(ax, r) -> None:
    """Built sections: a dark casing under a thick line in the owner's colour."""
    built = np.flatnonzero(r["section_owner"] >= 0)
    if built.size == 0:
        return
    segs = _section_segments(built)
    ax.add_collection(LineCollection(segs, colors="#111111", linewidths=6.0, zorder=3))
    ax.add_collection(
        LineCollection(
            segs, colors=[RAILROAD_COLOURS[int(r["section_owner"][e])] for e in built], linewidths=4.0, zorder=4
        )
    )


def _settlement_markers(ax) -> list:
    """One marker collection per settlement type (made once; ``_draw_settlements`` sets the fills)."""
    home_of = {int(HOME[c]): c for c in range(N_RAILROADS)}
    out = []
    for t, name in enumerate(TYPE_NAMES):
        idx = np.flatnonzero(SET_TYPE == t)
        size = 240 if name == "metropolis" else 150
        edges = [RAILROAD_COLOURS[home_of[v]] if v in home_of else "#333333" for v in idx]
        widths = [2.6 if v in home_of else 1.0 for v in idx]
        out.append(
            ax.scatter(
                POS[idx, 0],
                POS[idx, 1],
                s=size,
                marker=TYPE_MARKERS[name],
                c=["white"] * idx.size,
                edgecolors=edges,
                linewidths=widths,
                zorder=5,
            )
        )
    return out


def _draw_settlements(ax, markers, r) -> None:
    """Markers by type, gold when developed, home ring in the railroad's colour, income inside."""
    for t, collection in enumerate(markers):
        idx = np.flatnonzero(SET_TYPE == t)
        collection.set_facecolor([DEVELOPED_FILL if r["dev_level"][v] else "white" for v in idx])
    for v in range(N_SETTLEMENTS):
        x, y = POS[v]
        level = int(r["dev_level"][v])
        ax.text(
            x,
            y - (1.5 if SET_TYPE[v] == RAILWAY_BASE else 0),
            str(int(LADDER[v, level])),
            ha="center",
            va="center",
            fontsize=6.5,
            fontweight="bold",
            zorder=6,
        )
        if MAX_DEV[v] > 1:  # metropolis: show how far up its ladder it is
            ax.text(
                x - 12,
                y,
                f"dev {level}/{int(MAX_DEV[v])}",
                ha="right",
                va="center",
                fontsize=6.3,
                color="#7a4a00",
                fontweight="bold",
                zorder=6,
                path_effects=[patheffects.withStroke(linewidth=2, foreground="white")],
            )


def _draw_map_legend(ax) -> None:
    """Symbol key in the empty Indian Ocean corner (bottom right)."""
    x0, y0 = MAP_W - 182, 8
    ax.add_patch(Rectangle((x0, y0), 176, 150, facecolor="white", edgecolor="#bbbbbb", alpha=0.92, zorder=7))
    for i, name in enumerate(TYPE_NAMES):
        y = y0 + 138 - 14 * i
        ax.scatter([x0 + 12], [y], s=70, marker=TYPE_MARKERS[name], c="white", edgecolors="#333333", zorder=8)
        ax.text(x0 + 24, y, name.replace("_", " "), va="center", fontsize=7, zorder=8)
    y = y0 + 138 - 14 * len(TYPE_NAMES)
    ax.scatter([x0 + 12], [y], s=70, marker="o", c=DEVELOPED_FILL, edgecolors="#333333", zorder=8)
    ax.text(x0 + 24, y, "developed (number = income)", va="center", fontsize=7, zorder=8)
    for i, (colour, ls, text) in enumerate(
        (
            ("#b8b8b8", "-", "unbuilt section"),
            ("#e04040", (0, (1, 2)), "border closed this row"),
            (RAILROAD_COLOURS[3], "-", "built (railroad colour)"),
        )
    ):
        yy = y - 14 * (i + 1)
        ax.plot([x0 + 4, x0 + 20], [yy, yy], color=colour, linestyle=ls, linewidth=3 if i == 2 else 1.8, zorder=8)
        ax.text(x0 + 24, yy, text, va="center", fontsize=7, zorder=8)


def _draw_map(track, top, markers, r) -> None:
    """Layers, bottom up: static map and key (the frame's background), track, static names (an overlay
    between the two axes, see ``render_rgb``), settlements."""
    _draw_closed_borders(track, r)
    _draw_sections(track, r)
    _draw_settlements(top, markers, r)


# --- side panel -----------------------------------------------------------------------------------------


def _draw_title(ax, s) -> None:
    r = s[0]
    if kernel.is_over(s):
        info = f"GAME OVER after {int(r['payouts'])} payouts"
    else:
        info = (
            f"{PHASE_NAMES[int(r['phase'])]}  |  {mover_label(kernel, s)}  |  "
            f"player_{int(r['active'])} acting  |  turn {int(r['turn'])}"
        )
    title_strip(ax, "Veld Railroads", f"{info}  |  {int(r['num_players'])} players", 0.2)


def _draw_track(ax, r, top: float, static: bool = False) -> float:
    """The action track: 8 rows of 36 boxes, filled up to the current position (VR-TRACK-1..3).

    ``static``: the row outlines and notes (the cached background); else the rest, over them."""
    cell, x0 = 9.0, 22.0
    if static:
        for row in range(1, N_ROWS + 1):
            y = top - 16 - (row - 1) * (cell + 2)
            ax.add_patch(
                Rectangle(
                    (x0, y - cell / 2), ROW_LENGTH * cell, cell, facecolor="white", edgecolor="#bbbbbb", linewidth=1.0
                )
            )
            tag = ERA_TAGS[int(ROW_ERA[row - 1])]
            closed = [BORDER_IDS[b] for b in range(len(BORDER_IDS)) if BORDER_CLOSED[row - 1, b]]
            note = ", ".join(filter(None, [tag, ("closed " + " ".join(closed)) if closed else ""]))
            ax.text(x0 + ROW_LENGTH * cell + 5, y, note, va="center", fontsize=6.3, color="#555555")
        return top - 16 - N_ROWS * (cell + 2) - 6
    ax.text(
        0,
        top,
        f"Action track  (row {int(r['row'])}, position {int(r['position'])}/{ROW_LENGTH})",
        fontsize=10,
        fontweight="bold",
        va="center",
    )
    row_now, pos = int(r["row"]), int(r["position"])
    over = int(r["phase"]) == PH_GAME_OVER
    for row in range(1, N_ROWS + 1):
        y = top - 16 - (row - 1) * (cell + 2)
        filled = ROW_LENGTH if row < row_now or over else (min(pos, ROW_LENGTH) if row == row_now else 0)
        ax.text(
            x0 - 5, y, str(row), ha="right", va="center", fontsize=7, fontweight="bold" if row == row_now else "normal"
        )
        if row == row_now and not over:  # the current row's outline, over the grey one
            ax.add_patch(
                Rectangle(
                    (x0, y - cell / 2), ROW_LENGTH * cell, cell, facecolor="white", edgecolor="black", linewidth=1.0
                )
            )
        if filled:
            ax.add_patch(
                Rectangle(
                    (x0, y - cell / 2),
                    filled * cell,
                    cell,
                    linewidth=0,
                    facecolor="#e8a33d" if row == row_now and not over else "#cfcfcf",
                )
            )
    return top - 16 - N_ROWS * (cell + 2) - 6


def _draw_boxes(ax, r, top: float, static: bool = False) -> float:
    """The four action boxes (``static``) with the players' locomotives in them (VR-LOCO-1..4)."""
    w, h, gap = 112.0, 34.0, 7.0
    for b in range(N_BOXES):
        x = b * (w + gap)
        if static:
            cost = "to row end" if BOX_COST[b] == FILL_TO_END else f"{int(BOX_COST[b])} spaces"
            cap = "any" if BOX_CAPACITY[b] == UNLIMITED else str(int(BOX_CAPACITY[b]))
            ax.add_patch(Rectangle((x, top - h), w, h, facecolor="#f4f1ea", edgecolor="#999999"))
            ax.text(x + 4, top - 7, f"{BOX_NAMES[b].replace('_', ' ')}", fontsize=7.2, fontweight="bold", va="center")
            ax.text(x + 4, top - 16, f"{cost}, room {cap}", fontsize=6.2, va="center", color="#555555")
            continue
        here = [p for p in range(int(r["num_players"])) if int(r["loco_box"][p]) == b]
        for j, p in enumerate(here):
            cx, cy = x + 10 + j * 17, top - h + 8
            ax.add_patch(Circle((cx, cy), 6.5, facecolor=PLAYER_COLOURS[p], edgecolor="black", linewidth=0.8))
            ax.text(cx, cy, str(p), ha="center", va="center", fontsize=6.5, color="white", fontweight="bold")
    return top - h - 14


def _table(ax, top: float, title: str, rows: list, swatches: list, bold: set[int], static: bool = False) -> float:
    """A titled monospace table: one text per row, optional colour swatch; returns the next free y.

    ``static``: the title, swatches and head row (``rows[1:]`` may be None); else the other rows."""
    if static:
        ax.text(0, top, title, fontsize=10, fontweight="bold", va="center")
    line = 12.5
    for i, text in enumerate(rows):
        y = top - 15 - i * line
        if static and swatches[i]:
            ax.add_patch(Rectangle((0, y - 5), 6, 10, facecolor=swatches[i], edgecolor="none"))
        if static == (i == 0):
            ax.text(9, y, text, va="center", fontweight="bold" if i == 0 or i in bold else "normal", **MONO)
    return top - 15 - len(rows) * line - 6


_PLAYERS_HEAD = "player    cash " + " ".join(f"{c:>5}" for c in TAGS) + "  loco     paid"
_RAILROADS_HEAD = "railroad open treas left secs  val inc  control"


def _draw_players(ax, s, top: float, n: int, static: bool = False) -> float:
    title = "Players (shares held; paid = last payout)"
    if static:
        return _table(ax, top, title, [_PLAYERS_HEAD] + [None] * n, [None, *PLAYER_COLOURS[:n]], set(), True)
    r = s[0]
    rows = [_PLAYERS_HEAD]
    for p in range(n):
        box = int(r["loco_box"][p])
        held = " ".join(f"{int(r['holdings'][p, c]):>5}" for c in range(N_RAILROADS))
        rows.append(
            f"player_{p} {int(r['cash'][p]):>4} {held}  {BOX_NAMES[box][:7] if box >= 0 else '-':<7}"
            f"{int(r['last_payout'][p]):>5}"
        )
    seat = int(kernel.to_move(s))
    return _table(ax, top, title, rows, [None, *PLAYER_COLOURS[:n]], {1 + seat} if seat >= 0 else set())


def _draw_railroads(ax, r, top: float, static: bool = False) -> float:
    title = r"Railroads (treasury \$, shares left, valuation, income)"
    swatches = [None, *RAILROAD_COLOURS]
    if static:
        return _table(ax, top, title, [_RAILROADS_HEAD] + [None] * N_RAILROADS, swatches, set(), True)
    income = np.zeros(N_RAILROADS, np.int64)
    kernel.sum_income(r["section_owner"], r["dev_level"], income)
    n = int(r["num_players"])
    rows = [_RAILROADS_HEAD]
    for c in range(N_RAILROADS):
        secs = int(np.count_nonzero(r["section_owner"] == c))
        ctrl = ",".join(f"p{p}" for p in range(n) if controls(r, p, c)) or "-"
        rows.append(
            f"{TAGS[c]:<8} {'yes' if r['opened'][c] else 'no':>4} {int(r['treasury_cash'][c]):>5}"
            f" {int(r['treasury_shares'][c]):>4} {secs:>4} {5 * secs:>4} {int(income[c]):>3}  {ctrl}"
        )
    return _table(ax, top, title, rows, swatches, set())


def _usd(amount) -> str:
    """Dollars for a matplotlib label (a bare "$" pair would start mathtext)."""
    return rf"\${int(amount)}"


def _pending_lines(s) -> list[str]:
    """The pending decision: auction or build in progress, then up to four legal actions by name."""
    r = s[0]
    if kernel.is_over(s):
        score = np.zeros(kernel.MAX_PLAYERS, np.int64)
        kernel.scores(s, score)
        n = int(r["num_players"])
        best = score[:n].max()
        return ["winner (most cash): " + ", ".join(f"player_{p}" for p in range(n) if score[p] == best)]
    lines = []
    if int(r["auc_railroad"]) >= 0:
        bidder = int(r["auc_high_bidder"])
        high = f"{_usd(r['auc_high_bid'])} by player_{bidder}" if bidder >= 0 else "no bid yet"
        lines.append(
            f"auction ({AUC_KIND_NAMES[int(r['auc_kind'])]}) of {RAILROAD_SHORT[int(r['auc_railroad'])]}: "
            f"min {_usd(r['auc_min'])}, {high}"
        )
    if int(r["bld_railroad"]) >= 0:
        leg = f", leg 1 {section_label(int(r['bld_leg1']))}" if int(r["bld_leg1"]) >= 0 else ""
        lines.append(
            f"{RAILROAD_SHORT[int(r['bld_railroad'])]} builds (player_{int(r['bld_builder'])}), single "
            f"{_usd(r['bld_single_cost'])}, double {_usd(r['bld_double_cost'])}{leg}"
        )
    if int(r["fs_railroad"]) >= 0:
        lines.append(f"free first section of {RAILROAD_SHORT[int(r['fs_railroad'])]} (player_{int(r['fs_player'])})")
    mask = np.zeros(kernel.NUM_ACTIONS, np.uint8)
    kernel.legal_mask(s, mask)
    legal = np.flatnonzero(mask)
    lines.append(f"{PHASE_NAMES[int(r['phase'])]}: {legal.size} legal actions")
    lines += ["  " + action_name(s, int(a)).replace("$", r"\$") for a in legal[:4]]
    if legal.size > 4:
        lines.append(f"  ... and {legal.size - 4} more")
    return lines


def _draw_panel(ax, s, n: int, static: bool = False) -> None:
    """The side panel for n players: its fixed parts (``static``, s unused) or the state's."""
    r = None if static else s[0]
    y = _draw_track(ax, r, MAP_H - 10, static)
    y = _draw_boxes(ax, r, y, static)
    y = _draw_players(ax, s, y, n, static)
    y = _draw_railroads(ax, r, y, static)
    if static:
        ax.text(0, y, "Pending decision", fontsize=10, fontweight="bold", va="center")
        return
    for i, line in enumerate(_pending_lines(s)):
        ax.text(0, y - 15 - 12.5 * i, line, va="center", fontsize=7.4)


_PANEL = ((PANEL_X / WIDTH, 0, (WIDTH - PANEL_X) / WIDTH, MAP_H / HEIGHT), (0, WIDTH - PANEL_X), (0, MAP_H))
_MAP = ((0, 0, MAP_W / WIDTH, MAP_H / HEIGHT), (0, MAP_W), (0, MAP_H))


@lru_cache(maxsize=8)
def _background(n: int) -> np.ndarray:
    """The frame under everything drawn per frame: white, the static map and its key on the left, the
    panel's fixed parts (track outlines, action boxes, table heads and swatches) for n players.

    The key sits in the empty Indian Ocean corner, where no section or settlement is (see the tests), so
    drawing it under the track shows the same picture as drawing it on top."""
    fig = new_figure()
    fig.patch.set_facecolor("white")
    fig.figimage(_static_map(), 0, 0, zorder=0)
    _draw_map_legend(panel_axes(fig, *_MAP, zorder=1))
    _draw_panel(panel_axes(fig, *_PANEL), None, n, static=True)
    return to_rgb(fig)


@lru_cache(maxsize=1)
def _names_overlay() -> Overlay:
    """The settlement names, laid over the track and under the settlements (track axes zorder 1, top 3)."""
    return Overlay(_static_names(), HEIGHT - MAP_H)


@lru_cache(maxsize=1)
def _frame():
    """The figure each frame draws its track, pieces and tables in (kept for the process)."""
    frame = Frame()
    title = panel_axes(frame, (0, MAP_H / HEIGHT, 1, TITLE_H / HEIGHT))
    track = panel_axes(frame, *_MAP, zorder=1)
    top = panel_axes(frame, *_MAP, zorder=3)
    panel = panel_axes(frame, *_PANEL)
    markers = _settlement_markers(top)
    frame.kept.extend(markers)
    return frame, title, track, top, markers, panel


def render_rgb(s: np.ndarray) -> np.ndarray:
    """The whole table of the record ``s`` (shape (1,)) as uint8[800, 1280, 3] pixels."""
    frame, title, track, top, markers, panel = _frame()
    with frame:
        _draw_title(title, s)
        _draw_map(track, top, markers, s[0])
        n = int(s[0]["num_players"])
        _draw_panel(panel, s, n)
        return frame.finish(_background(n), _names_overlay(), zorder=2)
