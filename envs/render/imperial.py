"""Imperial's scene: the 1914 Europe region graph laid out by real geography, plus the nation tables.

``scene(s, viewer=None)`` is the whole record; with ``hidden_cash`` (IMP-OPT-3) a seat's view shows only its own
cash (and score, which counts cash) and the privileged view (``viewer=None``) says it shows them all.
``render_rgb(s)`` draws the privileged scene with matplotlib; the browser draws ``svg.to_json(scene(s, seat))``
and a region is the place of a factory, import, maneuver or stance action (``place_of``).

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
from matplotlib.colors import to_hex
from matplotlib.colors import to_rgb as colour_rgb

from ...kernels import imperial as kernel
from ...kernels.imperial.actions import action_family, action_name
from ...kernels.imperial.board import is_blocked
from ...kernels.imperial.state import PH_BUY, PH_GAME_OVER, PHASE_NAMES, RULESETS
from ...kernels.imperial.tables import (
    BOND_INTEREST,
    EDGES,
    FACTORY_TYPE,
    FIRST_SEA,
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
from ._canvas import HEIGHT, WIDTH
from ._panels import layout, mover_label
from .mpl import rasterize
from .scene import Builder, Circle, Layer, Line, Polygon, Rect, Scene, Table, Text

# One colour per nation, after the board's (map.json "color"): yellow, green, blue, red, black, purple.
NATION_COLOURS = ("#e0b400", "#2e8b3a", "#2f5fd0", "#d02a2a", "#2b2b2b", "#7d3fa8")
_DARK_TEXT = ("#e0b400",)  # badge fills light enough for black text
NEUTRAL_FILL, SEA_FILL, SEA_EDGE = "#efe4cc", "#d6e8f7", "#6d9cc7"
MAP_W, MAP_H = 840, 740  # the map: the frame's bottom-left part, below the title
PANEL_X = MAP_W + 8  # side panel starts here (pixels)
TITLE_H = HEIGHT - MAP_H
RADIUS = 80.0  # the rondel's
MONO = 8.2  # table font size (points)

LAYOUT = layout(kernel)
_KX = np.cos(np.radians(50.0))  # equirectangular: x = lon * cos(50 deg), y = lat (layout.json "projection")


def _project(points: dict) -> dict[str, tuple[float, float]]:
    """Fit the layout's (lon, lat) into the map, in pixels with y up, keeping the aspect ratio."""
    xy = {k: (v["lon"] * _KX, v["lat"]) for k, v in points.items()}
    xs, ys = np.array([p[0] for p in xy.values()]), np.array([p[1] for p in xy.values()])
    pad = 36.0
    scale = min((MAP_W - 2 * pad) / np.ptp(xs), (MAP_H - 2 * pad) / np.ptp(ys))
    ox = (MAP_W - scale * np.ptp(xs)) / 2 - scale * xs.min()
    oy = (MAP_H - scale * np.ptp(ys)) / 2 - scale * ys.min()
    return {k: (ox + scale * x, oy + scale * y) for k, (x, y) in xy.items()}


_ALL_POINTS = {**LAYOUT["regions"], **LAYOUT["impassable"]}
_PX = _project(_ALL_POINTS)
POS = np.array([_PX[rid] for rid in REGION_IDS])  # [region, (x, y)] map pixels, y up from the frame's bottom
LABELS = tuple(LAYOUT["regions"][rid]["label"] for rid in REGION_IDS)


def _xy(x: float, y: float) -> tuple[float, float]:
    """Map pixels (y up from the frame's bottom) to frame pixels (y down)."""
    return float(x), HEIGHT - float(y)


def _panel(x: float, y: float) -> tuple[float, float]:
    """Side-panel pixels (from its left edge, y up from the frame's bottom) to frame pixels."""
    return PANEL_X + x, HEIGHT - y


def _box_width(label: str) -> float:
    return 5.0 * len(label) + 10.0


def _text_colour(fill: str) -> str:
    return "black" if fill in _DARK_TEXT else "white"


def _tint(colour: str, amount: float = 0.72) -> str:
    """The colour mixed with white (home province fill)."""
    c = np.array(colour_rgb(colour))
    return to_hex(c + (1.0 - c) * amount)


