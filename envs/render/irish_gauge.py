"""Irish Gauge's scene: the hex map of Ireland with each company's locomotives and the cubes, plus the players,
companies, bag, drawn-cube track and the pending decision.

``scene(s, viewer=None)`` is the whole record (Irish Gauge keeps nothing secret except the bag order, which the
record does not fix either, so every viewer sees the same picture); ``render_rgb(s)`` draws it with matplotlib
and ``svg.to_json`` for the browser, where a hex is the place of a PLACE action (``place_of``). Hex centres
come from ``kernels/irish_gauge/data/layout.json``. The map and every fixed label are one static layer.
"""

from __future__ import annotations

import functools

import numpy as np

from ...kernels import irish_gauge as kernel
from ...kernels.irish_gauge.actions import action_family
from ...kernels.irish_gauge.state import (
    PH_AUCTION,
    PH_BUILD,
    PH_GAME_OVER,
    PH_INITIAL_AUCTION,
    PHASE_NAMES,
    RULESETS,
)
from ...kernels.irish_gauge.tables import (
    COLOUR_NAMES,
    COMPANY_IDS,
    COMPONENTS,
    HEX_IDS,
    HEX_NAMES,
    HOME_HEX,
    LOCOMOTIVES,
    N_CERTS,
    N_COMPANIES,
    SHARE_VALUE,
    TERRAIN,
    TERRAIN_NAMES,
    TRACK_ROWS,
)
from ._canvas import HEIGHT, WIDTH
from ._panels import layout, mover_label, title_texts
from .mpl import rasterize
from .scene import Builder, Circle, Layer, Polygon, Rect, Scene, Table, Text

LAYOUT = layout(kernel)
HEX_XY = np.array([LAYOUT["hexes"][h] for h in HEX_IDS], dtype=float)  # [hex, (x, y)], north up

# Company colours follow the printed components (components.json "colour").
_NAMED = {"yellow": "#f2d024", "purple": "#7b3fa0", "orange": "#f07f13", "light_blue": "#6ec6f0", "red": "#d62728"}
_COMPANIES = sorted(COMPONENTS["companies"], key=lambda c: c["index"])
COMPANY_COLOURS = tuple(_NAMED[c["colour"]] for c in _COMPANIES)
COMPANY_NAMES = tuple(c["name"] for c in _COMPANIES)
CUBE_RGB = tuple({"black": "#202020", "pink": "#ff8cc6", "white": "#ffffff"}[c] for c in COLOUR_NAMES)
TERRAIN_COLOURS = {
    "easy": "#d5ebb5",
    "difficult": "#93b27a",
    "town": "#f6efcf",
    "city": "#f5d99a",
    "major_city": "#f2bd62",
}
PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e")
SEA = "#dbe9f6"

# Each company's locomotive has its own slot on the lower arc of the hex (the label sits on top, the cube
# in the middle), so hexes shared by several companies stay readable.
_ANG = np.deg2rad(190 + 40 * np.arange(N_COMPANIES))
LOCO_OFFSET = 0.6 * np.stack([np.cos(_ANG), np.sin(_ANG)], axis=1)
_HEX_CORNERS = np.stack([np.cos(np.deg2rad(60 * np.arange(6))), np.sin(np.deg2rad(60 * np.arange(6)))], axis=1)

# The map box (frame pixels, y down), the hexes fitted into it with a margin of sea; the side panel's origin.
_BOX = (6.4, 60.0, 512.0, 736.0)  # left, top, width, height
_PAD = 1.2  # hex units of sea around the island
_LO = HEX_XY.min(axis=0) - _PAD
_SPAN = HEX_XY.max(axis=0) + _PAD - _LO
UNIT = min(_BOX[2] / _SPAN[0], _BOX[3] / _SPAN[1])  # pixels per hex unit
_ORIGIN = (_BOX[0] + (_BOX[2] - UNIT * _SPAN[0]) / 2, _BOX[1] + (_BOX[3] + UNIT * _SPAN[1]) / 2)
SIDE_X, SIDE_BOTTOM = 0.42 * WIDTH, HEIGHT  # side panel: x from SIDE_X, y counted up from the frame's bottom
MAP_W = _BOX[0] + _BOX[2]

