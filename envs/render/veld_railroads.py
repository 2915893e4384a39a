"""Veld Railroads' scene: the settlement network of southern Africa plus the track and tables.

``scene(s, viewer=None)`` is the whole record (the game has perfect information, so every viewer sees the same
picture); ``render_rgb(s)`` draws it with matplotlib, the browser with ``svg.to_json``, where a section or a
settlement is the place of the actions that name it (``place_of``).

Left, the map: settlements at the positions in ``kernels/veld_railroads/data/layout.json`` (shape by
type: square commercial, triangle railway base, circle station, hexagon agricultural, diamond
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

from ...kernels import veld_railroads as kernel
from ...kernels.veld_railroads.actions import action_family, action_name, section_label
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
    SECTION_IDS,
    SET_TYPE,
    SETTLEMENT_IDS,
    SETTLEMENT_NAMES,
    TYPE_NAMES,
    UNLIMITED,
)
from ._canvas import HEIGHT, WIDTH
from ._panels import layout, mover_label
from .mpl import rasterize
from .scene import Builder, Circle, Layer, Line, Polygon, Rect, Scene, Table, Text

# Railroad colours after map.json "colour" (black, green, brown, blue, red, yellow).
RAILROAD_COLOURS = ("#222222", "#2e8b3a", "#8b5a2b", "#2f5fd0", "#d02a2a", "#e8b800")
# Players get colours none of the railroads use, so a locomotive never looks like track.
PLAYER_COLOURS = ("#8e44ad", "#f28e1c", "#17becf", "#e377c2", "#7f7f7f", "#9acd32")
DEVELOPED_FILL = "#ffcf5c"
MAP_W, MAP_H = 790, 740
PANEL_X = MAP_W + 6
TITLE_H = HEIGHT - MAP_H
MONO = 8.2  # table font size (points)
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


MAP_BG = "#fbf8f0"
HIT = "#ffffff00"  # a section's wide, invisible click target (the browser outlines it when it is legal)


def _xy(x: float, y: float) -> tuple[float, float]:
    """Map pixels (y up from the frame's bottom) to frame pixels (y down)."""
    return float(x), HEIGHT - float(y)


def _panel(x: float, y: float) -> tuple[float, float]:
    """Side-panel pixels (from its left edge, y up from the frame's bottom) to frame pixels."""
    return PANEL_X + x, HEIGHT - float(y)


def _ends(e: int) -> tuple[tuple[float, float], tuple[float, float]]:
    return _xy(*POS[SEC_A[e]]), _xy(*POS[SEC_B[e]])


def place_of(action: int) -> str | None:
    """The section or settlement an action names (the browser's click target), else None."""
    family, arg = action_family(int(action))
    if family == "SECTION":
        return SECTION_IDS[arg]
    if family == "SETTLEMENT":
        return SETTLEMENT_IDS[arg]
    return None


def render_rgb(s: np.ndarray) -> np.ndarray:
    """The whole table of the record ``s`` (shape (1,)) as uint8[800, 1280, 3] pixels."""
    return rasterize(scene(s))


def scene(s: np.ndarray, viewer: int | None = None) -> Scene:
    """The picture of record ``s``: the same for every viewer (perfect information)."""
    r = s[0]
    n = int(r["num_players"])
    out = Builder()
    out.add(*_title(s))
    out.add(*_closed_borders(r), *_sections(r), *_settlements(r), *_names())
    y = _track(r, MAP_H - 10, out)
    y = _loco_boxes(r, y, out)
    y = _players(s, y, out)
    y = _railroads(r, y, out)
    out.add(*_pending(s, y))
    layers = (_static_map(), _static_panel(n), out.layer())
    return Scene(WIDTH, HEIGHT, "white", layers, out.items[0].text + "  |  " + out.items[1].text, viewer)


# --- map ------------------------------------------------------------------------------------------------


def _arrow(e: int) -> Polygon:
    """A one-way section's arrowhead, pointing from its first settlement to its second."""
    (ax, ay), (bx, by) = _ends(e)
    d = np.array([bx - ax, by - ay]) / max(np.hypot(bx - ax, by - ay), 1e-9)
    tip = np.array([ax, ay]) + 0.55 * np.array([bx - ax, by - ay])
    base, side = tip - 7 * d, 3.2 * np.array([-d[1], d[0]])
    return Polygon((tuple(tip), tuple(base + side), tuple(base - side)), fill="#8a8a8a")


@lru_cache(maxsize=1)
def _static_map() -> Layer:
    """Region names, unbuilt sections (with one-way arrows and their click targets), the symbol key."""
    out = Builder(key="veld-map")
    out.add(Rect(0, TITLE_H, MAP_W, MAP_H, fill=MAP_BG))
    for p in LAYOUT["region_labels"].values():
        out.add(Text(*_xy(*_px(p)), p["label"].upper(), 11, "#cdbf9f", "bold", ha="center"))
    out.add(*(Line(_ends(e), "#b8b8b8", 1.3) for e in range(N_SECTIONS)))
    out.add(*(_arrow(e) for e in np.flatnonzero(SEC_ONE_WAY)))
    out.add(*(Line(_ends(e), HIT, 7, id=f"section:{SECTION_IDS[e]}", place=SECTION_IDS[e]) for e in range(N_SECTIONS)))
    _map_legend(out)
    return out.layer()


def _marker(kind: str, x: float, y: float, fill: str, edge: str = "#333333", width: float = 1.0, size=None, **ids):
    """A settlement's shape by type, centred on (x, y) in frame pixels, ``size`` pixels from centre to side."""
    size = size or (10.5 if kind == "metropolis" else 8.0)
    if kind == "station":
        return Circle(x, y, size, fill=fill, stroke=edge, width=width, **ids)
    corners = {"commercial": (4, 45), "railway_base": (3, 90), "agricultural": (6, 30), "metropolis": (4, 90)}[kind]
    ang = np.deg2rad(corners[1] + 360 / corners[0] * np.arange(corners[0]))
    scale = size * (1.25 if kind == "railway_base" else 1.1 if kind == "commercial" else 1.0)
    points = tuple((x + scale * float(np.cos(a)), y - scale * float(np.sin(a))) for a in ang)
    return Polygon(points, fill=fill, stroke=edge, width=width, **ids)


def _map_legend(out: Builder) -> None:
    """Symbol key in the empty Indian Ocean corner (bottom right)."""
    x0, y0 = _xy(MAP_W - 182, 8 + 150)
    out.add(Rect(x0, y0, 176, 150, fill="white", stroke="#bbbbbb"))
    for i, name in enumerate(TYPE_NAMES):
        y = y0 + 12 + 14 * i
        out.add(_marker(name, x0 + 12, y, "white", size=5.5))
        out.add(Text(x0 + 24, y, name.replace("_", " "), 7))
    y = y0 + 12 + 14 * len(TYPE_NAMES)
    out.add(
        Circle(x0 + 12, y, 5.5, fill=DEVELOPED_FILL, stroke="#333333"),
        Text(x0 + 24, y, "developed (number = income)", 7),
    )
    keys = (("#b8b8b8", None, "unbuilt section"), ("#e04040", (1.5, 3.0), "border closed this row"))
    for i, (colour, dash, text) in enumerate((*keys, (RAILROAD_COLOURS[3], None, "built (railroad colour)"))):
        yy = y + 14 * (i + 1)
        out.add(Line(((x0 + 4, yy), (x0 + 20, yy)), colour, 3 if i == 2 else 1.8, dash), Text(x0 + 24, yy, text, 7))


def _closed_borders(r) -> list[Line]:
    """Unbuilt sections across a border closed in the current row (VR-BORDER-1): red dots."""
    row = int(r["row"])
    return [
        Line(_ends(e), "#e04040", 1.8, (1.5, 3.0), id=f"closed:{SECTION_IDS[e]}")
        for e in range(N_SECTIONS)
        if r["section_owner"][e] < 0 and SEC_BORDER[e] >= 0 and BORDER_CLOSED[row - 1, SEC_BORDER[e]]
    ]


def _sections(r) -> list[Line]:
    """Built sections: a dark casing under a thick line in the owner's colour."""
    built = np.flatnonzero(r["section_owner"] >= 0)
    casing = [Line(_ends(e), "#111111", 6.0) for e in built]
    colour = RAILROAD_COLOURS
    return casing + [
        Line(_ends(e), colour[int(r["section_owner"][e])], 4.0, id=f"built:{SECTION_IDS[e]}") for e in built
    ]


_HOME_OF = {int(HOME[c]): c for c in range(N_RAILROADS)}


def _settlements(r) -> list:
    """Markers by type (a settlement is its actions' place), gold when developed, home ring in the railroad's
    colour, income inside, a metropolis's development level beside it."""
    shapes, texts = [], []
    for v in range(N_SETTLEMENTS):
        x, y = _xy(*POS[v])
        level = int(r["dev_level"][v])
        edge, width = (RAILROAD_COLOURS[_HOME_OF[v]], 2.6) if v in _HOME_OF else ("#333333", 1.0)
        fill = DEVELOPED_FILL if level else "white"
        ids = {"id": f"settlement:{SETTLEMENT_IDS[v]}", "place": SETTLEMENT_IDS[v]}
        shapes.append(_marker(TYPE_NAMES[SET_TYPE[v]], x, y, fill, edge, width, **ids))
        dy = 1.5 if SET_TYPE[v] == RAILWAY_BASE else 0
        texts.append(Text(x, y + dy, str(int(LADDER[v, level])), 6.5, weight="bold", ha="center"))
        if MAX_DEV[v] > 1:  # metropolis: how far up its ladder it is
            dev = f"dev {level}/{int(MAX_DEV[v])}"
            texts.append(Text(x - 13, y, dev, 6.3, "#7a4a00", "bold", ha="right", halo="white"))
    return sorted(shapes, key=lambda shape: type(shape).__name__) + texts  # one collection per kind of shape


@lru_cache(maxsize=1)
def _names() -> tuple[Text, ...]:
    """Settlement names under their markers, with a halo so they stay readable over the track."""
    out = []
    for v in range(N_SETTLEMENTS):
        x, y = _xy(POS[v][0], POS[v][1] - 10)
        x = min(x, MAP_W - 4 - 3.0 * len(SETTLEMENT_NAMES[v]))  # a name stays on the map (~6 pixels a letter)
        out.append(Text(x, y, SETTLEMENT_NAMES[v], 6.3, "#222222", va="top", halo=MAP_BG))
    return tuple(out)


# --- side panel -----------------------------------------------------------------------------------------


def _title(s) -> list[Text]:
    r = s[0]
    if kernel.is_over(s):
        info = f"GAME OVER after {int(r['payouts'])} payouts"
    else:
        info = (
            f"{PHASE_NAMES[int(r['phase'])]}  |  {mover_label(kernel, s)}  |  "
            f"player_{int(r['active'])} acting  |  turn {int(r['turn'])}"
        )
    return [Text(10.2, TITLE_H / 2, "Veld Railroads", 15, weight="bold"), Text(256, TITLE_H / 2, f"{info}  |  "
            f"{int(r['num_players'])} players", 10.5)]  # fmt: skip


CELL, TRACK_X = 9.0, 22.0  # the action track's box size and left edge (panel pixels)


def _row_y(top: float, row: int) -> float:
    return top - 16 - (row - 1) * (CELL + 2)


def _track_outlines(out: Builder, top: float) -> float:
    """The action track's rows (outlines and era / closed-border notes), under each frame's fill."""
    for row in range(1, N_ROWS + 1):
        x, y = _panel(TRACK_X, _row_y(top, row))
        out.add(Rect(x, y - CELL / 2, ROW_LENGTH * CELL, CELL, fill="white", stroke="#bbbbbb"))
        tag = ERA_TAGS[int(ROW_ERA[row - 1])]
        closed = [BORDER_IDS[b] for b in range(len(BORDER_IDS)) if BORDER_CLOSED[row - 1, b]]
        note = ", ".join(filter(None, [tag, ("closed " + " ".join(closed)) if closed else ""]))
        out.add(Text(x + ROW_LENGTH * CELL + 5, y, note, 6.3, "#555555"))
    return top - 16 - N_ROWS * (CELL + 2) - 6


def _track(r, top: float, out: Builder) -> float:
    """The action track: 8 rows of 36 boxes, filled up to the current position (VR-TRACK-1..3)."""
    row_now, pos = int(r["row"]), int(r["position"])
    head = f"Action track  (row {row_now}, position {pos}/{ROW_LENGTH})"
    out.add(Text(*_panel(0, top), head, 10, weight="bold"))
    over = int(r["phase"]) == PH_GAME_OVER
    for row in range(1, N_ROWS + 1):
        x, y = _panel(TRACK_X, _row_y(top, row))
        filled = ROW_LENGTH if row < row_now or over else (min(pos, ROW_LENGTH) if row == row_now else 0)
        out.add(Text(x - 5, y, str(row), 7, weight="bold" if row == row_now else "normal", ha="right"))
        if row == row_now and not over:  # the current row's outline, over the grey one
            out.add(Rect(x, y - CELL / 2, ROW_LENGTH * CELL, CELL, fill="white", stroke="black", id="track-row"))
        if filled:
            fill = "#e8a33d" if row == row_now and not over else "#cfcfcf"
            out.add(Rect(x, y - CELL / 2, filled * CELL, CELL, fill=fill, id=f"track:{row}"))
    return top - 16 - N_ROWS * (CELL + 2) - 6


BOX_W, BOX_H, BOX_GAP = 112.0, 34.0, 7.0


def _box_outlines(out: Builder, top: float) -> float:
    """The four action boxes: name, cost and room (VR-LOCO-1..4)."""
    for b in range(N_BOXES):
        x, y = _panel(b * (BOX_W + BOX_GAP), top)
        cost = "to row end" if BOX_COST[b] == FILL_TO_END else f"{int(BOX_COST[b])} spaces"
        cap = "any" if BOX_CAPACITY[b] == UNLIMITED else str(int(BOX_CAPACITY[b]))
        out.add(Rect(x, y, BOX_W, BOX_H, fill="#f4f1ea", stroke="#999999", id=f"box:{BOX_NAMES[b]}"))
        out.add(Text(x + 4, y + 7, BOX_NAMES[b].replace("_", " "), 7.2, weight="bold"))
        out.add(Text(x + 4, y + 16, f"{cost}, room {cap}", 6.2, "#555555"))
    return top - BOX_H - 14


def _loco_boxes(r, top: float, out: Builder) -> float:
    """Each player's locomotive in its action box."""
    for b in range(N_BOXES):
        here = [p for p in range(int(r["num_players"])) if int(r["loco_box"][p]) == b]
        for j, p in enumerate(here):
            x, y = _panel(b * (BOX_W + BOX_GAP) + 10 + j * 17, top - BOX_H + 8)
            out.add(Circle(x, y, 6.5, fill=PLAYER_COLOURS[p], stroke="black", width=0.8, id=f"loco:{p}"))
            out.add(Text(x, y, str(p), 6.5, "white", "bold", ha="center"))
    return top - BOX_H - 14


_PLAYERS_HEAD = "player    cash " + " ".join(f"{c:>5}" for c in TAGS) + "  loco     paid"
_RAILROADS_HEAD = "railroad open treas left secs  val inc  control"
_PLAYERS_TITLE = "Players (shares held; paid = last payout)"
_RAILROADS_TITLE = "Railroads (treasury $, shares left, valuation, income)"
LINE = 12.5  # table row pitch


def _table_head(out: Builder, top: float, title: str, head: str, swatches: tuple, rows: int) -> float:
    """A table's title, head row and swatches (the rows come each frame); returns the next free y."""
    out.add(Text(*_panel(0, top), title, 10, weight="bold"))
    x, y = _panel(0, top - 15)
    out.add(Table(x, y, (head,), MONO, LINE, (0,), swatches))
    return top - 15 - (rows + 1) * LINE - 6


def _players(s, top: float, out: Builder) -> float:
    """Cash, shares held per railroad, locomotive box and last payout per player."""
    r = s[0]
    rows = []
    for p in range(int(r["num_players"])):
        box = int(r["loco_box"][p])
        held = " ".join(f"{int(r['holdings'][p, c]):>5}" for c in range(N_RAILROADS))
        loco = BOX_NAMES[box][:7] if box >= 0 else "-"
        rows.append(f"player_{p} {int(r['cash'][p]):>4} {held}  {loco:<7}{int(r['last_payout'][p]):>5}")
    seat = int(kernel.to_move(s))
    x, y = _panel(8, top - 15 - LINE)
    out.add(Table(x, y, tuple(rows), MONO, LINE, (seat,) if seat >= 0 else (), id="players"))
    return top - 15 - (len(rows) + 1) * LINE - 6


def _railroads(r, top: float, out: Builder) -> float:
    """Per railroad: open, treasury, shares left, sections, valuation, income, controlling players."""
    income = np.zeros(N_RAILROADS, np.int64)
    kernel.sum_income(r["section_owner"], r["dev_level"], income)
    n = int(r["num_players"])
    rows = []
    for c in range(N_RAILROADS):
        secs = int(np.count_nonzero(r["section_owner"] == c))
        ctrl = ",".join(f"p{p}" for p in range(n) if controls(r, p, c)) or "-"
        rows.append(
            f"{TAGS[c]:<8} {'yes' if r['opened'][c] else 'no':>4} {int(r['treasury_cash'][c]):>5}"
            f" {int(r['treasury_shares'][c]):>4} {secs:>4} {5 * secs:>4} {int(income[c]):>3}  {ctrl}"
        )
    x, y = _panel(8, top - 15 - LINE)
    out.add(Table(x, y, tuple(rows), MONO, LINE, (), id="railroads"))
    return top - 15 - (len(rows) + 1) * LINE - 6


def _auction_line(r) -> str:
    bidder = int(r["auc_high_bidder"])
    high = f"${int(r['auc_high_bid'])} by player_{bidder}" if bidder >= 0 else "no bid yet"
    kind, railroad = AUC_KIND_NAMES[int(r["auc_kind"])], RAILROAD_SHORT[int(r["auc_railroad"])]
    return f"auction ({kind}) of {railroad}: min ${int(r['auc_min'])}, {high}"


def _build_line(r) -> str:
    leg = f", leg 1 {section_label(int(r['bld_leg1']))}" if int(r["bld_leg1"]) >= 0 else ""
    return (
        f"{RAILROAD_SHORT[int(r['bld_railroad'])]} builds (player_{int(r['bld_builder'])}), single "
        f"${int(r['bld_single_cost'])}, double ${int(r['bld_double_cost'])}{leg}"
    )


def _free_section_line(r) -> str:
    return f"free first section of {RAILROAD_SHORT[int(r['fs_railroad'])]} (player_{int(r['fs_player'])})"


# What may be under way, each named by its railroad field (-1: not under way), and its line in the picture.
_UNDER_WAY = (("auc_railroad", _auction_line), ("bld_railroad", _build_line), ("fs_railroad", _free_section_line))


def _pending_lines(s) -> list[str]:
    """The pending decision: auction or build in progress, then up to four legal actions by name."""
    r = s[0]
    if kernel.is_over(s):
        score = np.zeros(kernel.MAX_PLAYERS, np.int64)
        kernel.scores(s, score)
        n = int(r["num_players"])
        best = score[:n].max()
        return ["winner (most cash): " + ", ".join(f"player_{p}" for p in range(n) if score[p] == best)]
    lines = [line(r) for field, line in _UNDER_WAY if int(r[field]) >= 0]
    mask = np.zeros(kernel.NUM_ACTIONS, np.uint8)
    kernel.legal_mask(s, mask)
    legal = np.flatnonzero(mask)
    lines.append(f"{PHASE_NAMES[int(r['phase'])]}: {legal.size} legal actions")
    lines += ["  " + action_name(s, int(a)) for a in legal[:4]]
    if legal.size > 4:
        lines.append(f"  ... and {legal.size - 4} more")
    return lines


def _pending(s, top: float) -> list[Text]:
    lines = _pending_lines(s)
    return [Text(*_panel(0, top - 15 - LINE * i), line, 7.4, id=f"pending:{i}") for i, line in enumerate(lines)]


@lru_cache(maxsize=8)
def _static_panel(n: int) -> Layer:
    """The side panel's fixed parts for n players: track outlines, action boxes, table heads and swatches."""
    out = Builder(key=f"veld-panel-{n}")
    y = _track_outlines(out, MAP_H - 10)
    y = _box_outlines(out, y)
    y = _table_head(out, y, _PLAYERS_TITLE, _PLAYERS_HEAD, (None, *PLAYER_COLOURS[:n]), n)
    y = _table_head(out, y, _RAILROADS_TITLE, _RAILROADS_HEAD, (None, *RAILROAD_COLOURS), N_RAILROADS)
    out.add(Text(*_panel(0, y), "Pending decision", 10, weight="bold"))
    return out.layer()