_HOME_FAMILIES = ("BUILD_FACTORY", "IMPORT_ARMY", "IMPORT_FLEET", "TOGGLE_STANCE", "SELECT_ORIGIN", "SELECT_DEST")


def place_of(action: int) -> str | None:
    """The region an action names (the browser's click target), else None."""
    family, arg = action_family(int(action))
    if family in _HOME_FAMILIES:
        return REGION_IDS[arg]
    if family == "SELECT_SEA":
        return REGION_IDS[FIRST_SEA + arg]
    return None


def render_rgb(s: np.ndarray) -> np.ndarray:
    """The whole table of the record ``s`` (shape (1,)) as uint8[800, 1280, 3] pixels (the privileged view)."""
    return rasterize(scene(s))


def scene(s: np.ndarray, viewer: int | None = None) -> Scene:
    """The picture of record ``s`` as ``viewer`` sees it (a seat, ``SPECTATOR`` or None for everything)."""
    r = s[0]
    out = Builder()
    out.add(*_title(s, viewer))
    out.add(*_factories(r), *_chips(r), *_units(r))
    out.add(*_nation_table(r), *_players(s, viewer), *_rondel(r), *_pending(s))
    layers = (_static_map(), _static_panel(int(r["num_players"])), out.layer())
    return Scene(WIDTH, HEIGHT, "white", layers, out.items[0].text + "  |  " + out.items[1].text, viewer)