# Side panel geometry, in pixels up from the frame's bottom: section tops and row pitch.
PLAYERS_TOP, COMPANIES_TOP, BAG_TOP, PENDING_TOP, ROW = 730, 535, 320, 95, 26
TRACK_X = 330


def map_px(xy) -> tuple[float, float]:
    """Hex-layout units (north up) to frame pixels (y down)."""
    return _ORIGIN[0] + UNIT * (float(xy[0]) - _LO[0]), _ORIGIN[1] - UNIT * (float(xy[1]) - _LO[1])


def _side(x: float, y: float) -> tuple[float, float]:
    """Side-panel units (pixels, y up from the frame's bottom) to frame pixels."""
    return SIDE_X + x, SIDE_BOTTOM - y


def place_of(action: int) -> str | None:
    """The hex a PLACE action names (the browser's click target), else None."""
    family, arg = action_family(int(action))
    return HEX_IDS[arg] if family == "PLACE" else None


def render_rgb(s: np.ndarray) -> np.ndarray:
    """uint8[800, 1280, 3]: the scene of record ``s`` drawn by matplotlib."""
    return rasterize(scene(s))


def scene(s: np.ndarray, viewer: int | None = None) -> Scene:
    """The picture of record ``s`` (shape (1,)): the same for every viewer (no secrets)."""
    r = s[0]
    out = Builder()
    out.add(*_title(s))
    out.add(*_cubes(r), *_locos(r))
    out.add(*_players_rows(s), *_companies_rows(r), *_bag_and_track(r), *_pending(s))
    title = out.items[0].text
    return Scene(WIDTH, HEIGHT, "white", (_static(), out.layer()), title, viewer)


@functools.lru_cache(maxsize=1)
def _static() -> Layer:
    """The board and every fixed label (the same for every record)."""
    out = Builder(key="irish_gauge")
    _board(out)
    _homes(out)
    _static_labels(out)
    return out.layer()


def _title(s) -> list[Text]:
    r = s[0]
    return title_texts(
        f"Irish Gauge  -  {PHASE_NAMES[int(r['phase'])]}  -  turn {int(r['turn'])}  -  "
        f"{mover_label(kernel, s, 'drawing cubes')}",
        f"ruleset {RULESETS[int(r['ruleset'])]}, {int(r['decisions'])} decisions (full view)",
    )


def _board(out: Builder) -> None:
    """Sea, land hexes coloured by terrain (a hex is its PLACE target), hex ids, place names, terrain key."""
    x0, y0 = map_px(_LO)
    x1, y1 = map_px(_LO + _SPAN)
    out.add(Rect(x0, y1, x1 - x0, y0 - y1, fill=SEA))
    for h, xy in enumerate(HEX_XY):
        corners = tuple(map_px(xy + 0.98 * c) for c in _HEX_CORNERS)
        fill = TERRAIN_COLOURS[TERRAIN_NAMES[TERRAIN[h]]]
        out.add(Polygon(corners, fill=fill, stroke="#7a8a70", width=0.5, id=f"hex:{HEX_IDS[h]}", place=HEX_IDS[h]))
    for k, (name, colour) in enumerate(TERRAIN_COLOURS.items()):  # key in the empty sea off Mayo
        x, y = x0 + 0.02 * (x1 - x0), y1 + (0.03 + 0.03 * k) * (y0 - y1)
        out.add(Rect(x, y - 8, 15, 16, fill=colour, stroke="#7a8a70"))
        out.add(Text(x + 20, y, name.replace("_", " "), 7.5))
    for h, xy in enumerate(HEX_XY):  # place name (with its id) or just the id, at the top of the hex
        x, y = map_px(xy + (0, 0.5))
        if HEX_NAMES[h]:
            out.add(Text(x, y - 5, HEX_NAMES[h], 6.5, weight="bold", ha="center"))
            out.add(Text(x, y + 5, HEX_IDS[h], 5, colour="#5b6655", ha="center"))
        else:
            out.add(Text(x, y - 0.1 * UNIT, HEX_IDS[h], 5, colour="#5b6655", ha="center"))


def _homes(out: Builder) -> None:
    """Each company's home: a ring on its locomotive slot (wider than a locomotive disc)."""
    for c in range(N_COMPANIES):
        x, y = map_px(HEX_XY[HOME_HEX[c]] + LOCO_OFFSET[c])
        out.add(Circle(x, y, 6.8, stroke=COMPANY_COLOURS[c], width=1.4, id=f"home:{COMPANY_IDS[c]}"))