# --- the map ----------------------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _static_map() -> Layer:
    """The unchanging map: its background, borders, region boxes (a region is its actions' place), names."""
    out = Builder(key="imperial-map")
    out.add(Rect(0, TITLE_H, MAP_W, MAP_H, fill="#f7f9fb"))
    styles = ((("#9a9a9a", 1.1, None)), (SEA_EDGE, 0.9, (1.2, 2.0)), (SEA_EDGE, 1.0, (5.2, 2.2)))
    for a, b in EDGES:  # land-land grey, land-sea dotted blue, sea-sea dashed blue
        stroke, width, dash = styles[int(REGION_KIND[a] == KIND_SEA) + int(REGION_KIND[b] == KIND_SEA)]
        out.add(Line((_xy(*POS[a]), _xy(*POS[b])), stroke, width, dash))
    for x in range(N_REGIONS):
        kind = REGION_KIND[x]
        if kind == KIND_HOME:
            fill, edge, lw = _tint(NATION_COLOURS[x // 5]), NATION_COLOURS[x // 5], 1.6
        elif kind == KIND_SEA:
            fill, edge, lw = SEA_FILL, SEA_EDGE, 1.0
        else:
            fill, edge, lw = NEUTRAL_FILL, "#8a7a5a", 1.0
        cx, cy = _xy(*POS[x])
        w = _box_width(LABELS[x])
        out.add(
            Rect(
                cx - w / 2,
                cy - 7.5,
                w,
                15,
                fill=fill,
                stroke=edge,
                width=lw,
                radius=4,
                id=f"region:{REGION_IDS[x]}",
                place=REGION_IDS[x],
            )
        )
    sx, sy = _xy(*_PX["switzerland"])
    out.add(Rect(sx - 34, sy - 8, 68, 16, fill="#eeeeee", stroke="#bbbbbb", radius=3))
    for x in range(N_REGIONS):
        style = "italic" if REGION_KIND[x] == KIND_SEA else "normal"
        out.add(Text(*_xy(*POS[x]), LABELS[x], 7, style=style, ha="center"))
    label = LAYOUT["impassable"]["switzerland"]["label"]
    out.add(Text(sx, sy, label, 6.5, "#888888", style="italic", ha="center"))
    return out.layer()


_FACTORY_XY = tuple(_xy(POS[h][0] - _box_width(LABELS[h]) / 2 - 6, POS[h][1]) for h in range(N_HOME))


def _slot(h: int, fill: str, edge: str) -> Rect | Polygon:
    """Home province h's factory slot: a square (armaments) or a triangle (shipyard)."""
    x, y = _FACTORY_XY[h]
    if FACTORY_TYPE[h] == FT_ARMAMENTS:
        return Rect(x - 4.8, y - 4.8, 9.6, 9.6, fill=fill, stroke=edge, id=f"factory:{REGION_IDS[h]}")
    return Polygon(
        ((x, y - 5.5), (x - 5.5, y + 4.2), (x + 5.5, y + 4.2)), fill=fill, stroke=edge, id=f"factory:{REGION_IDS[h]}"
    )


def _factories(r) -> list:
    """Factory slot left of each home province's box: filled = factory, hollow = empty, red x = blocked."""
    out, crosses = [], []
    for h in range(N_HOME):
        built = bool(r["factory"][h])
        out.append(_slot(h, *(("#333333", "#333333") if built else ("white", "#999999"))))
        if built and is_blocked(r, h):
            x, y = _FACTORY_XY[h]
            crosses += [
                Line(((x - 5, y - 5), (x + 5, y + 5)), "red", 2),
                Line(((x - 5, y + 5), (x + 5, y - 5)), "red", 2),
            ]
    return out + crosses


def _chips(r) -> list[Circle]:
    """Tax chip: a dot in the owning nation's colour on the box's top-right corner."""
    out = []
    for x in np.flatnonzero(r["chip"] >= 0):
        cx, cy = _xy(POS[x][0] + _box_width(LABELS[x]) / 2, POS[x][1] + 7.5)
        out.append(
            Circle(cx, cy, 5.4, fill=NATION_COLOURS[int(r["chip"][x])], stroke="white", id=f"chip:{REGION_IDS[x]}")
        )
    return out


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


def _units(r) -> list:
    """One badge per nation and unit kind, in a row under the region's box (red edge hostile, dashed friendly)."""
    bw, bh, gap = 19.0, 11.0, 2.0
    boxes, texts = [], []
    for x in range(N_REGIONS):
        badges = _badges(r, x)
        cx, cy = _xy(*POS[x])
        left = cx - (len(badges) * (bw + gap) - gap) / 2
        for i, (n, text, stance) in enumerate(badges):
            bx, by = left + i * (bw + gap), cy + 7.5 + 2
            edge, lw, dash = (
                ("red", 1.8, None) if stance == "hostile" else ("white", 1.0, (3.0, 2.0) if stance else None)
            )
            unit = f"{NATION_IDS[n]}:{text[-1]}:{REGION_IDS[x]}"
            boxes.append(Rect(bx, by, bw, bh, fill=NATION_COLOURS[n], stroke=edge, width=lw, dash=dash, id=unit))
            colour = _text_colour(NATION_COLOURS[n])
            texts.append(Text(bx + bw / 2, by + bh / 2, text, 6.5, colour, "bold", ha="center"))
    return boxes + texts


# --- the side panel ---------------------------------------------------------------------------------------


def _title(s, viewer: int | None) -> list[Text]:
    """The nation to act (in its colour) and the state of play."""
    r = s[0]
    phase, nation = int(r["phase"]), int(r["nation"])
    over = phase == PH_GAME_OVER
    who = mover_label(kernel, s, over="game over" + (" (truncated)" if r["truncated"] else ""))
    head = "Imperial" if over else f"Imperial  -  {NATION_IDS[nation]} acts"
    info = (
        f"{PHASE_NAMES[phase]}  |  {who}  |  nation turn {int(r['turn'])}"
        f"  |  {int(r['num_players'])} players, ruleset {RULESETS[int(r['ruleset'])]}"
    )
    if r["hidden_cash"]:  # IMP-OPT-3: whose cash the picture shows
        info += "  |  " + ("cash: all (full view)" if viewer is None else "cash: own only")
    colour = "black" if over else NATION_COLOURS[nation]
    return [Text(10.2, TITLE_H / 2, head, 15, colour, "bold"), Text(332.8, TITLE_H / 2, info, 10.5)]


def _nation_table(r) -> list[Table]:
    """Per nation: treasury, power, multiplier, tax position, rondel space, flag holder, chips, units, factories."""
    rows = [" nation treas pow x tax rondel       flag  chip  A/F  fac"]
    for k in range(N_NATIONS):
        pos, flag = int(r["rondel_pos"][k]), int(r["flag"][k])
        facs = int(r["factory"][5 * k : 5 * k + 5].sum())
        rows.append(
            f" {NATION_IDS[k]:<6}{int(r['treasury'][k]):>5} {int(r['power'][k]):>3} "
            f"{int(MULTIPLIER[r['power'][k]])} {int(r['tax_pos'][k]):>3} "
            f"{RONDEL_IDS[pos] if pos >= 0 else 'centre':<12} {'p' + str(flag) if flag >= 0 else 'bank':<5}"
            f"{int(r['chips_left'][k]):>4} {int(r['armies'][k].sum()):>2}/{int(r['fleets'][k].sum()):<2}"
            f"{facs:>3}"
        )
    x, y = _panel(0, MAP_H - 12 - 15)
    return [Table(x, y, tuple(rows), MONO, 13, (0, 1 + int(r["nation"])), (None, *NATION_COLOURS), id="nations")]


def _bond_text(r, p) -> str:
    held = []
    for k in range(N_NATIONS):
        nums = [str(b + 1) for b in range(N_BONDS) if r["bond_owner"][k, b] == p]
        if nums:
            held.append(f"{NATION_IDS[k]}{','.join(nums)}")
    return " ".join(held) or "-"


def _players(s, viewer: int | None) -> list[Table]:
    """Cash, score, bonds and the investor card per player; with hidden cash (IMP-OPT-3) a seat sees only its own
    cash and score (a score counts cash)."""
    r = s[0]
    score = np.zeros(kernel.MAX_PLAYERS, np.int64)
    kernel.scores(s, score)
    rows = [" player    cash score  bonds"]
    for p in range(int(r["num_players"])):
        card = " *inv" if int(r["investor_card"]) == p else ""
        cash, total = (f"{int(r['cash'][p]):>4}", f"{int(score[p]):>5}")
        if r["hidden_cash"] and viewer is not None and p != viewer:
            cash, total = f"{'?':>4}", f"{'?':>5}"
        rows.append(f" player_{p} {cash} {total}  {_bond_text(r, p)}{card}")
    mover = int(kernel.to_move(s))
    x, y = _panel(0, _panel_rows(int(r["num_players"]))[0] - 15)
    return [Table(x, y, tuple(rows), MONO, 13, (0, 1 + mover) if mover >= 0 else (0,), id="players")]


def _rondel_angle(i: int) -> float:
    span = 360.0 / len(RONDEL_IDS)
    return 90 - (i + 1) * span + span / 2


_RONDEL_SHORT = tuple(name.replace("production_", "prod. ").replace("maneuver_", "man. ") for name in RONDEL_IDS)


def _rondel_centre(n: int) -> tuple[float, float]:
    return _panel(112, _panel_rows(n)[1] - 22 - RADIUS)


def _on_circle(cx: float, cy: float, radius: float, degrees: float) -> tuple[float, float]:
    """The point at ``degrees`` (counter-clockwise from east, as on a y-up map) on a circle in frame pixels."""
    a = np.radians(degrees)
    return cx + radius * float(np.cos(a)), cy - radius * float(np.sin(a))


def _rondel_spaces(out: Builder, n: int) -> None:
    """The eight rondel spaces clockwise from the top, with their names."""
    cx, cy = _rondel_centre(n)
    span = 360.0 / len(RONDEL_IDS)
    for i in range(len(RONDEL_IDS)):
        start = 90 - (i + 1) * span
        arc = np.linspace(start, start + span, 12)
        ring = [_on_circle(cx, cy, RADIUS, a) for a in arc] + [_on_circle(cx, cy, 0.45 * RADIUS, a) for a in arc[::-1]]
        fill = "#f3efe3" if i % 2 else "#e6dfcb"
        out.add(Polygon(tuple(ring), fill=fill, stroke="#777777", width=0.8, id=f"rondel:{RONDEL_IDS[i]}"))
    for i in range(len(RONDEL_IDS)):
        out.add(Text(*_on_circle(cx, cy, 0.72 * RADIUS, _rondel_angle(i)), _RONDEL_SHORT[i], 6.6, ha="center"))


def _rondel(r) -> list:
    """Every nation's marker on its rondel space, and the nations still in the centre."""
    cx, cy = _rondel_centre(int(r["num_players"]))
    out: list = []
    for i in range(len(RONDEL_IDS)):
        here = [k for k in range(N_NATIONS) if int(r["rondel_pos"][k]) == i]
        ang = np.radians(_rondel_angle(i))
        for j, k in enumerate(here):
            off = (j - (len(here) - 1) / 2) * 11
            x, y = _on_circle(cx, cy, 1.1 * RADIUS, _rondel_angle(i))
            x, y = x - off * float(np.sin(ang)), y - off * float(np.cos(ang))
            out.append(Circle(x, y, 5.2, fill=NATION_COLOURS[k], stroke="white", id=f"rondel-marker:{NATION_IDS[k]}"))
    centre = [NATION_IDS[k] for k in range(N_NATIONS) if int(r["rondel_pos"][k]) < 0]
    names = "\n".join(" ".join(centre[i : i + 3]) for i in range(0, len(centre), 3)) or "-"
    out.append(Text(cx, cy, "centre:\n" + names, 6.5, ha="center"))
    return out


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


def _pending(s) -> list[Text]:
    y = _panel_rows(int(s[0]["num_players"]))[1] + 4 - 2 * RADIUS - 48
    return [Text(*_panel(0, y - 16 - 13 * i), line, 7.6, id=f"pending:{i}") for i, line in enumerate(_pending_lines(s))]


def _panel_rows(n: int) -> tuple[float, float]:
    """Tops of the players table and of the rondel row for n players (the tables above them are fixed)."""
    players = MAP_H - 12 - 15 - (N_NATIONS + 1) * 13.0 - 8 - 4
    return players, players - 15 - (n + 1) * 13.0 - 8 - 4


def _heading(x: float, y: float, text: str) -> Text:
    return Text(*_panel(x, y), text, 10, weight="bold")


def _legend(out: Builder, x0: float, y0: float) -> None:
    """Symbol key for the map, its top-left corner at panel (x0, y0)."""
    rows = [
        (Rect, "#333333", "armaments factory"),
        (Polygon, "#333333", "shipyard"),
        (Rect, "white", "empty factory slot"),
        (Circle, NATION_COLOURS[0], "tax chip (owner's colour)"),
    ]
    for i, (shape, face, text) in enumerate(rows):
        x, y = _panel(x0 + 9, y0 - 13 * i)
        if shape is Rect:
            out.add(Rect(x - 4.8, y - 4.8, 9.6, 9.6, fill=face, stroke="#333333"))
        elif shape is Polygon:
            out.add(Polygon(((x, y - 5.5), (x - 5.5, y + 4.2), (x + 5.5, y + 4.2)), fill=face, stroke="#333333"))
        else:
            out.add(Circle(x, y, 4.8, fill=face, stroke="#333333"))
        out.add(Text(x + 13, y, text, 7))
    y = y0 - 13 * len(rows)
    badges = (("white", None, "3A armies / 2F fleets"), ("red", None, "hostile armies"))
    for i, (edge, dash, text) in enumerate((*badges, ("white", (3.0, 2.0), "friendly, foreign home"))):
        x, yy = _panel(x0, y - 13 * i)
        out.add(
            Rect(x, yy - 5, 18, 10, fill=NATION_COLOURS[2], stroke=edge, width=1.5, dash=dash),
            Text(x + 22, yy, text, 7),
        )
    x, yy = _panel(x0 + 9, y - 39)
    out.add(Line(((x - 4, yy - 4), (x + 4, yy + 4)), "red", 2), Line(((x - 4, yy + 4), (x + 4, yy - 4)), "red", 2))
    out.add(Text(x + 13, yy, "blocked factory", 7))


@lru_cache(maxsize=8)
def _static_panel(n: int) -> Layer:
    """Headings, the rondel's spaces, the map key and the footnote (the same for every record of n players)."""
    out = Builder(key=f"imperial-panel-{n}")
    out.add(_heading(0, MAP_H - 12, "Nations"))
    players, y = _panel_rows(n)
    out.add(_heading(0, players, "Players (bonds: nation and bond numbers)"))
    out.add(_heading(0, y, "Rondel"), _heading(232, y, "Map key"))
    _rondel_spaces(out, n)
    _legend(out, 232, y - 20)
    out.add(_heading(0, y + 4 - 2 * RADIUS - 48, "Pending decision"))
    interest = ", ".join(str(int(v)) for v in BOND_INTEREST)
    note = f"x = score multiplier of the power track; bond interest {interest} (bonds 1-9)"
    out.add(Text(*_panel(0, 6), note, 6.8, "#555555", va="baseline"))
    return out.layer()