def _cubes(r) -> list[Rect]:
    """A dividend cube in the centre of its hex."""
    out = []
    for h in np.flatnonzero(r["cube"] >= 0):
        x, y = map_px(HEX_XY[h] - (0, 0.05))
        colour = CUBE_RGB[int(r["cube"][h])]
        out.append(
            Rect(x - 5.8, y - 5.8, 11.6, 11.6, fill=colour, stroke="#444444", width=0.8, id=f"cube:{HEX_IDS[h]}")
        )
    return out


def _locos(r) -> list[Circle]:
    """One locomotive disc per company on its slot of the hex."""
    out = []
    for c in range(N_COMPANIES):
        for h in np.flatnonzero(r["loco"][c]):
            x, y = map_px(HEX_XY[h] + LOCO_OFFSET[c])
            out.append(
                Circle(
                    x,
                    y,
                    4.3,
                    fill=COMPANY_COLOURS[c],
                    stroke="black",
                    width=0.6,
                    id=f"loco:{COMPANY_IDS[c]}:{HEX_IDS[h]}",
                )
            )
    return out


def _player_cells(name, cash, worth, held, pay) -> str:
    return f"{name:<16}{cash:>6}{worth:>7}" + "".join(f"{h:>6}" for h in held) + f"{pay:>10}"


def _company_cells(price, left, on_map, supply, income) -> str:
    return f"{price:>8}{left:>8}{on_map:>8}{supply:>8}{income:>8}"


def _heading(x: float, y: float, text: str) -> Text:
    return Text(*_side(x, y), text, 12, weight="bold")


def _static_labels(out: Builder) -> None:
    """Section titles, column heads, company names (the colour legend), cube colours, empty track slots."""
    out.add(_heading(0, PLAYERS_TOP, "Players"), _heading(0, COMPANIES_TOP, "Companies"))
    head = _player_cells("seat", "cash", "worth", COMPANY_IDS, "last pay")
    out.add(Text(*_side(0, PLAYERS_TOP - ROW), head, 10, weight="bold", mono=True))
    head = _company_cells("next £", "left", "on map", "supply", "income")
    out.add(Text(*_side(390, COMPANIES_TOP - ROW), head, 10, weight="bold", mono=True))
    for c in range(N_COMPANIES):
        x, y = _side(7, COMPANIES_TOP - 2 * ROW - ROW * c)
        out.add(Circle(x, y, 6.6, fill=COMPANY_COLOURS[c], stroke="black", width=0.6))
        out.add(Text(x + 13, y, f"{COMPANY_IDS[c]:<5}{COMPANY_NAMES[c]}", 8.5))
    key = "map: disc = locomotive, ringed disc = home, square = dividend cube"
    out.add(Text(*_side(0, COMPANIES_TOP - 2 * ROW - ROW * N_COMPANIES), key, 8.5, colour="#444444"))
    out.add(_heading(0, BAG_TOP, "Cube bag"), _heading(TRACK_X, BAG_TOP, "Drawn-cube track"))
    for k in range(len(COLOUR_NAMES)):
        out.add(Rect(*_side(0, BAG_TOP - 30 - ROW * k + 8), 16, 16, fill=CUBE_RGB[k], stroke="black"))
    for row in range(TRACK_ROWS):
        for j in range(3):
            out.add(Rect(*_side(TRACK_X + 40 * row, BAG_TOP - 25 - 40 * j), 30, 30, stroke="#999999", width=0.8,
                         dash=(1.1, 1.8)))  # fmt: skip
        out.add(Text(*_side(TRACK_X + 15 + 40 * row, BAG_TOP - 168), str(row + 1), 8, "#666666", ha="center"))
    out.add(_heading(0, PENDING_TOP, "Pending decision"))


def _players_rows(s) -> list:
    """Seat rows: cash, worth (IG-SCORE-1), certificates held per company, last dividend payout."""
    r = s[0]
    worth = np.zeros(kernel.MAX_PLAYERS, np.int64)
    kernel.scores(s, worth)
    mover = int(kernel.to_move(s))
    rows, swatches = [], []
    for p in range(int(r["num_players"])):
        name = f"  player_{p}" + (" <" if p == mover else "")
        held = [str(int(r["held"][p, c]) or "-") for c in range(N_COMPANIES)]
        cash, pay = f"£{int(r['cash'][p])}", f"£{int(r['last_payout'][p])}"
        rows.append(_player_cells(name, cash, f"£{int(worth[p])}", held, pay))
        swatches.append(PLAYER_COLOURS[p])
    x, y = _side(0, PLAYERS_TOP - 2 * ROW)
    band = None if mover < 0 else (mover, "#fff3b0")
    return [Table(x, y, tuple(rows), 10, ROW, (), tuple(swatches), band, 700, id="players")]


def _companies_rows(r) -> list[Text]:
    """Company rows: next share price, shares left, locomotives on the map and in supply, last income."""
    rows = []
    for c in range(N_COMPANIES):
        left = int(N_CERTS[c] - r["next_cert"][c])
        price = f"£{int(SHARE_VALUE[c, r['next_cert'][c]])}" if left else "sold"
        on_map, supply = int(r["loco"][c].sum()), f"{int(r['supply'][c])}/{LOCOMOTIVES}"
        rows.append(_company_cells(price, f"{left}/{int(N_CERTS[c])}", on_map, supply, f"£{int(r['last_income'][c])}"))
    x, y = _side(390, COMPANIES_TOP - 2 * ROW)
    return [Table(x, y, tuple(rows), 10, ROW, (), id="companies")]


def _bag_and_track(r) -> list:
    """Bag contents per colour and the drawn-cube track (IG-DIV-2), one column per row of the track."""
    bag = tuple(
        f"{name:<6}{int(r['bag'][k]):>3} in bag, last call drew {int(r['last_draw'][k])}"
        for k, name in enumerate(COLOUR_NAMES)
    )
    out: list = [Table(*_side(24, BAG_TOP - 30), bag, 10, ROW, (), id="bag")]
    out.append(Text(*_side(TRACK_X + 175, BAG_TOP), f"{int(r['drawn_rows'])}/{TRACK_ROWS} rows used", 10))
    for row in range(int(r["drawn_rows"])):
        for j in range(3):
            k = int(r["drawn"][row, j])
            if k >= 0:
                x, y = _side(TRACK_X + 40 * row, BAG_TOP - 25 - 40 * j)
                out.append(Rect(x, y, 30, 30, fill=CUBE_RGB[k], stroke="black", width=0.8, id=f"drawn:{row}:{j}"))
    return out


def _pending(s) -> list[Text]:
    """The open auction or build action, or the result once the game is over."""
    r = s[0]
    phase = int(r["phase"])
    n = int(r["num_players"])
    if phase in (PH_AUCTION, PH_INITIAL_AUCTION) and int(r["auc_company"]) >= 0:
        bidder = int(r["auc_high_bidder"])
        high = f"£{int(r['auc_high_bid'])} by player_{bidder}" if bidder >= 0 else "no bid yet"
        out = ", ".join(f"player_{p}" for p in range(n) if r["auc_passed"][p])
        lines = [
            f"auction of {COMPANY_IDS[int(r['auc_company'])]} (opened by player_{int(r['auc_opener'])}): "
            f"high bid {high}",
            f"passed: {out or '-'};  player_{int(r['auc_bidder'])} to bid or pass",
        ]
    elif phase == PH_BUILD and int(r["bld_company"]) >= 0:
        lines = [
            f"player_{int(r['active'])} builds for {COMPANY_IDS[int(r['bld_company'])]}: "
            f"{int(r['bld_budget']) / 2:g} BP left, {int(r['bld_placed'])} locomotive(s) placed"
        ]
    elif phase == PH_GAME_OVER:
        worth = np.zeros(kernel.MAX_PLAYERS, np.int64)
        kernel.scores(s, worth)
        best = int(worth[:n].max())
        winners = ", ".join(f"player_{p}" for p in range(n) if worth[p] == best)
        lines = [f"game over: {winners} {'wins' if ',' not in winners else 'tie'} with £{best} (IG-SCORE-1)"]
    else:
        lines = [f"{PHASE_NAMES[phase].lower().replace('_', ' ')}; start player player_{int(r['start_player'])}"]
    return [Text(*_side(0, PENDING_TOP - ROW - 22 * i), line, 10, id=f"pending:{i}") for i, line in enumerate(lines)]
